#include "recurrent.h"
#include "vmath.h" // the portable runtime's vectorizable sigmoid and tanh (an export has both folders)

#include <algorithm>
#include <cmath>
#include <cstring>

namespace embark::generic {
namespace {

inline float activate(const RnnActivation& a, float x) {
    switch (a.kind) {
    case RnnAct::Relu: return x > 0.f ? x : 0.f;
    case RnnAct::Tanh: return std::tanh(x);
    case RnnAct::Sigmoid: return 1.f / (1.f + std::exp(-x));
    case RnnAct::Affine: return a.alpha * x + a.beta;
    case RnnAct::LeakyRelu: return x >= 0.f ? x : a.alpha * x;
    case RnnAct::ThresholdedRelu: return x > a.alpha ? x : 0.f;
    case RnnAct::ScaledTanh: return a.alpha * std::tanh(a.beta * x);
    case RnnAct::HardSigmoid: return std::min(1.f, std::max(0.f, a.alpha * x + a.beta));
    case RnnAct::Elu: return x >= 0.f ? x : a.alpha * (std::exp(x) - 1.f);
    case RnnAct::Softsign: return x / (1.f + std::fabs(x));
    case RnnAct::Softplus: return x > 30.f ? x : std::log1p(std::exp(x));
    }
    return x;
}

// a . b in 16 partial sums (a vector of them: one float sum is a chain of dependent adds that the
// compiler may not reassociate into vector lanes), folded by halves.
inline float dot(const float* __restrict a, const float* __restrict b, int64_t n) {
    constexpr int kLanes = 16;
    float lanes[kLanes] = {};
    int64_t k = 0;
    for (; k + kLanes <= n; k += kLanes)
        for (int l = 0; l < kLanes; ++l) lanes[l] += a[k + l] * b[k + l];
    float s = 0.f;
    for (; k < n; ++k) s += a[k] * b[k];
    for (int w = kLanes / 2; w > 0; w /= 2)
        for (int l = 0; l < w; ++l) lanes[l] += lanes[l + w];
    return s + lanes[0];
}

// v[0, n) = a(clip(v)) in place, clip only when `clip`: Sigmoid and Tanh (every default
// activation) through vmath's branch-free functions, one loop each so that it vectorizes; the
// others element by element.
void activateSpan(const RnnActivation& a, bool clip, float lim, float* __restrict v, int64_t n) {
    if (clip)
        for (int64_t j = 0; j < n; ++j) v[j] = std::min(lim, std::max(-lim, v[j]));
    switch (a.kind) {
    case RnnAct::Sigmoid:
        for (int64_t j = 0; j < n; ++j) v[j] = embark::portable::vmath::sigmoid(v[j]);
        return;
    case RnnAct::Tanh:
        for (int64_t j = 0; j < n; ++j) v[j] = embark::portable::vmath::tanh(v[j]);
        return;
    default:
        for (int64_t j = 0; j < n; ++j) v[j] = activate(a, v[j]);
        return;
    }
}

int gatesOf(RnnKind k) { return k == RnnKind::Lstm ? 4 : k == RnnKind::Gru ? 3 : 1; }

int64_t panelsOf(int64_t rows) { return (rows + kRnnPanel - 1) / kRnnPanel; }

// Rows of R that multiply h itself (GRU's candidate rows come after, in a second segment).
int64_t hRowsOf(const RnnShape& p) {
    const int64_t G = gatesOf(p.kind);
    return p.kind == RnnKind::Gru ? 2 * p.hidden : G * p.hidden;
}

int64_t packedPerDirection(const RnnShape& p) {
    const int64_t G = gatesOf(p.kind), hRows = hRowsOf(p);
    return (panelsOf(hRows) + panelsOf(G * p.hidden - hRows)) * kRnnPanel * p.hidden;
}

// out[j] += sum_k h[k] * R[row0 + j][k] for j < cols, over the panels at `packed` (kRnnPanel
// sums held across the k loop, so each step is a broadcast of h[k] and one multiply-add per lane).
void addRecurrent(const float* __restrict packed, const float* __restrict h, int64_t K, int64_t cols,
                  float* __restrict out) {
    for (int64_t p = 0; p * kRnnPanel < cols; ++p) {
        const float* panel = packed + p * K * kRnnPanel;
        float acc[kRnnPanel] = {};
        for (int64_t k = 0; k < K; ++k) {
            const float hk = h[k];
            const float* w = panel + k * kRnnPanel;
            for (int l = 0; l < kRnnPanel; ++l) acc[l] += hk * w[l];
        }
        const int64_t width = std::min(kRnnPanel, cols - p * kRnnPanel);
        float* o = out + p * kRnnPanel;
        for (int64_t l = 0; l < width; ++l) o[l] += acc[l];
    }
}

} // namespace

int64_t rnnPackedFloats(const RnnShape& p) { return p.directions * packedPerDirection(p); }

void rnnPackRecurrent(const RnnShape& p, const float* r, float* packed) {
    const int64_t H = p.hidden, G = gatesOf(p.kind), hRows = hRowsOf(p);
    std::fill(packed, packed + rnnPackedFloats(p), 0.f);
    for (int64_t dir = 0; dir < p.directions; ++dir) {
        const float* R = r + dir * G * H * H;
        float* base = packed + dir * packedPerDirection(p);
        for (int64_t row = 0; row < G * H; ++row) {
            const bool second = row >= hRows;
            const int64_t j = second ? row - hRows : row;
            float* segment = base + (second ? panelsOf(hRows) * kRnnPanel * H : 0);
            float* panel = segment + (j / kRnnPanel) * H * kRnnPanel + j % kRnnPanel;
            for (int64_t k = 0; k < H; ++k) panel[k * kRnnPanel] = R[row * H + k];
        }
    }
}

int64_t rnnScratchFloats(const RnnShape& p) { return (gatesOf(p.kind) + 5) * p.hidden; }

void rnn(const RnnShape& p, const float* x, const float* w, const float* r, const float* b, const int64_t* seqLens,
         const float* h0, const float* c0, const float* peep, float* y, float* yh, float* yc, float* scratch,
         const float* xProj, const float* rPacked) {
    const int64_t H = p.hidden, G = gatesOf(p.kind), D = p.directions, I = p.input, S = p.seq, N = p.batch;
    float* gate = scratch;
    float* hPrev = gate + G * H;
    float* cPrev = hPrev + H;
    float* hNew = cPrev + H;
    float* cNew = hNew + H;
    float* reset = cNew + H;
    if (y) std::memset(y, 0, sizeof(float) * static_cast<size_t>(S * D * N * H));
    const bool clip = p.hasClip;
    const float lim = p.clip;
    auto xAt = [&](int64_t t, int64_t n) { return x + (p.batchFirst ? n * S + t : t * N + n) * I; };
    auto yAt = [&](int64_t t, int64_t dir, int64_t n) {
        return y + (p.batchFirst ? (n * S + t) * D + dir : (t * D + dir) * N + n) * H;
    };
    auto stateAt = [&](int64_t dir, int64_t n) { return (p.batchFirst ? n * D + dir : dir * N + n) * H; };

    for (int64_t dir = 0; dir < D; ++dir) {
        const bool backwards = dir == 1 || p.reverse;
        const float* W = w + dir * G * H * I;
        const float* R = r + dir * G * H * H;
        const float* Wb = b ? b + dir * 2 * G * H : nullptr;
        const float* Rb = Wb ? Wb + G * H : nullptr;
        const float* P = peep ? peep + dir * 3 * H : nullptr;
        const float* proj = xProj ? xProj + dir * S * N * G * H : nullptr;
        const float* packedH = rPacked ? rPacked + dir * packedPerDirection(p) : nullptr;
        const float* packedCandidate = packedH ? packedH + panelsOf(hRowsOf(p)) * kRnnPanel * H : nullptr;
        const RnnActivation& f = p.act[dir][0];
        const RnnActivation& g = p.act[dir][1];
        const RnnActivation& h = p.act[dir][2];
        for (int64_t n = 0; n < N; ++n) {
            if (h0)
                std::memcpy(hPrev, h0 + stateAt(dir, n), sizeof(float) * static_cast<size_t>(H));
            else
                std::fill(hPrev, hPrev + H, 0.f);
            if (c0)
                std::memcpy(cPrev, c0 + stateAt(dir, n), sizeof(float) * static_cast<size_t>(H));
            else
                std::fill(cPrev, cPrev + H, 0.f);
            const int64_t len = seqLens ? std::min(S, std::max<int64_t>(0, seqLens[n])) : S;
            for (int64_t step = 0; step < len; ++step) {
                const int64_t t = backwards ? len - 1 - step : step;
                const float* xt = xAt(t, n);
                // Input part of every gate; the recurrent part too, except GRU's candidate.
                const int64_t recurrentRows = hRowsOf(p);
                if (proj) {
                    const float* xw = proj + (xt - x) / I * G * H;
                    for (int64_t row = 0; row < G * H; ++row)
                        gate[row] = xw[row] + (Rb && row < recurrentRows ? Rb[row] : 0.f);
                } else {
                    for (int64_t row = 0; row < G * H; ++row)
                        gate[row] = dot(W + row * I, xt, I) + (Wb ? Wb[row] : 0.f) +
                                    (Rb && row < recurrentRows ? Rb[row] : 0.f);
                }
                if (packedH)
                    addRecurrent(packedH, hPrev, H, recurrentRows, gate);
                else
                    for (int64_t row = 0; row < recurrentRows; ++row) gate[row] += dot(R + row * H, hPrev, H);
                if (p.kind == RnnKind::Rnn) {
                    std::memcpy(hNew, gate, sizeof(float) * static_cast<size_t>(H));
                    activateSpan(f, clip, lim, hNew, H);
                } else if (p.kind == RnnKind::Gru) {
                    std::memcpy(reset, gate + H, sizeof(float) * static_cast<size_t>(H));
                    activateSpan(f, clip, lim, reset, H);
                    activateSpan(f, clip, lim, gate, H); // z
                    if (!p.linearBeforeReset)
                        for (int64_t k = 0; k < H; ++k) cNew[k] = reset[k] * hPrev[k]; // r (.) h, in cNew
                    const float* candidateIn = p.linearBeforeReset ? hPrev : cNew;
                    if (packedCandidate) {
                        std::fill(hNew, hNew + H, 0.f); // R_h times h or r (.) h, in hNew until the new state
                        addRecurrent(packedCandidate, candidateIn, H, H, hNew);
                    } else {
                        for (int64_t j = 0; j < H; ++j) hNew[j] = dot(R + (2 * H + j) * H, candidateIn, H);
                    }
                    for (int64_t j = 0; j < H; ++j) {
                        const float rb = Rb ? Rb[2 * H + j] : 0.f;
                        gate[2 * H + j] += p.linearBeforeReset ? reset[j] * (hNew[j] + rb) : hNew[j] + rb;
                    }
                    activateSpan(g, clip, lim, gate + 2 * H, H); // the candidate
                    for (int64_t j = 0; j < H; ++j) hNew[j] = (1.f - gate[j]) * gate[2 * H + j] + gate[j] * hPrev[j];
                } else {
                    // Gates i, o, f, c at gate + 0, H, 2H, 3H; the peepholes read c before (i, f) and after (o).
                    if (P)
                        for (int64_t j = 0; j < H; ++j) {
                            gate[j] += P[j] * cPrev[j];
                            gate[2 * H + j] += P[2 * H + j] * cPrev[j];
                        }
                    activateSpan(f, clip, lim, gate, H);
                    if (!p.inputForget) activateSpan(f, clip, lim, gate + 2 * H, H);
                    activateSpan(g, clip, lim, gate + 3 * H, H);
                    for (int64_t j = 0; j < H; ++j) {
                        const float fg = p.inputForget ? 1.f - gate[j] : gate[2 * H + j];
                        cNew[j] = fg * cPrev[j] + gate[j] * gate[3 * H + j];
                    }
                    if (P)
                        for (int64_t j = 0; j < H; ++j) gate[H + j] += P[H + j] * cNew[j];
                    activateSpan(f, clip, lim, gate + H, H);
                    std::memcpy(hNew, cNew, sizeof(float) * static_cast<size_t>(H));
                    activateSpan(h, false, lim, hNew, H);
                    for (int64_t j = 0; j < H; ++j) hNew[j] *= gate[H + j];
                    std::memcpy(cPrev, cNew, sizeof(float) * static_cast<size_t>(H));
                }
                std::memcpy(hPrev, hNew, sizeof(float) * static_cast<size_t>(H));
                if (y) std::memcpy(yAt(t, dir, n), hNew, sizeof(float) * static_cast<size_t>(H));
            }
            if (yh) std::memcpy(yh + stateAt(dir, n), hPrev, sizeof(float) * static_cast<size_t>(H));
            if (yc) std::memcpy(yc + stateAt(dir, n), cPrev, sizeof(float) * static_cast<size_t>(H));
        }
    }
}

} // namespace embark::generic
