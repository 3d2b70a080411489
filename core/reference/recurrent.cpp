// LSTM, GRU and RNN (ONNX opsets 7-21): one layer over a sequence, each direction on its own,
// each batch row over its own sequence length, written straight from the spec's equations with
// the state and every sum in double.
#include "ir/recurrent.h"
#include "kernels.h"

#include <algorithm>

namespace embark::reference::detail {
namespace {

using ir::OpKind;

struct Dims {
    int64_t seq = 0, batch = 0, input = 0;
};

// Reads input i as doubles, checking its shape.
Expected<std::vector<double>> operand(const ir::Node& node, const Tensors& inputs, size_t i, const char* name,
                                      const std::vector<int64_t>& dims) {
    const ir::Tensor* t = optionalInput(inputs, i);
    if (!t) return std::vector<double>();
    if (t->shape().dims() != dims)
        return invalid(node,
                       std::string(name) + " has shape " + t->shape().str() + ", expected " + ir::Shape(dims).str());
    return toDoubles(*t);
}

} // namespace

Expected<Tensors> recurrentKernel(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 3; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &xt = inputs[0], &wt = inputs[1], &rt = inputs[2];
    if (xt.shape().rank() != 3 || wt.shape().rank() != 3 || rt.shape().rank() != 3)
        return invalid(node, "X " + xt.shape().str() + ", W " + wt.shape().str() + " and R " + rt.shape().str() +
                                 " must be 3-D");
    auto specOr = ir::recurrentSpec(node, rt.shape()[2]);
    if (!specOr) return specOr.error();
    const ir::RecurrentSpec& s = *specOr;
    const bool lstm = node.op == OpKind::LSTM, gru = node.op == OpKind::GRU;
    Dims d;
    d.seq = s.layout ? xt.shape()[1] : xt.shape()[0];
    d.batch = s.layout ? xt.shape()[0] : xt.shape()[1];
    d.input = xt.shape()[2];
    const int64_t H = s.hidden, G = s.gates, D = s.directions;
    const std::vector<int64_t> stateDims =
        s.layout ? std::vector<int64_t>{d.batch, D, H} : std::vector<int64_t>{D, d.batch, H};
    auto w = operand(node, inputs, 1, "W", {D, G * H, d.input});
    auto r = operand(node, inputs, 2, "R", {D, G * H, H});
    auto b = operand(node, inputs, 3, "B", {D, 2 * G * H});
    auto h0 = operand(node, inputs, 5, "initial_h", stateDims);
    auto c0 = operand(node, inputs, 6, "initial_c", stateDims);
    auto p = operand(node, inputs, 7, "P", {D, 3 * H});
    for (const auto* e : {&w, &r, &b, &h0, &c0, &p})
        if (!*e) return e->error();
    if (!lstm && (optionalInput(inputs, 6) || optionalInput(inputs, 7)))
        return invalid(node, "only LSTM takes initial_c and P");
    const std::vector<double> x = toDoubles(xt);
    std::vector<int64_t> lens(static_cast<size_t>(d.batch), d.seq);
    if (const ir::Tensor* sl = optionalInput(inputs, 4)) {
        if (sl->shape().dims() != std::vector<int64_t>{d.batch})
            return invalid(node, "sequence_lens has shape " + sl->shape().str() + ", expected [" +
                                     std::to_string(d.batch) + "]");
        for (int64_t i = 0; i < d.batch; ++i) {
            const double v = sl->at(i);
            if (!(v >= 0 && v <= static_cast<double>(d.seq)))
                return invalid(node, "sequence_lens[" + std::to_string(i) + "] = " + std::to_string(v) +
                                         " is outside [0, " + std::to_string(d.seq) + "]");
            lens[static_cast<size_t>(i)] = static_cast<int64_t>(v);
        }
    }

    // Flat indices in the layout's order.
    auto xAt = [&](int64_t t, int64_t n, int64_t k) {
        return static_cast<size_t>((s.layout ? n * d.seq + t : t * d.batch + n) * d.input + k);
    };
    auto yAt = [&](int64_t t, int64_t dir, int64_t n, int64_t j) {
        return static_cast<size_t>((s.layout ? (n * d.seq + t) * D + dir : (t * D + dir) * d.batch + n) * H + j);
    };
    auto stateAt = [&](int64_t dir, int64_t n, int64_t j) {
        return static_cast<size_t>((s.layout ? n * D + dir : dir * d.batch + n) * H + j);
    };

    std::vector<double> y(static_cast<size_t>(d.seq * D * d.batch * H), 0.0);
    std::vector<double> yh(static_cast<size_t>(D * d.batch * H), 0.0), yc(yh.size(), 0.0);
    std::vector<double> gate(static_cast<size_t>(G * H)), hPrev(static_cast<size_t>(H)), cPrev(static_cast<size_t>(H));
    std::vector<double> hNew(static_cast<size_t>(H)), cNew(static_cast<size_t>(H)), reset(static_cast<size_t>(H));
    auto clipped = [&](double v) {
        return s.hasClip ? std::clamp(v, -static_cast<double>(s.clip), static_cast<double>(s.clip)) : v;
    };

    for (int64_t dir = 0; dir < D; ++dir) {
        const bool backwards = dir == 1 || s.reverse;
        const double* W = w->data() + dir * G * H * d.input;
        const double* R = r->data() + dir * G * H * H;
        const double* Wb = b->empty() ? nullptr : b->data() + dir * 2 * G * H;
        const double* Rb = Wb ? Wb + G * H : nullptr;
        const double* P = p->empty() ? nullptr : p->data() + dir * 3 * H;
        const ir::RecurrentActivation& f = s.activation(static_cast<int>(dir), 0);
        const ir::RecurrentActivation& g =
            s.activation(static_cast<int>(dir), std::min(1, s.activationsPerDirection - 1));
        const ir::RecurrentActivation& h =
            s.activation(static_cast<int>(dir), std::min(2, s.activationsPerDirection - 1));
        for (int64_t n = 0; n < d.batch; ++n) {
            for (int64_t j = 0; j < H; ++j) {
                hPrev[static_cast<size_t>(j)] = h0->empty() ? 0.0 : (*h0)[stateAt(dir, n, j)];
                cPrev[static_cast<size_t>(j)] = c0->empty() ? 0.0 : (*c0)[stateAt(dir, n, j)];
            }
            const int64_t len = lens[static_cast<size_t>(n)];
            for (int64_t step = 0; step < len; ++step) {
                const int64_t t = backwards ? len - 1 - step : step;
                // gate[row] = W[row] . x_t + Wb[row] (+ R[row] . h_prev + Rb[row], except GRU's h
                // gate, whose recurrent part depends on the reset gate).
                for (int64_t row = 0; row < G * H; ++row) {
                    double acc = Wb ? Wb[row] : 0.0;
                    for (int64_t k = 0; k < d.input; ++k) acc += W[row * d.input + k] * x[xAt(t, n, k)];
                    const bool gruCandidate = gru && row >= 2 * H;
                    if (!gruCandidate) {
                        acc += Rb ? Rb[row] : 0.0;
                        for (int64_t k = 0; k < H; ++k) acc += R[row * H + k] * hPrev[static_cast<size_t>(k)];
                    }
                    gate[static_cast<size_t>(row)] = acc;
                }
                if (gru) // the reset gate, whole, before the candidate reads it
                    for (int64_t j = 0; j < H; ++j)
                        reset[static_cast<size_t>(j)] = f.apply(clipped(gate[static_cast<size_t>(H + j)]));
                for (int64_t j = 0; j < H; ++j) {
                    const auto J = static_cast<size_t>(j);
                    if (node.op == OpKind::RNN) {
                        hNew[J] = f.apply(clipped(gate[J]));
                    } else if (gru) {
                        const double z = f.apply(clipped(gate[J]));
                        const int64_t row = 2 * H + j;
                        double rec = Rb ? Rb[row] : 0.0;
                        if (s.linearBeforeReset) {
                            for (int64_t k = 0; k < H; ++k) rec += R[row * H + k] * hPrev[static_cast<size_t>(k)];
                            rec *= reset[J];
                        } else {
                            for (int64_t k = 0; k < H; ++k)
                                rec += R[row * H + k] * reset[static_cast<size_t>(k)] * hPrev[static_cast<size_t>(k)];
                        }
                        const double cand = g.apply(clipped(gate[static_cast<size_t>(row)] + rec));
                        hNew[J] = (1.0 - z) * cand + z * hPrev[J];
                    } else { // LSTM, gates i, o, f, c
                        double iPre = gate[J], oPre = gate[static_cast<size_t>(H + j)];
                        double fPre = gate[static_cast<size_t>(2 * H + j)], cPre = gate[static_cast<size_t>(3 * H + j)];
                        if (P) {
                            iPre += P[j] * cPrev[J];
                            fPre += P[2 * H + j] * cPrev[J];
                        }
                        const double ig = f.apply(clipped(iPre));
                        const double fg = s.inputForget ? 1.0 - ig : f.apply(clipped(fPre));
                        const double cc = g.apply(clipped(cPre));
                        cNew[J] = fg * cPrev[J] + ig * cc;
                        if (P) oPre += P[H + j] * cNew[J];
                        const double og = f.apply(clipped(oPre));
                        hNew[J] = og * h.apply(cNew[J]);
                    }
                }
                for (int64_t j = 0; j < H; ++j) {
                    const auto J = static_cast<size_t>(j);
                    hPrev[J] = hNew[J];
                    if (lstm) cPrev[J] = cNew[J];
                    y[yAt(t, dir, n, j)] = hNew[J];
                }
            }
            for (int64_t j = 0; j < H; ++j) {
                yh[stateAt(dir, n, j)] = hPrev[static_cast<size_t>(j)];
                yc[stateAt(dir, n, j)] = cPrev[static_cast<size_t>(j)];
            }
        }
    }
    const ir::Shape yShape = s.layout ? ir::Shape{d.batch, d.seq, D, H} : ir::Shape{d.seq, D, d.batch, H};
    Tensors out{fromDoubles(ir::DType::Float32, yShape, y), fromDoubles(ir::DType::Float32, ir::Shape(stateDims), yh)};
    if (lstm) out.push_back(fromDoubles(ir::DType::Float32, ir::Shape(stateDims), yc));
    return out;
}

} // namespace embark::reference::detail
