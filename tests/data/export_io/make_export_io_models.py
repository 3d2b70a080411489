#!/usr/bin/python3
"""A model whose graph outputs are not computed at run time, for the export tests, with
test_data_set_0 (expected outputs computed here with numpy):

  constant_outputs.onnx  outputs: Shape(x) (int64, folded to a constant by the export), a bool
                         initializer, the graph input x itself, Relu(x), and Relu(x) again
                         (two outputs naming one value)

Run: /usr/bin/python3 make_export_io_models.py (writes next to this file)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def constant_outputs():
    flags = np.array([True, False, True])
    g = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["x_shape"], name="shape"),
         helper.make_node("Relu", ["x"], ["y"], name="relu")],
        "constant_outputs",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("x_shape", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("flags", TensorProto.BOOL, [3]),
         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(flags, "flags")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="embark-tests")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, "constant_outputs.onnx"))
    x = np.array([[-1.5, 2.0, 0.25], [3.0, -0.5, 7.0]], np.float32)
    folder = os.path.join(HERE, "constant_outputs", "test_data_set_0")
    os.makedirs(folder, exist_ok=True)
    outs = [("x_shape", np.array([2, 3], np.int64)), ("flags", flags), ("x", x), ("y", np.maximum(x, 0)),
            ("y", np.maximum(x, 0))]
    open(os.path.join(folder, "input_0.pb"), "wb").write(numpy_helper.from_array(x, "x").SerializeToString())
    for i, (n, a) in enumerate(outs):
        open(os.path.join(folder, f"output_{i}.pb"), "wb").write(numpy_helper.from_array(a, n).SerializeToString())


if __name__ == "__main__":
    constant_outputs()
