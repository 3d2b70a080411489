#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
cd build
ctest --output-on-failure --parallel "$(nproc)" --timeout 1200
