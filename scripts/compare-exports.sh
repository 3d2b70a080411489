#!/usr/bin/env bash
# Compares the export folders two embark-cli binaries write for the same models, boards and
# libraries, byte for byte (build/ folders excluded): a refactoring that must not change
# outputs runs this with the CLI built before it and the one built after.
#
#   scripts/compare-exports.sh OLD_CLI NEW_CLI [MODEL.onnx...]
#
# Default models: resources/models/digits_cnn.onnx, plus ../shared/models/{mobilenet_v2,
# resnet18}.onnx when present. Boards: host and sim-k230; libraries: portable and xnnpack
# (a pair that one CLI cannot export, e.g. XNNPACK without a tree, must fail in both).
# Exit status: 0 identical, 1 a difference (listed), 2 usage.
set -uo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
old=$1 new=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  models=("$root/resources/models/digits_cnn.onnx")
  for m in mobilenet_v2 resnet18; do
    [ -f "$root/../shared/models/$m.onnx" ] && models+=("$root/../shared/models/$m.onnx")
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
compared=0
for model in "${models[@]}"; do
  name=$(basename "$model" .onnx)
  for board in host sim-k230; do
    for lib in portable xnnpack; do
      row="$name $board $lib"
      # Both write the same path (a manifest or README may name it), then move aside.
      out="$work/out/$name-$board-$lib" a="$work/old/$name-$board-$lib" b="$work/new/$name-$board-$lib"
      mkdir -p "$work/old" "$work/new" "$work/out"
      "$old" export "$model" --board "$board" --lib "$lib" -o "$out" >"$work/old.log" 2>&1
      rc_old=$?
      [ -d "$out" ] && mv "$out" "$a"
      "$new" export "$model" --board "$board" --lib "$lib" -o "$out" >"$work/new.log" 2>&1
      rc_new=$?
      [ -d "$out" ] && mv "$out" "$b"
      if [ $rc_old -ne $rc_new ]; then
        echo "DIFFERENT  $row: exit status $rc_old before, $rc_new after"
        sed 's/^/    new: /' "$work/new.log" | head -5
        status=1
        continue
      fi
      if [ $rc_old -ne 0 ]; then
        echo "both fail  $row (exit $rc_old): $(head -1 "$work/new.log")"
        continue
      fi
      if diff -r "$a" "$b" >"$work/diff.txt"; then
        echo "identical  $row ($(find "$a" -type f | wc -l) files)"
        compared=$((compared + 1))
      else
        echo "DIFFERENT  $row"
        head -20 "$work/diff.txt" | sed 's/^/    /'
        status=1
      fi
    done
  done
done
echo "$compared export folder(s) identical"
exit $status
