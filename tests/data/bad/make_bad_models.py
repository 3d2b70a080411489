#!/usr/bin/python3
# Generates the bad-model corpus (tests/data/bad/*.onnx) that tests/hardening/tst_bad_models.cpp
# feeds to the importer and to `embark-cli inspect`. Run once with Debian's python3-onnx; the
# generated files are committed, so the tests never need Python.
import os
import sys

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
DIGITS = os.path.join(HERE, "..", "..", "..", "resources", "models", "digits_cnn.onnx")


def model(nodes, inputs, outputs, initializers=(), opset=13, name="bad"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_bad_models")
    m.ir_version = 8
    return m


def vinfo(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def raw_tensor(name, dims, raw):
    # Built by hand: make_tensor refuses data whose size does not match the dims.
    t = TensorProto()
    t.name, t.data_type, t.raw_data = name, TensorProto.FLOAT, raw
    t.dims.extend(dims)
    return t


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if byte < 0x80:
            return value, at


def top_level_tag_offset(data, field):
    # Walks the message's top-level fields (wire types 0, 1, 2, 5 only: all ModelProto uses).
    at = 0
    while at < len(data):
        start = at
        tag, at = varint(data, at)
        if tag >> 3 == field:
            return start
        wire = tag & 7
        if wire == 0:
            _, at = varint(data, at)
        elif wire == 1:
            at += 8
        elif wire == 2:
            length, at = varint(data, at)
            at += length
        elif wire == 5:
            at += 4
    raise ValueError("field %d not found" % field)


def save(name, m):
    # Serialised directly: onnx.save would run no checks, but be explicit that none run.
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(m.SerializeToString())


def save_bytes(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def relu_model(**kw):
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu0")], [vinfo("x", [1, 4])], [vinfo("y", [1, 4])], **kw)


def main():
    digits = open(DIGITS, "rb").read()

    # Byte-level damage to a real model.
    save_bytes("truncated.onnx", digits[: len(digits) // 2])
    save_bytes("empty.onnx", b"")
    save_bytes("not_onnx.onnx", b"this is a text file, not a protobuf\n")
    # Two bits of the graph field's tag flipped (ModelProto.graph = 7, length-delimited: 0x3a
    # -> 0x3c, an end-group tag with no group open): a wire-format error, whatever follows.
    flipped = bytearray(digits)
    flipped[top_level_tag_offset(digits, 7)] ^= 0x06
    save_bytes("bitflipped.onnx", bytes(flipped))

    # Graph structure.
    save("cyclic.onnx", model(
        [helper.make_node("Add", ["x", "b"], ["a"], name="add_a"),
         helper.make_node("Relu", ["a"], ["b"], name="relu_b")],
        [vinfo("x", [1, 4])], [vinfo("b", [1, 4])]))
    save("duplicate_names.onnx", model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu_first"),
         helper.make_node("Sigmoid", ["x"], ["y"], name="sigmoid_second")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])]))
    save("dangling_input.onnx", model(
        [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add_dangling")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])]))

    # Shapes.
    save("huge_dims.onnx", model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu_huge")],
        [vinfo("x", [1 << 40, 1 << 40])], [vinfo("y", [1 << 40, 1 << 40])]))
    save("huge_initializer_dims.onnx", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add_huge")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])],
        initializers=[raw_tensor("w", [1 << 31, 1 << 31], b"\0" * 16)]))
    save("negative_dims.onnx", model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu_neg")],
        [vinfo("x", [1, -3])], [vinfo("y", [1, -3])]))

    # Types and data.
    save("wrong_dtype.onnx", model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu_string")],
        [vinfo("x", [1, 4], TensorProto.STRING)], [vinfo("y", [1, 4], TensorProto.STRING)]))
    unknown_dtype = helper.make_tensor("w", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
    unknown_dtype.data_type = 99
    save("unknown_initializer_dtype.onnx", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add_unknown_dtype")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])], initializers=[unknown_dtype]))
    save("zero_byte_initializer.onnx", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add_empty_w")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])],
        initializers=[raw_tensor("w", [4], b"")]))
    short_raw = raw_tensor("w", [4], b"\0\0\x80\x3f")
    save("short_raw_initializer.onnx", model(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add_short_w")],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])], initializers=[short_raw]))

    # External data.
    for name, location in (("external_outside.onnx", "../../../../etc/passwd"),
                           ("external_absolute.onnx", "/etc/passwd"),
                           ("external_missing.onnx", "missing_weights.bin")):
        w = raw_tensor("w", [4], b"")
        w.ClearField("raw_data")
        w.data_location = TensorProto.EXTERNAL
        entry = w.external_data.add()
        entry.key, entry.value = "location", location
        save(name, model(
            [helper.make_node("Add", ["x", "w"], ["y"], name="add_external_w")],
            [vinfo("x", [1, 4])], [vinfo("y", [1, 4])], initializers=[w]))

    # Ops and opsets.
    save("opset_99.onnx", relu_model(opset=99))
    save("long_node_name.onnx", model(
        [helper.make_node("NoSuchOp", ["x"], ["y"], name="n" * 10000)],
        [vinfo("x", [1, 4])], [vinfo("y", [1, 4])]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
