#!/bin/bash
# Cross-compiles the portable kernels with cross_check.cpp for riscv64 (Clang 19, RVV 1.0) and
# aarch64 (GNU), runs both under qemu-user, and checks with llvm-objdump that the RVV build's
# hot loops are vector code (vfmacc). Exit 0 on success, 1 on a failure, 77 when a tool is
# missing (the package to install is named).
# Usage: runtime/tests/cross_check.sh [OUTPUT_DIR] (VLEN=256 to simulate a SpacemiT K1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-"$root/build-portable/cross-check"}
vlen=${VLEN:-128}
# VLEN above 128 is also told to the compiler (zvl<VLEN>b), as sim-k1's cflags do: config.h
# then picks the wider tile of that VLEN (6 x 32 at 256). Such a binary needs a core of at
# least that VLEN.
march=rv64gcv
[ "$vlen" -le 128 ] || march="rv64gcv_zvl${vlen}b"
inc="-I$root/runtime/portable"
mkdir -p "$out"

need() {
    command -v "$1" >/dev/null 2>&1 || { echo "cross_check: $1 is missing (apt-get install $2)"; exit 77; }
}
need clang++-19 clang-19
need ld.lld-19 lld-19
need aarch64-linux-gnu-g++ g++-aarch64-linux-gnu
need riscv64-linux-gnu-g++ g++-riscv64-linux-gnu
need qemu-riscv64-static qemu-user-static
need qemu-aarch64-static qemu-user-static

# The kernels are compiled one object per source and flag set into $out/obj/<set>/, through
# ccache when it is installed: the checks below link the same objects several times, and a
# re-run (ctest on a machine that ran it before) only links and runs.
cache=$(command -v ccache || true)
# objects SET COMPILER FLAGS...: prints the object files of runtime/portable/*.cpp built with them.
objects() {
    set_name=$1
    shift
    mkdir -p "$out/obj/$set_name"
    for cpp in "$root"/runtime/portable/*.cpp; do
        obj="$out/obj/$set_name/$(basename "$cpp" .cpp).o"
        # shellcheck disable=SC2086
        $cache "$@" $inc -c "$cpp" -o "$obj" >&2 || exit 1
        printf '%s ' "$obj"
    done
}

status=0

echo "== riscv64 $march, clang-19, VLEN $vlen"
rv64=(clang++-19 --target=riscv64-linux-gnu -march="$march" -O3 -std=c++17 -Wall -Wextra -DEMBARK_VLEN_BITS="$vlen")
rv64_objs=$(objects rv64 "${rv64[@]}")
# shellcheck disable=SC2086
"${rv64[@]}" -fuse-ld=lld-19 -static $inc "$here/cross_check.cpp" $rv64_objs -o "$out/cross_check_rv64"
qemu-riscv64-static -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" "$out/cross_check_rv64" || status=1

# The int8 kernels (quant_cases.h), byte for byte against the reference arithmetic.
# shellcheck disable=SC2086
"${rv64[@]}" -fuse-ld=lld-19 -static $inc "$here/quant_check.cpp" $rv64_objs -o "$out/quant_check_rv64"
qemu-riscv64-static -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" "$out/quant_check_rv64" > "$out/quant_check_rv64.txt" ||
    { status=1; grep -v ' checked$' "$out/quant_check_rv64.txt" | head -20; }
tail -1 "$out/quant_check_rv64.txt"
# The int8 tile's panels are VLEN / 4 channels wide as the compiler knows VLEN (zvl256b: 64, as
# sim-k1 builds them): the same check built for and run at VLEN 256.
if [ "$vlen" -le 128 ]; then
    rv64w=(clang++-19 --target=riscv64-linux-gnu -march=rv64gcv_zvl256b -O3 -std=c++17 -Wall -Wextra -DEMBARK_VLEN_BITS=256)
    rv64w_objs=$(objects rv64_zvl256b "${rv64w[@]}")
    # shellcheck disable=SC2086
    "${rv64w[@]}" -fuse-ld=lld-19 -static $inc "$here/quant_check.cpp" $rv64w_objs -o "$out/quant_check_rv64_zvl256b"
    qemu-riscv64-static -cpu "rv64,v=true,vlen=256,vext_spec=v1.0" "$out/quant_check_rv64_zvl256b" > "$out/quant_check_rv64_zvl256b.txt" ||
        { status=1; grep -v ' checked$' "$out/quant_check_rv64_zvl256b.txt" | head -20; }
    echo "VLEN 256 (zvl256b): $(tail -1 "$out/quant_check_rv64_zvl256b.txt")"
    # The VLEN-128 build on a VLEN-256 core: the tiles keep their vl, and the whole-register
    # weight loads (quant_gemm_rvv.h weight_pair) give way to unit-stride ones.
    qemu-riscv64-static -cpu "rv64,v=true,vlen=256,vext_spec=v1.0" "$out/quant_check_rv64" > "$out/quant_check_rv64_on256.txt" ||
        { status=1; grep -v ' checked$' "$out/quant_check_rv64_on256.txt" | head -20; }
    echo "VLEN-128 build at VLEN 256: $(tail -1 "$out/quant_check_rv64_on256.txt")"
fi

# The generic typed kernels (dynamic quantization, run-time masks and index arithmetic).
# shellcheck disable=SC2086
clang++-19 --target=riscv64-linux-gnu -march="$march" -O3 -std=c++17 -Wall -Wextra -fuse-ld=lld-19 -static \
    -I"$root/runtime/generic" "$here/typed_check.cpp" "$root/runtime/generic/typed.cpp" -o "$out/typed_check_rv64"
qemu-riscv64-static -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" "$out/typed_check_rv64" || status=1

# The micro-kernel must be vector FMAs, not scalar fmadd.s.
# llvm-objdump-19 when llvm-19 is installed, else Debian's default llvm-objdump told about
# the V extension (binutils 2.40 does not decode RVV in an lld-linked binary).
objdump=$(command -v llvm-objdump-19 || command -v llvm-objdump || true)
[ -n "$objdump" ] || { echo "cross_check: llvm-objdump is missing (apt-get install llvm-19)"; exit 77; }
"$objdump" -d --no-show-raw-insn --mattr=+v "$out/cross_check_rv64" > "$out/cross_check_rv64.dis"
vector_fma=$(grep -c -E 'vfmacc|vfmadd' "$out/cross_check_rv64.dis" || true)
scalar_fma=$(grep -c -E '\sfmadd\.s' "$out/cross_check_rv64.dis" || true)
echo "riscv64 disassembly: $vector_fma vector FMA instructions, $scalar_fma scalar fmadd.s"
if [ "$vector_fma" -lt 10 ]; then
    echo "cross_check: the RVV build has no vector FMAs: auto-vectorization failed"
    status=1
fi
# qemu-user 7.2 (Debian 12's, the simulated boards') aborts translating RVV conversions with a
# static rounding mode (vfcvt.rtz and its narrowing/widening forms: what Clang makes of a
# vectorized float-to-integer cast): the kernels must round without them.
"$objdump" -d --no-show-raw-insn --mattr=+v "$out/typed_check_rv64" > "$out/typed_check_rv64.dis"
for dis in "$out/cross_check_rv64.dis" "$out/typed_check_rv64.dis"; do
    rtz=$(grep -c -E 'vf[nw]?cvt\.rtz' "$dis" || true)
    if [ "$rtz" -gt 0 ]; then
        echo "cross_check: $rtz vector vf*cvt.rtz in $(basename "$dis" .dis), which qemu 7.2 aborts on:"
        grep -E 'vf[nw]?cvt\.rtz' "$dis" | head -3
        status=1
    fi
done

echo "== aarch64, GNU $(aarch64-linux-gnu-g++ -dumpversion)"
a64=(aarch64-linux-gnu-g++ -O3 -std=c++17 -Wall -Wextra)
a64_objs=$(objects aarch64 "${a64[@]}")
# shellcheck disable=SC2086
"${a64[@]}" $inc "$here/cross_check.cpp" $a64_objs -o "$out/cross_check_aarch64" -lpthread
qemu-aarch64-static -L /usr/aarch64-linux-gnu "$out/cross_check_aarch64" || status=1
a76=(aarch64-linux-gnu-g++ -O3 -std=c++17 -Wall -Wextra -mcpu=cortex-a76)
a76_objs=$(objects aarch64_a76 "${a76[@]}")
# shellcheck disable=SC2086
"${a76[@]}" $inc "$here/quant_check.cpp" $a76_objs -o "$out/quant_check_aarch64" -lpthread
qemu-aarch64-static -L /usr/aarch64-linux-gnu "$out/quant_check_aarch64" > "$out/quant_check_aarch64.txt" ||
    { status=1; grep -v ' checked$' "$out/quant_check_aarch64.txt" | head -20; }
tail -1 "$out/quant_check_aarch64.txt"
# -mcpu=cortex-a76 has the dot product extension: the int8 GEMM tile is quant_gemm_neon.h's
# sdot-by-lane one (checked in the disassembly); plain Armv8.0-A runs the C++ tile.
aarch64_sdot=$(aarch64-linux-gnu-objdump -d "$out/quant_check_aarch64" | grep -c -E 'sdot\s+v[0-9]+\.4s, v[0-9]+\.16b, v[0-9]+\.4b\[' || true)
echo "aarch64 cortex-a76 disassembly: $aarch64_sdot sdot-by-lane instructions"
if [ "$aarch64_sdot" -lt 64 ]; then
    echo "cross_check: the cortex-a76 build lacks quant_gemm_neon.h's sdot tile"
    status=1
fi
v80=(aarch64-linux-gnu-g++ -O3 -std=c++17 -Wall -Wextra -march=armv8-a)
v80_objs=$(objects aarch64_v80 "${v80[@]}")
# shellcheck disable=SC2086
"${v80[@]}" $inc "$here/quant_check.cpp" $v80_objs -o "$out/quant_check_aarch64_v80" -lpthread
qemu-aarch64-static -L /usr/aarch64-linux-gnu "$out/quant_check_aarch64_v80" > "$out/quant_check_aarch64_v80.txt" ||
    { status=1; grep -v ' checked$' "$out/quant_check_aarch64_v80.txt" | head -20; }
echo "armv8-a (no dotprod): $(tail -1 "$out/quant_check_aarch64_v80.txt")"
aarch64_fma=$(aarch64-linux-gnu-objdump -d "$out/cross_check_aarch64" | grep -c -E 'fmla\s+v[0-9]+\.4s' || true)
echo "aarch64 disassembly: $aarch64_fma NEON fmla .4s instructions"

# x86-64 with Clang: an export is built with the host's default C++ compiler, which may be
# Clang, and the x86 tiles (GCC vector extensions, intrinsics) once compiled under Clang to
# aligned moves on unaligned rows. The float tiles and the int8 kernels, for the widest ISA
# this CPU runs (ctest builds them with GCC: runtime_portable_float_* / runtime_portable_int8_*).
if [ "$(uname -m)" = x86_64 ]; then
    isa=""
    if grep -qw avx512_vnni /proc/cpuinfo; then isa="-march=x86-64-v4 -mavx512vnni"
    elif grep -qw avx2 /proc/cpuinfo; then isa="-march=x86-64-v3"; fi
    if [ -n "$isa" ]; then
        echo "== x86-64 $isa, clang-19"
        # shellcheck disable=SC2206 # the ISA flags are split on purpose
        x86=(clang++-19 $isa -O3 -std=c++17 -Wall -Wextra)
        x86_objs=$(objects x86_clang "${x86[@]}")
        for check in float_tile_check quant_check; do
            # shellcheck disable=SC2086
            "${x86[@]}" $inc "$here/$check.cpp" $x86_objs -o "$out/${check}_x86_clang" -lpthread
            "$out/${check}_x86_clang" > "$out/${check}_x86_clang.txt" ||
                { status=1; grep -v ' checked$' "$out/${check}_x86_clang.txt" | head -20; }
            tail -1 "$out/${check}_x86_clang.txt"
        done
    fi
fi

exit $status
