#include "recurrent.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace embark::ir {
namespace {

struct ActInfo {
    const char* name;
    RecurrentAct kind;
    bool usesAlpha, usesBeta;
    float alpha, beta; // the defaults of the ONNX operator of the same name
};

constexpr std::array kActs{
    ActInfo{"Relu", RecurrentAct::Relu, false, false, 0.f, 0.f},
    ActInfo{"Tanh", RecurrentAct::Tanh, false, false, 0.f, 0.f},
    ActInfo{"Sigmoid", RecurrentAct::Sigmoid, false, false, 0.f, 0.f},
    ActInfo{"Affine", RecurrentAct::Affine, true, true, 1.f, 0.f},
    ActInfo{"LeakyRelu", RecurrentAct::LeakyRelu, true, false, 0.01f, 0.f},
    ActInfo{"ThresholdedRelu", RecurrentAct::ThresholdedRelu, true, false, 1.f, 0.f},
    ActInfo{"ScaledTanh", RecurrentAct::ScaledTanh, true, true, 1.f, 1.f},
    ActInfo{"HardSigmoid", RecurrentAct::HardSigmoid, true, true, 0.2f, 0.5f},
    ActInfo{"Elu", RecurrentAct::Elu, true, false, 1.f, 0.f},
    ActInfo{"Softsign", RecurrentAct::Softsign, false, false, 0.f, 0.f},
    ActInfo{"Softplus", RecurrentAct::Softplus, false, false, 0.f, 0.f},
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

Error invalid(const Node& n, const std::string& what) {
    return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": " + what);
}

} // namespace

double RecurrentActivation::apply(double x) const {
    switch (kind) {
    case RecurrentAct::Relu: return x > 0 ? x : 0;
    case RecurrentAct::Tanh: return std::tanh(x);
    case RecurrentAct::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case RecurrentAct::Affine: return alpha * x + beta;
    case RecurrentAct::LeakyRelu: return x >= 0 ? x : alpha * x;
    case RecurrentAct::ThresholdedRelu: return x > alpha ? x : 0;
    case RecurrentAct::ScaledTanh: return alpha * std::tanh(beta * x);
    case RecurrentAct::HardSigmoid: return std::fmin(1.0, std::fmax(0.0, alpha * x + beta));
    case RecurrentAct::Elu: return x >= 0 ? x : alpha * (std::exp(x) - 1.0);
    case RecurrentAct::Softsign: return x / (1.0 + std::fabs(x));
    case RecurrentAct::Softplus: return x > 30 ? x : std::log1p(std::exp(x));
    }
    return x;
}

bool isRecurrent(OpKind op) { return op == OpKind::LSTM || op == OpKind::GRU || op == OpKind::RNN; }

std::string recurrentActivationName(RecurrentAct kind) {
    for (const ActInfo& a : kActs)
        if (a.kind == kind) return a.name;
    return "?";
}

Expected<RecurrentSpec> recurrentSpec(const Node& n, int64_t rHidden) {
    RecurrentSpec s;
    s.op = n.op;
    switch (n.op) {
    case OpKind::LSTM:
        s.gates = 4;
        s.activationsPerDirection = 3;
        break;
    case OpKind::GRU:
        s.gates = 3;
        s.activationsPerDirection = 2;
        break;
    case OpKind::RNN:
        s.gates = 1;
        s.activationsPerDirection = 1;
        break;
    default: return invalid(n, "is not a recurrent op");
    }
    const std::string direction = n.attrString("direction", "forward");
    if (direction == "bidirectional")
        s.directions = 2;
    else if (direction == "reverse")
        s.reverse = true;
    else if (direction != "forward")
        return invalid(n, "direction '" + direction + "' is not one of forward, reverse, bidirectional");
    s.hidden = n.attrInt("hidden_size", rHidden);
    if (s.hidden <= 0) return invalid(n, "hidden_size is missing or not positive");
    if (rHidden >= 0 && rHidden != s.hidden)
        return invalid(n, "hidden_size " + std::to_string(s.hidden) + " disagrees with R's last dimension " +
                              std::to_string(rHidden));
    s.layout = n.attrInt("layout", 0);
    if (s.layout != 0 && s.layout != 1) return invalid(n, "layout " + std::to_string(s.layout) + " is not 0 or 1");
    if (n.has("clip")) {
        s.hasClip = true;
        s.clip = n.attrFloat("clip", 0.f);
        if (!(s.clip > 0)) return invalid(n, "clip " + std::to_string(s.clip) + " is not positive");
    }
    s.linearBeforeReset = n.op == OpKind::GRU && n.attrInt("linear_before_reset", 0) != 0;
    s.inputForget = n.op == OpKind::LSTM && n.attrInt("input_forget", 0) != 0;

    std::vector<std::string> names;
    if (n.has("activations")) {
        const Attribute& a = n.attrs.at("activations");
        if (auto list = std::get_if<std::vector<std::string>>(&a))
            names = *list;
        else if (auto one = std::get_if<std::string>(&a))
            names = {*one};
        else
            return invalid(n, "activations is not a list of strings");
    }
    const size_t per = static_cast<size_t>(s.activationsPerDirection);
    if (names.empty()) {
        static const std::vector<std::string> lstm{"Sigmoid", "Tanh", "Tanh"}, gru{"Sigmoid", "Tanh"}, rnn{"Tanh"};
        const auto& d = n.op == OpKind::LSTM ? lstm : n.op == OpKind::GRU ? gru : rnn;
        for (int k = 0; k < s.directions; ++k) names.insert(names.end(), d.begin(), d.end());
    } else if (names.size() == per && s.directions == 2) {
        // One direction's list given for both: the same functions run backwards.
        const std::vector<std::string> once = names;
        names.insert(names.end(), once.begin(), once.end());
    } else if (names.size() != per * static_cast<size_t>(s.directions)) {
        return invalid(n, "has " + std::to_string(names.size()) + " activations; " + std::string(opName(n.op)) +
                              " takes " + std::to_string(per) + " per direction (" + std::to_string(s.directions) +
                              " direction" + (s.directions > 1 ? "s" : "") + ")");
    }
    // activation_alpha / activation_beta are consumed in order by the functions that take them
    // (as ONNX Runtime reads them); a function without a value gets its ONNX operator's default.
    const std::vector<float> alphas = n.attrFloats("activation_alpha"), betas = n.attrFloats("activation_beta");
    size_t nextAlpha = 0, nextBeta = 0;
    for (const std::string& name : names) {
        const ActInfo* info = nullptr;
        for (const ActInfo& a : kActs)
            if (lower(a.name) == lower(name)) info = &a;
        if (!info) {
            std::string known;
            for (const ActInfo& a : kActs) known += (known.empty() ? "" : ", ") + std::string(a.name);
            return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": activation '" + name +
                                                         "' is not one of the ONNX recurrent activations (" + known +
                                                         ")");
        }
        RecurrentActivation act;
        act.kind = info->kind;
        act.alpha = info->alpha;
        act.beta = info->beta;
        if (info->usesAlpha && nextAlpha < alphas.size()) act.alpha = alphas[nextAlpha++];
        if (info->usesBeta && nextBeta < betas.size()) act.beta = betas[nextBeta++];
        s.activations.push_back(act);
    }
    return s;
}

} // namespace embark::ir
