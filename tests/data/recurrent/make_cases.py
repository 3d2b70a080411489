#!/usr/bin/env python3
"""Makes the recurrent test cases under tests/data/recurrent/<case>/ (model.onnx and
test_data_set_0/), the ones ONNX's node tests miss: bidirectional with sequence_lens shorter
than the sequence, layout 1, clip, peepholes, input_forget, linear_before_reset, and every
non-default activation. The expected outputs come from ONNX Runtime (npm's onnxruntime-node,
an implementation independent of Embark's):

  NODE_PATH=/path/to/node_modules python3 tests/data/recurrent/make_cases.py
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}


def make_case(name, op, opset, seq, batch, inp, hidden, attrs, seed, lens=None, with_h0=True,
              with_c0=False, with_p=False, outputs=("Y", "Y_h"), state_inputs=False):
    """state_inputs: initial_h and initial_c are graph inputs (computed at run time, as in a
    streaming model that feeds its states back) instead of initializers; layout 0 only."""
    rng = np.random.default_rng(seed)
    dirs = 2 if attrs.get("direction") == "bidirectional" else 1
    layout = attrs.get("layout", 0)
    g = GATES[op]
    x = rng.uniform(-1, 1, (batch, seq, inp) if layout else (seq, batch, inp)).astype(np.float32)
    state = (batch, dirs, hidden) if layout else (dirs, batch, hidden)
    inits = [
        numpy_helper.from_array(rng.uniform(-0.8, 0.8, (dirs, g * hidden, inp)).astype(np.float32), "W"),
        numpy_helper.from_array(rng.uniform(-0.8, 0.8, (dirs, g * hidden, hidden)).astype(np.float32), "R"),
        numpy_helper.from_array(rng.uniform(-0.5, 0.5, (dirs, 2 * g * hidden)).astype(np.float32), "B"),
    ]
    inputs = ["X", "W", "R", "B", "", "", "", ""]
    if lens is not None:
        inits.append(numpy_helper.from_array(np.array(lens, np.int32), "sequence_lens"))
        inputs[4] = "sequence_lens"
    feeds = {"X": x}
    if with_h0:
        h0 = rng.uniform(-1, 1, state).astype(np.float32)
        if state_inputs:
            feeds["initial_h"] = h0
        else:
            inits.append(numpy_helper.from_array(h0, "initial_h"))
        inputs[5] = "initial_h"
    if with_c0:
        c0 = rng.uniform(-1, 1, state).astype(np.float32)
        if state_inputs:
            feeds["initial_c"] = c0
        else:
            inits.append(numpy_helper.from_array(c0, "initial_c"))
        inputs[6] = "initial_c"
    if with_p:
        inits.append(numpy_helper.from_array(rng.uniform(-0.5, 0.5, (dirs, 3 * hidden)).astype(np.float32), "P"))
        inputs[7] = "P"
    while inputs and inputs[-1] == "":
        inputs.pop()
    node_outputs = [o if o in outputs else "" for o in ("Y", "Y_h", "Y_c")[: 3 if op == "LSTM" else 2]]
    while node_outputs[-1] == "":
        node_outputs.pop()
    node = helper.make_node(op, inputs, node_outputs, name=name, hidden_size=hidden, **attrs)
    y_shape = (batch, seq, dirs, hidden) if layout else (seq, dirs, batch, hidden)
    shapes = {"Y": y_shape, "Y_h": state, "Y_c": state}
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, shapes[o]) for o in outputs], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_cases.py")
    model.ir_version = 7
    onnx.checker.check_model(model)
    folder = os.path.join(HERE, name)
    os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for k, (n, v) in enumerate(feeds.items()):
        onnx.save_tensor(numpy_helper.from_array(v, n), os.path.join(folder, "test_data_set_0", f"input_{k}.pb"))
    if layout:
        assert not state_inputs
        # ONNX Runtime's CPU kernels take layout 0 only: run the same layer sequence first (X and
        # the states transposed) and transpose its results back.
        ort_model = onnx.ModelProto()
        ort_model.CopyFrom(model)
        n = ort_model.graph.node[0]
        kept = [a for a in n.attribute if a.name != "layout"]
        del n.attribute[:]
        n.attribute.extend(kept)
        for init in ort_model.graph.initializer:
            if init.name in ("initial_h", "initial_c"):
                init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init).transpose(1, 0, 2).copy(), init.name))
        x_seq = x.transpose(1, 0, 2).copy()
        ort_model.graph.input[0].CopyFrom(helper.make_tensor_value_info("X", TensorProto.FLOAT, x_seq.shape))
        del ort_model.graph.output[:]
        seq_shapes = {"Y": (seq, dirs, batch, hidden), "Y_h": (dirs, batch, hidden),
                      "Y_c": (dirs, batch, hidden)}
        ort_model.graph.output.extend([helper.make_tensor_value_info(o, TensorProto.FLOAT, seq_shapes[o]) for o in outputs])
        ort_path = os.path.join(folder, "ort_layout0.onnx")
        onnx.save(ort_model, ort_path)
        results = run_ort(ort_path, {"X": x_seq}, list(outputs))
        os.remove(ort_path)
        for o in outputs:
            y = np.array(results[o]["data"], np.float32).reshape(results[o]["dims"])
            y = y.transpose(2, 0, 1, 3) if o == "Y" else y.transpose(1, 0, 2)
            results[o] = {"dims": list(y.shape), "data": y.ravel().tolist()}
    else:
        results = run_ort(os.path.join(folder, "model.onnx"), feeds, list(outputs))
    for k, o in enumerate(outputs):
        y = np.array(results[o]["data"], np.float32).reshape(results[o]["dims"])
        assert y.shape == shapes[o], (name, o, y.shape, shapes[o])
        onnx.save_tensor(numpy_helper.from_array(y, o), os.path.join(folder, "test_data_set_0", f"output_{k}.pb"))
    print(name, "ok")


ORT_SCRIPT = r"""
const ort = require('onnxruntime-node');
const [model, outs] = [process.argv[1], JSON.parse(process.argv[2])];
const inputs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
(async () => {
  const s = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'disabled' });
  const feeds = {};
  for (const [name, t] of Object.entries(inputs)) feeds[name] = new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
  const r = await s.run(feeds);
  const o = {};
  for (const name of outs) o[name] = { dims: r[name].dims, data: Array.from(r[name].data) };
  process.stdout.write(JSON.stringify(o));
})().catch(e => { console.error(e); process.exit(1); });
"""


def run_ort(model, feeds, outputs):
    data = {n: {"dims": list(v.shape), "data": v.ravel().tolist()} for n, v in feeds.items()}
    p = subprocess.run(["node", "-e", ORT_SCRIPT, model, json.dumps(outputs)], input=json.dumps(data),
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ONNX Runtime failed on {model}: {p.stderr}")
    return json.loads(p.stdout)


if __name__ == "__main__":
    # Bidirectional with per-row lengths shorter than the sequence, peepholes, every output.
    make_case("lstm_bidirectional_seqlens", "LSTM", 14, seq=5, batch=3, inp=4, hidden=3,
              attrs={"direction": "bidirectional"}, seed=1, lens=[5, 2, 3], with_c0=True, with_p=True,
              outputs=("Y", "Y_h", "Y_c"))
    # Batch first, reverse, clip, coupled input/forget gates, non-default f, g, h.
    make_case("lstm_layout1_reverse_clip", "LSTM", 14, seq=4, batch=2, inp=3, hidden=4,
              attrs={"direction": "reverse", "layout": 1, "clip": 0.7, "input_forget": 1,
                     "activations": ["HardSigmoid", "ScaledTanh", "Softsign"],
                     "activation_alpha": [0.3, 1.5], "activation_beta": [0.4, 0.8]},
              seed=2, with_c0=True, outputs=("Y", "Y_h", "Y_c"))
    # GRU, batch first, bidirectional with lengths, linear_before_reset, clip.
    make_case("gru_layout1_bidirectional_lbr", "GRU", 14, seq=4, batch=3, inp=3, hidden=5,
              attrs={"direction": "bidirectional", "layout": 1, "linear_before_reset": 1, "clip": 1.2},
              seed=3, lens=[4, 1, 2])
    # GRU of opset 9 (no layout), per-direction activations with alpha/beta.
    make_case("gru_opset9_activations", "GRU", 9, seq=3, batch=2, inp=4, hidden=3,
              attrs={"direction": "bidirectional",
                     "activations": ["HardSigmoid", "Elu", "Sigmoid", "LeakyRelu"],
                     "activation_alpha": [0.25, 0.7, 0.05], "activation_beta": [0.45]},
              seed=4, lens=[3, 2], outputs=("Y", "Y_h"))
    # RNN, bidirectional, Affine / ThresholdedRelu, batch first.
    make_case("rnn_layout1_affine_thresholded", "RNN", 14, seq=4, batch=2, inp=3, hidden=4,
              attrs={"direction": "bidirectional", "layout": 1, "activations": ["Affine", "ThresholdedRelu"],
                     "activation_alpha": [0.5, 0.1], "activation_beta": [0.2]},
              seed=5, lens=[2, 4])
    # RNN reverse with Softplus and clip, no initial state, only Y_h.
    make_case("rnn_reverse_softplus_clip", "RNN", 7, seq=3, batch=2, inp=2, hidden=3,
              attrs={"direction": "reverse", "activations": ["Softplus"], "clip": 0.9},
              seed=6, with_h0=False, outputs=("Y_h",))
    # RNN with Relu, forward, lengths.
    make_case("rnn_relu_seqlens", "RNN", 14, seq=4, batch=3, inp=2, hidden=3,
              attrs={"activations": ["Relu"]}, seed=7, lens=[1, 4, 3], outputs=("Y", "Y_h"))
    # LSTM whose initial states are model inputs (a streaming keyword spotter feeding its
    # states back), bidirectional.
    make_case("lstm_state_inputs", "LSTM", 14, seq=4, batch=2, inp=3, hidden=4,
              attrs={"direction": "bidirectional"}, seed=8, with_c0=True, outputs=("Y", "Y_h", "Y_c"),
              state_inputs=True)
    # GRU with its initial state a model input, linear_before_reset as torch exports nn.GRU.
    make_case("gru_state_input", "GRU", 14, seq=5, batch=1, inp=3, hidden=4,
              attrs={"linear_before_reset": 1}, seed=9, outputs=("Y", "Y_h"), state_inputs=True)
