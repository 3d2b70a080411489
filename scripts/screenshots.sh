#!/usr/bin/env bash
# Renders the studio into docs/screenshots/ under a virtual X display (Xvfb), at a laptop's
# 1366x768 and a desktop's 1920x1080, with resnet18 and a 400+ node model (densenet121, made
# with Debian's torch/torchvision into a temporary folder; skipped with a message when torch
# is absent). For each screen and model: the studio's own grabs (--screenshot DIR: studio,
# target, properties) and the whole screen (screen.png, grabbed by the studio), so what does not fit shows.
# With BENCHMARK=1 and clang-19 + qemu-riscv64-static, also the one-button benchmark's jobs
# dock and charts. Usage: scripts/screenshots.sh [extra.onnx ...]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${EMBARK_BUILD_DIR:-$root/build}"
out="$root/docs/screenshots"
display="${SCREENSHOT_DISPLAY:-:57}"
python="${PYTHON:-/usr/bin/python3}"

if ! command -v Xvfb >/dev/null; then
  echo "screenshots.sh: Xvfb is missing (Debian: apt-get install xvfb)" >&2
  exit 5
fi
if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
  cmake -S "$root" -B "$build" -G Ninja
fi
cmake --build "$build" --target embark -- -j2

tmp="$(mktemp -d)"
xvfb=""
cleanup() {
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

models=("$root/../shared/models/resnet18.onnx")
[ -f "${models[0]}" ] || models=("$root/resources/models/digits_cnn.onnx")
if "$python" -c "import torch, torchvision" 2>/dev/null; then
  "$python" - "$tmp/densenet121.onnx" <<'PY'
import sys, torch, torchvision
model = torchvision.models.densenet121(weights=None).eval()
torch.onnx.export(model, torch.randn(1, 3, 224, 224), sys.argv[1], opset_version=13,
                  input_names=["input"], output_names=["logits"])
PY
  models+=("$tmp/densenet121.onnx")
else
  echo "screenshots.sh: no torch/torchvision for $python: no densenet121 (400+ node) screenshots" >&2
fi
models+=("$@")

benchmark="${BENCHMARK:-0}"
if ! command -v clang-19 >/dev/null || ! command -v qemu-riscv64-static >/dev/null; then benchmark=0; fi

mkdir -p "$out"
for screen in 1366x768 1920x1080; do
  Xvfb "$display" -screen 0 "${screen}x24" -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  sleep 1
  for model in "${models[@]}"; do
    name="$(basename "$model" .onnx)"
    dir="$out/$screen/$name"
    mkdir -p "$dir"
    # A private settings folder per run: the first-start layout, never the user's settings.
    config="$tmp/config-$screen-$name"
    mkdir -p "$config"
    DISPLAY="$display" XDG_CONFIG_HOME="$config" XDG_CACHE_HOME="$config/cache" EMBARK_CONFIG_DIR="$config/embark" \
      EMBARK_DATA_DIR="$config/data" EMBARK_SCREENSHOT_BENCHMARK="$benchmark" LANGUAGE="${SCREENSHOT_LANGUAGE:-en}" \
      LC_ALL=C.UTF-8 "$build/app/studio/embark" --screenshot "$dir" "$model" ||
      echo "screenshots.sh: the studio failed on $name at $screen" >&2
  done
  kill "$xvfb" 2>/dev/null || true
  wait "$xvfb" 2>/dev/null || true
  xvfb=""
done
find "$out" -name '*.png' -newer "$0" -printf '%p %s bytes\n' 2>/dev/null || ls -lR "$out"
