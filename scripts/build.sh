#!/usr/bin/env bash
# Configures and builds Embark into a build folder (default: build/). Extra arguments go to
# CMake's configure step, e.g. scripts/build.sh build-asan -DEMBARK_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"
shift || true
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# ccache keeps compiler output across builds and build folders (CI runs on the same machine, so
# the cache persists between runs); CCACHE_BASEDIR makes paths relative so build/ and
# build-asan/ or a fresh clone elsewhere share hits for the same flags.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
  # With -g, ccache otherwise hashes the build folder's absolute path (debug info names it), so
  # a clone in another folder would miss every object; its debug info may then name the folder
  # of the build that filled the cache, which nothing here reads.
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Precompiled headers: ccache can cache the sources that use them only with this sloppiness, and
# with pch_external_checksum it hashes the header's checksum file (embark_pch_checksum,
# CMakeLists.txt) instead of its bytes, which name the build folder: a fresh clone reuses them.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,pch_external_checksum}"
if [ ! -f "$dir/CMakeCache.txt" ]; then
  # Release without debug info: debug info makes the objects many times larger and the compiles
  # and links slower. At -O1, which compiles about a third faster than -O2: the engine's one hot
  # loop, the reference interpreter, keeps -O2 (core/CMakeLists.txt) and the kernel runtime -O3
  # (runtime/CMakeLists.txt). A tree for a debugger: -DCMAKE_BUILD_TYPE=RelWithDebInfo.
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" "${launcher[@]}" "$@" >/dev/null
else
  cmake -S . -B "$dir" "${launcher[@]}" "$@" >/dev/null
fi
# EMBARK_BUILD_TARGETS="a b" builds only those targets (and what they need); "none" only configures.
targets=${EMBARK_BUILD_TARGETS:-}
if [ "$targets" = none ]; then exit 0; fi
# shellcheck disable=SC2086 # the target list is split on purpose
cmake --build "$dir" --parallel "$(nproc)" ${targets:+--target $targets}
