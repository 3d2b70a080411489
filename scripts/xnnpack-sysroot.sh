#!/usr/bin/env bash
# Extracts Debian's arm64 XNNPACK, pthreadpool and cpuinfo into a private sysroot so that
# aarch64 exports can link XNNPACK. Usage: scripts/xnnpack-sysroot.sh [DIR]
#
# The arm64 packages cannot be installed beside the amd64 ones (same paths, and pulling
# libc6:arm64 in makes qemu-user hang in pthread_create), so they are downloaded with
# `apt-get download` and unpacked with `dpkg-deb -x` into DIR, which nothing else uses.
# DIR defaults to /opt/embark/sysroot-arm64 when that is writable, else
# ${XDG_CACHE_HOME:-~/.cache}/embark/sysroot-arm64; runtime/xnnpack/xnnpack.cmake
# looks in both (or in EMBARK_XNNPACK_SYSROOT). Idempotent and silent when already done.
set -euo pipefail

PACKAGES=(libxnnpack0 libxnnpack-dev libpthreadpool0 libpthreadpool-dev libcpuinfo0 libcpuinfo-dev)
MULTIARCH=aarch64-linux-gnu
STAMP_NAME=.embark-xnnpack-sysroot

default_dir() {
  if mkdir -p /opt/embark 2>/dev/null && [ -w /opt/embark ]; then
    echo /opt/embark/sysroot-arm64
  else
    echo "${XDG_CACHE_HOME:-$HOME/.cache}/embark/sysroot-arm64"
  fi
}

DIR="${1:-$(default_dir)}"
STAMP="$DIR/$STAMP_NAME"

complete() {
  [ -f "$STAMP" ] && [ -f "$DIR/usr/include/xnnpack.h" ] &&
    [ -e "$DIR/usr/lib/$MULTIARCH/libXNNPACK.so" ] &&
    [ -e "$DIR/usr/lib/$MULTIARCH/libpthreadpool.so" ] &&
    [ -e "$DIR/usr/lib/$MULTIARCH/libcpuinfo.so" ]
}

if complete; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "embark: enabling the arm64 architecture for apt (dpkg --add-architecture arm64)"
  $SUDO dpkg --add-architecture arm64
fi

# Only refresh the indexes when apt does not know the arm64 packages yet.
if ! apt-cache show libxnnpack0:arm64 >/dev/null 2>&1; then
  echo "embark: apt-get update (to list the arm64 packages)"
  $SUDO apt-get update -qq
fi
for p in "${PACKAGES[@]}"; do
  if ! apt-cache show "$p:arm64" >/dev/null 2>&1; then
    echo "embark: apt does not know $p:arm64; check /etc/apt/sources.list for a Debian 12 (bookworm) main entry" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  # As root, apt drops to the _apt user to download, which cannot write a private temp dir.
  apt-get download -qq -o APT::Sandbox::User=root "${PACKAGES[@]/%/:arm64}" >/dev/null
)

mkdir -p "$DIR"
for deb in "$work"/*.deb; do
  dpkg-deb -x "$deb" "$DIR"
done
for deb in "$work"/*.deb; do
  dpkg-deb -f "$deb" Package Version | paste -sd' '
done >"$STAMP"

if ! complete; then
  echo "embark: the arm64 packages were unpacked into $DIR but xnnpack.h or a library is missing" >&2
  exit 1
fi
echo "embark: arm64 XNNPACK sysroot ready in $DIR"
