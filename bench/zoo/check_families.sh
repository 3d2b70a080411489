#!/bin/sh
# The second zoo (bench/zoo/make_families.py, issue 31) through Embark, each against ONNX
# Runtime's outputs (test_data_set_0/output_K.pb): the reference (`embark-cli run --expect`),
# then a portable export for each board of TARGETS (export with the test input embedded, build,
# `embark-cli exec`, the outputs compared with ORT's). Prints ONE table: model x {reference,
# TARGETS} with max |diff| / max |expected| (worst output; integer outputs must be identical) or
# why the cell failed: `refused: <reason>` for an export refusal, `FAIL build`/`FAIL run`. An
# output whose length depends on the data (NonMaxSuppression) is compared at the shape the run
# reports (model_api.h outputDims), which must be ORT's.
# Usage: bench/zoo/check_families.sh [model...]   (default: every model in $FAMILIES_DIR)
#   FAMILIES_DIR=~/.cache/embark/families (make_families.py's output; made when missing)
#   EMBARK_CLI=build/app/cli/embark-cli  WORK_DIR=/tmp/embark-families  TOL=1e-4
#   TARGETS="host sim-k230 sim-k1"  LIB=portable  REUSE=1 (keep earlier builds)
#   EXEC_TIMEOUT=600 (seconds per `embark-cli exec`, its default; a video network of a few G
#   multiply-adds takes longer under qemu: R3D-18 at 8x64x64 ran past 300 s on sim-k1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
zoo=${FAMILIES_DIR:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/families"}
work=${WORK_DIR:-/tmp/embark-families}
targets=${TARGETS:-"host sim-k230 sim-k1"}
lib=${LIB:-portable}
py=/usr/bin/python3
[ -x "$cli" ] || { echo "check_families: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
mkdir -p "$work"
if [ ! -d "$zoo" ]; then
    ort_cache=${ORT_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/onnxruntime-node-1.30"}
    if [ ! -d "$ort_cache/node_modules/onnxruntime-node" ]; then
        mkdir -p "$ort_cache"
        (cd "$ort_cache" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30 \
            > "$work/npm.log" 2>&1) || { echo "check_families: npm install failed (see $work/npm.log)" >&2; exit 2; }
    fi
    ORT_CACHE=$ort_cache "$py" "$here/make_families.py" --out "$zoo"
fi
[ $# -eq 0 ] && set -- $(cd "$zoo" && ls *.onnx | sed 's/\.onnx$//')
results="$work/results.tsv"
: > "$results"
echo "check_families: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')" >&2

put() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$results"; echo "check_families: $1 $2: $3" >&2; }

for model in "$@"; do
    src="$zoo/$model"
    data="$src/test_data_set_0"
    [ -f "$src.onnx" ] || { echo "check_families: $src.onnx is missing" >&2; continue; }
    if "$cli" run "$src.onnx" --input "$data" --expect "$data" --tolerance "${TOL:-1e-4}" --json \
        > "$work/$model-ref.json" 2> "$work/$model-ref.err" || [ -s "$work/$model-ref.json" ]; then
        put "$model" reference "$("$py" "$here/compare_families.py" ref "$work/$model-ref.json" "$model")"
    else
        put "$model" reference "FAIL: $(grep -h 'error' "$work/$model-ref.err" | head -1 | cut -c1-70)"
    fi
    for board in $targets; do
        dir="$work/$model-$board"
        if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
            if ! "$cli" export "$src.onnx" --board "$board" --lib "$lib" -o "$dir" --force --input "$data" \
                > "$work/$model-$board-export.log" 2>&1; then
                msg=$(grep -h 'error:' "$work/$model-$board-export.log" | head -1 | sed 's/^embark-cli: error: //')
                put "$model" "$board" "refused: $(echo "$msg" | cut -c1-60)"
                continue
            fi
            if ! nice -n 10 "$cli" build "$dir" --jobs 2 --quiet > "$work/$model-$board-build.log" 2>&1; then
                put "$model" "$board" "FAIL build: $(grep -h 'error' "$work/$model-$board-build.log" | head -1 | cut -c1-60)"
                continue
            fi
        fi
        rm -rf "$dir/out"
        status=0
        "$cli" exec "$dir" --timeout "${EXEC_TIMEOUT:-600}" -- --out "$dir/out" > "$work/$model-$board-run.jsonl" \
            2> "$work/$model-$board-run.err" || status=$?
        if [ "$status" != 0 ]; then
            put "$model" "$board" "FAIL run (exit $status): $(grep -h 'error' "$work/$model-$board-run.err" | head -1 | cut -c1-50)"
            continue
        fi
        put "$model" "$board" "$("$py" "$here/compare_families.py" export "$work/$model-$board-run.jsonl" "$data" "$model")"
    done
done
echo
"$py" "$here/compare_families.py" table "$results" reference $targets
