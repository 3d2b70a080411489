#!/usr/bin/env node
// Embark's ONNX Runtime runner (issue 17): runs one model with npm's onnxruntime-node (CPU
// provider) the way `embark-cli bench --runtime onnxruntime` asks, and prints JSON lines in the
// spirit of run_export's protocol, which core/jobs reads:
//   {"type":"meta","runtime":"onnxruntime-node","version":"1.30.0","ep":"cpu","threads":T,...}
//   {"type":"latency","iteration":I,"ns":N}            one per timed iteration
//   {"type":"output","name":"logits","file":"out/output_0.bin","dtype":"float32","shape":[1,10]}
//   {"type":"profile","file":"ort_profile_2026-...json"}   with --profile
//   {"type":"error","message":"..."}                    then exit status 5
// Usage: node ort_run.js MODEL_DIR|MODEL.onnx [--input TENSOR.pb]... [--threads T] [--warmup W]
//        [--iterations N] [--profile PREFIX] [--out DIR]
//   MODEL_DIR holds model.onnx (and its external data) and test_data_set_0/input_K.pb: the
//   ONNX test-data bundle onnx_test_runner reads. A MODEL.onnx file takes its inputs from
//   --input (in the model's input order), or, without any, a fixed pseudo-random float input
//   per model input (symbolic dimensions as 1): the form the benchmarks under bench/ use.
//   NODE_PATH must reach onnxruntime-node.
// One session: intraOpNumThreads T, interOpNumThreads 1, sequential execution, all graph
// optimisations. A timed iteration is session.run() (ORT's Run plus the binding's copy of the
// outputs). Timings are printed after the loop, so nothing but the model runs while timed.
// With --profile a second session (enableProfiling) runs W + N more times after the timed
// loop, so the timings are never those of a profiled session; Embark leaves the profile's
// first W runs out when it reads it.
'use strict';
const fs = require('fs');
const path = require('path');

function fail(message, status) {
    process.stdout.write(JSON.stringify({ type: 'error', message: String(message) }) + '\n');
    process.stderr.write(`ort_run: ${message}\n`);
    process.exit(status || 5);
}

function parseArgs(argv) {
    const o = { dir: '', inputs: [], threads: 1, warmup: 2, iterations: 10, profile: '', out: 'out' };
    for (let i = 0; i < argv.length; ++i) {
        const a = argv[i];
        const next = () => { if (i + 1 >= argv.length) fail(`${a} needs a value`, 2); return argv[++i]; };
        if (a === '--threads') o.threads = Number(next());
        else if (a === '--warmup') o.warmup = Number(next());
        else if (a === '--iterations') o.iterations = Number(next());
        else if (a === '--profile') o.profile = next();
        else if (a === '--out') o.out = next();
        else if (a === '--input') o.inputs.push(next());
        else if (a.startsWith('--')) fail(`unknown option ${a}`, 2);
        else o.dir = a;
    }
    if (!o.dir) fail('no model (MODEL_DIR with model.onnx and test_data_set_0/, or MODEL.onnx)', 2);
    if (!(Number.isInteger(o.threads) && o.threads >= 1 && Number.isInteger(o.iterations) && o.iterations >= 1 &&
          Number.isInteger(o.warmup) && o.warmup >= 0))
        fail('--threads and --iterations must be integers >= 1, --warmup >= 0', 2);
    return o;
}

// TensorProto fields: dims (1), data_type (2), float_data (4), int32_data (5), int64_data (7),
// name (8), raw_data (9). Protobuf wire format: varints and length-delimited fields.
const DTYPES = { 1: ['float32', Float32Array, 4], 6: ['int32', Int32Array, 4], 7: ['int64', BigInt64Array, 8],
                 9: ['bool', Uint8Array, 1], 2: ['uint8', Uint8Array, 1], 3: ['int8', Int8Array, 1] };

function readTensorProto(file) {
    const b = fs.readFileSync(file);
    let p = 0;
    const varint = () => {
        let v = 0n, shift = 0n;
        for (;;) {
            if (p >= b.length) throw new Error(`${file}: truncated varint`);
            const byte = b[p++];
            v |= BigInt(byte & 0x7f) << shift;
            if (byte < 0x80) return v;
            shift += 7n;
        }
    };
    const dims = [];
    let dataType = 1, raw = null, name = '';
    const floats = [], ints = [];
    while (p < b.length) {
        const key = Number(varint()), field = key >> 3, wire = key & 7;
        if (wire === 0) {
            const v = varint();
            if (field === 1) dims.push(Number(v));
            else if (field === 2) dataType = Number(v);
            else if (field === 5 || field === 7) ints.push(BigInt.asIntN(64, v));
        } else if (wire === 2) {
            const len = Number(varint()), end = p + len;
            if (end > b.length) throw new Error(`${file}: truncated field ${field}`);
            if (field === 1) { while (p < end) dims.push(Number(varint())); }
            else if (field === 4) { for (; p < end; p += 4) floats.push(b.readFloatLE(p)); }
            else if (field === 5 || field === 7) { while (p < end) ints.push(BigInt.asIntN(64, varint())); }
            else if (field === 8) name = b.toString('utf8', p, end);
            else if (field === 9) raw = b.subarray(p, end);
            p = end;
        } else if (wire === 5) p += 4;
        else if (wire === 1) p += 8;
        else throw new Error(`${file}: unexpected wire type ${wire}`);
    }
    const info = DTYPES[dataType];
    if (!info) throw new Error(`${file}: tensor data_type ${dataType} is not supported by the runner`);
    const [type, Ctor, size] = info;
    const n = dims.reduce((a, c) => a * c, 1);
    let data;
    if (raw) {
        if (raw.length !== n * size) throw new Error(`${file}: raw_data has ${raw.length} bytes, ${n * size} expected`);
        const copy = Buffer.from(raw); // aligned
        data = new Ctor(copy.buffer, copy.byteOffset, n);
    } else if (type === 'float32') data = Float32Array.from(floats);
    else if (type === 'int64') data = BigInt64Array.from(ints);
    else data = Ctor.from(ints.map(Number));
    return { name, type: type === 'bool' ? 'bool' : type, dims, data };
}

function writeRaw(file, tensor) {
    const d = tensor.data;
    const bytes = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
    const tmp = file + '.part';
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, file);
}

// A fixed pseudo-random float input in [0, 1) for input k (symbolic dimensions as 1), for models
// run without test data.
function sampleInput(ort, session, k) {
    const meta = (session.inputMetadata || [])[k];
    const shape = meta && Array.isArray(meta.shape) ? meta.shape : [1];
    const dims = shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    let s = 12345;
    for (let i = 0; i < n; ++i) { s = (s * 1103515245 + 12345) % 2147483648; data[i] = s / 2147483648; }
    return new ort.Tensor('float32', data, dims);
}

async function main() {
    const o = parseArgs(process.argv.slice(2));
    let ort;
    try { ort = require('onnxruntime-node'); } catch (e) { fail(`cannot load onnxruntime-node (NODE_PATH=${process.env.NODE_PATH || ''}): ${e.message}`, 3); }
    const single = o.dir.endsWith('.onnx');
    const model = single ? o.dir : path.join(o.dir, 'model.onnx');
    const dataDir = single ? '' : path.join(o.dir, 'test_data_set_0');
    const options = { intraOpNumThreads: o.threads, interOpNumThreads: 1, executionMode: 'sequential',
                      graphOptimizationLevel: 'all', executionProviders: ['cpu'] };
    let session;
    try { session = await ort.InferenceSession.create(model, options); }
    catch (e) { fail(`ONNX Runtime refused ${model}: ${e.message || e}`); }
    const feeds = {};
    let files = o.inputs;
    if (!single) {
        files = fs.readdirSync(dataDir).filter((f) => /^input_\d+\.pb$/.test(f))
            .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0])).map((f) => path.join(dataDir, f));
    }
    files.forEach((f, k) => {
        const t = readTensorProto(f);
        const name = session.inputNames.includes(t.name) ? t.name : session.inputNames[k];
        feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
    });
    if (single && files.length === 0) session.inputNames.forEach((n, k) => { feeds[n] = sampleInput(ort, session, k); });
    for (const n of session.inputNames) if (!feeds[n]) fail(`no test data for input '${n}' in ${dataDir || o.inputs.join(', ')}`);
    const versions = ort.env.versions || {};
    process.stdout.write(JSON.stringify({ type: 'meta', runtime: 'onnxruntime-node', version: versions.node || versions.common || '',
        ep: 'cpu', model, threads: o.threads, warmup: o.warmup, iterations: o.iterations,
        inputs: session.inputNames, outputs: session.outputNames }) + '\n');
    for (let w = 0; w < o.warmup; ++w) await session.run(feeds);
    const lines = [];
    let first = null;
    for (let it = 0; it < o.iterations; ++it) {
        const t0 = process.hrtime.bigint();
        const out = await session.run(feeds);
        const ns = process.hrtime.bigint() - t0;
        if (it === 0) first = out;
        lines.push(JSON.stringify({ type: 'latency', iteration: it, ns: Number(ns) }));
    }
    fs.mkdirSync(o.out, { recursive: true });
    session.outputNames.forEach((name, k) => {
        const t = first[name];
        const file = path.join(o.out, `output_${k}.bin`);
        writeRaw(file, t);
        lines.push(JSON.stringify({ type: 'output', name, file, dtype: t.type, shape: t.dims.map(Number) }));
    });
    await session.release();
    if (o.profile) {
        let profiled;
        try {
            profiled = await ort.InferenceSession.create(model, { ...options, enableProfiling: true, profileFilePrefix: o.profile });
        } catch (e) { fail(`ONNX Runtime refused ${model} with profiling on: ${e.message || e}`); }
        for (let i = 0; i < o.warmup + o.iterations; ++i) await profiled.run(feeds);
        profiled.endProfiling();
        await profiled.release();
        const dir = path.dirname(o.profile) || '.';
        const base = path.basename(o.profile);
        const found = fs.readdirSync(dir).filter((f) => f.startsWith(base) && f.endsWith('.json'))
            .map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
        if (found.length) lines.push(JSON.stringify({ type: 'profile', file: found[0] }));
        else lines.push(JSON.stringify({ type: 'warning', message: `ONNX Runtime wrote no profile ${o.profile}_*.json` }));
    }
    process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e) => fail(e.message || e));
