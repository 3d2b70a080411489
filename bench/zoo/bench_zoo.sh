#!/bin/sh
# The model zoo (bench/zoo/make_zoo.py) through ONNX Runtime (npm's onnxruntime-node 1.30, CPU
# provider), Embark's portable export and its XNNPACK export (upstream XNNPACK from
# ../shared/xnnpack/prebuilt/x86_64 via XNNPACK_ROOT), at 1 and 2 threads, side by side in one
# run: per model the latency medians, portable/ORT and XNNPACK/ORT, and their geometric means
# (issue 20's goal: portable <= 1.0x ORT on the geometric mean, no model above 1.25x).
# How: each model is exported with its test data, built, and checked once against the
# reference with --check (a failure is reported and that library left out of the model's row).
# Then ROUNDS rounds; a round runs every model, library and thread count in turn (--warmup 3
# --iterations ITER, into a file, nothing beside it) and keeps each run's median; the table
# gives the median of the rounds, so a drifting shared machine shifts a whole round.
# Usage: bench/zoo/bench_zoo.sh [model...]   (default: every model in $ZOO_DIR)
#   ZOO_DIR=~/.cache/embark/zoo (make_zoo.py's output)  EMBARK_CLI=build/app/cli/embark-cli
#   BENCH_DIR=/tmp/embark-bench-zoo  ROUNDS=3  ITER=10  LIBS="portable xnnpack onnxruntime"
#   REUSE=1 (keep earlier exports and builds)  ORT_CACHE=~/.cache/embark/onnxruntime-node-1.30
#   SHARED_MODELS=1 also benchmarks ../shared/models/{resnet18,mobilenet_v2}
#   BASE_RUNTIME=DIR adds "portable_base": the portable export built with the kernels of DIR (a
#   copy of runtime/ from an older commit, given to embark-cli as EMBARK_RUNTIME_DIR), timed in
#   the same rounds, so a kernel change shows before and after side by side on whole models.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
root=$(dirname "$bench")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
zoo=${ZOO_DIR:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/zoo"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
upstream=${XNNPACK_UPSTREAM:-"$root/../shared/xnnpack/prebuilt/x86_64"}
work=${BENCH_DIR:-/tmp/embark-bench-zoo}
rounds=${ROUNDS:-3}
iter=${ITER:-10}
libs=${LIBS:-"portable xnnpack onnxruntime"}
base_rt=${BASE_RUNTIME:-}
[ -z "$base_rt" ] || libs="$libs portable_base"
ort_cache=${ORT_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/onnxruntime-node-1.30"}
[ -x "$cli" ] || { echo "bench_zoo: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
mkdir -p "$work"

# model -> its .onnx and input (zoo cache or shared models)
model_path() { if [ -f "$zoo/$1.onnx" ]; then echo "$zoo/$1"; else echo "$shared/$1"; fi; }
if [ $# -eq 0 ]; then
    [ -d "$zoo" ] || { echo "bench_zoo: no zoo at $zoo: run bench/zoo/make_zoo.py first" >&2; exit 2; }
    set -- $(cd "$zoo" && ls *.onnx | sed 's/\.onnx$//')
    [ "${SHARED_MODELS:-0}" = 1 ] && set -- "$@" resnet18_shared mobilenet_v2_shared
fi

case " $libs " in *" onnxruntime "*)
    if [ ! -d "$ort_cache/node_modules/onnxruntime-node" ]; then
        mkdir -p "$ort_cache"
        echo "bench_zoo: installing onnxruntime-node@1.30 into $ort_cache"
        (cd "$ort_cache" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30 \
            > "$work/npm.log" 2>&1) || { echo "bench_zoo: npm install failed (see $work/npm.log)" >&2; exit 2; }
    fi ;;
esac
case " $libs " in *" xnnpack "*)
    [ -f "$upstream/include/xnnpack.h" ] || { echo "bench_zoo: no upstream XNNPACK at $upstream: xnnpack left out" >&2;
        libs=$(echo "$libs" | sed 's/xnnpack//'); } ;;
esac

echo "bench_zoo: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

src_of() { # MODEL -> path prefix of MODEL.onnx (the *_shared names read ../shared/models)
    case "$1" in *_shared) echo "$shared/${1%_shared}" ;; *) model_path "$1" ;; esac
}

prepare() { # MODEL LIB -> 0 when $work/MODEL_LIB/build/run_export is built and checked
    model=$1 lib=$2
    src=$(src_of "$model")
    [ "$lib" = onnxruntime ] && return 0
    dir="$work/${model}_$lib"
    if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
        # portable_base: the portable library with BASE_RUNTIME's kernels.
        rt_dir=${EMBARK_RUNTIME_DIR:-} export_lib=$lib
        [ "$lib" != portable_base ] || rt_dir=$base_rt export_lib=portable
        EMBARK_RUNTIME_DIR="$rt_dir" "$cli" export "$src.onnx" --lib "$export_lib" -o "$dir" --force \
            --input "$src/test_data_set_0/input_0.pb" > "$work/export.log" 2>&1 ||
            { echo "bench_zoo: export $model $lib failed: $(tail -3 "$work/export.log")" >&2; return 1; }
        if [ "$lib" = xnnpack ]; then
            XNNPACK_ROOT="$upstream" "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1
        else
            "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1
        fi || { echo "bench_zoo: build $model $lib failed: $(tail -5 "$work/build.log")" >&2; return 1; }
    fi
    status=0
    "$dir/build/run_export" --warmup 0 --iterations 1 --threads 2 --check 1e-3 --out "$work/out" \
        > "$work/check.jsonl" 2> "$work/check.err" || status=$?
    if [ "$status" != 0 ]; then
        echo "bench_zoo: $model $lib: run_export --check exited $status: $(grep -h '"check"\|"error"' "$work/check.jsonl" | head -3)" >&2
        return 1
    fi
    grep -h '"check"' "$work/check.jsonl" | sed "s/^/bench_zoo: $model $lib: /"
}

: > "$work/models.txt"
for model in "$@"; do
    src=$(src_of "$model")
    [ -f "$src.onnx" ] || { echo "bench_zoo: $src.onnx is missing" >&2; continue; }
    ok=""
    for lib in $libs; do
        if prepare "$model" "$lib"; then ok="$ok $lib"; fi
    done
    echo "$model$ok" >> "$work/models.txt"
done

run_one() { # MODEL LIB THREADS OUT
    model=$1 lib=$2 threads=$3 out=$4
    src=$(src_of "$model")
    if [ "$lib" = onnxruntime ]; then
        NODE_PATH="$ort_cache/node_modules" node "$bench/../runtime/ort/ort_run.js" "$src.onnx" \
            --input "$src/test_data_set_0/input_0.pb" --out "$work/ort-out" --threads "$threads" --warmup 3 --iterations "$iter" > "$out"
    else
        "$work/${model}_$lib/build/run_export" --threads "$threads" --warmup 3 --iterations "$iter" > "$out"
    fi
}

: > "$work/rounds.txt"
round=1
while [ "$round" -le "$rounds" ]; do
    while read -r model ok; do
        for threads in 1 2; do
            for lib in $ok; do
                # Into a file, never a pipe: a reader started beside the run would take a core.
                if run_one "$model" "$lib" "$threads" "$work/run.jsonl"; then
                    echo "$model $lib $threads $round $(python3 "$bench/export/latency_summary.py" < "$work/run.jsonl")" \
                        >> "$work/rounds.txt"
                fi
            done
        done
    done < "$work/models.txt"
    round=$((round + 1))
done

echo
echo "median over $rounds rounds of each run's median of $iter iterations"
python3 "$here/zoo_summary.py" "$work/rounds.txt"
echo
echo "the same with each run's fastest iteration (steadier on a loaded machine)"
python3 "$here/zoo_summary.py" "$work/rounds.txt" --min
echo "bench_zoo: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
