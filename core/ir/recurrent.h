// The attributes of ONNX's recurrent ops (LSTM, GRU, RNN, opsets 7-21) read once, checked and
// with every default resolved, for the importer, the reference interpreter and the emitters.
#pragma once

#include "error.h"
#include "graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace embark::ir {

// ONNX's list of recurrent activation functions.
enum class RecurrentAct : uint8_t {
    Relu,
    Tanh,
    Sigmoid,
    Affine,
    LeakyRelu,
    ThresholdedRelu,
    ScaledTanh,
    HardSigmoid,
    Elu,
    Softsign,
    Softplus,
};

struct RecurrentActivation {
    RecurrentAct kind = RecurrentAct::Tanh;
    float alpha = 0.f, beta = 0.f;
    double apply(double x) const;
};

// Tensors, per the ONNX spec: X [seq, batch, input] ([batch, seq, input] with layout 1),
// W [directions, gates * hidden, input], R [directions, gates * hidden, hidden],
// B [directions, 2 * gates * hidden] (W biases then R biases), sequence_lens [batch],
// initial_h/initial_c [directions, batch, hidden] ([batch, directions, hidden] with layout 1),
// P [directions, 3 * hidden]. Outputs Y [seq, directions, batch, hidden] ([batch, seq,
// directions, hidden]), Y_h and Y_c like initial_h. Gate order: LSTM i, o, f, c (P: i, o, f);
// GRU z, r, h.
struct RecurrentSpec {
    OpKind op = OpKind::RNN;
    int gates = 1;        // 1 (RNN), 3 (GRU), 4 (LSTM)
    int directions = 1;   // 2 when bidirectional
    bool reverse = false; // direction "reverse" (a single direction running backwards)
    int64_t hidden = 0;
    int64_t layout = 0; // 1: batch first
    bool hasClip = false;
    float clip = 0.f;                // pre-activation values are clamped to [-clip, clip]
    bool linearBeforeReset = false;  // GRU
    bool inputForget = false;        // LSTM: forget gate = 1 - input gate
    int activationsPerDirection = 1; // f (RNN); f, g (GRU); f, g, h (LSTM)
    // activationsPerDirection entries per direction, forward direction first.
    std::vector<RecurrentActivation> activations;

    const RecurrentActivation& activation(int direction, int index) const {
        return activations[static_cast<size_t>(direction * activationsPerDirection + index)];
    }
};

bool isRecurrent(OpKind op);
std::string recurrentActivationName(RecurrentAct kind);

// Reads n's attributes. `rHidden` is the last dim of R when known (hidden_size may be omitted),
// -1 otherwise. Errors are InvalidInput or Unsupported and name the node.
Expected<RecurrentSpec> recurrentSpec(const Node& n, int64_t rHidden);

} // namespace embark::ir
