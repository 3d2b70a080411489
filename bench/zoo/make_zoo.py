#!/usr/bin/python3
"""Exports the benchmark model zoo (issue 20) from Debian's torchvision, offline.

Every model is torchvision's architecture with its random initialisation (no download: fixed
seeds make the weights reproducible); BatchNorm running statistics are calibrated on a few
random batches in train mode, so activations keep their scale through the depth and the
outputs are not degenerate. Each model is written, batch 1, as
    OUT/<name>.onnx
    OUT/<name>/test_data_set_0/input_0.pb, output_0.pb   (the ONNX test-data layout)
OUT defaults to ~/.cache/embark/zoo (outside the repo: nothing here is committed).

Needs: apt-get install python3-torch python3-torchvision python3-onnx
Usage: /usr/bin/python3 bench/zoo/make_zoo.py [--out DIR] [--force] [name ...]
       /usr/bin/python3 bench/zoo/make_zoo.py --list
"""
import argparse
import os
import sys
import time

import torch
import torchvision.models as tvm
from torchvision.models.vision_transformer import VisionTransformer


def vit_small():
    # A 6-layer ViT-S/16 at 224x224 (384 wide, 6 heads): the transformer structure of
    # vit_b_16 (patchify conv, LayerNorm, multi-head attention with Softmax, GELU MLPs) at a
    # sixth of its cost, so it benchmarks in seconds.
    vit = VisionTransformer(image_size=224, patch_size=16, num_layers=6, num_heads=6,
                            hidden_dim=384, mlp_dim=1536)
    # torchvision initialises the classification head to zeros (it is meant to be fine-tuned),
    # which makes every output 0: a random head keeps the output informative for --check.
    torch.nn.init.normal_(vit.heads.head.weight, std=0.02)
    return vit


# name -> (constructor, input size, opset, what it covers)
ZOO = {
    "vgg11": (lambda: tvm.vgg11(), 224, 13, "plain stack of 3x3 convolutions"),
    "resnet18": (lambda: tvm.resnet18(), 224, 13, "residual"),
    "resnet50": (lambda: tvm.resnet50(), 224, 13, "residual bottleneck"),
    "mobilenet_v2": (lambda: tvm.mobilenet_v2(), 224, 13, "inverted residual, ReLU6"),
    "mobilenet_v3_small": (lambda: tvm.mobilenet_v3_small(), 224, 13, "SE + hard-swish"),
    "mobilenet_v3_large": (lambda: tvm.mobilenet_v3_large(), 224, 13, "SE + hard-swish"),
    "efficientnet_b0": (lambda: tvm.efficientnet_b0(), 224, 13, "SiLU + SE"),
    "resnext50_32x4d": (lambda: tvm.resnext50_32x4d(), 224, 13, "grouped convolution"),
    "shufflenet_v2_x1_0": (lambda: tvm.shufflenet_v2_x1_0(), 224, 13, "channel shuffle, split"),
    "densenet121": (lambda: tvm.densenet121(), 224, 13, "dense concat, pre-activation BN+ReLU"),
    "googlenet": (lambda: tvm.googlenet(aux_logits=False, init_weights=True), 224, 13, "inception"),
    "inception_v3": (lambda: tvm.inception_v3(aux_logits=False, init_weights=True), 299, 13, "inception, factorised"),
    "squeezenet1_1": (lambda: tvm.squeezenet1_1(), 224, 13, "fire modules, concat"),
    "mnasnet1_0": (lambda: tvm.mnasnet1_0(), 224, 13, "NAS inverted residual"),
    "regnet_y_400mf": (lambda: tvm.regnet_y_400mf(), 224, 13, "grouped + SE"),
    "regnet_x_400mf": (lambda: tvm.regnet_x_400mf(), 224, 13, "grouped"),
    "convnext_tiny": (lambda: tvm.convnext_tiny(), 224, 17, "7x7 depthwise, LayerNorm, GELU"),
    "vit_s16_6l": (vit_small, 224, 17, "transformer: attention, Softmax, LayerNorm, GELU"),
}


def calibrate(model, size, batches=4, batch=8):
    """Re-estimates BatchNorm running statistics on random batches (cumulative average)."""
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    if not bns:
        return
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(batch, 3, size, size))


def write_tensor(path, array, name):
    from onnx import numpy_helper
    t = numpy_helper.from_array(array, name)
    with open(path, "wb") as f:
        f.write(t.SerializeToString())


def export(name, out, force):
    ctor, size, opset, _ = ZOO[name]
    onnx_path = os.path.join(out, name + ".onnx")
    data = os.path.join(out, name, "test_data_set_0")
    if not force and os.path.exists(onnx_path) and os.path.exists(os.path.join(data, "output_0.pb")):
        print(f"make_zoo: {name}: kept {onnx_path}")
        return
    t0 = time.time()
    torch.manual_seed(20)
    model = ctor()
    calibrate(model, size)
    model.eval()
    torch.manual_seed(1)
    x = torch.randn(1, 3, size, size)
    with torch.no_grad():
        y = model(x)
    if not torch.is_tensor(y):  # GoogLeNet/Inception named tuples
        y = y[0]
    torch.onnx.export(model, x, onnx_path, opset_version=opset, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)
    os.makedirs(data, exist_ok=True)
    write_tensor(os.path.join(data, "input_0.pb"), x.numpy(), "input")
    write_tensor(os.path.join(data, "output_0.pb"), y.numpy(), "logits")
    std = float(y.std())
    print(f"make_zoo: {name}: opset {opset}, {size}x{size}, output std {std:.3g}, "
          f"{os.path.getsize(onnx_path) / 1e6:.1f} MB, {time.time() - t0:.0f} s")
    if not std > 1e-3:
        print(f"make_zoo: {name}: the output is degenerate (std {std})", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                                                  "embark", "zoo"))
    ap.add_argument("--force", action="store_true", help="export again even when the files exist")
    ap.add_argument("--list", action="store_true", help="print the zoo and exit")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if a.list:
        for n, (_, size, opset, what) in ZOO.items():
            print(f"{n:20s} {size}x{size} opset {opset}: {what}")
        return 0
    names = a.names or list(ZOO)
    unknown = [n for n in names if n not in ZOO]
    if unknown:
        print("make_zoo: unknown model(s): " + ", ".join(unknown) + " (see --list)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    failed = []
    for n in names:
        try:
            export(n, a.out, a.force)
        except Exception as e:  # one architecture that does not export must not stop the rest
            print(f"make_zoo: {n}: export failed: {e}", file=sys.stderr)
            failed.append(n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
