// Embark's generic recurrent kernel: ONNX's LSTM, GRU and RNN (one layer, forward, reverse or
// bidirectional, per-row sequence lengths, layout 0 or 1) on float32 tensors in ONNX's layout.
// Standalone C++17.
#pragma once

#include <cstdint>

namespace embark::generic {

enum class RnnKind { Rnn, Gru, Lstm };
enum class RnnAct {
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
    Softplus
};

struct RnnActivation {
    RnnAct kind = RnnAct::Tanh;
    float alpha = 0.f, beta = 0.f;
};

struct RnnShape {
    RnnKind kind = RnnKind::Rnn;
    int64_t seq = 1, batch = 1, input = 1, hidden = 1;
    int directions = 1;      // 2: bidirectional (direction 1 runs backwards)
    bool reverse = false;    // one direction, backwards
    bool batchFirst = false; // layout 1
    bool hasClip = false;
    float clip = 0.f;
    bool linearBeforeReset = false; // GRU
    bool inputForget = false;       // LSTM
    RnnActivation act[2][3] = {};   // per direction: f, g, h
};

// Floats of scratch rnn() needs.
int64_t rnnScratchFloats(const RnnShape& p);

// The recurrent weights R packed for rnn()'s per-step product h R^T: per direction, R^T in panels
// of kRnnPanel columns (zero past the last row), the rows that multiply h first, then GRU's
// candidate rows (which multiply r (.) h unless linear_before_reset). Packed once (at init),
// rnnPackRecurrent writes rnnPackedFloats(p) floats.
constexpr int64_t kRnnPanel = 64;
int64_t rnnPackedFloats(const RnnShape& p);
void rnnPackRecurrent(const RnnShape& p, const float* r, float* packed);

// x, w, r, b (may be null), seqLens (null: every row runs p.seq steps), h0, c0 (null: zeros),
// peep (LSTM's P, may be null) as ONNX lays them out; y, yh, yc may be null when not wanted.
// Steps past a row's length leave zeros in y.
// xProj (may be null): W x + Wb for every row of x, precomputed as one GEMM over all steps
// ([directions][seq * batch][gates * hidden], rows in x's order); w and Wb are then not read.
// rPacked (may be null): R as rnnPackRecurrent packed it; r is then not read.
void rnn(const RnnShape& p, const float* x, const float* w, const float* r, const float* b, const int64_t* seqLens,
         const float* h0, const float* c0, const float* peep, float* y, float* yh, float* yc, float* scratch,
         const float* xProj = nullptr, const float* rPacked = nullptr);

} // namespace embark::generic
