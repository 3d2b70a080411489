#!/bin/sh
# Retired riscv64 instructions per inference on sim-k230 (qemu-riscv64 with the insn_count TCG
# plugin; deterministic, unlike wall time under qemu): portable kernels built by Clang 19 (RVV,
# VLEN 128) and by GCC 12 (scalar), and XNNPACK when XNNPACK_ROOT is set. One inference =
# count(--iterations 2 --warmup 0) - count(--iterations 1 --warmup 0), so start-up (loading
# weights, the sample input, writing outputs) is excluded. Prints a table and Clang/GCC ratios.
# Usage: bench/bench_rvv_instructions.sh [model...]   (default: digits lenet5 resnet18)
#   EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-rvv  XNNPACK_ROOT=riscv64 prefix
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cli=${EMBARK_CLI:-"$root/build-e2e/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
work=${BENCH_DIR:-/tmp/embark-bench-rvv}
[ -x "$cli" ] || { echo "bench_rvv_instructions: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
command -v qemu-riscv64 > /dev/null ||
    { echo "bench_rvv_instructions: qemu-riscv64 is missing (apt-get install qemu-user; -static takes no plugins)" >&2; exit 2; }
[ $# -gt 0 ] || set -- digits lenet5 resnet18
mkdir -p "$work"

# The plugin is built here, with the host compiler: it is loaded by the host's qemu.
plugin="$work/insn_count.so"
if [ ! -f "$plugin" ] || [ "$root/runtime/tools/insn_count.c" -nt "$plugin" ]; then
    cc -O2 -Wall -Wextra -shared -fPIC -o "$plugin" "$root/runtime/tools/insn_count.c"
fi

model_path() {
    case "$1" in
    digits) echo "$root/resources/models/digits_cnn.onnx" ;;
    *) echo "$shared/$1.onnx" ;;
    esac
}

# count BINARY ITERATIONS -> retired instructions of the whole process
count() {
    # Same flags as boards/sim-k230.json's runner, with the plugin.
    (cd "$(dirname "$1")" && qemu-riscv64 -cpu rv64,v=true,vlen=128,vext_spec=v1.0 -L /usr/riscv64-linux-gnu \
        -plugin "$plugin" -d plugin ./run_export --warmup 0 --iterations "$2" --threads 1 --out "$work/out" 2>&1) |
        sed -n 's/^insns \([0-9]*\)$/\1/p' | tail -1
}

configs="portable:clang portable:gcc"
[ -n "${XNNPACK_ROOT:-}" ] && configs="$configs xnnpack:clang"

results="$work/results.txt"
: > "$results"
echo "bench_rvv_instructions: $(qemu-riscv64 --version | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
for model in "$@"; do
    onnx=$(model_path "$model")
    [ -f "$onnx" ] || { echo "bench_rvv_instructions: $onnx is missing, skipping $model" >&2; continue; }
    for config in $configs; do
        lib=${config%%:*}
        compiler=${config##*:}
        dir="$work/${model}_${lib}_$compiler"
        if ! "$cli" export "$onnx" --board sim-k230 --lib "$lib" --compiler "$compiler" -o "$dir" --force \
            > "$work/export.log" 2>&1 || ! "$cli" build "$dir" > "$work/build.log" 2>&1; then
            echo "bench_rvv_instructions: $model $lib/$compiler failed to export or build (see $work/*.log)" >&2
            continue
        fi
        binary="$dir/build/run_export"
        one=$(count "$binary" 1)
        two=$(count "$binary" 2)
        [ -n "$one" ] && [ -n "$two" ] || { echo "bench_rvv_instructions: no count for $model $lib/$compiler" >&2; continue; }
        echo "$model $lib $compiler $((two - one))" >> "$results"
        echo "  $model $lib/$compiler: $((two - one)) instructions per inference (process total $one)"
    done
done

echo
printf '%-10s %-9s %-7s %16s\n' model lib compiler "insns/inference"
while read -r model lib compiler n; do
    printf '%-10s %-9s %-7s %16s\n' "$model" "$lib" "$compiler" "$n"
done < "$results"
echo
awk '{ key = $1; n[key "," $2 "," $3] = $4; models[key] = 1 }
     END {
       for (m in models) {
         c = n[m ",portable,clang"]; g = n[m ",portable,gcc"]; x = n[m ",xnnpack,clang"]
         if (c && g) printf "%-10s clang/gcc (portable) = %.3f\n", m, c / g
         if (c && x) printf "%-10s portable-clang/xnnpack = %.3f (target <= 1.2)\n", m, c / x
       }
     }' "$results"
