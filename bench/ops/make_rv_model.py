#!/usr/bin/python3
# The RISC-V side of bench/ops (issue 32): the conv / depthwise / pool / resize / matmul,
# element-wise, activation, Softmax and data-movement configs of make_models.py's grid at sizes
# qemu runs in seconds (retired instructions do not need large shapes to rank two kernels, and
# qemu's RVV emulation is slow), all in ONE model: config NAME is
# the node NAME reading its own graph input NAME__x and writing the graph output NAME__y, so one
# export per board and library times every config (bench_ops_rv.sh, per layer under qemu).
# Prints one line per config, "NAME<TAB>description".
#   make_rv_model.py OUT.onnx [--only SUBSTRING,...]
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_models import OPSET, Grid, conv, op_model, resize, rng_weights, single  # noqa: E402


def make_rv_grid():
    g = Grid()
    # ---- Conv 1-D ----
    g.add("conv1d_c1_k80_s4", "Conv1D 1->64 k80 s4, 2000 samples", conv(None, [1, 1, 2000], 64, 80, 4, pad=0))
    g.add("conv1d_c64_k3", "Conv1D 64->64 k3, 500", conv(None, [1, 64, 500], 64, 3))
    g.add("conv1d_dw_k9", "Conv1D depthwise 64 k9, 500", conv(None, [1, 64, 500], 64, 9, group=64))
    g.add("conv1d_c32_k11", "Conv1D 32->32 k11, 500", conv(None, [1, 32, 500], 32, 11))
    g.add("conv1d_c64_k5_s2", "Conv1D 64->128 k5 s2, 400", conv(None, [1, 64, 400], 128, 5, 2))
    g.add("conv1d_c64_k3_d4", "Conv1D 64->64 k3 d4 (TCN), 500", conv(None, [1, 64, 500], 64, 3, dil=4))
    g.add("conv1d_g4_k5", "Conv1D 64->64 k5 groups 4, 500", conv(None, [1, 64, 500], 64, 5, group=4))
    # ---- Conv 2-D ----
    g.add("conv2d_3x3_32", "Conv 3x3 32->32, 28x28", conv(None, [1, 32, 28, 28], 32, 3))
    g.add("conv2d_1x1_256", "Conv 1x1 256->256, 7x7", conv(None, [1, 256, 7, 7], 256, 1))
    g.add("conv2d_1x1_c1", "Conv 1x1 1->16, 64x64", conv(None, [1, 1, 64, 64], 16, 1))
    g.add("conv2d_5x5_16", "Conv 5x5 16->16, 28x28", conv(None, [1, 16, 28, 28], 16, 5))
    g.add("conv2d_7x7_s2_stem", "Conv 7x7 s2 3->32, 64x64", conv(None, [1, 3, 64, 64], 32, 7, 2))
    g.add("conv2d_11x11_s4", "Conv 11x11 s4 p2 3->16, 112x112", conv(None, [1, 3, 112, 112], 16, 11, 4, pad=2))
    g.add("conv2d_3x3_s2_64", "Conv 3x3 s2 64->128, 14x14", conv(None, [1, 64, 14, 14], 128, 3, 2))
    g.add("conv2d_1x7", "Conv 1x7 48->48, 17x17", conv(None, [1, 48, 17, 17], 48, [1, 7]))
    g.add("conv2d_3x3_c1", "Conv 3x3 1->16, 64x64", conv(None, [1, 1, 64, 64], 16, 3))
    for d in (2, 6, 12, 24):
        g.add("conv2d_3x3_d%d" % d, "Conv 3x3 dilation %d 32->32, 26x26" % d,
              conv(None, [1, 32, 26, 26], 32, 3, dil=d))
    for gr in (2, 4):
        g.add("conv2d_3x3_g%d" % gr, "Conv 3x3 groups %d 64->64, 14x14" % gr,
              conv(None, [1, 64, 14, 14], 64, 3, group=gr))
    g.add("conv2d_3x3_128_7x7", "Conv 3x3 128->128, 7x7", conv(None, [1, 128, 7, 7], 128, 3))
    # ---- depthwise ----
    g.add("conv2d_dw3x3", "Depthwise 3x3 64, 28x28", conv(None, [1, 64, 28, 28], 64, 3, group=64))
    g.add("conv2d_dw3x3_s2", "Depthwise 3x3 s2 64, 28x28", conv(None, [1, 64, 28, 28], 64, 3, 2, group=64))
    g.add("conv2d_dw5x5", "Depthwise 5x5 96, 14x14", conv(None, [1, 96, 14, 14], 96, 5, group=96))
    g.add("conv2d_dw7x7", "Depthwise 7x7 128, 7x7", conv(None, [1, 128, 7, 7], 128, 7, group=128))
    g.add("conv2d_dw3x3_d2", "Depthwise 3x3 dilation 2 64, 14x14", conv(None, [1, 64, 14, 14], 64, 3, dil=2, group=64))
    g.add("conv2d_dw_mult2", "Depthwise 3x3 multiplier 2 32->64, 14x14", conv(None, [1, 32, 14, 14], 64, 3, group=32))
    # MobileNet-V2's early layers, where XNNPACK counts fewer instructions inside the model
    # (bench/README.md, "A margin for counted instructions")
    g.add("conv2d_dw3x3_144_56", "Depthwise 3x3 144, 56x56", conv(None, [1, 144, 56, 56], 144, 3, group=144))
    g.add("conv2d_dw3x3_s2_96_112", "Depthwise 3x3 s2 96, 112x112",
          conv(None, [1, 96, 112, 112], 96, 3, 2, group=96))
    g.add("conv2d_1x1_16_96_112", "Conv 1x1 16->96, 112x112", conv(None, [1, 16, 112, 112], 96, 1))
    # ---- ConvTranspose ----
    g.add("convt_2x2_s2", "ConvTranspose 2x2/2 32->16, 28x28", conv(None, [1, 32, 28, 28], 16, 2, 2, pad=0, transpose=True))
    g.add("convt_4x4_s2", "ConvTranspose 4x4/2 p1 32->16, 28x28", conv(None, [1, 32, 28, 28], 16, 4, 2, pad=1, transpose=True))
    # ---- pools ----
    g.add("maxpool_3x3_s2", "MaxPool 3x3 s2 p1 64ch 56x56",
          op_model("MaxPool", [[1, 64, 56, 56]], attrs=dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])))
    g.add("avgpool_2x2_s2", "AveragePool 2x2 s2 64ch 28x28",
          op_model("AveragePool", [[1, 64, 28, 28]], attrs=dict(kernel_shape=[2, 2], strides=[2, 2])))
    g.add("avgpool_3x3_s1_pad", "AveragePool 3x3 s1 p1 (count_include_pad 0) 64ch 28x28",
          op_model("AveragePool", [[1, 64, 28, 28]], attrs=dict(kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])))
    g.add("gap_512", "GlobalAveragePool 512ch 7x7", op_model("GlobalAveragePool", [[1, 512, 7, 7]]))
    g.add("maxpool1d_k3_s2", "MaxPool1D k3 s2 64ch 1000",
          op_model("MaxPool", [[1, 64, 1000]], attrs=dict(kernel_shape=[3], strides=[2], pads=[1, 1])))
    # ---- Resize ----
    x = [1, 32, 32, 32]
    g.add("resize_nearest_x2", "Resize nearest x2 asymmetric floor, 32ch 32x32",
          resize(x, "nearest", "asymmetric", 2.0, nearest_mode="floor"))
    g.add("resize_nearest_x2_hp", "Resize nearest x2 half_pixel round_prefer_floor, 32ch 32x32",
          resize(x, "nearest", "half_pixel", 2.0))
    g.add("resize_linear_x2_hp", "Resize linear x2 half_pixel, 32ch 32x32", resize(x, "linear", "half_pixel", 2.0))
    g.add("resize_linear_x2_ac", "Resize linear x2 align_corners, 32ch 32x32", resize(x, "linear", "align_corners", 2.0))
    g.add("resize_linear_x2_asym", "Resize linear x2 asymmetric, 32ch 32x32", resize(x, "linear", "asymmetric", 2.0))
    g.add("resize_linear_x4", "Resize linear x4 half_pixel, 8ch 32x32", resize([1, 8, 32, 32], "linear", "half_pixel", 4.0))
    g.add("resize_linear_down", "Resize linear x0.5 half_pixel, 32ch 64x64",
          resize([1, 32, 64, 64], "linear", "half_pixel", 0.5))
    # ---- MatMul / Gemm ----
    g.add("matmul_batched", "MatMul [4,64,32] x [4,32,64] (both at run time)", op_model("MatMul", [[4, 64, 32], [4, 32, 64]]))
    g.add("matmul_weights", "MatMul [1,49,256] x W[256,512]",
          lambda rng: (single("MatMul", [("x", [1, 49, 256])], [("w", rng_weights(rng, [256, 512], 256))], None),
                       [[1, 49, 256]]))
    g.add("gemm_fc", "Gemm [1,1024] x W^T[1000,1024] + b",
          lambda rng: (single("Gemm", [("x", [1, 1024])], [("w", rng_weights(rng, [1000, 1024], 1024)),
                                                          ("b", np.zeros([1000], np.float32))], None, dict(transB=1)),
                       [[1, 1024]]))
    g.add("gemm_rows", "Gemm [64,256] x W[256,256] + b",
          lambda rng: (single("Gemm", [("x", [64, 256])], [("w", rng_weights(rng, [256, 256], 256)),
                                                          ("b", np.zeros([256], np.float32))], None),
                       [[64, 256]]))
    # ---- element-wise, activations, Softmax, data movement (the ops XNNPACK's emitter also takes) ----
    e = [1, 64, 28, 28]
    g.add("add_same", "Add [1,64,28,28] + same", op_model("Add", [e, e]))
    g.add("mul_bcast_c", "Mul [1,64,28,28] * [1,64,1,1]", op_model("Mul", [e, [1, 64, 1, 1]]))
    g.add("add_bcast_hw", "Add [1,64,28,28] + [1,1,28,28]", op_model("Add", [e, [1, 1, 28, 28]]))
    g.add("add_bcast_row", "Add [4,64,192] + [192]", op_model("Add", [[4, 64, 192], [192]]))
    g.add("relu", "Relu [1,64,28,28]", op_model("Relu", [e]))
    g.add("clip_0_6", "Clip 0..6 [1,64,28,28]",
          op_model("Clip", [e], [("lo", np.array(0, np.float32)), ("hi", np.array(6, np.float32))]))
    g.add("leakyrelu", "LeakyRelu 0.1 [1,64,28,28]", op_model("LeakyRelu", [e], attrs=dict(alpha=0.1)))
    g.add("hardswish", "HardSwish [1,64,28,28]", op_model("HardSwish", [e]))
    g.add("sigmoid", "Sigmoid [1,64,28,28]", op_model("Sigmoid", [e]))
    for ax in (-1, 1):
        g.add("softmax_ax%d" % ax, "Softmax axis %d [8,64,64]" % ax,
              op_model("Softmax", [[8, 64, 64]], attrs=dict(axis=ax)))
    g.add("gmaxpool_256", "GlobalMaxPool 256ch 7x7", op_model("GlobalMaxPool", [[1, 256, 7, 7]]))
    g.add("transpose_nhwc", "Transpose [1,32,28,28] perm (0,2,3,1)",
          op_model("Transpose", [[1, 32, 28, 28]], attrs=dict(perm=[0, 2, 3, 1])))
    g.add("concat_c", "Concat axis 1 3x[1,32,28,28]", op_model("Concat", [[1, 32, 28, 28]] * 3, attrs=dict(axis=1)))
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    nodes, inputs, outputs, inits = [], [], [], []
    for name, desc, _, build in make_rv_grid().configs:
        if a.only and not any(s in name for s in a.only.split(",")):
            continue
        model, _ = build(np.random.default_rng(1234))
        gr = model.graph
        ren = {}
        for vi in list(gr.input) + list(gr.output):
            ren[vi.name] = name + "__" + vi.name
        for init in gr.initializer:
            ren[init.name] = name + "__" + init.name
        assert len(gr.node) == 1, name
        node = gr.node[0]
        n = helper.make_node(node.op_type, [ren.get(i, i) if i else "" for i in node.input],
                             [ren.get(o, o) for o in node.output], name=name)
        n.attribute.extend(node.attribute)
        nodes.append(n)
        for vi in gr.input:
            c = onnx.ValueInfoProto()
            c.CopyFrom(vi)
            c.name = ren[vi.name]
            inputs.append(c)
        for vi in gr.output:
            c = onnx.ValueInfoProto()
            c.CopyFrom(vi)
            c.name = ren[vi.name]
            outputs.append(c)
        for init in gr.initializer:
            c = onnx.TensorProto()
            c.CopyFrom(init)
            c.name = ren[init.name]
            inits.append(c)
        print("%s\t%s" % (name, desc))
    graph = helper.make_graph(nodes, "ops_rv", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
