#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test suite with ctest,
# the end-to-end pipeline suite included (label "jobs": digits, and lenet5 and squeezenet1_1
# when ../shared/models exists, cross-built and run on sim-k230 and sim-rpi5 through
# LocalTransport and the SSH fixture).
#
# Every suite is compiled and run once, in one of two builds (EMBARK_TEST_SET, CMakeLists.txt):
# - build/ (optimized): the studio's suites, the end-to-end "jobs" suites, and the suites whose
#   time goes to the system compilers and qemu (exports compiled and run, cross checks, compiler
#   runs cancelled, XNNPACK cross-built; tests/CMakeLists.txt lists them);
# - build-asan/ (the sanitizer stage): every other suite, run against the engine, the CLI and the
#   kernel runtime built with AddressSanitizer + UndefinedBehaviorSanitizer (the suites' own
#   sources are not instrumented), no studio; any report fails the stage.
# EMBARK_SANITIZERS=0 skips the sanitizer stage and runs every suite in build/; =only runs only
# the sanitizer stage.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The export tests compile hundreds of exports through CMake; with ccache (installed by
# install-deps.sh) and paths relative to this folder, a re-run on the same machine reuses them.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# Under CI (CI=true) the sources must be clang-formatted and compile without a warning.
werror=()
if [ "${CI:-}" = true ]; then
  bash scripts/format.sh --check
  werror=(-DEMBARK_WERROR=ON)
fi
sanitizers="${EMBARK_SANITIZERS:-1}"
if [ "$sanitizers" != "only" ]; then
  set_arg=-DEMBARK_TEST_SET=unsanitized
  [ "$sanitizers" != "0" ] || set_arg=-DEMBARK_TEST_SET=all
  bash scripts/build.sh build "${werror[@]}" "$set_arg"
  (
    cd build
    ctest --output-on-failure --parallel "$(nproc)" --timeout 1800
  )
fi

[ "$sanitizers" != "0" ] || exit 0
echo "== sanitizer stage: ASan + UBSan in build-asan"
start=$(date +%s)
# -O1 keeps the instrumented tests fast without making the build much slower than -O0. -g1
# (line tables, enough for the sanitizers' file:line stack traces) compiles faster than -g and
# makes much smaller objects, so links are faster too.
bash scripts/build.sh build-asan -DEMBARK_TEST_SET=sanitized -DEMBARK_SANITIZE=ON \
  -DEMBARK_BUILD_STUDIO=OFF -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" "-DCMAKE_C_FLAGS_DEBUG=-g1 -O1"
built=$(date +%s)
supp="$PWD/tests/sanitizers"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=0:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
cd build-asan
status=0
ctest --output-on-failure --parallel "$(nproc)" --timeout 1800 || status=$?
end=$(date +%s)
echo "== sanitizer stage: build $((built - start)) s, tests $((end - built)) s"
exit "$status"
