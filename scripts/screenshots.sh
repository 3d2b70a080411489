#!/usr/bin/env bash
# Renders the studio's main views into docs/screenshots/*.png under a virtual X display:
# builds the studio if needed, opens the bundled digits model (or $1) and lets the studio
# grab its own windows (--screenshot DIR). When clang-19 and qemu-riscv64-static are present
# it also runs the one-button benchmark on sim-k230 and grabs the jobs dock and the charts of
# that run (BENCHMARK=0 skips it). Usage: scripts/screenshots.sh [model.onnx]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${EMBARK_BUILD_DIR:-$root/build}"
out="$root/docs/screenshots"
model="${1:-$root/resources/models/digits_cnn.onnx}"

if ! command -v xvfb-run >/dev/null; then
  echo "screenshots.sh: xvfb-run is missing (Debian: apt-get install xvfb)" >&2
  exit 5
fi
if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
  cmake -S "$root" -B "$build" -G Ninja
fi
cmake --build "$build" --target embark -- -j2

# A private settings folder, so the screenshots show the first-start layout and never read
# or change the user's own settings.
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
mkdir -p "$out"
benchmark="${BENCHMARK:-1}"
if ! command -v clang-19 >/dev/null || ! command -v qemu-riscv64-static >/dev/null; then
  echo "screenshots.sh: no clang-19 or qemu-riscv64-static: no benchmark screenshots" >&2
  benchmark=0
fi
XDG_CONFIG_HOME="$config" XDG_CACHE_HOME="$config/cache" EMBARK_CONFIG_DIR="$config/embark" \
  EMBARK_DATA_DIR="$config/data" EMBARK_SCREENSHOT_BENCHMARK="$benchmark" LANGUAGE="${SCREENSHOT_LANGUAGE:-en}" LC_ALL=C.UTF-8 \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$build/app/studio/embark" --screenshot "$out" "$model"
ls -l "$out"/*.png
