#!/usr/bin/python3
# Writes the single-op ONNX models of bench/ops (issue 32): one folder per config under OUT,
# holding model.onnx and its inputs as input_K.pb (random floats, fixed seed), and prints one
# line per config, "NAME<TAB>description", in grid order.
#   make_models.py OUT [--quick] [--only SUBSTRING] [--in-model]
# The grid covers the ops the portable library implements, at shapes and attributes the model
# zoo does not stress (1-D convolutions with long kernels, large dilations, Resize in every mode
# and coordinate transformation, ...), plus two whole models from outside the zoo (a segmentation
# net with an ASPP head and a bilinear Resize, a raw-audio 1-D CNN). --quick keeps one or two
# configs per op family and the two models. --in-model leaves the whole models out and marks each
# single-op model with Embark's "embark.stands_for_inner_nodes" metadata: its node then takes the
# kernel and layout it takes inside a model, not a one-op model's shortcuts (bench_ops.sh
# --in-model times that node alone).
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17  # the newest Embark imports


def tensor(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


class Grid:
    def __init__(self):
        self.configs = []  # (name, description, quick, builder)

    def add(self, name, desc, builder, quick=False):
        self.configs.append((name, desc, quick, builder))


def single(op, inputs, consts, out_shape, attrs=None, out_name="y"):
    """inputs: [(name, shape)] float32 graph inputs; consts: [(name, array)] initializers."""
    node = helper.make_node(op, [n for n, _ in inputs] + [n for n, _ in consts], [out_name], **(attrs or {}))
    graph = helper.make_graph(
        [node], op.lower(),
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, out_shape)],
        [tensor(n, a) for n, a in consts])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    # The output's shape from inference (the graph's declared one may be a guess).
    inferred = {vi.name: vi for vi in model.graph.value_info}
    if out_name in inferred:
        model.graph.output[0].CopyFrom(inferred[out_name])
    onnx.checker.check_model(model, full_check=True)
    return model


def rng_weights(rng, shape, fan_in):
    return (rng.standard_normal(shape) / np.sqrt(max(fan_in, 1))).astype(np.float32)


def conv(name_shape, x, cout, k, stride=1, dil=1, group=1, pad=None, transpose=False, out_pad=None):
    def build(rng):
        nd = len(x) - 2
        ks = k if isinstance(k, (list, tuple)) else [k] * nd
        st = stride if isinstance(stride, (list, tuple)) else [stride] * nd
        dl = dil if isinstance(dil, (list, tuple)) else [dil] * nd
        cin = x[1]
        if transpose:
            w = rng_weights(rng, [cin, cout // group] + ks, cin // group * int(np.prod(ks)))
        else:
            w = rng_weights(rng, [cout, cin // group] + ks, cin // group * int(np.prod(ks)))
        b = (0.1 * rng.standard_normal([cout])).astype(np.float32)
        if pad is None:  # "same"-like: (k - 1) * d / 2 on both sides
            p = [(kk - 1) * dd // 2 for kk, dd in zip(ks, dl)] * 2
        else:
            p = pad if isinstance(pad, (list, tuple)) else [pad] * (2 * nd)
        attrs = dict(kernel_shape=ks, strides=st, dilations=dl, group=group, pads=p)
        if out_pad:
            attrs["output_padding"] = out_pad
        return single("ConvTranspose" if transpose else "Conv", [("x", x)], [("w", w), ("b", b)], None, attrs), [x]
    return build


def op_model(op, xs, consts=(), attrs=None):
    def build(rng):
        const_list = [(n, a(rng) if callable(a) else a) for n, a in consts]
        return single(op, [("x%d" % i if len(xs) > 1 else "x", s) for i, s in enumerate(xs)], const_list, None,
                      attrs), list(xs)
    return build


def resize(x, mode, ctm, scale=None, sizes=None, nearest_mode=None, cubic=None):
    def build(rng):
        attrs = dict(mode=mode, coordinate_transformation_mode=ctm)
        if nearest_mode:
            attrs["nearest_mode"] = nearest_mode
        if cubic is not None:
            attrs["cubic_coeff_a"] = cubic
        if sizes is not None:
            consts = [("roi", np.array([], np.float32)), ("scales", np.array([], np.float32)),
                      ("sizes", np.array(sizes, np.int64))]
        else:
            consts = [("roi", np.array([], np.float32)), ("scales", np.array([1, 1, scale, scale], np.float32))]
        return single("Resize", [("x", x)], consts, None, attrs), [x]
    return build


def topk(x, k):
    """TopK over the last axis: two outputs, the values and their int64 indices."""
    def build(rng):
        node = helper.make_node("TopK", ["x", "k"], ["values", "indices"], axis=-1)
        out = x[:-1] + [k]
        graph = helper.make_graph(
            [node], "topk", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x)],
            [helper.make_tensor_value_info("values", TensorProto.FLOAT, out),
             helper.make_tensor_value_info("indices", TensorProto.INT64, out)],
            [tensor("k", np.array([k], np.int64))])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        onnx.checker.check_model(model, full_check=True)
        return model, [x]
    return build


class Net:
    """A small whole model built node by node (bench/ops' two models from outside the zoo)."""

    def __init__(self, rng, x_shape):
        self.rng, self.nodes, self.inits, self.n = rng, [], [], 0
        self.x_shape = x_shape

    def name(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def const(self, arr):
        n = self.name("c")
        self.inits.append(tensor(n, arr))
        return n

    def op(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, dil=1, relu=True):
        nd = len(self.x_shape) - 2
        ks = [k] * nd
        w = self.const(rng_weights(self.rng, [cout, cin] + ks, cin * k ** nd))
        b = self.const((0.1 * self.rng.standard_normal([cout])).astype(np.float32))
        y = self.op("Conv", [x, w, b], kernel_shape=ks, strides=[stride] * nd, dilations=[dil] * nd,
                    pads=[(k - 1) * dil // 2] * (2 * nd))
        return self.op("Relu", [y]) if relu else y

    def model(self, y):
        graph = helper.make_graph(self.nodes, "net", [helper.make_tensor_value_info("x", TensorProto.FLOAT, self.x_shape)],
                                  [helper.make_tensor_value_info(y, TensorProto.FLOAT, None)], self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        inferred = {vi.name: vi for vi in model.graph.value_info}
        if y in inferred:
            model.graph.output[0].CopyFrom(inferred[y])
        onnx.checker.check_model(model, full_check=True)
        return model, [self.x_shape]


def segmentation_aspp(rng):
    """DeepLab-V3-like: a stride-8 encoder, an ASPP head (1x1 and 3x3 dilations 6, 12, 18 over
    32x32, an image-pooling branch), a 1x1 classifier to 21 classes, bilinear x8 to 256x256."""
    n = Net(rng, [1, 3, 256, 256])
    x = n.conv("x", 3, 32, 3, 2)
    x = n.conv(x, 32, 64, 3, 2)
    x = n.conv(x, 64, 128, 3, 2)
    x = n.conv(x, 128, 256, 3)
    branches = [n.conv(x, 256, 128, 1)] + [n.conv(x, 256, 128, 3, dil=d) for d in (6, 12, 18)]
    pooled = n.conv(n.op("GlobalAveragePool", [x]), 256, 128, 1)
    branches.append(n.op("Resize", [pooled, n.const(np.array([], np.float32)),
                                    n.const(np.array([1, 1, 32, 32], np.float32))], mode="nearest"))
    y = n.conv(n.op("Concat", branches, axis=1), 5 * 128, 128, 1)
    y = n.conv(y, 128, 21, 1, relu=False)
    y = n.op("Resize", [y, n.const(np.array([], np.float32)), n.const(np.array([1, 1, 8, 8], np.float32))],
             mode="linear", coordinate_transformation_mode="half_pixel")
    return n.model(y)


def audio_cnn(rng):
    """M5-like raw-audio classifier: 1 s at 16 kHz, an 80-tap stride-4 first layer, 3-tap layers
    with max pools, a global average and a 35-way classifier."""
    n = Net(rng, [1, 1, 16000])
    x = n.conv("x", 1, 128, 80, 4)
    x = n.op("MaxPool", [x], kernel_shape=[4], strides=[4])
    for cin, cout in ((128, 128), (128, 256), (256, 512)):
        x = n.conv(x, cin, cout, 3)
        x = n.op("MaxPool", [x], kernel_shape=[4], strides=[4])
    x = n.op("Reshape", [n.op("GlobalAveragePool", [x]), n.const(np.array([1, 512], np.int64))])
    w = n.const(rng_weights(rng, [35, 512], 512))
    y = n.op("Gemm", [x, w, n.const(np.zeros([35], np.float32))], transB=1)
    return n.model(y)


def make_grid():
    g = Grid()
    # ---- 1-D convolutions (raw audio, speech, time series) ----
    g.add("conv1d_c1_k80_s4", "Conv1D 1->64 k80 s4, 8000 samples", conv(None, [1, 1, 8000], 64, 80, 4, pad=0), True)
    g.add("conv1d_c64_k3", "Conv1D 64->64 k3, 2000", conv(None, [1, 64, 2000], 64, 3), True)
    g.add("conv1d_dw_k9", "Conv1D depthwise 64 k9, 2000", conv(None, [1, 64, 2000], 64, 9, group=64), True)
    g.add("conv1d_c1_k251", "Conv1D 1->32 k251 (sinc-like), 16000", conv(None, [1, 1, 16000], 32, 251, pad=0))
    g.add("conv1d_c1_k400_s160", "Conv1D 1->64 k400 s160 (frames), 16000", conv(None, [1, 1, 16000], 64, 400, 160, pad=0))
    g.add("conv1d_c128_k1", "Conv1D 128->256 k1, 1000", conv(None, [1, 128, 1000], 256, 1))
    g.add("conv1d_c32_k11", "Conv1D 32->32 k11, 4000", conv(None, [1, 32, 4000], 32, 11))
    g.add("conv1d_c64_k5_s2", "Conv1D 64->128 k5 s2, 4000", conv(None, [1, 64, 4000], 128, 5, 2))
    g.add("conv1d_c64_k3_d4", "Conv1D 64->64 k3 d4 (TCN), 2000", conv(None, [1, 64, 2000], 64, 3, dil=4))
    g.add("conv1d_c64_k3_d16", "Conv1D 64->64 k3 d16 (TCN), 2000", conv(None, [1, 64, 2000], 64, 3, dil=16))
    g.add("conv1d_g4_k5", "Conv1D 64->64 k5 groups 4, 2000", conv(None, [1, 64, 2000], 64, 5, group=4))
    g.add("conv1d_c512_k3_s3", "Conv1D 512->512 k3 s3, 300", conv(None, [1, 512, 300], 512, 3, 3, pad=0))
    # ---- 2-D convolutions ----
    g.add("conv2d_3x3_64", "Conv 3x3 64->64, 56x56", conv(None, [1, 64, 56, 56], 64, 3), True)
    g.add("conv2d_1x1_1024", "Conv 1x1 1024->1024, 7x7", conv(None, [1, 1024, 7, 7], 1024, 1))
    g.add("conv2d_1x1_c1", "Conv 1x1 1->16, 128x128", conv(None, [1, 1, 128, 128], 16, 1))
    g.add("conv2d_5x5_32", "Conv 5x5 32->32, 56x56", conv(None, [1, 32, 56, 56], 32, 5))
    g.add("conv2d_7x7_s2_stem", "Conv 7x7 s2 3->64, 224x224", conv(None, [1, 3, 224, 224], 64, 7, 2))
    g.add("conv2d_11x11_s4", "Conv 11x11 s4 3->64, 224x224", conv(None, [1, 3, 224, 224], 64, 11, 4, pad=2))
    g.add("conv2d_3x3_s3", "Conv 3x3 s3 64->64, 90x90", conv(None, [1, 64, 90, 90], 64, 3, 3, pad=0))
    g.add("conv2d_3x3_s2_128", "Conv 3x3 s2 128->256, 28x28", conv(None, [1, 128, 28, 28], 256, 3, 2))
    g.add("conv2d_1x7", "Conv 1x7 128->128, 17x17", conv(None, [1, 128, 17, 17], 128, [1, 7]))
    g.add("conv2d_3x3_c1", "Conv 3x3 1->32, 128x128", conv(None, [1, 1, 128, 128], 32, 3))
    for d in (2, 6, 12, 24, 36):
        g.add("conv2d_3x3_d%d" % d, "Conv 3x3 dilation %d 256->256, 33x33" % d,
              conv(None, [1, 256, 33, 33], 256, 3, dil=d), d == 24)
    g.add("conv2d_3x3_d24_c64", "Conv 3x3 dilation 24 64->64, 64x64", conv(None, [1, 64, 64, 64], 64, 3, dil=24))
    for gr in (2, 4, 8):
        g.add("conv2d_3x3_g%d" % gr, "Conv 3x3 groups %d 128->128, 28x28" % gr,
              conv(None, [1, 128, 28, 28], 128, 3, group=gr), gr == 4)
    g.add("conv2d_dw3x3", "Depthwise 3x3 128, 56x56", conv(None, [1, 128, 56, 56], 128, 3, group=128), True)
    g.add("conv2d_dw3x3_s2", "Depthwise 3x3 s2 128, 56x56", conv(None, [1, 128, 56, 56], 128, 3, 2, group=128))
    g.add("conv2d_dw5x5", "Depthwise 5x5 240, 28x28", conv(None, [1, 240, 28, 28], 240, 5, group=240))
    g.add("conv2d_dw7x7", "Depthwise 7x7 384, 14x14", conv(None, [1, 384, 14, 14], 384, 7, group=384))
    g.add("conv2d_dw3x3_d2", "Depthwise 3x3 dilation 2 256, 28x28", conv(None, [1, 256, 28, 28], 256, 3, dil=2, group=256))
    g.add("conv2d_dw_mult2", "Depthwise 3x3 multiplier 2 64->128, 28x28", conv(None, [1, 64, 28, 28], 128, 3, group=64))
    g.add("conv2d_9x9_16", "Conv 9x9 16->16, 64x64", conv(None, [1, 16, 64, 64], 16, 9))
    g.add("conv2d_3x3_512_7x7", "Conv 3x3 512->512, 7x7", conv(None, [1, 512, 7, 7], 512, 3))
    g.add("conv2d_5x5_s4", "Conv 5x5 s4 32->64, 128x128", conv(None, [1, 32, 128, 128], 64, 5, 4))
    g.add("conv2d_1x1_c3_large", "Conv 1x1 3->8, 256x256", conv(None, [1, 3, 256, 256], 8, 1))
    # ---- 3-D convolutions ----
    g.add("conv3d_3x3x3", "Conv3D 3x3x3 16->32, 8x28x28", conv(None, [1, 16, 8, 28, 28], 32, 3), True)
    g.add("conv3d_1x1x1", "Conv3D 1x1x1 64->64, 8x14x14", conv(None, [1, 64, 8, 14, 14], 64, 1))
    g.add("conv3d_3x3x3_s2", "Conv3D 3x3x3 s2 16->16, 16x56x56", conv(None, [1, 16, 16, 56, 56], 16, 3, 2))
    # ---- ConvTranspose ----
    g.add("convt_2x2_s2", "ConvTranspose 2x2/2 64->32, 56x56", conv(None, [1, 64, 56, 56], 32, 2, 2, pad=0, transpose=True), True)
    g.add("convt_4x4_s2", "ConvTranspose 4x4/2 p1 64->32, 56x56", conv(None, [1, 64, 56, 56], 32, 4, 2, pad=1, transpose=True), True)
    g.add("convt_3x3_s1", "ConvTranspose 3x3/1 p1 32->32, 56x56", conv(None, [1, 32, 56, 56], 32, 3, 1, pad=1, transpose=True))
    g.add("convt_3x3_s2_op1", "ConvTranspose 3x3/2 p1 op1 64->32, 28x28",
          conv(None, [1, 64, 28, 28], 32, 3, 2, pad=1, transpose=True, out_pad=[1, 1]))
    g.add("convt1d_k4_s2", "ConvTranspose1D k4/2 p1 64->32, 2000", conv(None, [1, 64, 2000], 32, 4, 2, pad=1, transpose=True))
    # ---- Resize ----
    x = [1, 64, 64, 64]
    g.add("resize_nearest_x2", "Resize nearest x2 asymmetric floor, 64ch 64x64", resize(x, "nearest", "asymmetric", 2.0, nearest_mode="floor"), True)
    g.add("resize_nearest_x2_hp", "Resize nearest x2 half_pixel round_prefer_floor", resize(x, "nearest", "half_pixel", 2.0))
    g.add("resize_nearest_x3_ac", "Resize nearest x3 align_corners round_prefer_ceil",
          resize([1, 32, 48, 48], "nearest", "align_corners", 3.0, nearest_mode="round_prefer_ceil"))
    g.add("resize_linear_x2_hp", "Resize linear x2 half_pixel", resize(x, "linear", "half_pixel", 2.0), True)
    g.add("resize_linear_x2_ac", "Resize linear x2 align_corners", resize(x, "linear", "align_corners", 2.0), True)
    g.add("resize_linear_x2_phn", "Resize linear x2 pytorch_half_pixel", resize(x, "linear", "pytorch_half_pixel", 2.0))
    g.add("resize_linear_x2_asym", "Resize linear x2 asymmetric", resize(x, "linear", "asymmetric", 2.0))
    g.add("resize_linear_x8", "Resize linear x8 half_pixel 21ch 32x32->256x256",
          resize([1, 21, 32, 32], "linear", "half_pixel", 8.0), True)
    g.add("resize_linear_sizes", "Resize linear to 97x131 half_pixel 32ch 40x40",
          resize([1, 32, 40, 40], "linear", "half_pixel", sizes=[1, 32, 97, 131]))
    g.add("resize_linear_down", "Resize linear x0.5 half_pixel 64ch 128x128", resize([1, 64, 128, 128], "linear", "half_pixel", 0.5))
    g.add("resize_cubic_x2", "Resize cubic x2 half_pixel a=-0.75 32ch 32x32",
          resize([1, 32, 32, 32], "cubic", "half_pixel", 2.0, cubic=-0.75))
    g.add("resize_nearest_x4_1d",  "Resize nearest x4 on W only 64ch 32x32",
          lambda rng: (single("Resize", [("x", [1, 64, 32, 32])],
                              [("roi", np.array([], np.float32)), ("scales", np.array([1, 1, 1, 4], np.float32))], None,
                              dict(mode="nearest")), [[1, 64, 32, 32]]))
    # ---- pools ----
    g.add("maxpool_3x3_s2", "MaxPool 3x3 s2 p1 64ch 112x112",
          op_model("MaxPool", [[1, 64, 112, 112]], attrs=dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])), True)
    g.add("avgpool_2x2_s2", "AveragePool 2x2 s2 128ch 56x56",
          op_model("AveragePool", [[1, 128, 56, 56]], attrs=dict(kernel_shape=[2, 2], strides=[2, 2])))
    g.add("avgpool_3x3_s1_pad", "AveragePool 3x3 s1 p1 (count_include_pad 0) 192ch 28x28",
          op_model("AveragePool", [[1, 192, 28, 28]], attrs=dict(kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])))
    g.add("gap_2048", "GlobalAveragePool 2048ch 7x7", op_model("GlobalAveragePool", [[1, 2048, 7, 7]]))
    g.add("maxpool1d_k3_s2", "MaxPool1D k3 s2 64ch 4000",
          op_model("MaxPool", [[1, 64, 4000]], attrs=dict(kernel_shape=[3], strides=[2], pads=[1, 1])))
    # ---- reductions ----
    g.add("reducemean_hw", "ReduceMean axes (2,3) keepdims 256ch 28x28",
          op_model("ReduceMean", [[1, 256, 28, 28]], attrs=dict(axes=[2, 3])), True)
    g.add("reducesum_last", "ReduceSum axis -1 [64,128,256]",
          op_model("ReduceSum", [[64, 128, 256]], [("axes", np.array([-1], np.int64))]))
    g.add("reducemax_c", "ReduceMax axis 1 [1,256,56,56]",
          op_model("ReduceMax", [[1, 256, 56, 56]], attrs=dict(axes=[1])))
    # ---- element-wise with broadcasting ----
    g.add("add_same", "Add [1,64,112,112] + same", op_model("Add", [[1, 64, 112, 112], [1, 64, 112, 112]]), True)
    g.add("mul_bcast_c", "Mul [1,256,56,56] * [1,256,1,1]", op_model("Mul", [[1, 256, 56, 56], [1, 256, 1, 1]]), True)
    g.add("add_bcast_hw", "Add [1,64,56,56] + [1,1,56,56]", op_model("Add", [[1, 64, 56, 56], [1, 1, 56, 56]]))
    g.add("add_bcast_row", "Add [8,128,768] + [768]", op_model("Add", [[8, 128, 768], [768]]))
    g.add("sigmoid", "Sigmoid [1,256,56,56]", op_model("Sigmoid", [[1, 256, 56, 56]]))
    # ---- MatMul / Gemm ----
    g.add("matmul_batched", "MatMul [12,197,64] x [12,64,197] (both at run time)",
          op_model("MatMul", [[12, 197, 64], [12, 64, 197]]), True)
    g.add("matmul_weights", "MatMul [1,197,768] x W[768,3072]",
          lambda rng: (single("MatMul", [("x", [1, 197, 768])], [("w", rng_weights(rng, [768, 3072], 768))], None),
                       [[1, 197, 768]]))
    g.add("matmul_bcast", "MatMul [4,8,64,64] x [64,64] (both at run time)", op_model("MatMul", [[4, 8, 64, 64], [64, 64]]))
    g.add("gemm_fc", "Gemm [1,2048] x W^T[1000,2048] + b",
          lambda rng: (single("Gemm", [("x", [1, 2048])], [("w", rng_weights(rng, [1000, 2048], 2048)),
                                                          ("b", np.zeros([1000], np.float32))], None, dict(transB=1)),
                       [[1, 2048]]), True)
    g.add("gemm_rows", "Gemm [256,512] x W[512,512] + b",
          lambda rng: (single("Gemm", [("x", [256, 512])], [("w", rng_weights(rng, [512, 512], 512)),
                                                           ("b", np.zeros([512], np.float32))], None),
                       [[256, 512]]))
    # ---- Softmax / LayerNorm along each axis ----
    for ax in (-1, 1, 0):
        g.add("softmax_ax%d" % ax, "Softmax axis %d [16,128,128]" % ax,
              op_model("Softmax", [[16, 128, 128]], attrs=dict(axis=ax)), ax == -1)
    for ax in (-1, 1):
        g.add("layernorm_ax%d" % ax, "LayerNormalization axis %d [4,197,768]" % ax,
              lambda rng, ax=ax: (single("LayerNormalization", [("x", [4, 197, 768])],
                                         [("scale", np.ones([197, 768] if ax == 1 else [768], np.float32)),
                                          ("bias", np.zeros([197, 768] if ax == 1 else [768], np.float32))], None,
                                         dict(axis=ax)), [[4, 197, 768]]), ax == -1)
    g.add("instancenorm", "InstanceNormalization 64ch 56x56",
          op_model("InstanceNormalization", [[1, 64, 56, 56]],
                   [("scale", lambda rng: rng.standard_normal([64]).astype(np.float32)),
                    ("bias", lambda rng: rng.standard_normal([64]).astype(np.float32))]))
    # ---- data movement ----
    g.add("transpose_nhwc", "Transpose [1,64,112,112] perm (0,2,3,1)",
          op_model("Transpose", [[1, 64, 112, 112]], attrs=dict(perm=[0, 2, 3, 1])), True)
    g.add("transpose_heads", "Transpose [1,197,12,64] perm (0,2,1,3)",
          op_model("Transpose", [[1, 197, 12, 64]], attrs=dict(perm=[0, 2, 1, 3])))
    g.add("gather_rows", "Gather axis 0 [30000,256] by 512 indices",
          lambda rng: (single("Gather", [("x", [30000, 256])], [("idx", rng.integers(0, 30000, [512]).astype(np.int64))],
                              None, dict(axis=0)), [[30000, 256]]), True)
    g.add("gather_axis1", "Gather axis 1 [64,1000,64] by 100 indices",
          lambda rng: (single("Gather", [("x", [64, 1000, 64])], [("idx", rng.integers(0, 1000, [100]).astype(np.int64))],
                              None, dict(axis=1)), [[64, 1000, 64]]))
    g.add("slice_c", "Slice channels 32:96 step 1 [1,128,56,56]",
          op_model("Slice", [[1, 128, 56, 56]], [("starts", np.array([32], np.int64)), ("ends", np.array([96], np.int64)),
                                                 ("axes", np.array([1], np.int64))]), True)
    g.add("slice_hw_step2", "Slice H,W step 2 [1,64,112,112]",
          op_model("Slice", [[1, 64, 112, 112]], [("starts", np.array([0, 0], np.int64)),
                                                  ("ends", np.array([112, 112], np.int64)),
                                                  ("axes", np.array([2, 3], np.int64)), ("steps", np.array([2, 2], np.int64))]))
    g.add("concat_c", "Concat axis 1 3x[1,64,56,56]",
          op_model("Concat", [[1, 64, 56, 56]] * 3, attrs=dict(axis=1)), True)
    g.add("concat_last", "Concat axis -1 [64,128,96]+[64,128,32]",
          op_model("Concat", [[64, 128, 96], [64, 128, 32]], attrs=dict(axis=-1)))
    g.add("pad_const", "Pad constant 2 [1,64,112,112]",
          op_model("Pad", [[1, 64, 112, 112]], [("pads", np.array([0, 0, 2, 2, 0, 0, 2, 2], np.int64))]), True)
    g.add("pad_reflect", "Pad reflect 3 [1,32,128,128]",
          op_model("Pad", [[1, 32, 128, 128]], [("pads", np.array([0, 0, 3, 3, 0, 0, 3, 3], np.int64))],
                   attrs=dict(mode="reflect")))
    # ---- the ops of the model-coverage issue ----
    g.add("lstm_t100_h128", "LSTM 100 steps, 64 -> 128 hidden",
          lambda rng: (single("LSTM", [("x", [100, 1, 64])],
                              [("w", rng_weights(rng, [1, 512, 64], 64)), ("r", rng_weights(rng, [1, 512, 128], 128)),
                               ("b", (0.1 * rng.standard_normal([1, 1024])).astype(np.float32))], None,
                              dict(hidden_size=128)), [[100, 1, 64]]))
    g.add("gru_t100_h128", "GRU 100 steps, 64 -> 128 hidden",
          lambda rng: (single("GRU", [("x", [100, 1, 64])],
                              [("w", rng_weights(rng, [1, 384, 64], 64)), ("r", rng_weights(rng, [1, 384, 128], 128)),
                               ("b", (0.1 * rng.standard_normal([1, 768])).astype(np.float32))], None,
                              dict(hidden_size=128, linear_before_reset=1)), [[100, 1, 64]]))
    g.add("einsum_attn", "Einsum bhid,bhjd->bhij [1,8,128,64] x2",
          op_model("Einsum", [[1, 8, 128, 64], [1, 8, 128, 64]], attrs=dict(equation="bhid,bhjd->bhij")))
    g.add("scatternd_rows", "ScatterND 256 rows into [4096,64]",
          lambda rng: (single("ScatterND", [("x", [4096, 64])],
                              [("idx", rng.permutation(4096)[:256].reshape(256, 1).astype(np.int64)),
                               ("upd", rng.standard_normal([256, 64]).astype(np.float32))], None), [[4096, 64]]))
    g.add("gatherelements_ax1", "GatherElements axis 1 [64,1000,64] by [64,100,64] indices",
          lambda rng: (single("GatherElements", [("x", [64, 1000, 64])],
                              [("idx", rng.integers(0, 1000, [64, 100, 64]).astype(np.int64))], None, dict(axis=1)),
                       [[64, 1000, 64]]))
    g.add("topk_last", "TopK k=10 axis -1 [256,1000] (values and indices)", topk([256, 1000], 10))
    g.add("cumsum_ax1", "CumSum axis 1 [16,1024,64]",
          op_model("CumSum", [[16, 1024, 64]], [("axis", np.array(1, np.int64))]))
    g.add("cumsum_last_rev", "CumSum axis -1 exclusive reverse [64,4096]",
          op_model("CumSum", [[64, 4096]], [("axis", np.array(-1, np.int64))], attrs=dict(exclusive=1, reverse=1)))
    for mode in ("bilinear", "nearest", "bicubic"):
        g.add("gridsample_" + mode, "GridSample %s zeros 32ch 64x64, grid 64x64" % mode,
              lambda rng, mode=mode: (single("GridSample", [("x", [1, 32, 64, 64])],
                                             [("grid", rng.uniform(-1.05, 1.05, [1, 64, 64, 2]).astype(np.float32))],
                                             None, dict(mode=mode, padding_mode="zeros", align_corners=0)),
                                      [[1, 32, 64, 64]]))
    # ---- whole models from outside the zoo ----
    g.add("model_seg_aspp", "Segmentation ASPP d6/12/18 + bilinear x8, 256x256", segmentation_aspp, True)
    g.add("model_audio_cnn", "Raw-audio 1-D CNN (M5-like), 16000 samples", audio_cnn, True)
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--in-model", action="store_true")
    a = ap.parse_args()
    g = make_grid()
    for name, desc, quick, build in g.configs:
        if a.quick and not quick:
            continue
        if a.in_model and name.startswith("model_"):
            continue
        if a.only and not any(s in name for s in a.only.split(",")):
            continue
        rng = np.random.default_rng(1234)
        model, shapes = build(rng)
        if a.in_model:
            helper.set_model_props(model, {"embark.stands_for_inner_nodes": "bench/ops --in-model"})
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        onnx.save(model, os.path.join(d, "model.onnx"))
        for k, s in enumerate(shapes):
            arr = rng.standard_normal(s).astype(np.float32)
            with open(os.path.join(d, "input_%d.pb" % k), "wb") as f:
                f.write(numpy_helper.from_array(arr, model.graph.input[k].name).SerializeToString())
        print("%s\t%s" % (name, desc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
