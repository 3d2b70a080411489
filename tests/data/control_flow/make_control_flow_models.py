#!/usr/bin/python3
"""Small control-flow models for the importer, reference and export tests, each with
test_data_set_0 (expected outputs computed here with numpy):

  if_sample_rate.onnx   a voice-activity-style detector that chooses its branch by the
                        sample rate input (If), both branches reading outer-scope values
  loop_recurrence.onnx  a Loop (constant trip count and a condition) running a small
                        recurrence over outer-scope weights, with a scan output and a nested
                        If in its body that reads a value two scopes out
  scan_reverse.onnx     a Scan (opset 11) over axis 1 of its input, in reverse, with a state
                        and a scan output stacked along axis 1, reading an outer-scope weight
  if_shape_mismatch.onnx  an If whose branches give different shapes (exports refuse it)
  if_shape_logic.onnx   silero-VAD-style torch export: an If on the sample rate whose branches
                        compute a Reshape target from Shape/Gather/Concat and choose by the
                        input's rank (Size(Shape) == 2, a nested If whose branches give
                        different shapes) whether to Unsqueeze it
  if_unrunnable_branch.onnx  an If whose else_branch (8 kHz: frames of 8 samples) cannot run
                        with the 16 kHz input it is given; exports run the then_branch and stop
                        with an error naming the node if the condition ever takes the other

Run: /usr/bin/python3 make_control_flow_models.py (writes next to this file)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(31)


def save(name, model, inputs, outputs):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, name + ".onnx"))
    folder = os.path.join(HERE, name, "test_data_set_0")
    os.makedirs(folder, exist_ok=True)
    for i, (n, a) in enumerate(inputs):
        open(os.path.join(folder, f"input_{i}.pb"), "wb").write(numpy_helper.from_array(a, n).SerializeToString())
    for i, (n, a) in enumerate(outputs):
        open(os.path.join(folder, f"output_{i}.pb"), "wb").write(numpy_helper.from_array(a, n).SerializeToString())


def if_sample_rate():
    w16 = rng.standard_normal((16, 4)).astype(np.float32)
    w8 = rng.standard_normal((8, 4)).astype(np.float32)
    bias = rng.standard_normal((1, 4)).astype(np.float32)
    # 16 kHz: relu(audio @ w16 + bias); 8 kHz: every second sample, sigmoid(x @ w8 + bias)
    then_g = helper.make_graph(
        [helper.make_node("MatMul", ["audio", "w16"], ["t_mm"], name="then_matmul"),
         helper.make_node("Add", ["t_mm", "bias"], ["t_add"], name="then_add"),
         helper.make_node("Relu", ["t_add"], ["then_out"], name="then_relu")],
        "then_16k", [], [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [1, 4])])
    else_g = helper.make_graph(
        [helper.make_node("Constant", [], ["e_starts"], name="e_starts", value=numpy_helper.from_array(np.array([0], np.int64))),
         helper.make_node("Constant", [], ["e_ends"], name="e_ends", value=numpy_helper.from_array(np.array([16], np.int64))),
         helper.make_node("Constant", [], ["e_axes"], name="e_axes", value=numpy_helper.from_array(np.array([1], np.int64))),
         helper.make_node("Constant", [], ["e_steps"], name="e_steps", value=numpy_helper.from_array(np.array([2], np.int64))),
         helper.make_node("Slice", ["audio", "e_starts", "e_ends", "e_axes", "e_steps"], ["e_half"], name="else_decimate"),
         helper.make_node("MatMul", ["e_half", "w8"], ["e_mm"], name="else_matmul"),
         helper.make_node("Add", ["e_mm", "bias"], ["e_add"], name="else_add"),
         helper.make_node("Sigmoid", ["e_add"], ["else_out"], name="else_sigmoid")],
        "else_8k", [], [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [1, 4])])
    g = helper.make_graph(
        [helper.make_node("Equal", ["sr", "sr16k"], ["is16k"], name="is_16k"),
         helper.make_node("If", ["is16k"], ["scores"], name="by_rate", then_branch=then_g, else_branch=else_g),
         helper.make_node("Softmax", ["scores"], ["probs"], name="softmax", axis=1)],
        "if_sample_rate",
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, 16]),
         helper.make_tensor_value_info("sr", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(w16, "w16"), numpy_helper.from_array(w8, "w8"),
         numpy_helper.from_array(bias, "bias"), numpy_helper.from_array(np.array(16000, np.int64), "sr16k")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    audio = rng.standard_normal((1, 16)).astype(np.float32)

    def softmax(x):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    probs16 = softmax(np.maximum(audio @ w16 + bias, 0))
    probs8 = softmax(1 / (1 + np.exp(-(audio[:, ::2] @ w8 + bias))))
    save("if_sample_rate", model, [("audio", audio), ("sr", np.array(16000, np.int64))], [("probs", probs16)])
    # a second data set takes the other branch
    folder = os.path.join(HERE, "if_sample_rate", "test_data_set_1")
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, "input_0.pb"), "wb").write(numpy_helper.from_array(audio, "audio").SerializeToString())
    open(os.path.join(folder, "input_1.pb"), "wb").write(numpy_helper.from_array(np.array(8000, np.int64), "sr").SerializeToString())
    open(os.path.join(folder, "output_0.pb"), "wb").write(numpy_helper.from_array(probs8, "probs").SerializeToString())


def loop_recurrence():
    steps = 5
    w = (0.5 * rng.standard_normal((4, 4))).astype(np.float32)
    # body: h' = tanh(h @ w + x) on even iterations, tanh(h @ w - x) on odd ones (a nested If
    # reading x, two scopes out); cond' = sum(h') < 1000 (always true here); scan output h'
    even = helper.make_graph([helper.make_node("Add", ["hw", "x"], ["even_out"], name="even_add")], "even", [],
                             [helper.make_tensor_value_info("even_out", TensorProto.FLOAT, [1, 4])])
    odd = helper.make_graph([helper.make_node("Sub", ["hw", "x"], ["odd_out"], name="odd_sub")], "odd", [],
                            [helper.make_tensor_value_info("odd_out", TensorProto.FLOAT, [1, 4])])
    body = helper.make_graph(
        [helper.make_node("MatMul", ["h_in", "w"], ["hw"], name="body_matmul"),
         helper.make_node("Mod", ["i", "two"], ["parity"], name="body_parity"),
         helper.make_node("Equal", ["parity", "zero"], ["is_even"], name="body_is_even"),
         helper.make_node("If", ["is_even"], ["pre"], name="body_if", then_branch=even, else_branch=odd),
         helper.make_node("Tanh", ["pre"], ["h_out"], name="body_tanh"),
         helper.make_node("ReduceSum", ["h_out"], ["total"], name="body_sum", keepdims=0),
         helper.make_node("Less", ["total", "limit"], ["cond_out"], name="body_cond"),
         helper.make_node("Identity", ["h_out"], ["h_scan"], name="body_scan")],
        "recurrence",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_in", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("h_scan", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(np.array(2, np.int64), "two"), numpy_helper.from_array(np.array(0, np.int64), "zero"),
         numpy_helper.from_array(np.array(1000, np.float32), "limit")])
    g = helper.make_graph(
        [helper.make_node("Loop", ["steps", "keep_going", "h0"], ["h_final", "h_all"], name="recur", body=body)],
        "loop_recurrence",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("h_final", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("h_all", TensorProto.FLOAT, [steps, 1, 4])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.array(steps, np.int64), "steps"),
         numpy_helper.from_array(np.array(True), "keep_going")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    x = rng.standard_normal((1, 4)).astype(np.float32)
    h0 = rng.standard_normal((1, 4)).astype(np.float32)
    h, hs = h0.astype(np.float64), []
    for i in range(steps):
        h = np.tanh(h @ w + (x if i % 2 == 0 else -x))
        hs.append(h.astype(np.float32))
    save("loop_recurrence", model, [("x", x), ("h0", h0)],
         [("h_final", h.astype(np.float32)), ("h_all", np.stack(hs))])


def scan_reverse():
    w = rng.standard_normal((3,)).astype(np.float32)
    x = rng.standard_normal((2, 4, 3)).astype(np.float32)
    s0 = rng.standard_normal((2, 3)).astype(np.float32)
    # body: s' = s * w + x_t; y_t = relu(s')
    body = helper.make_graph(
        [helper.make_node("Mul", ["s_in", "w"], ["sw"], name="scan_mul"),
         helper.make_node("Add", ["sw", "x_t"], ["s_out"], name="scan_add"),
         helper.make_node("Relu", ["s_out"], ["y_t"], name="scan_relu")],
        "scan_body",
        [helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("y_t", TensorProto.FLOAT, [2, 3])])
    g = helper.make_graph(
        [helper.make_node("Scan", ["s0", "x"], ["s_final", "ys"], name="scan", body=body, num_scan_inputs=1,
                          scan_input_axes=[1], scan_input_directions=[1], scan_output_axes=[1])],
        "scan_reverse",
        [helper.make_tensor_value_info("s0", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3])],
        [helper.make_tensor_value_info("s_final", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("ys", TensorProto.FLOAT, [2, 4, 3])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], producer_name="embark-tests")
    s, ys = s0.astype(np.float64), [None] * 4
    for t in range(4):
        i = 3 - t  # reverse
        s = s * w + x[:, i, :]
        ys[t] = np.maximum(s, 0).astype(np.float32)
    save("scan_reverse", model, [("s0", s0), ("x", x)],
         [("s_final", s.astype(np.float32)), ("ys", np.stack(ys, axis=1))])


def if_shape_mismatch():
    then_g = helper.make_graph([helper.make_node("Relu", ["a"], ["then_out"], name="then_relu")], "then", [],
                               [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [1, 4])])
    else_g = helper.make_graph(
        [helper.make_node("Constant", [], ["else_out"], name="else_const",
                          value=numpy_helper.from_array(np.zeros((1, 2), np.float32)))],
        "else", [], [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [1, 2])])
    g = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], name="choose", then_branch=then_g, else_branch=else_g)],
        "if_shape_mismatch",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 4]),
         helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", "cols"])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    a = rng.standard_normal((1, 4)).astype(np.float32)
    save("if_shape_mismatch", model, [("a", a), ("c", np.array(True))], [("y", np.maximum(a, 0))])


def if_shape_logic():
    w = rng.standard_normal((8, 3)).astype(np.float32)

    def c(name, value):
        return helper.make_node("Constant", [], [name], name=name, value=numpy_helper.from_array(value))

    def branch(tag, scale):
        p = tag + "_"
        # frames = Reshape(audio, [Shape(audio)[0], -1, 8]); a rank test (as torch's LSTM wrapper
        # exports it) adds a batch axis to a rank-2 value; out = ReduceMean(frames @ w) * scale
        inner_then = helper.make_graph(
            [c(p + "ax", np.array([0], np.int64)),
             helper.make_node("Unsqueeze", [p + "flat", p + "ax"], [p + "lifted"], name=p + "lift")],
            p + "lift_rank2", [], [helper.make_tensor_value_info(p + "lifted", TensorProto.FLOAT, [1, "frames", 8])])
        inner_else = helper.make_graph(
            [helper.make_node("Identity", [p + "flat"], [p + "kept"], name=p + "keep")],
            p + "keep_rank3", [], [helper.make_tensor_value_info(p + "kept", TensorProto.FLOAT, ["frames", 8])])
        return helper.make_graph(
            [helper.make_node("Shape", ["audio"], [p + "shape"], name=p + "shape"),
             c(p + "i0", np.array(0, np.int64)),
             helper.make_node("Gather", [p + "shape", p + "i0"], [p + "batch"], name=p + "batch", axis=0),
             c(p + "ax0", np.array([0], np.int64)),
             helper.make_node("Unsqueeze", [p + "batch", p + "ax0"], [p + "batch1"], name=p + "batch1"),
             c(p + "rest", np.array([-1, 8], np.int64)),
             helper.make_node("Concat", [p + "batch1", p + "rest"], [p + "target"], name=p + "target", axis=0),
             helper.make_node("Reshape", ["audio", p + "target"], [p + "frames"], name=p + "frames"),
             c(p + "ax1", np.array([0], np.int64)),
             helper.make_node("Squeeze", [p + "frames", p + "ax1"], [p + "flat"], name=p + "flat"),
             helper.make_node("Shape", [p + "flat"], [p + "flat_shape"], name=p + "flat_shape"),
             helper.make_node("Size", [p + "flat_shape"], [p + "rank"], name=p + "rank"),
             c(p + "two", np.array(2, np.int64)),
             helper.make_node("Equal", [p + "rank", p + "two"], [p + "is_rank2"], name=p + "is_rank2"),
             helper.make_node("If", [p + "is_rank2"], [p + "batched"], name=p + "by_rank",
                              then_branch=inner_then, else_branch=inner_else),
             helper.make_node("MatMul", [p + "batched", "w"], [p + "mm"], name=p + "matmul"),
             helper.make_node("ReduceMean", [p + "mm"], [p + "mean"], name=p + "mean", axes=[1], keepdims=0),
             c(p + "scale", np.array(scale, np.float32)),
             helper.make_node("Mul", [p + "mean", p + "scale"], [p + "out"], name=p + "scaled")],
            tag, [], [helper.make_tensor_value_info(p + "out", TensorProto.FLOAT, ["batch", 3])])

    g = helper.make_graph(
        [helper.make_node("Equal", ["sr", "sr16k"], ["is16k"], name="is_16k"),
         helper.make_node("If", ["is16k"], ["scores"], name="by_rate", then_branch=branch("then", 1.0),
                          else_branch=branch("else", 0.5)),
         helper.make_node("Sigmoid", ["scores"], ["prob"], name="prob")],
        "if_shape_logic",
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, 32]),
         helper.make_tensor_value_info("sr", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, ["batch", 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.array(16000, np.int64), "sr16k")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    audio = rng.standard_normal((1, 32)).astype(np.float32)
    frames = audio.reshape(1, -1, 8)[0][None]  # rank 2 after the squeeze, lifted back to [1, 4, 8]
    mean = (frames @ w).mean(axis=1)
    prob16 = (1 / (1 + np.exp(-mean))).astype(np.float32)
    prob8 = (1 / (1 + np.exp(-0.5 * mean))).astype(np.float32)
    save("if_shape_logic", model, [("audio", audio), ("sr", np.array(16000, np.int64))], [("prob", prob16)])
    folder = os.path.join(HERE, "if_shape_logic", "test_data_set_1")
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, "input_0.pb"), "wb").write(numpy_helper.from_array(audio, "audio").SerializeToString())
    open(os.path.join(folder, "input_1.pb"), "wb").write(numpy_helper.from_array(np.array(8000, np.int64), "sr").SerializeToString())
    open(os.path.join(folder, "output_0.pb"), "wb").write(numpy_helper.from_array(prob8, "prob").SerializeToString())


def if_unrunnable_branch():
    w16 = rng.standard_normal((16, 3)).astype(np.float32)
    w8 = rng.standard_normal((8, 3)).astype(np.float32)
    then_g = helper.make_graph([helper.make_node("MatMul", ["audio", "w16"], ["t_out"], name="then_matmul")],
                               "then_16k", [], [helper.make_tensor_value_info("t_out", TensorProto.FLOAT, [1, 3])])
    else_g = helper.make_graph([helper.make_node("MatMul", ["audio", "w8"], ["e_out"], name="else_matmul")],
                               "else_8k", [], [helper.make_tensor_value_info("e_out", TensorProto.FLOAT, [1, 3])])
    g = helper.make_graph(
        [helper.make_node("Equal", ["sr", "sr16k"], ["is16k"], name="is_16k"),
         helper.make_node("If", ["is16k"], ["y"], name="by_rate", then_branch=then_g, else_branch=else_g)],
        "if_unrunnable_branch",
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, [1, "samples"]),
         helper.make_tensor_value_info("sr", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
        [numpy_helper.from_array(w16, "w16"), numpy_helper.from_array(w8, "w8"),
         numpy_helper.from_array(np.array(16000, np.int64), "sr16k")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    audio = rng.standard_normal((1, 16)).astype(np.float32)
    save("if_unrunnable_branch", model, [("audio", audio), ("sr", np.array(16000, np.int64))],
         [("y", (audio @ w16).astype(np.float32))])


if __name__ == "__main__":
    if_sample_rate()
    loop_recurrence()
    scan_reverse()
    if_shape_mismatch()
    if_shape_logic()
    if_unrunnable_branch()
