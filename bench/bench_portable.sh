#!/bin/sh
# Builds runtime/bench/bench_portable.cpp against the portable runtime and Debian's XNNPACK,
# then prints per-layer GFLOP/s side by side (1 and 2 threads).
# Usage: bench/bench_portable.sh [layer-name-filter]   (CXX=clang++-19 to try Clang)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${BUILD_DIR:-"$root/build-portable"}/bench-portable
mkdir -p "$out"
cxx=${CXX:-g++}
flags=${CXXFLAGS:-"-O3 -march=native"}
if [ ! -f /usr/include/xnnpack.h ]; then
    echo "bench_portable: Debian's XNNPACK is missing: apt-get install libxnnpack-dev" >&2
    exit 5
fi
# shellcheck disable=SC2086
"$cxx" -std=c++17 $flags -Wall -Wextra -I"$root/runtime/portable" \
    "$root/runtime/bench/bench_portable.cpp" "$root"/runtime/portable/*.cpp \
    -o "$out/bench_portable" -lXNNPACK -lpthreadpool -lcpuinfo -lpthread
exec "$out/bench_portable" "$@"
