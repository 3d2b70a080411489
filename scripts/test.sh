#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test suite with ctest,
# the end-to-end pipeline suite included (label "jobs": digits, and lenet5 and squeezenet1_1
# when ../shared/models exists, cross-built and run on sim-k230 and sim-rpi5 through
# LocalTransport and the SSH fixture; ~5 min without the shared models, ~10 with them).
#
# Then the sanitizer stage (skip it with EMBARK_SANITIZERS=0, run only it with =only): the engine and the tests built
# again with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan (no studio), and the
# unit and integration suites run there (only their executables are built); any report fails
# the stage. Left out there, because they spend their time in the system compilers and qemu
# rather than in Embark's code (which the other suites already exercise under the sanitizers):
# the export suites that compile exports (export_export_conformance_*, _models, _cli, _quantized, _recurrent, _control_flow, _typed,
# _quantized_xnnpack, _opset_newer, _dynamic_length, export_xnnpack_export_errors), the cross checks (shell scripts), hardening_build_faults
# (cancel trials of a compiler run), the "jobs" end-to-end suite, and xnnpack_build (a cross
# build of XNNPACK itself).
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
if [ "${EMBARK_SANITIZERS:-1}" != "only" ]; then
  bash scripts/build.sh build "${werror[@]}"
  (
    cd build
    ctest --output-on-failure --parallel "$(nproc)" --timeout 1800
  )
fi

[ "${EMBARK_SANITIZERS:-1}" != "0" ] || exit 0
echo "== sanitizer stage: ASan + UBSan in build-asan"
start=$(date +%s)
# -O1 keeps the instrumented tests fast without making the build much slower than -O0. -g1
# (line tables, enough for the sanitizers' file:line stack traces) compiles faster than -g and
# makes much smaller objects, so links are faster too.
asan_flags=(-DEMBARK_SANITIZE=ON -DEMBARK_BUILD_STUDIO=OFF -DCMAKE_BUILD_TYPE=Debug
  "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" "-DCMAKE_C_FLAGS_DEBUG=-g1 -O1")
# The suites this stage runs; only their executables (test NAME runs target tst_NAME) and the
# CLI they call are built, not the left-out suites, the benchmarks or the tools.
asan_filter=(--label-exclude '^(jobs|cross)$'
  -E '^(export_export_conformance_[0-9]+of[0-9]+|export_export_models|export_export_cli|export_export_quantized|export_export_recurrent|export_export_control_flow|export_export_typed|export_export_quantized_xnnpack|export_export_opset_newer|export_export_dynamic_length|export_xnnpack_export_errors|hardening_build_faults|xnnpack_build)$')
EMBARK_BUILD_TARGETS=none bash scripts/build.sh build-asan "${asan_flags[@]}"
known=$(cmake --build build-asan --target help | sed -n -e 's/^\([^ :]*\): phony$/\1/p' -e 's/^\.\.\. \([^ ]*\)$/\1/p')
asan_targets=$(cd build-asan && ctest -N "${asan_filter[@]}" | sed -n 's/^ *Test *#[0-9]*: \(.*\)$/tst_\1/p' |
  grep -Fxf <(echo "$known") | tr '\n' ' ') || true
[ -n "$asan_targets" ] || { echo "sanitizer stage: no test executable found in build-asan" >&2; exit 1; }
EMBARK_BUILD_TARGETS="embark-cli $asan_targets" bash scripts/build.sh build-asan "${asan_flags[@]}"
built=$(date +%s)
supp="$PWD/tests/sanitizers"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=0:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
cd build-asan
status=0
ctest --output-on-failure --parallel "$(nproc)" --timeout 1800 "${asan_filter[@]}" || status=$?
end=$(date +%s)
echo "== sanitizer stage: build $((built - start)) s, tests $((end - built)) s"
exit "$status"
