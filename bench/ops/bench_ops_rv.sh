#!/usr/bin/env bash
# The RISC-V side of bench/ops (issue 32): portable vs upstream XNNPACK per grid config on the
# simulated boards, by retired instructions. make_rv_model.py puts the conv / depthwise / pool /
# resize / matmul configs into one model (node NAME = config NAME); it is exported once per board
# and library (XNNPACK from ../shared/xnnpack/prebuilt/riscv64 through XNNPACK_ROOT, as
# bench_libs_qemu.sh does), built, and run once under the board's qemu with the counting plugin
# (runtime/tools/insn_count.c, marks=on): `run_export --warmup 0 --iterations 1 --threads 1
# --layers --check 1e-4`, bench/libs/marks.py turns the marks into instructions per layer. Counts
# are deterministic: one run each, no rounds. The check compares every config's output with the
# host reference within 1e-4. A config XNNPACK lacks runs on portable in the XNNPACK export
# (shown as "-"); layout conversions are layers of their own, left out of the op's count.
# Prints one row per config and board: instructions of both, the ratio portable / XNNPACK, a flag
# on every ratio above 1.0x; then the geomean per board.
# --auto adds a third export with `--lib auto` (each node on the library that counted fewer
# instructions for its shape on that board, docs/cli.md; measurements cached in
# BENCH_DIR/lib-auto.json) and prints, per board, its count per config with the library it chose,
# and the whole grid model's count (every layer, conversions included) against each single library.
#   bench/ops/bench_ops_rv.sh [--only NAME,NAME...] [--auto]
# Environment: EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-ops-rv (REUSE=1 keeps
#   its builds and counts)  BOARDS="sim-k230 sim-k1"  XNNPACK_PREBUILT=dir with riscv64/
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
work=${BENCH_DIR:-/tmp/embark-bench-ops-rv}
boards=${BOARDS:-"sim-k230 sim-k1"}
prebuilt=${XNNPACK_PREBUILT:-"$root/../shared/xnnpack/prebuilt"}
py=/usr/bin/python3
only=()
libs="portable xnnpack"
while [ $# -gt 0 ]; do
    case "$1" in
    --only) only=(--only "$2"); shift ;;
    --auto) libs="portable xnnpack auto" ;;
    *) echo "usage: bench_ops_rv.sh [--only NAME,NAME...] [--auto]" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$cli" ] || { echo "bench_ops_rv: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ -d "$prebuilt/riscv64" ] || { echo "bench_ops_rv: no XNNPACK tree at $prebuilt/riscv64 (set XNNPACK_PREBUILT)" >&2; exit 2; }
command -v qemu-riscv64 > /dev/null || { echo "bench_ops_rv: qemu-riscv64 missing (Debian package qemu-user)" >&2; exit 2; }
mkdir -p "$work"
if command -v ccache > /dev/null; then
    export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
    export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=true
fi
plugin="$work/insn_count.so"
if [ ! -f "$plugin" ] || [ "$root/runtime/tools/insn_count.c" -nt "$plugin" ]; then
    cc -O2 -Wall -Wextra -shared -fPIC -o "$plugin" "$root/runtime/tools/insn_count.c"
fi
"$py" "$here/make_rv_model.py" "$work/grid.onnx" "${only[@]}" > "$work/configs.txt"
echo "bench_ops_rv: $(wc -l < "$work/configs.txt") configs, boards $boards, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# The board's qemu command line without -static: "qemu-riscv64 -cpu ... -L ...".
board_qemu() {
    "$py" -c '
import json, sys
prefix = json.load(open(sys.argv[1]))["runner"]["exec_prefix"]
prefix[0] = prefix[0].replace("-static", "")
print(" ".join(prefix))' "$root/boards/$1.json"
}

for board in $boards; do
    for lib in $libs; do
        dir="$work/${board}_$lib"
        log="$dir.log"
        if [ "${REUSE:-0}" = 1 ] && [ -s "$dir/insns.jsonl" ]; then continue; fi
        t0=$(date +%s)
        EMBARK_LIB_AUTO_CACHE="$work/lib-auto.json" XNNPACK_ROOT="$prebuilt/riscv64" \
            "$cli" export "$work/grid.onnx" --board "$board" --lib "$lib" -o "$dir" \
            --force > "$log" 2>&1 || { echo "bench_ops_rv: export $board $lib failed (see $log)" >&2; continue; }
        XNNPACK_ROOT="$prebuilt/riscv64" "$cli" build "$dir" --jobs 2 --quiet >> "$log" 2>&1 ||
            { echo "bench_ops_rv: build $board $lib failed (see $log)" >&2; continue; }
        qemu=$(board_qemu "$board")
        # shellcheck disable=SC2086
        if ! (cd "$dir/build" && $qemu -plugin "$plugin,marks=on" -d plugin -D "$dir/plugin.txt" ./run_export \
            --warmup 0 --iterations 1 --threads 1 --layers --check 1e-4 --out "$dir/out" > "$dir/layers.jsonl"); then
            echo "bench_ops_rv: $board $lib: run_export failed or a check failed:" >&2
            grep '"check"' "$dir/layers.jsonl" | grep -v '"ok":true' >&2 || true
        fi
        "$py" "$root/bench/libs/marks.py" "$dir/plugin.txt" "$dir/layers.jsonl" > "$dir/insns.jsonl" ||
            { echo "bench_ops_rv: $board $lib: no marks" >&2; continue; }
        echo "bench_ops_rv: $board $lib counted in $(($(date +%s) - t0)) s"
    done
done

"$py" - "$work" "$boards" "$libs" <<'EOF'
import json, math, os, sys
work, boards, libs = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
configs = [l.rstrip("\n").split("\t") for l in open(os.path.join(work, "configs.txt"))]

def layers(board, lib):
    p = os.path.join(work, "%s_%s" % (board, lib))
    out, checks = {}, {}
    if os.path.exists(p + "/insns.jsonl"):
        for l in open(p + "/insns.jsonl"):
            o = json.loads(l)
            if o.get("type") == "layer":
                out[o["node"]] = (o["insns"], o["lib"])
    if os.path.exists(p + "/layers.jsonl"):
        for l in open(p + "/layers.jsonl"):
            if l.startswith("{") and '"check"' in l:
                o = json.loads(l)
                checks[o["output"]] = (o.get("ok"), o.get("max_abs"))
    return out, checks

for board in boards:
    port, pchk = layers(board, "portable")
    xnn, xchk = layers(board, "xnnpack")
    print("\n%s: retired instructions per inference of the op, portable vs upstream XNNPACK" % board)
    print("%-24s %12s %12s %7s %s" % ("config", "portable", "xnnpack", "ratio", "check (max_abs p / x)"))
    ratios, flagged = [], []
    for name, desc in configs:
        p = port.get(name)
        x = xnn.get(name)
        pc = pchk.get(name + "__y", (None, None))
        xc = xchk.get(name + "__y", (None, None))
        chk = "%s %.1e / %s %.1e" % ("ok" if pc[0] else "FAIL", pc[1] or 0, "ok" if xc[0] else "FAIL", xc[1] or 0)
        if p is None:
            print("%-24s %12s %12s %7s %s" % (name, "?", "?", "", chk))
            continue
        if x is None or x[1] != "xnnpack":
            print("%-24s %12d %12s %7s %s" % (name, p[0], "-", "", chk))
            continue
        r = p[0] / max(x[0], 1)
        ratios.append(r)
        flag = "  << above 1.0x" if r > 1.0 else ""
        if flag:
            flagged.append(name)
        print("%-24s %12d %12d %6.2fx %s%s" % (name, p[0], x[0], r, chk, flag))
    if ratios:
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("%s: %d configs on both, geomean %.2fx, %d above 1.0x: %s" %
              (board, len(ratios), g, len(flagged), " ".join(flagged)))
    if "auto" not in libs:
        continue
    auto, achk = layers(board, "auto")
    print("\n%s: --lib auto, per config (the library it chose) against the better single library" % board)
    print("%-24s %12s %-9s %12s %7s %s" % ("config", "auto", "chose", "best single", "ratio", "check"))
    worse = []
    for name, desc in configs:
        a, p, x = auto.get(name), port.get(name), xnn.get(name)
        if a is None or p is None:
            print("%-24s %12s" % (name, "?"))
            continue
        best = min(p[0], x[0]) if x is not None and x[1] == "xnnpack" else p[0]
        r = a[0] / max(best, 1)
        c = achk.get(name + "__y", (None, None))
        note = "  << above 1.0x" if r > 1.0 else ""
        if note:
            worse.append(name)
        print("%-24s %12d %-9s %12d %6.2fx %s %.1e%s" % (name, a[0], a[1], best, r, "ok" if c[0] else "FAIL", c[1] or 0, note))
    totals = {lib: sum(n for n, _ in d.values()) for lib, d in (("portable", port), ("xnnpack", xnn), ("auto", auto))}
    best_lib = min(("portable", "xnnpack"), key=lambda lib: totals[lib] or float("inf"))
    print("%s: whole grid model (every layer, conversions included): portable %d, xnnpack %d, auto %d; "
          "auto / %s %.3fx; %d configs above their better library: %s" %
          (board, totals["portable"], totals["xnnpack"], totals["auto"], best_lib,
           totals["auto"] / max(totals[best_lib], 1), len(worse), " ".join(worse)))
EOF
