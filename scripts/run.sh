#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the most complete pipeline on the
# bundled sample model (digits_cnn): today the host reference interpreter with its prediction
# and a comparison against the bundled expected output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
model=resources/models/digits_cnn.onnx
./build/app/cli/embark-cli inspect "$model"
echo
./build/app/cli/embark-cli run "$model" --expect resources/models/digits_cnn/test_data_set_3
