#!/usr/bin/env bash
# Installs everything Embark needs on Debian 12 with apt-get. Idempotent: when every
# package is already present it prints nothing and returns in well under a second.
#   scripts/install-deps.sh        everything: the studio, the CLI, every test suite's tools
#   scripts/install-deps.sh run    only what scripts/run.sh needs (build the CLI and the
#                                  studio, cross-build for sim-k230 with clang-19, run it
#                                  under qemu): a first result without the test-only packages
#                                  (LAVA and PostgreSQL, sshd, the ONNX backend data, the
#                                  aarch64 tool chain and sysroot, Node.js, Xvfb)
set -euo pipefail
profile=${1:-all}
case "$profile" in
all | run) ;;
*)
  echo "usage: scripts/install-deps.sh [run]  (unknown profile '$profile')" >&2
  exit 2
  ;;
esac

# Build the CLI and the studio; export, cross-build and run for the simulated K230.
RUN_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates ccache
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqt6sql6-sqlite libqcustomplot-dev libgl-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libssh-dev
  g++-riscv64-linux-gnu qemu-user-static clang-19 lld-19
)
# The rest: the test suites' tools and data, the other boards' tool chains and XNNPACK.
TEST_PACKAGES=(
  clang-format libonnx-testdata
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  openssh-server openssh-client
  g++-aarch64-linux-gnu qemu-user libclang-rt-19-dev python3-onnx
  xvfb xauth imagemagick
  python3
  # the farm tests' private LAVA instance (scripts/lava-fixture.sh)
  lava-server lava-dispatcher lavacli postgresql curl
)
PACKAGES=("${RUN_PACKAGES[@]}")
[ "$profile" = run ] || PACKAGES+=("${TEST_PACKAGES[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "embark: installing ${#missing[@]} missing package(s): ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "$profile" = all ] || exit 0

# Node.js and npm for ONNX Runtime on the host (`bench --runtime onnxruntime` on the host board
# installs npm's onnxruntime-node into the cache on demand). Checked by command rather than by
# package: a NodeSource nodejs already brings npm, and Debian's npm would conflict with it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "embark: installing Node.js and npm (for ONNX Runtime on the host)"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

# aarch64 XNNPACK for sim-rpi5/rpi4/rpi5 exports (the end-to-end tests use it): a private
# sysroot of Debian's arm64 packages; idempotent and quiet when already there.
"$(dirname "$0")/xnnpack-sysroot.sh"
