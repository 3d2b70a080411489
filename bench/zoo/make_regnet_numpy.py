#!/usr/bin/python3
"""RegNetX-400MF (torchvision's regnet_x_400mf architecture) as ONNX without torch.

make_zoo.py needs torch and torchvision; where they are missing this writes the same
architecture (stem 3x3/2 to 32 channels; stages of depths 1, 2, 7, 12 and widths 32, 64, 160,
400; bottleneck blocks 1x1 -> 3x3 grouped (16 channels a group, stride 2 in a stage's first
block) -> 1x1 with a 1x1 projection shortcut where the shape changes; global average pool and
a 400 -> 1000 classifier) with random He-initialised weights and BatchNorm folded into the
convolutions (as torch.onnx.export folds it in eval mode), each convolution's output
normalised per channel on a random input (BatchNorm calibration), so activations keep their
scale through the depth. Writes OUT/regnet_x_400mf.onnx and
OUT/regnet_x_400mf/test_data_set_0/input_0.pb (the ONNX test-data layout).

Needs: numpy, onnx.  Usage: make_regnet_numpy.py [--out DIR]  (default ~/.cache/embark/zoo)
"""
import argparse
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto


def conv_nchw(x, w, stride, pad, groups):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    s = xp.strides
    cols = np.lib.stride_tricks.as_strided(
        xp, (n, c, kh, kw, oh, ow), (s[0], s[1], s[2], s[3], s[2] * stride, s[3] * stride))
    cols = cols.reshape(n, groups, cg, kh, kw, oh, ow)
    wg = w.reshape(groups, m // groups, cg, kh, kw)
    y = np.einsum("ngcyxhw,gmcyx->ngmhw", cols, wg, optimize=True)
    return y.reshape(n, m, oh, ow)


class Builder:
    def __init__(self, rng):
        self.rng, self.nodes, self.inits, self.count = rng, [], [], 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def conv(self, x, xv, m, k, stride, groups, relu):
        """A convolution with BatchNorm folded in (normalised on xv), then ReLU if asked."""
        c = xv.shape[1]
        w = self.rng.standard_normal((m, c // groups, k, k)).astype(np.float32)
        w *= np.sqrt(2.0 / (c // groups * k * k))
        y = conv_nchw(xv, w, stride, k // 2, groups)
        mean, std = y.mean(axis=(0, 2, 3)), y.std(axis=(0, 2, 3)) + 1e-5
        w /= std[:, None, None, None]
        b = (-mean / std).astype(np.float32)
        y = (y - mean[None, :, None, None]) / std[None, :, None, None]
        wn, bn, out = self.name("w"), self.name("b"), self.name("conv")
        self.inits += [numpy_helper.from_array(w.astype(np.float32), wn), numpy_helper.from_array(b, bn)]
        self.nodes.append(helper.make_node("Conv", [x, wn, bn], [out], kernel_shape=[k, k], strides=[stride, stride],
                                           pads=[k // 2] * 4, group=groups))
        if relu:
            r = self.name("relu")
            self.nodes.append(helper.make_node("Relu", [out], [r]))
            return r, np.maximum(y, 0).astype(np.float32)
        return out, y.astype(np.float32)


def build(rng):
    b = Builder(rng)
    xv = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    x, v = b.conv("input", xv, 32, 3, 2, 1, True)
    w_in = 32
    for depth, width in zip((1, 2, 7, 12), (32, 64, 160, 400)):
        for i in range(depth):
            stride = 2 if i == 0 else 1
            a, av = b.conv(x, v, width, 1, 1, 1, True)
            a, av = b.conv(a, av, width, 3, stride, width // 16, True)
            a, av = b.conv(a, av, width, 1, 1, 1, False)
            if w_in != width or stride != 1:
                s, sv = b.conv(x, v, width, 1, stride, 1, False)
            else:
                s, sv = x, v
            add, r = b.name("add"), b.name("relu")
            b.nodes += [helper.make_node("Add", [s, a], [add]), helper.make_node("Relu", [add], [r])]
            x, v, w_in = r, np.maximum(sv + av, 0), width
    pool, flat = b.name("pool"), b.name("flat")
    fw = (rng.standard_normal((1000, 400)) * np.sqrt(1.0 / 400)).astype(np.float32)
    fb = np.zeros(1000, np.float32)
    b.inits += [numpy_helper.from_array(fw, "fc_w"), numpy_helper.from_array(fb, "fc_b")]
    b.nodes += [helper.make_node("GlobalAveragePool", [x], [pool]),
                helper.make_node("Flatten", [pool], [flat], axis=1),
                helper.make_node("Gemm", [flat, "fc_w", "fc_b"], ["logits"], transB=1)]
    graph = helper.make_graph(b.nodes, "regnet_x_400mf",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_regnet_numpy")
    return model, xv


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                                                  "embark", "zoo"))
    a = ap.parse_args()
    model, _ = build(np.random.default_rng(20))
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(a.out, "regnet_x_400mf", "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(a.out, "regnet_x_400mf.onnx"))
    x = np.random.default_rng(1).standard_normal((1, 3, 224, 224)).astype(np.float32)
    with open(os.path.join(a.out, "regnet_x_400mf", "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "input").SerializeToString())
    print(f"make_regnet_numpy: wrote {a.out}/regnet_x_400mf.onnx ({len(model.graph.node)} nodes)")


if __name__ == "__main__":
    main()
