#!/usr/bin/python3
"""Makes the opset 18-21 test models of tests/reference/tst_opset_newer.cpp (issue 31).

Each case is a folder in the ONNX backend-test layout: model.onnx and test_data_set_0/
(input_K.pb, output_K.pb). The models are written with onnx 1.12's helper (which knows
opsets up to 17 only, so the checker is not run); opset_imports and ir_version are set by
hand to what ONNX 1.13-1.16 would write (opset 18: IR 8, 19-20: IR 9, 21: IR 10). The
expected outputs come from ONNX Runtime 1.30 (npm onnxruntime-node, which runs opset 21),
the independent oracle, never from Embark. refused/ holds models Embark must refuse with a
clear message (no outputs).

Usage: NODE_PATH=<dir with onnxruntime-node> /usr/bin/python3 make.py
(e.g. NODE_PATH=~/.cache/embark/onnxruntime-node-1.30/node_modules)
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

HERE = os.path.dirname(os.path.abspath(__file__))
IR_FOR_OPSET = {18: 8, 19: 9, 20: 9, 21: 10}
rng = np.random.default_rng(31)

ORT_JS = r"""
const ort = require('onnxruntime-node');
const fs = require('fs');
const [modelPath, inputsPath] = process.argv.slice(1);
const spec = JSON.parse(fs.readFileSync(inputsPath, 'utf8'));
const arrays = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
                 int8: Int8Array, bool: Uint8Array };
(async () => {
  const session = await ort.InferenceSession.create(modelPath, { graphOptimizationLevel: 'disabled' });
  const feeds = {};
  for (const [name, t] of Object.entries(spec)) {
    const A = arrays[t.type];
    const data = t.type === 'int64' ? A.from(t.data.map(BigInt)) : A.from(t.data.map(Number));
    feeds[name] = new ort.Tensor(t.type, data, t.dims);
  }
  const out = await session.run(feeds);
  const res = {};
  for (const name of session.outputNames) {
    const t = out[name];
    res[name] = { type: t.type, dims: t.dims.map(Number), data: Array.from(t.data, v => typeof v === 'bigint' ? Number(v) : v) };
  }
  process.stdout.write(JSON.stringify(res));
})().catch(e => { process.stderr.write(String(e) + '\n'); process.exit(1); });
"""

NP_OF = {'float32': np.float32, 'int32': np.int32, 'int64': np.int64, 'uint8': np.uint8, 'int8': np.int8,
         'bool': np.bool_}
TYPE_OF = {np.dtype(np.float32): 'float32', np.dtype(np.int32): 'int32', np.dtype(np.int64): 'int64',
           np.dtype(np.uint8): 'uint8', np.dtype(np.int8): 'int8', np.dtype(np.bool_): 'bool'}


def ort_run(model_path, inputs):
    spec = {name: {'type': TYPE_OF[a.dtype], 'dims': list(a.shape),
                   'data': [bool(v) if a.dtype == np.bool_ else v.item() if np.isfinite(v) else {'inf': 'Infinity', '-inf': '-Infinity', 'nan': 'NaN'}[str(v.item())]
                            for v in a.ravel()]}
            for name, a in inputs.items()}
    spec_path = model_path + '.inputs.json'
    with open(spec_path, 'w') as f:
        json.dump(spec, f)
    try:
        out = subprocess.run(['node', '-e', ORT_JS, model_path, spec_path], capture_output=True, text=True)
    finally:
        os.remove(spec_path)
    if out.returncode != 0:
        sys.exit(f'ONNX Runtime fails on {model_path}: {out.stderr.strip()}')
    res = json.loads(out.stdout)
    return {name: np.array(t['data'], dtype=NP_OF[t['type']]).reshape(t['dims']) for name, t in res.items()}


def model(nodes, inputs, outputs, opset, initializers=()):
    graph = h.make_graph(nodes, 'g', inputs, outputs, initializer=list(initializers))
    m = h.make_model(graph, producer_name='embark-opset18_21-make.py',
                     opset_imports=[h.make_opsetid('', opset)])
    m.ir_version = IR_FOR_OPSET[opset]
    return m


def case(name, m, inputs):
    """Writes m and its inputs, runs ORT for the outputs."""
    d = os.path.join(HERE, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, 'test_data_set_0'))
    path = os.path.join(d, 'model.onnx')
    onnx.save(m, path)
    outs = ort_run(path, inputs)
    # The ONNX checker needs every graph output's shape: ONNX Runtime's, as a producer writes it.
    for o in m.graph.output:
        o.type.tensor_type.shape.Clear()
        for extent in outs[o.name].shape:
            o.type.tensor_type.shape.dim.add().dim_value = extent
    onnx.save(m, path)
    for k, (n, a) in enumerate(inputs.items()):
        onnx.save_tensor(nh.from_array(a, n), os.path.join(d, 'test_data_set_0', f'input_{k}.pb'))
    for k, o in enumerate(m.graph.output):
        onnx.save_tensor(nh.from_array(outs[o.name], o.name), os.path.join(d, 'test_data_set_0', f'output_{k}.pb'))
    print(name, {k: v.shape for k, v in outs.items()})


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def i64(name, values):
    return nh.from_array(np.array(values, dtype=np.int64), name)


def main():
    # --- opset 18 -----------------------------------------------------------------------
    case('reduce_axes_input_18', model(
        [h.make_node('ReduceMean', ['x', 'ax1'], ['mean'], keepdims=1),
         h.make_node('ReduceL2', ['x', 'ax2'], ['l2'], keepdims=0),
         h.make_node('ReduceMax', ['x'], ['same'], noop_with_empty_axes=1),
         h.make_node('ReduceLogSumExp', ['x'], ['all'], keepdims=0),
         h.make_node('ReduceProd', ['x', 'ax1'], ['prod'], keepdims=0)],
        [vi('x', T.FLOAT, [2, 3, 4])],
        [vi('mean', T.FLOAT, None), vi('l2', T.FLOAT, None), vi('same', T.FLOAT, None),
         vi('all', T.FLOAT, None), vi('prod', T.FLOAT, None)],
        18, [i64('ax1', [1]), i64('ax2', [2, -3])]), {'x': f32(2, 3, 4)})
    case('split_num_outputs_18', model(
        [h.make_node('Split', ['x'], ['a', 'b', 'c'], axis=1, num_outputs=3)],
        [vi('x', T.FLOAT, [1, 7, 2])], [vi('a', T.FLOAT, None), vi('b', T.FLOAT, None), vi('c', T.FLOAT, None)],
        18), {'x': f32(1, 7, 2)})
    case('pad_axes_18', model(
        [h.make_node('Pad', ['x', 'pads', '', 'axes'], ['y'], mode='reflect'),
         h.make_node('Sigmoid', ['y'], ['z'])],
        [vi('x', T.FLOAT, [1, 2, 4, 5])], [vi('z', T.FLOAT, None)], 18,
        [i64('pads', [1, 2, 2, 0]), i64('axes', [-1, 2])]), {'x': f32(1, 2, 4, 5)})
    case('resize_axes_18', model(
        [h.make_node('Resize', ['x', '', 'scales'], ['y'], mode='linear', axes=[2, 3],
                     coordinate_transformation_mode='half_pixel')],
        [vi('x', T.FLOAT, [1, 2, 3, 4])], [vi('y', T.FLOAT, None)], 18,
        [nh.from_array(np.array([2.0, 1.5], dtype=np.float32), 'scales')]), {'x': f32(1, 2, 3, 4)})
    case('resize_sizes_axes_18', model(
        [h.make_node('Resize', ['x', '', '', 'sizes'], ['y'], mode='nearest', axes=[3], antialias=0,
                     keep_aspect_ratio_policy='stretch')],
        [vi('x', T.FLOAT, [1, 2, 3, 4])], [vi('y', T.FLOAT, None)], 18, [i64('sizes', [7])]),
        {'x': f32(1, 2, 3, 4)})
    case('scatter_max_min_18', model(
        [h.make_node('ScatterElements', ['x', 'idx', 'upd'], ['a'], axis=1, reduction='max'),
         h.make_node('ScatterND', ['x', 'ind', 'rows'], ['b'], reduction='min')],
        [vi('x', T.FLOAT, [3, 4])], [vi('a', T.FLOAT, None), vi('b', T.FLOAT, None)], 18,
        [i64('idx', [[0, 1], [3, 3], [2, 0]]), nh.from_array(f32(3, 2), 'upd'),
         i64('ind', [[1], [1], [2]]), nh.from_array(f32(3, 4), 'rows')]), {'x': f32(3, 4)})
    case('group_norm_18', model(
        [h.make_node('GroupNormalization', ['x', 'scale', 'bias'], ['y'], num_groups=2, epsilon=1e-4)],
        [vi('x', T.FLOAT, [2, 4, 3, 3])], [vi('y', T.FLOAT, None)], 18,
        [nh.from_array(f32(2), 'scale'), nh.from_array(f32(2), 'bias')]), {'x': f32(2, 4, 3, 3)})
    case('center_crop_pad_18', model(
        [h.make_node('CenterCropPad', ['x', 'shape'], ['y'], axes=[2, 3])],
        [vi('x', T.FLOAT, [1, 2, 5, 4])], [vi('y', T.FLOAT, None)], 18, [i64('shape', [2, 7])]),
        {'x': f32(1, 2, 5, 4)})
    case('bitwise_18', model(
        [h.make_node('BitwiseAnd', ['a', 'b'], ['and']), h.make_node('BitwiseOr', ['a', 'b'], ['or']),
         h.make_node('BitwiseXor', ['a', 'b'], ['xor']), h.make_node('BitwiseNot', ['a'], ['not'])],
        [vi('a', T.INT32, [2, 3]), vi('b', T.INT32, [3])],
        [vi('and', T.INT32, None), vi('or', T.INT32, None), vi('xor', T.INT32, None), vi('not', T.INT32, None)],
        18), {'a': rng.integers(-100, 100, (2, 3)).astype(np.int32), 'b': rng.integers(-100, 100, 3).astype(np.int32)})
    case('mish_18', model([h.make_node('Mish', ['x'], ['y'])], [vi('x', T.FLOAT, [2, 5])],
                          [vi('y', T.FLOAT, None)], 18), {'x': f32(2, 5) * 3})
    # --- opset 19 -----------------------------------------------------------------------
    case('pad_wrap_19', model(
        [h.make_node('Pad', ['x', 'pads'], ['y'], mode='wrap')],
        [vi('x', T.FLOAT, [1, 1, 3, 4])], [vi('y', T.FLOAT, None)], 19, [i64('pads', [0, 0, 1, 2, 0, 0, 2, 1])]),
        {'x': f32(1, 1, 3, 4)})
    case('average_pool_dilations_19', model(
        [h.make_node('AveragePool', ['x'], ['y'], kernel_shape=[2, 2], dilations=[2, 1], strides=[1, 2])],
        [vi('x', T.FLOAT, [1, 2, 6, 6])], [vi('y', T.FLOAT, None)], 19), {'x': f32(1, 2, 6, 6)})
    case('cast_saturate_19', model(
        [h.make_node('Cast', ['x'], ['y'], to=T.INT32, saturate=1), h.make_node('CastLike', ['y', 'x'], ['z'])],
        [vi('x', T.FLOAT, [6])], [vi('y', T.INT32, None), vi('z', T.FLOAT, None)], 19), {'x': f32(6) * 10})
    case('shape_ops_19', model(
        [h.make_node('Reshape', ['x', 'shape'], ['r']), h.make_node('Identity', ['r'], ['i']),
         h.make_node('Size', ['x'], ['n']), h.make_node('Shape', ['i'], ['s'], start=1),
         h.make_node('Equal', ['r', 'r'], ['e'])],
        [vi('x', T.FLOAT, [2, 6])], [vi('i', T.FLOAT, None), vi('n', T.INT64, None), vi('s', T.INT64, None),
                                     vi('e', T.BOOL, None)], 19, [i64('shape', [3, -1])]), {'x': f32(2, 6)})
    # --- opset 20 -----------------------------------------------------------------------
    case('gelu_20', model(
        [h.make_node('Gelu', ['x'], ['a']), h.make_node('Gelu', ['x'], ['b'], approximate='tanh')],
        [vi('x', T.FLOAT, [3, 4])], [vi('a', T.FLOAT, None), vi('b', T.FLOAT, None)], 20), {'x': f32(3, 4) * 2})
    case('dft_axis_input_20', model(
        [h.make_node('DFT', ['x', '', 'axis'], ['y']), h.make_node('DFT', ['x'], ['z'], inverse=1)],
        [vi('x', T.FLOAT, [2, 8, 1])], [vi('y', T.FLOAT, None), vi('z', T.FLOAT, None)], 20,
        [i64('axis', 1)]), {'x': f32(2, 8, 1)})
    case('grid_sample_20', model(
        [h.make_node('GridSample', ['x', 'grid'], ['a'], mode='linear', align_corners=1),
         h.make_node('GridSample', ['x', 'grid'], ['b'], mode='cubic', padding_mode='border')],
        [vi('x', T.FLOAT, [1, 2, 4, 5]), vi('grid', T.FLOAT, [1, 3, 2, 2])],
        [vi('a', T.FLOAT, None), vi('b', T.FLOAT, None)], 20),
        {'x': f32(1, 2, 4, 5), 'grid': rng.uniform(-1.1, 1.1, (1, 3, 2, 2)).astype(np.float32)})
    case('affine_grid_20', model(
        [h.make_node('AffineGrid', ['theta', 'size'], ['a'], align_corners=0),
         h.make_node('AffineGrid', ['theta3', 'size3'], ['b'], align_corners=1)],
        [vi('theta', T.FLOAT, [2, 2, 3]), vi('theta3', T.FLOAT, [1, 3, 4])],
        [vi('a', T.FLOAT, None), vi('b', T.FLOAT, None)], 20, [i64('size', [2, 3, 4, 5]), i64('size3', [1, 1, 2, 3, 4])]),
        {'theta': f32(2, 2, 3), 'theta3': f32(1, 3, 4)})
    x = f32(2, 3)
    x[0, 1], x[1, 2] = np.inf, np.nan
    case('isinf_isnan_constant_of_shape_20', model(
        [h.make_node('IsInf', ['x'], ['inf']), h.make_node('IsNaN', ['x'], ['nan']),
         h.make_node('ConstantOfShape', ['shape'], ['c'], value=nh.from_array(np.array([7], dtype=np.int32)))],
        [vi('x', T.FLOAT, [2, 3])], [vi('inf', T.BOOL, None), vi('nan', T.BOOL, None), vi('c', T.INT32, None)],
        20, [i64('shape', [2, 2])]), {'x': x})
    # --- opset 21 -----------------------------------------------------------------------
    case('group_norm_21', model(
        [h.make_node('GroupNormalization', ['x', 'scale', 'bias'], ['y'], num_groups=3)],
        [vi('x', T.FLOAT, [1, 6, 2, 3])], [vi('y', T.FLOAT, None)], 21,
        [nh.from_array(f32(6), 'scale'), nh.from_array(f32(6), 'bias')]), {'x': f32(1, 6, 2, 3)})
    case('shape_ops_21', model(
        [h.make_node('Flatten', ['x'], ['f'], axis=2), h.make_node('Transpose', ['f'], ['t'], perm=[1, 0]),
         h.make_node('Unsqueeze', ['t', 'ax'], ['u']), h.make_node('Squeeze', ['u', 'ax'], ['s']),
         h.make_node('Pad', ['s', 'pads', 'value'], ['p']), h.make_node('Cast', ['p'], ['c'], to=T.INT64),
         h.make_node('Shape', ['c'], ['shape'])],
        [vi('x', T.FLOAT, [2, 3, 4])], [vi('c', T.INT64, None), vi('shape', T.INT64, None)], 21,
        [i64('ax', [0]), i64('pads', [1, 0, 0, 1]), nh.from_array(np.array(5, dtype=np.float32), 'value')]),
        {'x': f32(2, 3, 4) * 4})
    case('quantize_output_dtype_21', model(
        [h.make_node('QuantizeLinear', ['x', 'scale'], ['q'], output_dtype=T.INT8),
         h.make_node('DequantizeLinear', ['q', 'scale'], ['y'])],
        [vi('x', T.FLOAT, [2, 4])], [vi('q', T.INT8, None), vi('y', T.FLOAT, None)], 21,
        [nh.from_array(np.array(0.05, dtype=np.float32), 'scale')]), {'x': f32(2, 4) * 3})
    then_g = h.make_graph([h.make_node('ReduceMean', ['x', 'ax'], ['r'], keepdims=0)], 'then', [],
                          [vi('r', T.FLOAT, None)])
    else_g = h.make_graph([h.make_node('ReduceMax', ['x', 'ax'], ['m'], keepdims=0)], 'else', [],
                          [vi('m', T.FLOAT, None)])
    case('if_reduce_21', model(
        [h.make_node('If', ['cond'], ['y'], then_branch=then_g, else_branch=else_g)],
        [vi('cond', T.BOOL, []), vi('x', T.FLOAT, [2, 5])], [vi('y', T.FLOAT, None)], 21, [i64('ax', [1])]),
        {'cond': np.array(False), 'x': f32(2, 5)})
    refused()


def refused():
    """Models Embark refuses with a clear message (written only, not run)."""
    d = os.path.join(HERE, 'refused')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    x = vi('x', T.FLOAT, [1, 1, 4, 4])

    def save(name, m):
        onnx.save(m, os.path.join(d, name + '.onnx'))
    save('resize_antialias_18', model(
        [h.make_node('Resize', ['x', '', 'scales'], ['y'], mode='linear', antialias=1)], [x],
        [vi('y', T.FLOAT, [1, 1, 2, 2])], 18, [nh.from_array(np.array([1, 1, 0.5, 0.5], dtype=np.float32), 'scales')]))
    save('opset_22', model([h.make_node('Relu', ['x'], ['y'])], [x], [vi('y', T.FLOAT, None)], 21))
    m = onnx.load(os.path.join(d, 'opset_22.onnx'))
    m.opset_import[0].version = 22
    onnx.save(m, os.path.join(d, 'opset_22.onnx'))
    save('string_split_20', model([h.make_node('StringSplit', ['s'], ['y', 'n'])], [vi('s', T.STRING, [2])],
                                  [vi('y', T.STRING, None), vi('n', T.INT64, None)], 20))
    save('quantize_block_size_21', model(
        [h.make_node('QuantizeLinear', ['x', 'scale'], ['q'], block_size=2, axis=3)], [x], [vi('q', T.UINT8, None)],
        21, [nh.from_array(np.ones((1, 1, 4, 2), dtype=np.float32), 'scale')]))
    # a float8 cast (type 17, FLOAT8E4M3FN) and an int4 initializer (type 22)
    save('cast_float8_19', model([h.make_node('Cast', ['x'], ['y'], to=17, saturate=1)], [x],
                                 [h.make_tensor_value_info('y', 17, [1, 1, 4, 4])], 19))
    w = h.make_tensor('w', T.INT8, [2], [1, 2])
    w.data_type = 22
    save('int4_initializer_21', model([h.make_node('Cast', ['w'], ['y'], to=T.FLOAT)], [],
                                      [vi('y', T.FLOAT, [2])], 21, [w]))
    save('col2im_18', model([h.make_node('Col2Im', ['x', 'im', 'blk'], ['y'])],
                            [vi('x', T.FLOAT, [1, 4, 4])], [vi('y', T.FLOAT, None)], 18,
                            [i64('im', [3, 3]), i64('blk', [2, 2])]))


if __name__ == '__main__':
    if shutil.which('node') is None:
        sys.exit('make.py needs node and onnxruntime-node (NODE_PATH) for the expected outputs')
    main()
