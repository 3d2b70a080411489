#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the most complete pipeline on the
# bundled sample model (digits_cnn). With a display it opens the studio on the sample model
# with the simulated K230 selected; without one it runs the same pipeline through embark-cli:
# export for the simulated K230 (RISC-V, RVV, qemu-user), cross-build with clang-19, deploy,
# run, compare every layer with the host reference, and store the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh run
# Only what this job runs: embark-cli, and the studio when there is a display (the test suites
# are built by scripts/test.sh).
targets="embark-cli"
if [ -n "${DISPLAY:-}" ] && [ -z "${EMBARK_NO_STUDIO:-}" ]; then targets="embark-cli embark"; fi
EMBARK_BUILD_TARGETS="$targets" bash scripts/build.sh build
cli=./build/app/cli/embark-cli
model=resources/models/digits_cnn.onnx

if [ -n "${DISPLAY:-}" ] && [ -x ./build/app/studio/embark ] && [ -z "${EMBARK_NO_STUDIO:-}" ]; then
  echo "Opening the studio (set EMBARK_NO_STUDIO=1 to run the command-line pipeline instead)"
  exec ./build/app/studio/embark "$model"
fi

out="${EMBARK_RESULTS_DIR:-$PWD/out/sample-run}"
mkdir -p "$out"
"$cli" inspect "$model"
echo
"$cli" run "$model" --expect resources/models/digits_cnn/test_data_set_3
echo
"$cli" bench "$model" --board sim-k230 --lib portable --iterations 10 --layers --accuracy-layers \
  --input image=resources/models/digits_cnn/test_data_set_3/input_0.pb \
  --work-dir "$out/work" --trace "$out/trace.json" --csv "$out/layers.csv" --save-json "$out/run.json" \
  --test-data "$out/onnx-test-data"
echo
echo "Results: $out (run.json, layers.csv, trace.json for Perfetto, onnx-test-data/)"
echo "Run history: '$cli runs list' (SQLite in the user's data folder)"
