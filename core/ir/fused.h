// The convention for activations fused into a producer node (Conv, ConvTranspose, Gemm,
// MatMul, Add): the producer carries these attributes and applies the activation to its
// output. The reference interpreter, the passes, the ONNX writer (domain "embark") and the
// export emitters all read them through this header.
#pragma once

#include "graph.h"

#include <cmath>
#include <optional>
#include <string>

namespace embark::ir {

inline constexpr const char* kActivation = "activation";            // string: op name below
inline constexpr const char* kActivationMin = "activation_min";     // float (Clip)
inline constexpr const char* kActivationMax = "activation_max";     // float (Clip)
inline constexpr const char* kActivationAlpha = "activation_alpha"; // float (LeakyRelu)

struct FusedActivation {
    OpKind op = OpKind::Relu; // Relu, Clip, LeakyRelu, HardSwish, Sigmoid, Swish (SiLU), Tanh, Gelu (erf)
    float min = -INFINITY, max = INFINITY, alpha = 0.01f;

    double apply(double x) const {
        switch (op) {
        case OpKind::Relu: return x > 0 ? x : 0;
        case OpKind::Clip: return x < min ? min : (x > max ? max : x);
        case OpKind::LeakyRelu: return x >= 0 ? x : x * alpha;
        case OpKind::HardSwish: return x * std::fmin(1.0, std::fmax(0.0, x / 6.0 + 0.5));
        case OpKind::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
        case OpKind::Swish: return x / (1.0 + std::exp(-x));
        case OpKind::Tanh: return std::tanh(x);
        case OpKind::Gelu: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        default: return x;
        }
    }
};

inline std::optional<FusedActivation> fusedActivation(const Node& n) {
    if (!n.has(kActivation)) return std::nullopt;
    auto op = opFromName(n.attrString(kActivation, ""));
    if (!op) return std::nullopt;
    FusedActivation a;
    a.op = *op;
    a.min = n.attrFloat(kActivationMin, -INFINITY);
    a.max = n.attrFloat(kActivationMax, INFINITY);
    a.alpha = n.attrFloat(kActivationAlpha, 0.01f);
    return a;
}

inline void setFusedActivation(Node& n, const FusedActivation& a) {
    n.attrs[kActivation] = std::string(opName(a.op));
    if (a.op == OpKind::Clip) {
        n.attrs[kActivationMin] = a.min;
        n.attrs[kActivationMax] = a.max;
    }
    if (a.op == OpKind::LeakyRelu) n.attrs[kActivationAlpha] = a.alpha;
}

} // namespace embark::ir
