#!/bin/sh
# Retired riscv64 instructions per call of one layer under qemu (deterministic, unlike
# wall-clock time under emulation): the portable kernels built by Clang 19 for rv64gcv
# (RVV, VLEN from $VLEN, default 128) and by GCC 12 (scalar rv64gc), counted by the small TCG
# plugin runtime/tools/insn_count.c with Debian's qemu-riscv64 (not -static: only it loads plugins).
# Usage: runtime/bench/rvv_insn_count.sh [OUTPUT_DIR]   (LAYERS=regex to pick layers)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-"$root/build-portable/rvv-insn"}
vlen=${VLEN:-128}
march=rv64gcv # VLEN above 128 told to the compiler as the boards do (sim-k1: zvl256b)
[ "$vlen" -le 128 ] || march="rv64gcv_zvl${vlen}b"
extra=${RVV_FLAGS:-}
mkdir -p "$out"
for tool in clang++-19 riscv64-linux-gnu-g++ qemu-riscv64 gcc; do
    command -v "$tool" >/dev/null 2>&1 || { echo "rvv_insn_count: $tool is missing"; exit 77; }
done
src="$here/layer_once.cpp $root/runtime/portable/*.cpp"
inc="-I$root/runtime/portable"
gcc -O2 -shared -fPIC "$root/runtime/tools/insn_count.c" -o "$out/insn_count.so"
# shellcheck disable=SC2086
clang++-19 --target=riscv64-linux-gnu -march="$march" -O3 -std=c++17 -DEMBARK_VLEN_BITS="$vlen" \
    $extra -fuse-ld=lld-19 -static $inc $src -o "$out/layer_rvv"
# shellcheck disable=SC2086
riscv64-linux-gnu-g++ -march=rv64gc -O3 -std=c++17 -static $inc $src -o "$out/layer_scalar"

count() { # binary calls shape...
    bin=$1; shift
    qemu-riscv64 -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" -plugin "$out/insn_count.so" -d plugin \
        "$bin" "$@" 2>&1 >/dev/null | sed -n 's/^insns //p'
}

printf '%-26s %8s %12s %12s %8s\n' layer MFLOP "rvv Minsn" "scalar Minsn" "FLOP/insn"
while read -r name shape; do
    [ -n "$name" ] || continue
    echo "$name" | grep -q -E "${LAYERS:-.}" || continue
    # shellcheck disable=SC2086
    set -- $shape
    flops=$(python3 -c "
b,h,w,ci,co,kh,kw,sh,sw,dh,dw,pt,pl,pb,pr,g=map(int,'$shape'.split())
oh=(h+pt+pb-dh*(kh-1)-1)//sh+1; ow=(w+pl+pr-dw*(kw-1)-1)//sw+1
print(2*b*oh*ow*co*(ci//g)*kh*kw)")
    # shellcheck disable=SC2086
    rvv=$(( $(count "$out/layer_rvv" 2 $shape) - $(count "$out/layer_rvv" 1 $shape) ))
    # shellcheck disable=SC2086
    scalar=$(( $(count "$out/layer_scalar" 2 $shape) - $(count "$out/layer_scalar" 1 $shape) ))
    python3 -c "print('%-26s %8.1f %12.2f %12.2f %8.2f' % ('$name', $flops/1e6, $rvv/1e6, $scalar/1e6, $flops/$rvv))"
done <<'LAYERS'
3x3_64->64_56 1 56 56 64 64 3 3 1 1 1 1 1 1 1 1 1
7x7/2_3->64_224 1 224 224 3 64 7 7 2 2 1 1 3 3 3 3 1
1x1_64->128_28 1 28 28 64 128 1 1 1 1 1 1 0 0 0 0 1
dw3x3_32_112 1 112 112 32 32 3 3 1 1 1 1 1 1 1 1 32
LAYERS
