#!/usr/bin/env node
// Times one ONNX model with ONNX Runtime's CPU provider (npm's onnxruntime-node) and prints
// run_export's JSON lines ({"type":"latency","iteration":I,"ns":N}), so that the readers of
// bench/export/ summarise it like an export. Used by bench/bench_xnnpack_host.sh.
// Usage: node ort_runner.js MODEL.onnx [--input TENSOR.pb] [--threads T] [--warmup W] [--iterations N]
//   NODE_PATH must reach onnxruntime-node (the script installs it into its cache folder).
// One session per run: intraOpNumThreads T, interOpNumThreads 1, sequential execution, all
// graph optimisations (ORT's defaults otherwise, e.g. its spinning thread pool). A timed run is
// session.run(): ORT's native Run plus the binding's setImmediate hop and the copy of the
// outputs into JS tensors (tens of microseconds; ResNet-18 takes milliseconds).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

function usage(message) {
    process.stderr.write(`ort_runner: ${message}\n` +
        'usage: ort_runner.js MODEL.onnx [--input TENSOR.pb] [--threads T] [--warmup W] [--iterations N]\n');
    process.exit(2);
}

function parseArgs(argv) {
    const o = { model: '', input: '', threads: 1, warmup: 3, iterations: 20 };
    for (let i = 0; i < argv.length; ++i) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
        if (a === '--input') o.input = next();
        else if (a === '--threads') o.threads = Number(next());
        else if (a === '--warmup') o.warmup = Number(next());
        else if (a === '--iterations') o.iterations = Number(next());
        else if (a.startsWith('--')) usage(`unknown option ${a}`);
        else o.model = a;
    }
    if (!o.model) usage('no model');
    if (!(o.threads >= 1 && o.iterations >= 1 && o.warmup >= 0)) usage('threads and iterations must be >= 1');
    return o;
}

// The few TensorProto fields a float32 test input uses: dims (1), data_type (2), float_data (4),
// raw_data (9). Protobuf wire format: varints, and length-delimited fields.
function readTensorProto(path) {
    const b = fs.readFileSync(path);
    let p = 0;
    const varint = () => {
        let v = 0, shift = 1;
        for (;;) {
            const byte = b[p++];
            v += (byte & 0x7f) * shift;
            if (byte < 0x80) return v;
            shift *= 128;
        }
    };
    const dims = [];
    let data = null, floats = [];
    while (p < b.length) {
        const key = varint(), field = Math.floor(key / 8), wire = key & 7;
        if (wire === 0) {
            const v = varint();
            if (field === 1) dims.push(v);
            else if (field === 2 && v !== 1) throw new Error(`${path}: data_type ${v} is not float32`);
        } else if (wire === 2) {
            const len = varint(), end = p + len;
            if (field === 1) { while (p < end) dims.push(varint()); }
            else if (field === 9) data = new Float32Array(b.buffer.slice(b.byteOffset + p, b.byteOffset + end));
            else if (field === 4) floats = Array.from(new Float32Array(b.buffer.slice(b.byteOffset + p, b.byteOffset + end)));
            p = end;
        } else if (wire === 5) p += 4;
        else if (wire === 1) p += 8;
        else throw new Error(`${path}: unexpected wire type ${wire}`);
    }
    return { dims, data: data || Float32Array.from(floats) };
}

function sampleInput(session, path) {
    if (path) {
        const t = readTensorProto(path);
        return new ort.Tensor('float32', t.data, t.dims);
    }
    const meta = session.inputMetadata[0];
    const dims = meta.shape.map((d) => (typeof d === 'number' ? d : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    let s = 12345;
    for (let i = 0; i < n; ++i) { s = (s * 1103515245 + 12345) % 2147483648; data[i] = s / 2147483648; }
    return new ort.Tensor('float32', data, dims);
}

async function main() {
    const o = parseArgs(process.argv.slice(2));
    const session = await ort.InferenceSession.create(o.model, {
        intraOpNumThreads: o.threads, interOpNumThreads: 1, executionMode: 'sequential',
        graphOptimizationLevel: 'all', executionProviders: ['cpu'],
    });
    const feeds = { [session.inputNames[0]]: sampleInput(session, o.input) };
    process.stdout.write(JSON.stringify({ type: 'meta', model: o.model, runtime: `onnxruntime-node ${ort.env.versions.node || ''}`.trim(),
        threads: o.threads, warmup: o.warmup, iterations: o.iterations }) + '\n');
    for (let w = 0; w < o.warmup; ++w) await session.run(feeds);
    const lines = [];
    for (let it = 0; it < o.iterations; ++it) {
        const t0 = process.hrtime.bigint();
        const out = await session.run(feeds);
        const ns = process.hrtime.bigint() - t0;
        if (it === 0) {
            const first = out[session.outputNames[0]].data;
            lines.push(JSON.stringify({ type: 'output', name: session.outputNames[0], head: Array.from(first.slice(0, 5)) }));
        }
        lines.push(JSON.stringify({ type: 'latency', iteration: it, ns: Number(ns) }));
    }
    // Printed after the loop: nothing but the model runs while it is timed.
    process.stdout.write(lines.join('\n') + '\n');
    await session.release();
}

main().catch((e) => { process.stderr.write(`ort_runner: ${e.message || e}\n`); process.exit(5); });
