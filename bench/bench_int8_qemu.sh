#!/bin/sh
# Int8 against float32 (issue 16): retired instructions per inference of the portable export of
# a model and of its int8 quantization (`embark-cli quantize`, calibrated on the model's
# test_data_set_* folders), side by side:
#   - sim-k230 (riscv64 RVV VLEN 128, Clang 19) and sim-rpi5 (aarch64 NEON, GCC 12, -mcpu=cortex-a76)
#     through bench_libs_qemu.sh (qemu-user 7.2 with runtime/tools/insn_count.c; its --layers pass,
#     so per-layer counts are in BENCH_DIR/qemu/<model>_<board>_portable/insns.jsonl);
#   - host x86-64 (HOST=1, default on): the host export rebuilt with -march=x86-64-v3 (AVX2 +
#     FMA: qemu 7.2's TCG has no AVX-512, and perf has no instruction counter in this VM) and
#     counted under qemu-x86_64 -cpu max with the same plugin, as count(2 inferences) -
#     count(1 inference) of run_export (forward() itself, plus the printing of one JSON line).
# LIBS="portable xnnpack" adds the XNNPACK export of the int8 model (its QConv/QGemm/QAdd as
# XNNPACK qs8 operators, linked with upstream XNNPACK from XNNPACK_PREBUILT/ARCH, default
# ../shared/xnnpack/prebuilt) beside the portable one, on each board and the host.
# Counts are deterministic, so one run each; they count instructions, not lanes or cycles.
# Usage: bench/bench_int8_qemu.sh [model...]         (default: mobilenet_v2 resnet18)
#   EMBARK_CLI=path/to/embark-cli (default build)  BENCH_DIR=/tmp/embark-bench-int8
#   BOARDS="sim-k230 sim-rpi5"  HOST=0|1  REUSE=1 (keep quantized models, exports and counts)
#   SUMMARY_ONLY=1 (print the table of what was measured)  KINDS="fp32 int8"  LIBS="portable xnnpack"
# Time: MobileNet-V2 fp32 on sim-k230 ~3.5 min of qemu on a loaded machine, int8 less;
# ResNet-18 fp32 on sim-k230 ~10 CPU minutes. Run boards in separate instances to use both cores
# (same BENCH_DIR), then SUMMARY_ONLY=1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
work=${BENCH_DIR:-/tmp/embark-bench-int8}
boards=${BOARDS-"sim-k230 sim-rpi5"} # BOARDS="" (set and empty): the host only
kinds=${KINDS:-"fp32 int8"}
host=${HOST:-1}
libs=${LIBS:-portable}
prebuilt=${XNNPACK_PREBUILT:-"$root/../shared/xnnpack/prebuilt"}
[ -x "$cli" ] || { echo "bench_int8_qemu: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ $# -gt 0 ] || set -- mobilenet_v2 resnet18
mkdir -p "$work/models" "$work/qemu" "$work/host"

# model_name MODEL KIND: the name bench_libs_qemu.sh sees (a file in $work/models).
model_name() { if [ "$2" = int8 ]; then echo "${1}_int8"; else echo "$1"; fi; }

prepare() {
    model=$1
    [ -f "$shared/$model.onnx" ] || { echo "bench_int8_qemu: $shared/$model.onnx is missing" >&2; return 1; }
    ln -sf "$shared/$model.onnx" "$work/models/$model.onnx"
    q="$work/models/${model}_int8.onnx"
    if [ "${REUSE:-0}" = 1 ] && [ -f "$q" ]; then return 0; fi
    calib=""
    for d in "$shared/$model"/test_data_set_*; do [ -d "$d" ] && calib="$calib --calib $d"; done
    [ -n "$calib" ] || { echo "bench_int8_qemu: no test_data_set_* folder for $model" >&2; return 1; }
    # shellcheck disable=SC2086
    "$cli" quantize "$shared/$model.onnx" -o "$q" $calib --json > "$work/${model}_quantize.json" 2> "$work/${model}_quantize.log" ||
        { echo "bench_int8_qemu: quantize $model failed (see $work/${model}_quantize.log)" >&2; return 1; }
}

# host_dir MODEL KIND LIB: the host export's folder (the portable one keeps its old name).
host_dir() {
    name=$(model_name "$1" "$2")
    if [ "$3" = portable ]; then echo "$work/host/$name"; else echo "$work/host/${name}_$3"; fi
}

# host_count MODEL KIND LIB: instructions of one forward() of the host export built for
# x86-64-v3 (an XNNPACK export links upstream XNNPACK's x86_64 tree, which picks its kernels
# at run time from what qemu's CPU reports).
host_count() {
    name=$(model_name "$1" "$2")
    lib=$3
    dir=$(host_dir "$1" "$2" "$lib")
    if [ "${REUSE:-0}" = 1 ] && [ -f "$dir/count.txt" ]; then return 0; fi
    xroot=""
    [ "$lib" = xnnpack ] && xroot="$prebuilt/x86_64"
    XNNPACK_ROOT="$xroot" "$cli" export "$work/models/$name.onnx" --board host --lib "$lib" -o "$dir" --force > "$dir.log" 2>&1 &&
        cmake -S "$dir" -B "$dir/build-v3" -G Ninja -DEMBARK_TARGET_FLAGS=-march=x86-64-v3 -DXNNPACK_ROOT="$xroot" >> "$dir.log" 2>&1 &&
        cmake --build "$dir/build-v3" -j 2 >> "$dir.log" 2>&1 ||
        { echo "bench_int8_qemu: host export/build of $name failed (see $dir.log)" >&2; return 0; }
    counts=""
    for iterations in 1 2; do
        c=$(cd "$dir/build-v3" && qemu-x86_64 -cpu max -plugin "$work/host/insn_count.so" -d plugin ./run_export \
            --warmup 0 --iterations "$iterations" --threads 1 --out "$dir/out" 2>&1 > "$dir/run$iterations.jsonl" |
            sed -n 's/^insns //p')
        counts="$counts $c"
    done
    # shellcheck disable=SC2086
    set -- $counts
    [ $# = 2 ] || { echo "bench_int8_qemu: no count for $name on the host" >&2; return 0; }
    echo "$name host $lib $(($2 - $1)) plain 0" > "$dir/count.txt"
    echo "  $name host $lib (x86-64-v3 under qemu): $(($2 - $1)) instructions per inference"
}

if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
    names=""
    for model in "$@"; do
        prepare "$model" || continue
        for kind in $kinds; do names="$names $(model_name "$model" "$kind")"; done
    done
    for board in $boards; do
        # shellcheck disable=SC2086
        BOARDS=$board LIBS="$libs" XNNPACK_PREBUILT="$prebuilt" EMBARK_SHARED_MODELS="$work/models" \
            BENCH_DIR="$work/qemu" EMBARK_CLI="$cli" \
            "$here/bench_libs_qemu.sh" $names | grep -v '^ *$' | sed -n '/instructions per inference\|failed\|load/p'
    done
    if [ "$host" = 1 ]; then
        cc -O2 -Wall -Wextra -shared -fPIC -o "$work/host/insn_count.so" "$root/runtime/tools/insn_count.c"
        for model in "$@"; do
            for kind in $kinds; do
                for lib in $libs; do
                    # fp32 XNNPACK is bench_libs_qemu.sh's comparison; here int8 only.
                    if [ "$lib" = portable ] || [ "$kind" = int8 ]; then host_count "$model" "$kind" "$lib"; fi
                done
            done
        done
    fi
fi

echo
echo "retired instructions per inference (millions), 1 thread; int8/fp32 = portable int8 / portable fp32 (goal <= 0.75 on riscv64,"
echo "issue 32); port/xnn = portable int8 / XNNPACK qs8 int8 (goal <= 0.50 on riscv64)"
printf '%-14s %-10s %10s %10s %10s %9s %9s\n' model board "fp32 M" "int8 M" "xnn int8 M" int8/fp32 port/xnn
for model in "$@"; do
    for board in sim-k230 sim-k1 sim-rpi5 host; do
        if [ "$board" = host ]; then
            f="$(host_dir "$model" fp32 portable)/count.txt" i="$(host_dir "$model" int8 portable)/count.txt"
            x="$(host_dir "$model" int8 xnnpack)/count.txt"
        else
            f="$work/qemu/${model}_${board}_portable/count.txt" i="$work/qemu/${model}_int8_${board}_portable/count.txt"
            x="$work/qemu/${model}_int8_${board}_xnnpack/count.txt"
        fi
        fc=$( [ -f "$f" ] && cut -d' ' -f4 "$f" || echo -)
        ic=$( [ -f "$i" ] && cut -d' ' -f4 "$i" || echo -)
        xc=$( [ -f "$x" ] && cut -d' ' -f4 "$x" || echo -)
        [ "$fc" = - ] && [ "$ic" = - ] && [ "$xc" = - ] && continue
        python3 -c '
import sys
m, b, f, i, x = sys.argv[1:6]
num = lambda s: None if s in ("-", "failed") else int(s)
F, I, X = num(f), num(i), num(x)
cell = lambda v, raw: "%10.1f" % (v / 1e6) if v else "%10s" % raw
ratio = lambda a, c: "%9.2f" % (a / c) if a and c else "%9s" % "-"
print("%-14s %-10s %s %s %s %s %s" % (m, b + ("*" if b == "host" else ""), cell(F, f), cell(I, i), cell(X, x), ratio(I, F), ratio(I, X)))' \
            "$model" "$board" "$fc" "$ic" "$xc"
    done
done
echo "sim-k230/sim-rpi5: --layers pass of run_export (fused blocks run layer by layer); *host: x86-64-v3 build under qemu-x86_64, forward()"
