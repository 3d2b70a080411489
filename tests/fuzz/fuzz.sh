#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, a clang ASan+UBSan configuration in build-fuzz/)
# and runs each for SECONDS from a seed corpus of real files, then prints executions, exec/s
# and findings per target. Usage: tests/fuzz/fuzz.sh [SECONDS] [TARGET...]  (default 60 s, all).
# Env: EMBARK_FUZZ_BUILD (build dir), EMBARK_FUZZ_JOBS (ninja -j, default 2), EMBARK_FUZZ_NO_BUILD=1
# (run what is built: for several fuzz.sh at once, since two ninjas must not share a build dir),
# EMBARK_FUZZ_RUNS=N (also stop after N executions, e.g. 1000000).
# Exit status: 0 when no target found anything, 1 when one did (files in findings/<target>/).
set -uo pipefail

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${EMBARK_FUZZ_BUILD:-$SRC/build-fuzz}"
SECONDS_PER_TARGET="${1:-60}"
shift || true
ALL_TARGETS=(fuzz_run_protocol fuzz_board_file fuzz_tensor_files fuzz_onnx_import)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")

if [ "${EMBARK_FUZZ_NO_BUILD:-0}" = 1 ]; then
  :
elif [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DEMBARK_FUZZ=ON -DEMBARK_BUILD_STUDIO=OFF -DEMBARK_BUILD_TESTS=OFF \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
fi
if [ "${EMBARK_FUZZ_NO_BUILD:-0}" != 1 ]; then
  ninja -C "$BUILD" -j"${EMBARK_FUZZ_JOBS:-2}" "${TARGETS[@]}" >"$BUILD/fuzz-build.log" 2>&1 \
    || { tail -30 "$BUILD/fuzz-build.log"; echo "fuzz.sh: build failed (log: $BUILD/fuzz-build.log)"; exit 2; }
fi

# Seeds: real files, copied into a per-target corpus folder the fuzzer also grows.
seed() { # target files...
  local dir="$BUILD/fuzz-corpus/$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/$(echo "$f" | md5sum | cut -c1-12)_$(basename "$f")"; done
}
TESTDATA=/usr/share/libonnx-testdata/data/node
seed_target() {
  case "$1" in
    fuzz_onnx_import)
      # The digits model, the bad corpus and a few dozen small operator models.
      seed "$1" "$SRC"/resources/models/*.onnx "$SRC"/tests/data/bad/*.onnx \
        $(ls -d "$TESTDATA"/*/ 2>/dev/null | awk 'NR % 25 == 1' | head -40 | sed 's|/$|/model.onnx|')
      ;;
    fuzz_tensor_files)
      seed "$1" "$SRC"/resources/models/digits_cnn/test_data_set_0/*.pb "$SRC"/tests/fuzz/seeds/tensor_files/* \
        $(ls -d "$TESTDATA"/*/ 2>/dev/null | awk 'NR % 40 == 1' | head -25 | sed 's|/$|/test_data_set_0/input_0.pb|')
      ;;
    fuzz_board_file) seed "$1" "$SRC"/boards/*.json ;;
    fuzz_run_protocol) seed "$1" "$SRC"/tests/fuzz/seeds/run_protocol/* ;;
  esac
}

# exec/s is per wall-clock second; exec/cpu-s per second of the fuzzer's own CPU time (the
# shared host is loaded, so the second says what the target itself costs).
printf '%-20s %8s %8s %12s %10s %13s %9s\n' target seconds cpu-s executions exec/s exec/cpu-s findings
found=0
for t in "${TARGETS[@]}"; do
  seed_target "$t"
  findings="$BUILD/fuzz-findings/$t"
  mkdir -p "$findings"
  log="$BUILD/fuzz-$t.log"
  # Leak checks off: Qt and protobuf keep process-lifetime caches that LSan reports as leaks.
  # -print_funcs=0: naming each newly covered function runs the symbolizer (slow at start).
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer || command -v llvm-symbolizer-19)}" \
    /usr/bin/time -f '%U %S' -o "$log.cpu" "$BUILD/$t" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
      ${EMBARK_FUZZ_RUNS:+-runs=$EMBARK_FUZZ_RUNS} -print_funcs=0 -print_final_stats=1 -artifact_prefix="$findings/" "$BUILD/fuzz-corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cpu=$(awk '/^[0-9.]+ [0-9.]+$/ {printf "%.0f", $1 + $2}' "$log.cpu" 2>/dev/null)
  per_cpu="?"
  [ -n "${execs:-}" ] && [ "${cpu:-0}" -gt 0 ] && per_cpu=$((execs / cpu))
  # slow-unit-* files are units over 10 s of wall time: on a loaded host that is usually the
  # scheduler, so they are listed apart (replay one to tell) rather than counted as findings.
  n=$(find "$findings" -type f ! -name 'slow-unit-*' | wc -l)
  slow=$(find "$findings" -type f -name 'slow-unit-*' | wc -l)
  [ "$slow" -gt 0 ] && echo "    $t: $slow slow unit(s) in $findings (replay: $BUILD/$t FILE)"
  [ "$rc" -ne 0 ] && [ "$n" -eq 0 ] && n="rc=$rc"
  printf '%-20s %8s %8s %12s %10s %13s %9s\n' "$t" "$SECONDS_PER_TARGET" "${cpu:-?}" "${execs:-?}" "${rate:-?}" "$per_cpu" "$n"
  if [ "$n" != 0 ]; then
    found=1
    grep -m3 -E 'ERROR: |runtime error|SUMMARY' "$log" | sed 's/^/    /'
    echo "    log: $log  findings: $findings"
  fi
done
exit $found
