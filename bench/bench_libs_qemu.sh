#!/bin/sh
# Retired instructions per inference under qemu-user (issue 15): Embark's portable export vs an
# XNNPACK export linked with upstream XNNPACK (fb000666, ../shared/xnnpack/prebuilt/ARCH via
# XNNPACK_ROOT) on sim-k230 (riscv64, RVV VLEN 128), sim-k1 (riscv64, VLEN 256) and sim-rpi5
# (aarch64, NEON), for ResNet-18 and MobileNet-V2, whole model and per layer.
# Counted by runtime/tools/insn_count.c (qemu 7.2 TCG plugin, built here for the host) with marks=on:
# one run per export, `run_export --warmup 0 --iterations 1 --threads 1 --layers --check 1e-3`,
# and bench/libs/marks.py reads the count at the clock reads around the timed inference and
# after each layer: the whole inference and each layer (fused blocks run layer by layer, which
# can count slightly differently from the fused forward(); PLAIN=1 adds a run of forward()). The whole-model figure is what bench_rvv_instructions.sh
# gets as count(2 iterations) - count(1 iteration), without the printing between iterations. Counts are deterministic, so no rounds; they count
# instructions, not the work of each: one RVV instruction at VLEN 256 does twice the lanes of
# one at VLEN 128 (and qemu's TCG time per vector instruction says nothing about a real core).
# qemu and its flags come from each board's runner.exec_prefix (qemu-*-static takes no plugins,
# so the dynamic qemu-* of the same name is used).
# Usage: bench/bench_libs_qemu.sh [model...]      (default: resnet18 mobilenet_v2; a name not in
#   ../shared/models is taken from the model zoo, ZOO_DIR=~/.cache/embark/zoo, see zoo/make_zoo.py)
#   EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-libs-qemu  BOARDS="sim-k230 sim-k1 sim-rpi5"
#   LIBS="portable xnnpack" (add portable-vlen for a VLEN build of a board that does not pass it; auto for --lib auto, which
#   measures retired instructions per node first; EMBARK_LIB_AUTO_CACHE for a cache of the run's own)  REUSE=1 (keep earlier exports/builds)  XNNPACK_PREBUILT=dir with ARCH/ trees
# Time: qemu 7.2 emulates RVV slowly. Measured with --layers (init runs one forward too, so a
# run is two inferences): ResNet-18 portable on sim-k230 ~10 CPU minutes per run, MobileNet-V2
# a few; aarch64 (NEON through TCG) is faster. A full run is hours of CPU on a shared 2-core
# machine: run one instance per board in parallel (same BENCH_DIR), pick models and LIBS, and
# print the tables with SUMMARY_ONLY=1 when they are done.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
prebuilt=${XNNPACK_PREBUILT:-"$root/../shared/xnnpack/prebuilt"}
zoo=${ZOO_DIR:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/zoo"}
work=${BENCH_DIR:-/tmp/embark-bench-libs-qemu}
boards=${BOARDS:-"sim-k230 sim-k1 sim-rpi5"}
libs=${LIBS:-"portable xnnpack"}
[ -x "$cli" ] || { echo "bench_libs_qemu: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ $# -gt 0 ] || set -- resnet18 mobilenet_v2
mkdir -p "$work"

plugin="$work/insn_count.so"

model_path() {
    case "$1" in
    digits) echo "$root/resources/models/digits_cnn.onnx" ;;
    *) if [ -f "$shared/$1.onnx" ] || [ ! -f "$zoo/$1.onnx" ]; then echo "$shared/$1.onnx"; else echo "$zoo/$1.onnx"; fi ;;
    esac
}

# The board's qemu command line without -static: "qemu-riscv64 -cpu ... -L ...".
board_qemu() {
    python3 -c '
import json, sys
prefix = json.load(open(sys.argv[1]))["runner"]["exec_prefix"]
prefix[0] = prefix[0].replace("-static", "")
print(" ".join(prefix))' "$root/boards/$1.json"
}
# board_field BOARD FIELD: a field of boards/BOARD.json (a list is joined with spaces).
board_field() {
    python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))[sys.argv[2]]
print(" ".join(v) if isinstance(v, list) else v)' "$root/boards/$1.json" "$2"
}

# measure MODEL BOARD LIB: export, build and count one configuration into $dir/count.txt
# ("model board lib instructions source seconds"; source: plain or layers, see PLAIN).
measure() {
    model=$1 board=$2 lib=$3
    onnx=$(model_path "$model")
    arch=$(board_field "$board" arch)
    vlen=$(board_field "$board" vlen_bits)
    qemu=$(board_qemu "$board")
    dir="$work/${model}_${board}_$lib"
    log="$work/${model}_${board}_$lib.log"
    # portable-vlen: the portable export compiled with the board's cflags plus
    # -DEMBARK_VLEN_BITS=<the board's VLEN> (config.h and depthwise.cpp size their vectors by
    # it) and -march=rv64gcv_zvl<VLEN>b (config.h's 6 x 32 tile needs the compiler to know the
    # VLEN), for a board whose cflags do not list its VLEN. Only where VLEN is not 128.
    if [ "$lib" = portable-vlen ] && { [ "$arch" != riscv64 ] || [ "$vlen" = 128 ]; }; then return 0; fi
    if [ "${REUSE:-0}" = 1 ] && [ -f "$dir/count.txt" ]; then return 0; fi
    if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
        # XNNPACK_ROOT also at export time: riscv64 has no system XNNPACK to fall back on.
        if ! XNNPACK_ROOT="$prebuilt/$arch" "$cli" export "$onnx" --board "$board" --lib "${lib%-vlen}" -o "$dir" \
            --force > "$log" 2>&1; then
            echo "bench_libs_qemu: export $model $board $lib failed (see $log)" >&2
            return 0
        fi
        case "$lib" in
        xnnpack) XNNPACK_ROOT="$prebuilt/$arch" "$cli" build "$dir" --jobs 2 --quiet >> "$log" 2>&1 ;;
        portable-vlen)
            # What `embark-cli build` runs (toolchain file + the board's flags), plus the VLEN.
            cmake -S "$dir" -B "$dir/build" -G Ninja --toolchain "$dir/toolchain.cmake" \
                -DEMBARK_TARGET_FLAGS="$(board_field "$board" cflags) -march=rv64gcv_zvl${vlen}b -DEMBARK_VLEN_BITS=$vlen" >> "$log" 2>&1 &&
                cmake --build "$dir/build" -j 2 >> "$log" 2>&1 ;;
        *) "$cli" build "$dir" --jobs 2 --quiet >> "$log" 2>&1 ;;
        esac || { echo "bench_libs_qemu: build $model $board $lib failed (see $log)" >&2; return 0; }
    fi
    t0=$(date +%s)
    status=0
    # The --layers run: each layer, the output check, and the whole inference. PLAIN=1 adds a
    # run of forward() itself (PLAIN=auto: only for exports with fused inverted bottlenecks),
    # which costs a second qemu run for little: the fused blocks save memory traffic, not
    # instructions (both counts differ by a fraction of a percent).
    # shellcheck disable=SC2086
    (cd "$dir/build" && $qemu -plugin "$plugin,marks=on" -d plugin ./run_export --warmup 0 --iterations 1 \
        --threads 1 --layers --check 1e-3 --out "$dir/out" > "$dir/layers.jsonl" 2> "$dir/layers_plugin.txt") || status=$?
    plain=${PLAIN:-0}
    if [ "$plain" = auto ]; then
        if grep -q inverted_bottleneck "$dir/export.json"; then plain=1; else plain=0; fi
    fi
    if [ "$status" = 0 ] && [ "$plain" = 1 ]; then
        # shellcheck disable=SC2086
        (cd "$dir/build" && $qemu -plugin "$plugin,marks=on" -d plugin ./run_export --warmup 0 --iterations 1 \
            --threads 1 --out "$dir/out" > "$dir/run.jsonl" 2> "$dir/plugin.txt") || status=$?
    fi
    seconds=$(($(date +%s) - t0))
    if [ "$status" != 0 ]; then
        echo "bench_libs_qemu: $model $board $lib: run_export exited $status under qemu ($seconds s):" >&2
        grep -h '"check"\|"error"' "$dir"/*.jsonl >&2 || true
        grep -hv '^mark \|^insns ' "$dir"/*plugin.txt | tail -5 >&2 || true
        echo "$model $board $lib failed $status $seconds" > "$dir/count.txt"
        return 0
    fi
    if ! python3 "$here/libs/marks.py" "$dir/layers_plugin.txt" "$dir/layers.jsonl" > "$dir/insns.jsonl"; then
        echo "bench_libs_qemu: $model $board $lib: no marks (see $dir/layers_plugin.txt)" >&2
        return 0
    fi
    if [ "$plain" = 1 ]; then
        python3 "$here/libs/marks.py" "$dir/plugin.txt" "$dir/run.jsonl" >> "$dir/insns.jsonl" || return 0
        source=plain
        whole=$(python3 -c 'import json, sys; print([json.loads(l) for l in open(sys.argv[1])][-1]["forward"])' "$dir/insns.jsonl")
    else
        source=layers
        whole=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["profiled"])' "$dir/insns.jsonl")
    fi
    echo "$model $board $lib $whole $source $seconds" > "$dir/count.txt"
    echo "  $model $board $lib: $whole instructions per inference ($source run; $seconds s under qemu)"
}

if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
    # Built into a temporary name and renamed: several instances (one per board) may share $work.
    cc -O2 -Wall -Wextra -shared -fPIC -o "$plugin.$$" "$root/runtime/tools/insn_count.c" && mv "$plugin.$$" "$plugin"
    echo "bench_libs_qemu: $(qemu-riscv64 --version | head -1), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for model in "$@"; do
        [ -f "$(model_path "$model")" ] || { echo "bench_libs_qemu: $(model_path "$model") is missing" >&2; continue; }
        "$cli" inspect "$(model_path "$model")" --json > "$work/${model}_inspect.json.$$" &&
            mv "$work/${model}_inspect.json.$$" "$work/${model}_inspect.json"
        for board in $boards; do
            for lib in $libs; do measure "$model" "$board" "$lib"; done
        done
    done
fi
: > "$work/counts.txt"
for model in "$@"; do
    for board in sim-k230 sim-k1 sim-rpi5; do
        for lib in portable xnnpack portable-vlen; do
            dir="$work/${model}_${board}_$lib"
            # A run stopped after its --layers pass (e.g. its plain run was interrupted) still counts.
            if [ ! -f "$dir/count.txt" ] && [ -f "$dir/layers_plugin.txt" ] &&
                python3 "$here/libs/marks.py" "$dir/layers_plugin.txt" "$dir/layers.jsonl" > "$dir/insns.jsonl" 2> /dev/null; then
                whole=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["profiled"])' "$dir/insns.jsonl")
                echo "$model $board $lib $whole layers 0" > "$dir/count.txt"
            fi
            if [ -f "$dir/count.txt" ]; then cat "$dir/count.txt" >> "$work/counts.txt"; fi
        done
    done
done

echo
echo "retired instructions per inference (millions), 1 thread; ratio = portable / upstream XNNPACK (goal <= 1.00)"
python3 - "$work/counts.txt" <<'PY'
import sys
rows, order, layers_only = {}, [], set()
for line in open(sys.argv[1]):
    f = line.split()
    key = (f[0], f[1])
    if key not in order:
        order.append(key)
    rows.setdefault(key, {})[f[2]] = None if f[3] == "failed" else int(f[3])
    if f[3] != "failed" and f[4] == "layers":
        layers_only.add(key + (f[2],))
def cell(r, lib):
    if lib not in r:
        return "%14s" % "-"
    if r[lib] is None:
        return "%14s" % "failed"
    return "%13.1f%s" % (r[lib] / 1e6, "L" if key + (lib,) in layers_only else " ")
def ratio(r, lib):
    return "%7.2f" % (r[lib] / r["xnnpack"]) if r.get(lib) and r.get("xnnpack") else "%7s" % "-"
print("%-13s %-9s %14s %14s %7s %14s %7s" % ("model", "board", "portable M", "xnnpack M", "ratio", "portable-vlen", "ratio"))
for key in order:
    r = rows[key]
    print("%-13s %-9s %s %s %s %s %s" % (key[0], key[1], cell(r, "portable"), cell(r, "xnnpack"), ratio(r, "portable"),
                                        cell(r, "portable-vlen"), ratio(r, "portable-vlen")))
print("L: from the --layers run (fused blocks run layer by layer: ~0.1% more instructions than forward()")
print("   on MobileNet-V2); the other figures from a plain run of forward() (PLAIN=1)")
PY
for model in "$@"; do
    for board in $boards; do
        p="$work/${model}_${board}_portable"
        x="$work/${model}_${board}_xnnpack"
        if [ ! -f "$p/insns.jsonl" ] || [ ! -f "$x/insns.jsonl" ]; then continue; fi
        echo
        echo "== $model on $board: per layer, portable vs upstream XNNPACK (millions of instructions, --layers pass) =="
        python3 "$here/libs/layer_compare.py" --key insns --inspect "$work/${model}_inspect.json" \
            portable "$p" "$p/insns.jsonl" xnnpack "$x" "$x/insns.jsonl"
        v="$work/${model}_${board}_portable-vlen"
        [ -f "$v/insns.jsonl" ] || continue
        echo
        echo "== $model on $board: portable built for VLEN $(board_field "$board" vlen_bits) vs upstream XNNPACK (top 12) =="
        python3 "$here/libs/layer_compare.py" --key insns --top 12 --inspect "$work/${model}_inspect.json" \
            portable-vlen "$v" "$v/insns.jsonl" xnnpack "$x" "$x/insns.jsonl"
    done
done
echo "bench_libs_qemu: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
