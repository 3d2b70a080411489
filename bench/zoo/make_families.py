#!/usr/bin/python3
"""Writes the second model zoo (issue 31): model families beyond image classification.

Where bench/zoo/make_zoo.py exports torchvision classifiers (speed), this zoo checks generality:
detection with NonMaxSuppression / TopK post-processing, segmentation with a bilinear Resize,
shifted-window attention (with the ScatterND-built mask torch emits), a BERT-like encoder fed
int64 token ids, LSTM and GRU keyword spotters, a conformer block, If and Loop, a dynamically
quantized (DynamicQuantizeLinear + MatMulInteger/ConvInteger) and a QDQ model, 1-D and 3-D
convolutions, a UNet, an EfficientNetV2-like and a MaxViT-like hybrid, attention as Einsum.

Every model is built with onnx.helper from numpy weights under fixed seeds (no torch needed),
in the shape torch.onnx.export or ONNX Runtime's quantization tools emit them, small enough
that a qemu run of an export takes seconds. Each one is written as
    OUT/<name>.onnx
    OUT/<name>/test_data_set_0/input_K.pb, output_K.pb   (the ONNX test-data layout)
The expected outputs come from ONNX Runtime (npm onnxruntime-node, CPU provider, graph
optimisations off unless ORT_OPT says otherwise: the plain kernels of the spec), never from Embark.
OUT defaults to ~/.cache/embark/families (outside the repo: nothing here is committed).

Needs: python3-onnx, python3-numpy, node + onnxruntime-node (ORT_CACHE, installed by
bench/zoo/check_families.sh or: ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30).
Usage: /usr/bin/python3 bench/zoo/make_families.py [--out DIR] [--force] [name ...]
       /usr/bin/python3 bench/zoo/make_families.py --list
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = 17
F = TensorProto.FLOAT
I64 = TensorProto.INT64


class G:
    """A graph under construction: nodes, initializers, fresh names, seeded weights."""

    def __init__(self, seed):
        self.nodes, self.inits, self.n = [], [], 0
        self.rng = np.random.RandomState(seed)

    def name(self, base="t"):
        self.n += 1
        return f"{base}_{self.n}"

    def const(self, array, base="c"):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def i64(self, values):
        return self.const(np.array(values, dtype=np.int64), "shape")

    def f32(self, values):
        return self.const(np.array(values, dtype=np.float32), "k")

    def weight(self, shape, fan_in=None, scale=1.0):
        fan_in = fan_in or int(np.prod(shape[1:])) or 1
        return self.const((self.rng.randn(*shape) * scale * np.sqrt(2.0 / fan_in)).astype(np.float32), "w")

    def bias(self, n, scale=0.1):
        return self.const((self.rng.randn(n) * scale).astype(np.float32), "b")

    def op(self, op_type, inputs, nout=1, domain=None, out=None, **attrs):
        outs = [out] if out else [self.name(op_type.lower()) for _ in range(nout)]
        kw = {"domain": domain} if domain else {}
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, name=self.name("/" + op_type), **attrs, **kw))
        return outs[0] if nout == 1 else outs

    # layers, as torch exports them
    def conv(self, x, cin, cout, k, stride=1, pad=None, group=1, dims=2, bias=True):
        ks = [k] * dims if isinstance(k, int) else list(k)
        pad = [kk // 2 for kk in ks] if pad is None else ([pad] * dims if isinstance(pad, int) else pad)
        w = self.weight([cout, cin // group] + ks)
        ins = [x, w] + ([self.bias(cout)] if bias else [])
        return self.op("Conv", ins, kernel_shape=ks, strides=[stride] * dims, pads=pad + pad, group=group)

    def bn(self, x, c):
        r = self.rng
        return self.op("BatchNormalization", [x, self.f32(1 + 0.1 * r.randn(c)), self.f32(0.1 * r.randn(c)),
                                              self.f32(0.1 * r.randn(c)), self.f32(1 + 0.2 * r.rand(c))],
                       epsilon=1e-5)

    def silu(self, x):
        return self.op("Mul", [x, self.op("Sigmoid", [x])])

    def gelu(self, x):  # torch's exact GELU at opset < 20
        e = self.op("Erf", [self.op("Div", [x, self.f32(1.4142135381698608)])])
        return self.op("Mul", [self.op("Mul", [x, self.op("Add", [e, self.f32(1.0)])]), self.f32(0.5)])

    def linear(self, x, cin, cout, bias=True):  # MatMul (+ Add) as torch exports nn.Linear on 3-D input
        y = self.op("MatMul", [x, self.weight([cin, cout], fan_in=cin)])
        return self.op("Add", [self.bias(cout), y]) if bias else y

    def gemm(self, x, cin, cout):
        return self.op("Gemm", [x, self.weight([cout, cin], fan_in=cin), self.bias(cout)], transB=1)

    def layernorm(self, x, c):
        r = self.rng
        return self.op("LayerNormalization", [x, self.f32(1 + 0.1 * r.randn(c)), self.f32(0.1 * r.randn(c))],
                       axis=-1, epsilon=1e-5)

    def layernorm_decomposed(self, x, c):  # torch at opset < 17
        r = self.rng
        m = self.op("ReduceMean", [x], axes=[-1])
        d = self.op("Sub", [x, m])
        v = self.op("ReduceMean", [self.op("Pow", [d, self.f32(2.0)])], axes=[-1])
        s = self.op("Sqrt", [self.op("Add", [v, self.f32(1e-5)])])
        y = self.op("Div", [d, s])
        return self.op("Add", [self.op("Mul", [y, self.f32(1 + 0.1 * r.randn(c))]), self.f32(0.1 * r.randn(c))])

    def mha(self, x, b, n, c, heads, bias=None, mask=None, nwin=None):
        """Multi-head self-attention over x [b, n, c] (one fused qkv projection, as timm/torchvision
        write it); bias [heads, n, n] is added to the scores, mask [nwin, n, n] (windows, swin)."""
        d = c // heads
        qkv = self.linear(x, c, 3 * c)
        qkv = self.op("Transpose", [self.op("Reshape", [qkv, self.i64([b, n, 3, heads, d])])], perm=[2, 0, 3, 1, 4])
        q, k, v = [self.op("Gather", [qkv, self.const(np.array(i, dtype=np.int64), "idx")], axis=0) for i in range(3)]
        q = self.op("Mul", [q, self.f32(d ** -0.5)])
        a = self.op("MatMul", [q, self.op("Transpose", [k], perm=[0, 1, 3, 2])])
        if bias is not None:
            a = self.op("Add", [a, bias])
        if mask is not None:
            a = self.op("Reshape", [a, self.i64([b // nwin, nwin, heads, n, n])])
            a = self.op("Add", [a, self.op("Unsqueeze", [self.op("Unsqueeze", [mask, self.i64([1])]), self.i64([0])])])
            a = self.op("Reshape", [a, self.i64([b, heads, n, n])])
        a = self.op("Softmax", [a], axis=-1)
        o = self.op("Transpose", [self.op("MatMul", [a, v])], perm=[0, 2, 1, 3])
        return self.linear(self.op("Reshape", [o, self.i64([b, n, c])]), c, c)

    def model(self, inputs, outputs, opset=OPSET, extra_opsets=()):
        graph = helper.make_graph(self.nodes, "main", inputs, outputs, self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)] + list(extra_opsets),
                              producer_name="embark-make_families")
        m.ir_version = 8
        onnx.checker.check_model(m)
        return onnx.shape_inference.infer_shapes(m, strict_mode=True)


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def randn(seed, shape, scale=1.0):
    return (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# The models: each returns (ModelProto, [input arrays])

def ssd_nms():
    """SSD-like detector: two stride-2 convolutions, box and class heads over 2 anchors per cell,
    box decoding against constant anchors, NonMaxSuppression, and gathering the kept boxes."""
    g = G(31)
    x = "image"
    f = g.op("Relu", [g.conv(x, 3, 8, 3, stride=2)])
    f = g.op("Relu", [g.conv(f, 8, 16, 3, stride=2)])  # [1,16,16,16]
    A, C, N = 2, 3, 16 * 16 * 2
    deltas = g.op("Reshape", [g.op("Transpose", [g.conv(f, 16, 4 * A, 3)], perm=[0, 2, 3, 1]), g.i64([1, N, 4])])
    logits = g.op("Reshape", [g.op("Transpose", [g.conv(f, 16, C * A, 3)], perm=[0, 2, 3, 1]), g.i64([1, N, C])])
    scores = g.op("Transpose", [g.op("Sigmoid", [logits])], perm=[0, 2, 1])  # [1,C,N]
    ys, xs = np.meshgrid((np.arange(16) + 0.5) / 16, (np.arange(16) + 0.5) / 16, indexing="ij")
    anchors = np.stack([np.stack([xs, ys, np.full_like(xs, s), np.full_like(xs, s)], -1) for s in (0.15, 0.3)], 2)
    anchors = anchors.reshape(1, N, 4).astype(np.float32)
    d = g.op("Mul", [deltas, g.f32([0.1, 0.1, 0.2, 0.2])])
    d_xy, d_wh = g.op("Split", [d, g.i64([2, 2])], nout=2, axis=2)
    a_xy, a_wh = g.const(anchors[..., :2]), g.const(anchors[..., 2:])
    xy = g.op("Add", [a_xy, g.op("Mul", [d_xy, a_wh])])
    wh = g.op("Mul", [a_wh, g.op("Exp", [d_wh])])
    boxes = g.op("Concat", [xy, wh], axis=2)  # center format
    sel = g.op("NonMaxSuppression", [boxes, scores, g.i64([8]), g.f32([0.45]), g.f32([0.6])], center_point_box=1,
               out="selected")
    box_idx = g.op("Gather", [sel, g.const(np.array(2, dtype=np.int64))], axis=1)
    g.op("Gather", [g.op("Squeeze", [boxes, g.i64([0])]), box_idx], axis=0, out="det_boxes")
    g.op("GatherND", [scores, sel], out="det_scores")
    m = g.model([vi(x, F, [1, 3, 64, 64])],
                [vi("selected", I64, ["K", 3]), vi("det_boxes", F, ["K", 4]), vi("det_scores", F, ["K"])])
    return m, [randn(1, [1, 3, 64, 64])]


def centernet_topk():
    """CenterNet-like post-processing: heatmap peaks by MaxPool equality, TopK over the flattened
    map, integer Div/Mod to coordinates, GatherElements of the size head."""
    g = G(32)
    f = g.op("Relu", [g.conv("image", 3, 16, 3, stride=2)])
    f = g.op("Relu", [g.conv(f, 16, 16, 3)])  # [1,16,16,16]
    heat = g.op("Sigmoid", [g.conv(f, 16, 2, 1)])  # [1,2,16,16]
    wh = g.conv(f, 16, 2, 1)
    peak = g.op("MaxPool", [heat], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    keep = g.op("Cast", [g.op("Equal", [peak, heat])], to=F)
    flat = g.op("Reshape", [g.op("Mul", [heat, keep]), g.i64([1, -1])])
    scores, idx = g.op("TopK", [flat, g.i64([10])], nout=2, axis=-1, largest=1, sorted=1)
    pix = g.op("Mod", [idx, g.i64([256])])
    cls = g.op("Div", [idx, g.i64([256])])
    yy = g.op("Div", [pix, g.i64([16])])
    xx = g.op("Mod", [pix, g.i64([16])])
    whf = g.op("Reshape", [wh, g.i64([1, 2, 256])])
    sizes = g.op("GatherElements", [whf, g.op("Expand", [g.op("Unsqueeze", [pix, g.i64([1])]), g.i64([1, 2, 10])])],
                 axis=2)
    det = g.op("Concat", [g.op("Cast", [g.op("Concat", [cls, yy, xx], axis=0)], to=F),
                          g.op("Squeeze", [sizes, g.i64([0])])], axis=0)
    g.nodes.append(helper.make_node("Identity", [scores], ["scores"]))
    g.nodes.append(helper.make_node("Identity", [det], ["detections"]))
    m = g.model([vi("image", F, [1, 3, 32, 32])], [vi("scores", F, [1, 10]), vi("detections", F, [5, 10])])
    return m, [randn(2, [1, 3, 32, 32])]


def seg_lraspp():
    """LR-ASPP-like segmentation head (torchvision lraspp_mobilenet_v3 at small scale):
    hard-swish backbone, a sigmoid-gated high branch, a low-level branch, bilinear Resizes."""
    g = G(33)
    f2 = g.op("HardSwish", [g.bn(g.conv("image", 3, 16, 3, stride=2, bias=False), 16)])  # 32x32
    f4 = g.op("Relu", [g.bn(g.conv(f2, 16, 16, 3, stride=2, group=16, bias=False), 16)])  # 16x16 dw
    f4 = g.op("Relu", [g.bn(g.conv(f4, 16, 32, 1, bias=False), 32)])
    f8 = g.op("HardSwish", [g.conv(g.conv(f4, 32, 32, 3, stride=2, group=32), 32, 48, 1)])  # 8x8
    hi = g.op("Relu", [g.bn(g.conv(f8, 48, 32, 1, bias=False), 32)])
    gate = g.op("Sigmoid", [g.conv(g.op("GlobalAveragePool", [f8]), 48, 32, 1, bias=False)])
    hi = g.op("Mul", [hi, gate])
    empty = g.const(np.zeros([0], np.float32))
    hi = g.op("Resize", [hi, empty, empty, g.i64([1, 32, 16, 16])], mode="linear",
              coordinate_transformation_mode="half_pixel")
    y = g.op("Add", [g.conv(f4, 32, 5, 1), g.conv(hi, 32, 5, 1)])
    g.op("Resize", [y, empty, empty, g.i64([1, 5, 64, 64])], mode="linear",
         coordinate_transformation_mode="half_pixel", out="masks")
    m = g.model([vi("image", F, [1, 3, 64, 64])], [vi("masks", F, [1, 5, 64, 64])])
    return m, [randn(3, [1, 3, 64, 64])]


def windows(g, x, H, W, C, ws):  # [1,H,W,C] -> [nW, ws*ws, C]
    x = g.op("Reshape", [x, g.i64([1, H // ws, ws, W // ws, ws, C])])
    x = g.op("Transpose", [x], perm=[0, 1, 3, 2, 4, 5])
    return g.op("Reshape", [x, g.i64([-1, ws * ws, C])])


def unwindows(g, x, H, W, C, ws):
    x = g.op("Reshape", [x, g.i64([1, H // ws, W // ws, ws, ws, C])])
    x = g.op("Transpose", [x], perm=[0, 1, 3, 2, 4, 5])
    return g.op("Reshape", [x, g.i64([1, H, W, C])])


def roll(g, x, shift, axis, size):  # torch.roll as torch exports it: two Slices and a Concat
    s = shift % size
    a = g.op("Slice", [x, g.i64([size - s]), g.i64([size]), g.i64([axis])])
    b = g.op("Slice", [x, g.i64([0]), g.i64([size - s]), g.i64([axis])])
    return g.op("Concat", [a, b], axis=axis)


def rel_bias(g, heads, ws):
    table = g.rng.randn((2 * ws - 1) ** 2, heads).astype(np.float32) * 0.5
    coords = np.stack(np.meshgrid(np.arange(ws), np.arange(ws), indexing="ij")).reshape(2, -1)
    rel = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + ws - 1
    index = (rel[..., 0] * (2 * ws - 1) + rel[..., 1]).reshape(-1)
    b = g.op("Gather", [g.const(table), g.const(index.astype(np.int64))], axis=0)
    return g.op("Transpose", [g.op("Reshape", [b, g.i64([ws * ws, ws * ws, heads])])], perm=[2, 0, 1])


def swin_mask(g, H, W, ws, shift):
    """Swin's attention mask for shifted windows, built in the graph as torch exports
    `img_mask[:, h, w, :] = cnt`: ScatterND into zeros, then window differences and Where."""
    m = g.const(np.zeros([H, W], np.float32))
    cnt = 0
    for hs in (slice(0, H - ws), slice(H - ws, H - shift), slice(H - shift, H)):
        for wsl in (slice(0, W - ws), slice(W - ws, W - shift), slice(W - shift, W)):
            idx = np.stack(np.meshgrid(np.arange(H)[hs], np.arange(W)[wsl], indexing="ij"), -1).astype(np.int64)
            m = g.op("ScatterND", [m, g.const(idx), g.f32(np.full(idx.shape[:-1], cnt))])
            cnt += 1
    mw = g.op("Reshape", [windows(g, g.op("Reshape", [m, g.i64([1, H, W, 1])]), H, W, 1, ws), g.i64([-1, ws * ws])])
    diff = g.op("Sub", [g.op("Unsqueeze", [mw, g.i64([1])]), g.op("Unsqueeze", [mw, g.i64([2])])])
    return g.op("Where", [g.op("Equal", [diff, g.f32(0.0)]), g.f32(0.0), g.f32(-100.0)])


def swin_tiny():
    """Two Swin blocks (window 4, the second shifted by 2) after a 4x4 patch embedding."""
    g = G(34)
    H = W = 8
    C, heads, ws = 32, 2, 4
    x = g.op("Conv", ["image", g.weight([C, 3, 4, 4]), g.bias(C)], kernel_shape=[4, 4], strides=[4, 4])
    x = g.layernorm(g.op("Transpose", [x], perm=[0, 2, 3, 1]), C)  # [1,8,8,C]
    mask = swin_mask(g, H, W, ws, ws // 2)
    for shift in (0, ws // 2):
        h = g.layernorm(x, C)
        if shift:
            h = roll(g, roll(g, h, -shift, 1, H), -shift, 2, W)
        nw = (H // ws) * (W // ws)
        a = g.mha(windows(g, h, H, W, C, ws), nw, ws * ws, C, heads, bias=rel_bias(g, heads, ws),
                  mask=mask if shift else None, nwin=nw)
        a = unwindows(g, a, H, W, C, ws)
        if shift:
            a = roll(g, roll(g, a, shift, 1, H), shift, 2, W)
        x = g.op("Add", [x, a])
        x = g.op("Add", [x, g.linear(g.gelu(g.linear(g.layernorm(x, C), C, 4 * C)), 4 * C, C)])
    x = g.layernorm(x, C)
    x = g.op("ReduceMean", [g.op("Reshape", [x, g.i64([1, H * W, C])])], axes=[1], keepdims=0)
    g.nodes.append(helper.make_node("Gemm", [x, g.weight([10, C]), g.bias(10)], ["logits"], transB=1))
    m = g.model([vi("image", F, [1, 3, 32, 32])], [vi("logits", F, [1, 10])])
    return m, [randn(4, [1, 3, 32, 32])]


def maxvit_tiny():
    """MaxViT-like block: MBConv with SE, then block attention (local 4x4 windows) and grid
    attention (a 4x4 grid dilated over the map), each with relative position bias."""
    g = G(35)
    C, H, heads, p = 32, 8, 2, 4
    x = g.op("HardSwish", [g.bn(g.conv("image", 3, C, 3, stride=2), C)])  # 16x16
    x = g.op("Relu", [g.bn(g.conv(x, C, C, 3, stride=2, group=C), C)])  # 8x8 depthwise
    # MBConv: 1x1 expand, depthwise, SE, 1x1 project, residual
    e = g.gelu(g.bn(g.conv(x, C, 4 * C, 1), 4 * C))
    e = g.gelu(g.bn(g.conv(e, 4 * C, 4 * C, 3, group=4 * C), 4 * C))
    s = g.op("Sigmoid", [g.conv(g.silu(g.conv(g.op("GlobalAveragePool", [e]), 4 * C, 8, 1)), 8, 4 * C, 1)])
    x = g.op("Add", [x, g.conv(g.op("Mul", [e, s]), 4 * C, C, 1)])
    x = g.op("Transpose", [x], perm=[0, 2, 3, 1])  # NHWC [1,8,8,C]
    # block attention
    h = windows(g, g.layernorm(x, C), H, H, C, p)
    x = g.op("Add", [x, unwindows(g, g.mha(h, 4, p * p, C, heads, bias=rel_bias(g, heads, p)), H, H, C, p)])
    x = g.op("Add", [x, g.linear(g.gelu(g.linear(g.layernorm(x, C), C, 2 * C)), 2 * C, C)])
    # grid attention: [1, g, H/g, g, W/g, C] with the grid axes inside a window
    gr = 4
    h = g.op("Reshape", [g.layernorm(x, C), g.i64([1, gr, H // gr, gr, H // gr, C])])
    h = g.op("Reshape", [g.op("Transpose", [h], perm=[0, 2, 4, 1, 3, 5]), g.i64([-1, gr * gr, C])])
    a = g.mha(h, (H // gr) ** 2, gr * gr, C, heads, bias=rel_bias(g, heads, gr))
    a = g.op("Reshape", [a, g.i64([1, H // gr, H // gr, gr, gr, C])])
    a = g.op("Reshape", [g.op("Transpose", [a], perm=[0, 3, 1, 4, 2, 5]), g.i64([1, H, H, C])])
    x = g.op("Add", [x, a])
    x = g.op("Add", [x, g.linear(g.gelu(g.linear(g.layernorm(x, C), C, 2 * C)), 2 * C, C)])
    x = g.op("ReduceMean", [x], axes=[1, 2], keepdims=0)
    g.nodes.append(helper.make_node("Gemm", [g.layernorm(x, C), g.weight([10, C]), g.bias(10)], ["logits"], transB=1))
    m = g.model([vi("image", F, [1, 3, 32, 32])], [vi("logits", F, [1, 10])])
    return m, [randn(5, [1, 3, 32, 32])]


def bert_tiny():
    """BERT-like encoder: int64 token ids and attention mask, token + position + segment
    embeddings, 2 post-LN layers (4 heads, GELU), pooler (first token, Tanh)."""
    g = G(36)
    V, L, C, heads = 100, 16, 32, 4
    d = C // heads
    emb = g.op("Gather", [g.const(g.rng.randn(V, C).astype(np.float32)), "input_ids"], axis=0)
    pos = g.op("Slice", [g.const(g.rng.randn(64, C).astype(np.float32) * 0.5), g.i64([0]),
                         g.op("Gather", [g.op("Shape", ["input_ids"]), g.const(np.array([1], np.int64))]),
                         g.i64([0])])
    x = g.layernorm(g.op("Add", [g.op("Add", [emb, pos]), g.f32(g.rng.randn(C) * 0.3)]), C)
    m = g.op("Cast", [g.op("Unsqueeze", ["attention_mask", g.i64([1, 2])])], to=F)
    m = g.op("Mul", [g.op("Sub", [g.f32(1.0), m]), g.f32(-10000.0)])  # [1,1,1,L]
    for _ in range(2):
        def heads_of(t):
            return g.op("Transpose", [g.op("Reshape", [t, g.i64([1, L, heads, d])])], perm=[0, 2, 1, 3])
        q, k, v = (heads_of(g.linear(x, C, C)) for _ in range(3))
        s = g.op("Div", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), g.f32(np.sqrt(d))])
        p = g.op("Softmax", [g.op("Add", [s, m])], axis=-1)
        o = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [p, v])], perm=[0, 2, 1, 3]), g.i64([1, L, C])])
        x = g.layernorm(g.op("Add", [g.linear(o, C, C), x]), C)
        x = g.layernorm(g.op("Add", [g.linear(g.gelu(g.linear(x, C, 4 * C)), 4 * C, C), x]), C)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    first = g.op("Gather", [x, g.const(np.array(0, np.int64))], axis=1)
    g.nodes.append(helper.make_node("Tanh", [g.gemm(first, C, C)], ["pooler_output"]))
    model = g.model([vi("input_ids", I64, [1, L]), vi("attention_mask", I64, [1, L])],
                    [vi("last_hidden_state", F, [1, L, C]), vi("pooler_output", F, [1, C])])
    ids = np.random.RandomState(6).randint(1, V, size=[1, L]).astype(np.int64)
    mask = np.ones([1, L], np.int64)
    mask[0, 12:] = 0
    return model, [ids, mask]


def kws_lstm():
    """Keyword spotter: 49 frames of 10 MFCCs (batch first, as torch batch_first exports it),
    a 2-layer forward LSTM, the last step through a classifier."""
    g = G(37)
    T, Fe, Hd = 49, 10, 32
    x = g.op("Transpose", ["mfcc"], perm=[1, 0, 2])  # [T,1,F]
    for layer, cin in enumerate((Fe, Hd)):
        w = g.const((g.rng.randn(1, 4 * Hd, cin) * 0.3).astype(np.float32))
        r = g.const((g.rng.randn(1, 4 * Hd, Hd) * 0.2).astype(np.float32))
        b = g.const((g.rng.randn(1, 8 * Hd) * 0.1).astype(np.float32))
        y, yh, yc = g.op("LSTM", [x, w, r, b], nout=3, hidden_size=Hd)
        x = g.op("Squeeze", [y, g.i64([1])])  # [T,1,Hd]
    last = g.op("Squeeze", [yh, g.i64([0])])  # [1,Hd]
    g.nodes.append(helper.make_node("Softmax", [g.gemm(last, Hd, 12)], ["probs"], axis=-1))
    m = g.model([vi("mfcc", F, [1, T, Fe])], [vi("probs", F, [1, 12])])
    return m, [randn(7, [1, T, Fe])]


def kws_gru():
    """Keyword spotter: a bidirectional GRU (linear_before_reset, as torch exports nn.GRU) with
    an initial state input, mean over time, classifier."""
    g = G(38)
    T, Fe, Hd = 40, 16, 24
    w = g.const((g.rng.randn(2, 3 * Hd, Fe) * 0.3).astype(np.float32))
    r = g.const((g.rng.randn(2, 3 * Hd, Hd) * 0.2).astype(np.float32))
    b = g.const((g.rng.randn(2, 6 * Hd) * 0.1).astype(np.float32))
    y, yh = g.op("GRU", ["features", w, r, b, "", "h0"], nout=2, hidden_size=Hd, direction="bidirectional",
                 linear_before_reset=1)
    y = g.op("Reshape", [g.op("Transpose", [y], perm=[0, 2, 1, 3]), g.i64([T, 1, 2 * Hd])])
    mean = g.op("ReduceMean", [y], axes=[0], keepdims=0)
    g.nodes.append(helper.make_node("Identity", [g.gemm(mean, 2 * Hd, 12)], ["logits"]))
    g.nodes.append(helper.make_node("Identity", [yh], ["h_n"]))
    m = g.model([vi("features", F, [T, 1, Fe]), vi("h0", F, [2, 1, Hd])],
                [vi("logits", F, [1, 12]), vi("h_n", F, [2, 1, Hd])])
    return m, [randn(8, [T, 1, Fe]), randn(9, [2, 1, Hd], 0.5)]


def conformer_block():
    """One conformer block (macaron half-step FFNs, MHSA, convolution module with GLU, depthwise
    Conv1d, BatchNorm and Swish), LayerNorm decomposed as torch exports it before opset 17."""
    g = G(39)
    T, C, heads = 20, 32, 4
    x = "features"
    x = g.op("Add", [x, g.op("Mul", [g.linear(g.silu(g.linear(g.layernorm_decomposed(x, C), C, 4 * C)), 4 * C, C),
                                      g.f32(0.5)])])
    x = g.op("Add", [x, g.mha(g.layernorm_decomposed(x, C), 1, T, C, heads)])
    h = g.op("Transpose", [g.layernorm_decomposed(x, C)], perm=[0, 2, 1])  # [1,C,T]
    h = g.conv(h, C, 2 * C, 1, dims=1)
    a, gate = g.op("Split", [h, g.i64([C, C])], nout=2, axis=1)
    h = g.op("Mul", [a, g.op("Sigmoid", [gate])])  # GLU
    h = g.silu(g.bn(g.conv(h, C, C, 7, group=C, dims=1), C))
    h = g.conv(h, C, C, 1, dims=1)
    x = g.op("Add", [x, g.op("Transpose", [h], perm=[0, 2, 1])])
    x = g.op("Add", [x, g.op("Mul", [g.linear(g.silu(g.linear(g.layernorm_decomposed(x, C), C, 4 * C)), 4 * C, C),
                                      g.f32(0.5)])])
    g.nodes.append(helper.make_node("Identity", [g.layernorm_decomposed(x, C)], ["encoded"]))
    m = g.model([vi("features", F, [1, T, C])], [vi("encoded", F, [1, T, C])], opset=13)
    return m, [randn(10, [1, T, C])]


def if_vad():
    """Voice-activity detector choosing its front end by sample rate (Silero VAD's If): the
    int64 `sr` input selects a branch; both branches read outer-scope weights."""
    g = G(40)
    N = 256
    w16 = g.weight([N, 32], fan_in=N)
    w8 = g.weight([N // 2, 32], fan_in=N // 2)
    then_y = helper.make_tensor_value_info("feat_16k", F, [1, 32])
    then_g = helper.make_graph([helper.make_node("MatMul", ["audio", w16], ["mm16"]),
                                helper.make_node("Relu", ["mm16"], ["feat_16k"])], "sr16k", [], [then_y])
    sl = g.i64([0]), g.i64([N // 2]), g.i64([1])
    else_y = helper.make_tensor_value_info("feat_8k", F, [1, 32])
    else_g = helper.make_graph([helper.make_node("Slice", ["audio", sl[0], sl[1], sl[2]], ["half"]),
                                helper.make_node("MatMul", ["half", w8], ["mm8"]),
                                helper.make_node("Tanh", ["mm8"], ["feat_8k"])], "sr8k", [], [else_y])
    cond = g.op("Equal", ["sr", g.i64([16000])])
    cond = g.op("Squeeze", [cond, g.i64([0])])
    feat = g.op("If", [cond], then_branch=then_g, else_branch=else_g)
    g.nodes.append(helper.make_node("Sigmoid", [g.gemm(feat, 32, 1)], ["speech_prob"]))
    m = g.model([vi("audio", F, [1, N]), vi("sr", I64, [1])], [vi("speech_prob", F, [1, 1])])
    return m, [randn(11, [1, N]), np.array([16000], np.int64)]


def loop_rnn():
    """An RNN written as a Loop (torch.jit.script's for-loop): 6 steps of h = tanh(h W + x U),
    the trip count a constant, x and the weights from the outer scope, every h a scan output."""
    g = G(41)
    Hd = 16
    w = g.const((g.rng.randn(Hd, Hd) * 0.3).astype(np.float32))
    u = g.weight([8, Hd], fan_in=8)
    xu = g.op("MatMul", ["x", u])
    body = helper.make_graph(
        [helper.make_node("MatMul", ["h_in", w], ["hw"]),
         helper.make_node("Add", ["hw", xu], ["pre"]),
         helper.make_node("Tanh", ["pre"], ["h_out"]),
         helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Identity", ["h_out"], ["h_scan"])],
        "body",
        [vi("iter", I64, []), vi("cond_in", TensorProto.BOOL, []), vi("h_in", F, [1, Hd])],
        [vi("cond_out", TensorProto.BOOL, []), vi("h_out", F, [1, Hd]), vi("h_scan", F, [1, Hd])])
    g.nodes.append(helper.make_node("Loop", [g.const(np.array(6, np.int64)), g.const(np.array(True)), "h0"],
                                    ["h_final", "h_all"], body=body))
    m = g.model([vi("x", F, [1, 8]), vi("h0", F, [1, Hd])], [vi("h_final", F, [1, Hd]), vi("h_all", F, [6, 1, Hd])])
    return m, [randn(12, [1, 8]), randn(13, [1, Hd], 0.5)]


def quant_weights(w, dtype):
    """Symmetric int8 (or asymmetric uint8) per-tensor weight quantization as ORT's tool does."""
    if dtype == np.int8:
        s = np.abs(w).max() / 127.0
        return np.clip(np.round(w / s), -127, 127).astype(np.int8), np.float32(s), np.int8(0)
    lo, hi = min(w.min(), 0.0), max(w.max(), 0.0)
    s = (hi - lo) / 255.0
    zp = np.uint8(np.clip(np.round(-lo / s), 0, 255))
    return np.clip(np.round(w / s) + zp, 0, 255).astype(np.uint8), np.float32(s), zp


def dynquant_cnn():
    """What ONNX Runtime's quantize_dynamic writes for a small CNN + MLP: each Conv becomes
    DynamicQuantizeLinear -> ConvInteger (uint8 weights) -> Cast -> Mul(x_scale * w_scale) -> Add
    bias, each MatMul DynamicQuantizeLinear -> MatMulInteger (int8 weights) -> Cast -> Mul -> Add."""
    g = G(42)
    r = g.rng

    def qconv(x, cin, cout, stride):
        wq, ws, wz = quant_weights((r.randn(cout, cin, 3, 3) * np.sqrt(2 / (cin * 9))).astype(np.float32), np.uint8)
        xq, xs, xz = g.op("DynamicQuantizeLinear", [x], nout=3)
        y = g.op("ConvInteger", [xq, g.const(wq), xz, g.const(np.array(wz))], kernel_shape=[3, 3],
                 strides=[stride, stride], pads=[1, 1, 1, 1])
        y = g.op("Mul", [g.op("Cast", [y], to=F), g.op("Mul", [xs, g.const(np.array(ws))])])
        return g.op("Relu", [g.op("Add", [y, g.f32(r.randn(cout, 1, 1) * 0.1)])])

    def qmatmul(x, cin, cout):
        wq, ws, _ = quant_weights((r.randn(cin, cout) * np.sqrt(2 / cin)).astype(np.float32), np.int8)
        xq, xs, xz = g.op("DynamicQuantizeLinear", [x], nout=3)
        y = g.op("MatMulInteger", [xq, g.const(wq), xz, g.const(np.array(np.int8(0)))])
        y = g.op("Mul", [g.op("Cast", [y], to=F), g.op("Mul", [xs, g.const(np.array(ws))])])
        return g.op("Add", [y, g.f32(r.randn(cout) * 0.1)])

    x = qconv("image", 3, 16, 2)
    x = qconv(x, 16, 32, 2)  # [1,32,8,8]
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x])], axis=1)
    x = g.op("Relu", [qmatmul(x, 32, 64)])
    g.nodes.append(helper.make_node("Identity", [qmatmul(x, 64, 10)], ["logits"]))
    m = g.model([vi("image", F, [1, 3, 32, 32])], [vi("logits", F, [1, 10])], opset=13)
    return m, [randn(14, [1, 3, 32, 32])]


def qdq_cnn():
    """A statically quantized CNN in QDQ form (ORT's quantize_static / torch's QAT export):
    uint8 activations QuantizeLinear -> DequantizeLinear around every Conv and the Gemm, int8
    per-channel weights through DequantizeLinear(axis=0), an int32 bias."""
    g = G(43)
    r = g.rng

    def qdq(x, scale, zp=128):
        s, z = g.const(np.array(scale, np.float32)), g.const(np.array(zp, np.uint8))
        return g.op("DequantizeLinear", [g.op("QuantizeLinear", [x, s, z]), s, z])

    def wdq(w):
        s = (np.abs(w.reshape(w.shape[0], -1)).max(1) / 127.0).astype(np.float32)
        q = np.clip(np.round(w / s.reshape([-1] + [1] * (w.ndim - 1))), -127, 127).astype(np.int8)
        return g.op("DequantizeLinear", [g.const(q), g.const(s), g.const(np.zeros(len(s), np.int8))], axis=0), s

    def conv(x, xs, cin, cout, stride, group=1):
        w = (r.randn(cout, cin // group, 3, 3) * np.sqrt(2 / (cin // group * 9))).astype(np.float32)
        wd, ws = wdq(w)
        bs = (xs * ws).astype(np.float32)
        bq = np.round(r.randn(cout) * 0.1 / bs).astype(np.int32)
        b = g.op("DequantizeLinear", [g.const(bq), g.const(bs), g.const(np.zeros(cout, np.int32))], axis=0)
        return g.op("Relu", [g.op("Conv", [x, wd, b], kernel_shape=[3, 3], strides=[stride, stride],
                                  pads=[1, 1, 1, 1], group=group)])

    x = qdq("image", 0.03)
    x = qdq(conv(x, 0.03, 3, 16, 2), 0.02, 0)
    x = qdq(conv(x, 0.02, 16, 16, 1, group=16), 0.02, 0)
    x = qdq(conv(x, 0.02, 16, 32, 2), 0.02, 0)
    x = qdq(g.op("Flatten", [g.op("GlobalAveragePool", [x])], axis=1), 0.01, 0)
    wd, _ = wdq((r.randn(10, 32) * 0.3).astype(np.float32))
    g.nodes.append(helper.make_node("Gemm", [x, wd, g.f32(r.randn(10) * 0.1)], ["logits"], transB=1))
    m = g.model([vi("image", F, [1, 3, 32, 32])], [vi("logits", F, [1, 10])], opset=13)
    return m, [randn(15, [1, 3, 32, 32])]


def audio_conv1d():
    """Raw-audio classifier (M5-like): Conv1d k80 s4 on 4000 samples, BatchNorm, MaxPool1d,
    two more Conv1d, global average, LogSoftmax."""
    g = G(44)
    x = g.op("Relu", [g.bn(g.conv("waveform", 1, 16, 80, stride=4, pad=38, dims=1), 16)])
    x = g.op("MaxPool", [x], kernel_shape=[4], strides=[4])
    x = g.op("Relu", [g.bn(g.conv(x, 16, 32, 3, dims=1), 32)])
    x = g.op("MaxPool", [x], kernel_shape=[4], strides=[4])
    x = g.op("Relu", [g.conv(x, 32, 32, 3, dims=1)])
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x])], axis=1)
    g.nodes.append(helper.make_node("LogSoftmax", [g.gemm(x, 32, 10)], ["log_probs"], axis=1))
    m = g.model([vi("waveform", F, [1, 1, 4000])], [vi("log_probs", F, [1, 10])])
    return m, [randn(16, [1, 1, 4000], 0.3)]


def video_conv3d():
    """A 3-D CNN (C3D/R(2+1)D-like) on an 8-frame 24x24 clip: Conv3d, BatchNorm, MaxPool3d,
    a strided Conv3d, AveragePool3d, classifier."""
    g = G(45)
    x = g.op("Relu", [g.bn(g.conv("clip", 3, 8, 3, dims=3), 8)])
    x = g.op("MaxPool", [x], kernel_shape=[1, 2, 2], strides=[1, 2, 2])
    x = g.op("Relu", [g.bn(g.conv(x, 8, 16, 3, stride=2, dims=3), 16)])  # [1,16,4,6,6]
    x = g.op("AveragePool", [x], kernel_shape=[2, 3, 3], strides=[2, 3, 3])
    x = g.op("Flatten", [x], axis=1)
    g.nodes.append(helper.make_node("Identity", [g.gemm(x, 16 * 2 * 2 * 2, 5)], ["logits"]))
    m = g.model([vi("clip", F, [1, 3, 8, 24, 24])], [vi("logits", F, [1, 5])])
    return m, [randn(17, [1, 3, 8, 24, 24])]


def unet_small():
    """UNet: two encoder levels, a bottleneck, ConvTranspose 2x2 upsampling with skip Concats."""
    g = G(46)

    def block(x, cin, cout):
        x = g.op("Relu", [g.bn(g.conv(x, cin, cout, 3, bias=False), cout)])
        return g.op("Relu", [g.bn(g.conv(x, cout, cout, 3, bias=False), cout)])

    def up(x, cin, cout):
        return g.op("ConvTranspose", [x, g.weight([cin, cout, 2, 2], fan_in=cin), g.bias(cout)],
                    kernel_shape=[2, 2], strides=[2, 2])

    e1 = block("image", 1, 8)
    e2 = block(g.op("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2]), 8, 16)
    b = block(g.op("MaxPool", [e2], kernel_shape=[2, 2], strides=[2, 2]), 16, 32)
    d2 = block(g.op("Concat", [up(b, 32, 16), e2], axis=1), 32, 16)
    d1 = block(g.op("Concat", [up(d2, 16, 8), e1], axis=1), 16, 8)
    g.nodes.append(helper.make_node("Conv", [d1, g.weight([2, 8, 1, 1]), g.bias(2)], ["mask_logits"],
                                    kernel_shape=[1, 1]))
    m = g.model([vi("image", F, [1, 1, 32, 32])], [vi("mask_logits", F, [1, 2, 32, 32])])
    return m, [randn(18, [1, 1, 32, 32])]


def effnetv2_small():
    """EfficientNetV2-like: SiLU stem, Fused-MBConv stages (3x3 expand + 1x1 project, residual),
    MBConv stages with depthwise 3x3 and squeeze-excitation, 1x1 head, classifier."""
    g = G(47)

    def fused(x, cin, cout, stride, expand):
        h = g.silu(g.bn(g.conv(x, cin, cin * expand, 3, stride=stride, bias=False), cin * expand))
        h = g.bn(g.conv(h, cin * expand, cout, 1, bias=False), cout)
        return g.op("Add", [x, h]) if stride == 1 and cin == cout else h

    def mbconv(x, cin, cout, stride, expand):
        e = cin * expand
        h = g.silu(g.bn(g.conv(x, cin, e, 1, bias=False), e))
        h = g.silu(g.bn(g.conv(h, e, e, 3, stride=stride, group=e, bias=False), e))
        s = g.op("Sigmoid", [g.conv(g.silu(g.conv(g.op("GlobalAveragePool", [h]), e, cin // 4, 1)), cin // 4, e, 1)])
        h = g.bn(g.conv(g.op("Mul", [h, s]), e, cout, 1, bias=False), cout)
        return g.op("Add", [x, h]) if stride == 1 and cin == cout else h

    x = g.silu(g.bn(g.conv("image", 3, 16, 3, stride=2, bias=False), 16))  # 32x32
    x = fused(x, 16, 16, 1, 1)
    x = fused(x, 16, 24, 2, 4)  # 16x16
    x = fused(x, 24, 24, 1, 4)
    x = mbconv(x, 24, 32, 2, 4)  # 8x8
    x = mbconv(x, 32, 32, 1, 4)
    x = mbconv(x, 32, 48, 2, 6)  # 4x4
    x = g.silu(g.bn(g.conv(x, 48, 128, 1, bias=False), 128))
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x])], axis=1)
    g.nodes.append(helper.make_node("Identity", [g.gemm(x, 128, 10)], ["logits"]))
    m = g.model([vi("image", F, [1, 3, 64, 64])], [vi("logits", F, [1, 10])])
    return m, [randn(19, [1, 3, 64, 64])]


def einsum_attention():
    """Attention written with Einsum (as many research codebases do): projections
    'bld,dk->blk', scores 'bhqd,bhkd->bhqk', context 'bhqk,bhkd->bhqd', heads merged by Einsum."""
    g = G(48)
    L, C, heads = 16, 32, 4
    d = C // heads
    x = "tokens"

    def proj(t):
        y = g.op("Einsum", [t, g.weight([C, C], fan_in=C)], equation="bld,dk->blk")
        return g.op("Transpose", [g.op("Reshape", [y, g.i64([1, L, heads, d])])], perm=[0, 2, 1, 3])

    q, k, v = proj(x), proj(x), proj(x)
    s = g.op("Mul", [g.op("Einsum", [q, k], equation="bhqd,bhkd->bhqk"), g.f32(d ** -0.5)])
    p = g.op("Softmax", [s], axis=-1)
    o = g.op("Einsum", [p, v], equation="bhqk,bhkd->bhqd")
    wo = g.const((g.rng.randn(heads, d, C) * np.sqrt(2 / C)).astype(np.float32))
    y = g.op("Einsum", [o, wo], equation="bhld,hdc->blc")
    g.nodes.append(helper.make_node("Add", [x, y], ["attended"]))
    m = g.model([vi(x, F, [1, L, C])], [vi("attended", F, [1, L, C])])
    return m, [randn(20, [1, L, C])]


# name -> (builder, what it covers)
FAMILIES = {
    "ssd_nms": (ssd_nms, "detection: box decoding, NonMaxSuppression, Gather/GatherND of the kept boxes"),
    "centernet_topk": (centernet_topk, "detection: MaxPool peaks, TopK, int64 Div/Mod, GatherElements"),
    "seg_lraspp": (seg_lraspp, "segmentation: LR-ASPP head, hard-swish, bilinear Resize"),
    "swin_tiny": (swin_tiny, "window attention: shifted windows, roll, ScatterND mask, rel. bias"),
    "maxvit_tiny": (maxvit_tiny, "hybrid: MBConv + SE, block and grid attention"),
    "bert_tiny": (bert_tiny, "text encoder: int64 token ids + attention mask, 2 layers"),
    "kws_lstm": (kws_lstm, "speech: 2-layer LSTM keyword spotter"),
    "kws_gru": (kws_gru, "speech: bidirectional GRU with initial state"),
    "conformer_block": (conformer_block, "speech: conformer block, GLU, depthwise Conv1d"),
    "if_vad": (if_vad, "control flow: If on the int64 sample rate"),
    "loop_rnn": (loop_rnn, "control flow: Loop with scan outputs"),
    "dynquant_cnn": (dynquant_cnn, "dynamic quantization: ConvInteger, MatMulInteger"),
    "qdq_cnn": (qdq_cnn, "static quantization: QDQ, per-channel int8 weights"),
    "audio_conv1d": (audio_conv1d, "raw audio: Conv1d, MaxPool1d"),
    "video_conv3d": (video_conv3d, "video: Conv3d, MaxPool3d, AveragePool3d"),
    "unet_small": (unet_small, "segmentation: UNet, ConvTranspose, skip Concat"),
    "effnetv2_small": (effnetv2_small, "Fused-MBConv + MBConv with SE, SiLU"),
    "einsum_attention": (einsum_attention, "attention as Einsum"),
}


def ort_outputs(model_path, inputs, ort_cache, opt):
    """Runs the model with onnxruntime-node; returns its outputs as numpy arrays."""
    script = r"""
const fs = require('fs'); const ort = require('onnxruntime-node');
const spec = JSON.parse(fs.readFileSync(process.argv[2]));
const T = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array, uint8: Uint8Array, int8: Int8Array};
(async () => {
  const s = await ort.InferenceSession.create(spec.model, {graphOptimizationLevel: spec.opt, intraOpNumThreads: 1,
      executionProviders: ['cpu']});
  const feeds = {};
  spec.inputs.forEach((i, k) => { const b = fs.readFileSync(i.file);
    feeds[s.inputNames[k]] = new ort.Tensor(i.dtype, new T[i.dtype](b.buffer, b.byteOffset, b.length / T[i.dtype].BYTES_PER_ELEMENT), i.shape); });
  const out = await s.run(feeds);
  const res = s.outputNames.map((n, k) => { const t = out[n]; const f = spec.dir + '/ort_' + k + '.bin';
    fs.writeFileSync(f, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    return {name: n, dtype: t.type, shape: t.dims.map(Number), file: f}; });
  fs.writeFileSync(spec.dir + '/outputs.json', JSON.stringify(res));
})().catch((e) => { console.error('ORT: ' + (e.message || e)); process.exit(5); });
"""
    with tempfile.TemporaryDirectory() as tmp:
        spec = {"model": model_path, "dir": tmp, "opt": opt, "inputs": []}
        for k, a in enumerate(inputs):
            f = os.path.join(tmp, f"in_{k}.bin")
            a.tofile(f)
            spec["inputs"].append({"file": f, "dtype": {np.float32: "float32", np.int64: "int64"}[a.dtype.type],
                                   "shape": list(a.shape)})
        with open(os.path.join(tmp, "spec.json"), "w") as fp:
            json.dump(spec, fp)
        with open(os.path.join(tmp, "run.js"), "w") as fp:
            fp.write(script)
        env = dict(os.environ, NODE_PATH=os.path.join(ort_cache, "node_modules"))
        subprocess.run(["node", os.path.join(tmp, "run.js"), os.path.join(tmp, "spec.json")], check=True, env=env)
        with open(os.path.join(tmp, "outputs.json")) as fp:
            res = json.load(fp)
        dt = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "bool": np.bool_, "uint8": np.uint8,
              "int8": np.int8}
        return [(r["name"], np.fromfile(r["file"], dtype=dt[r["dtype"]]).reshape(r["shape"])) for r in res]


def write(name, out, force, ort_cache, opt):
    onnx_path = os.path.join(out, name + ".onnx")
    data = os.path.join(out, name, "test_data_set_0")
    if not force and os.path.exists(onnx_path) and os.path.exists(os.path.join(data, "output_0.pb")):
        print(f"make_families: {name}: kept {onnx_path}")
        return
    model, inputs = FAMILIES[name][0]()
    os.makedirs(data, exist_ok=True)
    onnx.save(model, onnx_path)
    for k, (vinfo, a) in enumerate(zip(model.graph.input, inputs)):
        with open(os.path.join(data, f"input_{k}.pb"), "wb") as fp:
            fp.write(numpy_helper.from_array(a, vinfo.name).SerializeToString())
    outs = ort_outputs(onnx_path, inputs, ort_cache, opt)
    for k, (oname, a) in enumerate(outs):
        with open(os.path.join(data, f"output_{k}.pb"), "wb") as fp:
            fp.write(numpy_helper.from_array(a, oname).SerializeToString())
    desc = ", ".join(f"{n} {a.dtype}{list(a.shape)}" for n, a in outs)
    print(f"make_families: {name}: {len(model.graph.node)} nodes, {desc}")


def main():
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(cache, "embark", "families"))
    ap.add_argument("--force", action="store_true", help="write again even when the files exist")
    ap.add_argument("--list", action="store_true", help="print the zoo and exit")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if a.list:
        for n, (_, what) in FAMILIES.items():
            print(f"{n:18s} {what}")
        return 0
    names = a.names or list(FAMILIES)
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        print("make_families: unknown model(s): " + ", ".join(unknown) + " (see --list)", file=sys.stderr)
        return 2
    ort_cache = os.environ.get("ORT_CACHE", os.path.join(cache, "embark", "onnxruntime-node-1.30"))
    if not os.path.isdir(os.path.join(ort_cache, "node_modules", "onnxruntime-node")):
        print(f"make_families: no onnxruntime-node in {ort_cache} (set ORT_CACHE)", file=sys.stderr)
        return 2
    opt = os.environ.get("ORT_OPT", "disabled")
    os.makedirs(a.out, exist_ok=True)
    failed = []
    for n in names:
        try:
            write(n, a.out, a.force, ort_cache, opt)
        except Exception as e:  # one model that does not build must not stop the rest
            print(f"make_families: {n}: failed: {e}", file=sys.stderr)
            failed.append(n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
