#!/usr/bin/env bash
# Builds tests/runtime/xnnpack_cross (a few XNNPACK wrappers checked against plain loops) for
# aarch64 against Debian's arm64 XNNPACK in the private sysroot, then runs it under
# qemu-aarch64-static with the libraries from lib/ beside the binary, as a board would.
# Usage: tests/runtime/xnnpack_cross_check.sh [BUILD_DIR]   (exit 0 = ok, 77 = skipped)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-$(mktemp -d)}"

for tool in aarch64-linux-gnu-g++ qemu-aarch64-static cmake; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool is missing (apt-get install g++-aarch64-linux-gnu qemu-user-static cmake)"
    exit 77
  fi
done
if [ ! -d /usr/aarch64-linux-gnu/lib ]; then
  echo "SKIP: no aarch64 C library in /usr/aarch64-linux-gnu (apt-get install libc6-dev-arm64-cross)"
  exit 77
fi

# The sysroot script is idempotent and silent when the sysroot already exists.
sysroot_args=()
if [ -n "${EMBARK_XNNPACK_SYSROOT:-}" ]; then sysroot_args=("$EMBARK_XNNPACK_SYSROOT"); fi
if ! "$repo/scripts/xnnpack-sysroot.sh" "${sysroot_args[@]}"; then
  echo "SKIP: could not prepare the arm64 XNNPACK sysroot (scripts/xnnpack-sysroot.sh failed)"
  exit 77
fi

mkdir -p "$build"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$here/xnnpack_cross" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
  -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++ \
  -DCMAKE_FIND_ROOT_PATH=/usr/aarch64-linux-gnu \
  -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
  -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
grep -- '-- XNNPACK:' "$build/configure.log" || true
cmake --build "$build" >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }

file_out="$(file -b "$build/xnnpack_cross" 2>/dev/null || true)"
case "$file_out" in
  *aarch64*|"") ;;
  *) echo "FAIL: the binary is not aarch64: $file_out"; exit 1 ;;
esac
ls "$build/lib/libXNNPACK.so.0" "$build/lib/libpthreadpool.so.0" "$build/lib/libcpuinfo.so.0" >/dev/null

# Run from a copy holding only the binary and lib/, as deployed: the libraries must come
# from $ORIGIN/lib, not from the sysroot.
deploy="$build/deploy"
rm -rf "$deploy" && mkdir -p "$deploy"
cp -r "$build/xnnpack_cross" "$build/lib" "$deploy/"
qemu-aarch64-static -L /usr/aarch64-linux-gnu "$deploy/xnnpack_cross"
