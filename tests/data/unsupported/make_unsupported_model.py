# Writes custom_op.onnx: x[1,4] -> Relu -> com.example.FancyOp -> Sigmoid -> y, a model with
# an op Embark does not support (the studio still shows it; tst_studio_coherence).
# Run with /usr/bin/python3 (onnx installed).
import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
nodes = [
    helper.make_node("Relu", ["x"], ["r"], name="relu"),
    helper.make_node("FancyOp", ["r"], ["f"], name="fancy", domain="com.example"),
    helper.make_node("Sigmoid", ["f"], ["y"], name="sigmoid"),
]
graph = helper.make_graph(nodes, "custom_op", [x], [y])
model = helper.make_model(
    graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)], producer_name="embark-tests"
)
model.ir_version = 8
onnx.save(model, os.path.join(here, "custom_op.onnx"))
