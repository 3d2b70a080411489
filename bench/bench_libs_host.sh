#!/bin/sh
# Host wall clock of four CPU back-ends side by side (issue 15): Embark's portable export,
# an XNNPACK export linked with upstream XNNPACK (fb000666, the prebuilt static tree in
# ../shared/xnnpack/prebuilt/x86_64, via XNNPACK_ROOT), the same export linked with Debian's
# 2022 libxnnpack (legacy API), and ONNX Runtime 1.30's CPU provider (npm's onnxruntime-node,
# driven by runtime/ort/ort_run.js), each at 1 and 2 threads, for ResNet-18 and MobileNet-V2.
# Prints latency medians and every library's ratio to upstream XNNPACK (goal: portable <= 1.0x),
# then the per-layer comparison portable vs upstream XNNPACK (`run_export --layers`, matched by
# node name, bench/libs/layer_compare.py) at 1 and 2 threads.
# How: every XNNPACK export is first run once with --check (a crash or a wrong output is
# reported and that library is left out). Then ROUNDS rounds; a round runs every library and
# thread count in turn (run_export / ort_run.js --warmup 3 --iterations 20, JSON lines into a
# file, nothing else running beside it) and keeps each run's median; the table gives the median
# of the rounds, so a drifting shared machine shifts a whole round rather than one column.
# ONNX Runtime is installed on first use into $ORT_CACHE with
# `ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30` (its npm package carries
# libonnxruntime.so.1 for linux x64; the skip only stops the post-install CUDA download).
# Usage: bench/bench_libs_host.sh [model...]    (default: resnet18 mobilenet_v2)
#   EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-libs-host  ROUNDS=5
#   LAYER_ROUNDS=2  REUSE=1 (keep earlier exports/builds)  ORT_CACHE=~/.cache/embark/onnxruntime-node-1.30
# Time: 6 builds (~10 min on a busy machine; REUSE=1 skips them), then ~4 minutes of timing
# (5 rounds + per-layer runs) for the two models. The load average is printed before and after: run it on a quiet machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
upstream=${XNNPACK_UPSTREAM:-"$root/../shared/xnnpack/prebuilt/x86_64"}
work=${BENCH_DIR:-/tmp/embark-bench-libs-host}
rounds=${ROUNDS:-5}
layer_rounds=${LAYER_ROUNDS:-2}
ort_cache=${ORT_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/onnxruntime-node-1.30"}
[ -x "$cli" ] || { echo "bench_libs_host: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ -d "$shared" ] || { echo "bench_libs_host: no shared models at $shared (set EMBARK_SHARED_MODELS)" >&2; exit 2; }
[ $# -gt 0 ] || set -- resnet18 mobilenet_v2
mkdir -p "$work"

libs="portable xnnpack-debian"
if [ -f "$upstream/include/xnnpack.h" ]; then
    libs="portable xnnpack-upstream xnnpack-debian"
else
    echo "bench_libs_host: no upstream XNNPACK at $upstream (set XNNPACK_UPSTREAM): left out" >&2
fi

# ONNX Runtime: npm's onnxruntime-node into a cache folder, once.
ort=""
if command -v node > /dev/null && command -v npm > /dev/null; then
    if [ ! -d "$ort_cache/node_modules/onnxruntime-node" ]; then
        mkdir -p "$ort_cache"
        echo "bench_libs_host: installing onnxruntime-node@1.30 into $ort_cache"
        (cd "$ort_cache" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30 \
            > "$work/npm.log" 2>&1) || echo "bench_libs_host: npm install failed (see $work/npm.log): ONNX Runtime left out" >&2
    fi
    [ -d "$ort_cache/node_modules/onnxruntime-node" ] && ort="$ort_cache/node_modules"
else
    echo "bench_libs_host: node/npm missing (apt-get install nodejs npm): ONNX Runtime left out" >&2
fi

echo "bench_libs_host: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# export_and_build MODEL LIB -> builds $work/MODEL_LIB/build/run_export and checks its output once
export_and_build() {
    model=$1 lib=$2
    dir="$work/${model}_$lib"
    if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
        case "$lib" in portable) kind=portable ;; *) kind=xnnpack ;; esac
        "$cli" export "$shared/$model.onnx" --lib "$kind" -o "$dir" --force \
            --input "$shared/$model/test_data_set_0/input_0.pb" > "$work/export.log" 2>&1 ||
            { echo "bench_libs_host: export $model $lib failed:" >&2; cat "$work/export.log" >&2; return 1; }
        # XNNPACK_ROOT picks the library at configure time (runtime/xnnpack/xnnpack.cmake).
        if [ "$lib" = xnnpack-upstream ]; then
            XNNPACK_ROOT="$upstream" "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1
        else
            env -u XNNPACK_ROOT "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1
        fi || { echo "bench_libs_host: build $model $lib failed:" >&2; tail -20 "$work/build.log" >&2; return 1; }
    fi
    for threads in 1 2; do
        status=0
        "$dir/build/run_export" --warmup 0 --iterations 1 --threads "$threads" --check 1e-3 --out "$work/out" \
            > "$work/check.jsonl" 2> "$work/check.err" || status=$?
        if [ "$status" != 0 ]; then
            echo "bench_libs_host: $model $lib at $threads threads: run_export --check exited $status:" >&2
            grep -h '"check"\|"error"' "$work/check.jsonl" >&2 || true
            tail -5 "$work/check.err" >&2
            return 1
        fi
    done
}

: > "$work/rounds.txt"
: > "$work/models.txt"
for model in "$@"; do
    [ -f "$shared/$model.onnx" ] || { echo "bench_libs_host: $shared/$model.onnx is missing" >&2; exit 2; }
    ok=""
    for lib in $libs; do
        if export_and_build "$model" "$lib"; then ok="$ok $lib"; fi
    done
    [ -n "$ort" ] && ok="$ok onnxruntime"
    echo "$model$ok" >> "$work/models.txt"
    "$cli" inspect "$shared/$model.onnx" --json > "$work/${model}_inspect.json"
done

run_one() { # MODEL LIB THREADS OUT [run_export options]
    model=$1 lib=$2 threads=$3 out=$4
    shift 4
    if [ "$lib" = onnxruntime ]; then
        NODE_PATH="$ort" node "$here/../runtime/ort/ort_run.js" "$shared/$model.onnx" \
            --input "$shared/$model/test_data_set_0/input_0.pb" --out "$work/ort-out" --threads "$threads" "$@" > "$out"
    else
        "$work/${model}_$lib/build/run_export" --threads "$threads" "$@" > "$out"
    fi
}

round=1
while [ "$round" -le "$rounds" ]; do
    while read -r model ok; do
        for lib in $ok; do
            for threads in 1 2; do
                # Into a file, never a pipe: a reader started beside the run would take a core.
                run_one "$model" "$lib" "$threads" "$work/run.jsonl" --warmup 3 --iterations 20
                echo "$model $lib $threads $round $(python3 "$here/export/latency_summary.py" < "$work/run.jsonl")" \
                    >> "$work/rounds.txt"
            done
        done
    done < "$work/models.txt"
    round=$((round + 1))
done

# Per layer: portable vs upstream XNNPACK, alternating, LAYER_ROUNDS runs of 10 iterations each.
while read -r model ok; do
    case " $ok " in *" portable "*) ;; *) continue ;; esac
    case " $ok " in *" xnnpack-upstream "*) other=xnnpack-upstream ;; *" xnnpack-debian "*) other=xnnpack-debian ;; *) continue ;; esac
    for threads in 1 2; do
        r=1
        while [ "$r" -le "$layer_rounds" ]; do
            for lib in portable "$other"; do
                run_one "$model" "$lib" "$threads" "$work/layers_${model}_${lib}_${threads}T_$r.jsonl" \
                    --warmup 2 --iterations 10 --layers
            done
            r=$((r + 1))
        done
    done
done < "$work/models.txt"

echo
echo "median over $rounds rounds of each run's median of 20 iterations (fastest iteration in brackets)"
python3 "$here/libs/host_summary.py" "$work/rounds.txt"
[ "$layer_rounds" -gt 0 ] && while read -r model ok; do
    case " $ok " in *" portable "*) ;; *) continue ;; esac
    case " $ok " in *" xnnpack-upstream "*) other=xnnpack-upstream ;; *" xnnpack-debian "*) other=xnnpack-debian ;; *) continue ;; esac
    for threads in 1 2; do
        echo
        echo "== $model, $threads thread(s): per layer, portable vs $other (run_export --layers, median us) =="
        list() { printf '%s,' "$work/layers_${model}_$1_${threads}T_"*.jsonl | sed 's/,$//'; }
        python3 "$here/libs/layer_compare.py" --key ns --inspect "$work/${model}_inspect.json" \
            portable "$work/${model}_portable" "$(list portable)" "$other" "$work/${model}_$other" "$(list "$other")"
    done
done < "$work/models.txt"
echo "bench_libs_host: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
