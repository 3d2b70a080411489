#!/bin/sh
# Wall-clock side by side of the host exports bench_int8_qemu.sh made (same BENCH_DIR, after a
# run with HOST=1 LIBS="portable xnnpack"): fp32 portable, int8 portable and int8 XNNPACK (qs8),
# each rebuilt for the host board's own flags (-march=native: AVX-512 VNNI where the CPU has
# it, unlike the x86-64-v3 builds counted under qemu), run on 1 thread, interleaved: each round
# runs every export once (`run_export --warmup W --iterations N --threads 1`, median of its N
# latencies), and the table gives the median over ROUNDS rounds. Prints the load average
# before and after: on a shared machine the numbers are only as good as that.
# Usage: bench/bench_int8_wallclock.sh [model...]   (default: mobilenet_v2 resnet18)
#   BENCH_DIR=/tmp/embark-bench-int8  ROUNDS=7  WARMUP=3  ITERATIONS=20
#   XNNPACK_PREBUILT=../shared/xnnpack/prebuilt (its x86_64 tree)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=${BENCH_DIR:-/tmp/embark-bench-int8}
rounds=${ROUNDS:-7}
warmup=${WARMUP:-3}
iterations=${ITERATIONS:-20}
prebuilt=${XNNPACK_PREBUILT:-"$root/../shared/xnnpack/prebuilt"}
[ $# -gt 0 ] || set -- mobilenet_v2 resnet18

# build DIR XNNPACK_ROOT: DIR/build-native (the export's default flags).
build() {
    [ -d "$1" ] || { echo "bench_int8_wallclock: no export at $1 (run bench_int8_qemu.sh first)" >&2; return 1; }
    cmake -S "$1" -B "$1/build-native" -G Ninja -DXNNPACK_ROOT="$2" > "$1/build-native.log" 2>&1 &&
        cmake --build "$1/build-native" -j 2 >> "$1/build-native.log" 2>&1 ||
        { echo "bench_int8_wallclock: build of $1 failed (see $1/build-native.log)" >&2; return 1; }
}
# run DIR: median latency (ms) of one run_export.
run() {
    (cd "$1/build-native" && ./run_export --warmup "$warmup" --iterations "$iterations" --threads 1 --out "$1/out-native") |
        sed -n 's/.*"type":"latency".*"ns":\([0-9]*\).*/\1/p' | sort -n |
        awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f\n", m / 1e6 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }'; }

for model in "$@"; do
    build "$work/host/$model" "" && build "$work/host/${model}_int8" "" &&
        build "$work/host/${model}_int8_xnnpack" "$prebuilt/x86_64" || exit 1
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for model in "$@"; do
    : > "$work/host/$model.wall"
    round=1
    while [ "$round" -le "$rounds" ]; do
        f=$(run "$work/host/$model")
        q=$(run "$work/host/${model}_int8")
        x=$(run "$work/host/${model}_int8_xnnpack")
        echo "$f $q $x" >> "$work/host/$model.wall"
        round=$((round + 1))
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "host -march=native, 1 thread, ms per inference: median over $rounds interleaved rounds of each run's median of $iterations"
printf '%-14s %10s %10s %12s %9s %9s\n' model "fp32 ms" "int8 ms" "xnn int8 ms" int8/fp32 port/xnn
for model in "$@"; do
    f=$(cut -d' ' -f1 "$work/host/$model.wall" | median)
    q=$(cut -d' ' -f2 "$work/host/$model.wall" | median)
    x=$(cut -d' ' -f3 "$work/host/$model.wall" | median)
    printf '%-14s %10s %10s %12s %9.2f %9.2f\n' "$model" "$f" "$q" "$x" "$(echo "$q / $f" | bc -l)" "$(echo "$q / $x" | bc -l)"
done
