#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test suite with ctest.
# The end-to-end pipeline suite (label "jobs": cross-builds and qemu/SSH runs of several
# exports) runs too when EMBARK_E2E=1; it is left out by default until its runtime on a quiet
# 2-core machine is measured (it exceeded QtTest's watchdog on a loaded one).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
cd build
exclude=()
if [ "${EMBARK_E2E:-0}" != "1" ]; then exclude=(--label-exclude '^jobs$'); fi
ctest --output-on-failure --parallel "$(nproc)" --timeout 1800 "${exclude[@]}"
