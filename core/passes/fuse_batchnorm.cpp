// Folds an inference BatchNormalization into the Conv, ConvTranspose or Gemm feeding it when
// that intermediate has no other use: weights are scaled per output channel and the bias
// absorbs the shift, computed in double from constants (new constants; shared weights are
// never modified in place).
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

#include <cmath>

namespace embark::passes {
namespace {

class FuseBatchNorm final : public Pass {
public:
    std::string name() const override { return "fuse_batchnorm"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* bn : g.nodes()) {
            if (bn->op != ir::OpKind::BatchNormalization) continue;
            if (bn->outputs().size() > 1 && anyUsed(bn)) continue; // training outputs
            if (bn->attrInt("training_mode", 0) != 0) continue;    // normalises by batch statistics
            if (ir::fusedActivation(*bn)) continue;                // BN + activation kept as one (fuse_activation)
            ir::Node* p = exclusiveProducer(bn, 0);
            if (!p || ir::fusedActivation(*p)) continue;
            if (p->op != ir::OpKind::Conv && p->op != ir::OpKind::ConvTranspose && p->op != ir::OpKind::Gemm) continue;
            const ir::Tensor* w = constantInput(p, 1);
            const ir::Tensor* b = constantInput(p, 2);
            if (!w || w->dtype() != ir::DType::Float32 || (p->input(2) && !b)) continue;
            std::vector<double> scale, shift;
            if (!channelAffine(*bn, scale, shift)) continue;
            const size_t channels = scale.size();
            auto weights = foldWeights(*p, *w, scale);
            if (!weights) continue;
            // New bias: s * (beta_gemm * b - mean) + beta_bn, i.e. shift + s * b'.
            const double biasScale = p->op == ir::OpKind::Gemm ? p->attrFloat("beta", 1.f) : 1.0;
            if (b && b->numel() != static_cast<int64_t>(channels)) continue;
            std::vector<float> bias(channels);
            for (size_t c = 0; c < channels; ++c)
                bias[c] =
                    static_cast<float>(shift[c] + scale[c] * (b ? biasScale * b->at(static_cast<int64_t>(c)) : 0.0));
            ir::Value* wv = g.addConstant(g.uniqueName(p->input(1)->name + "_bn"), std::move(*weights));
            ir::Value* bv = g.addConstant(g.uniqueName(p->name + "_bias_bn"),
                                          ir::Tensor::fromFloats(ir::Shape{static_cast<int64_t>(channels)}, bias));
            g.setInput(p, 1, wv);
            g.setInput(p, 2, bv);
            if (p->op == ir::OpKind::Gemm) p->attrs["beta"] = 1.f;
            ctx.note("fused " + bn->describe() + " into " + p->describe());
            absorbConsumer(g, p, bn);
            ++rewrites;
        }
        return rewrites;
    }

private:
    static bool anyUsed(const ir::Node* n) {
        for (size_t i = 1; i < n->outputs().size(); ++i)
            if (n->output(i) && (!n->output(i)->uses().empty() || n->output(i)->isGraphOutput())) return true;
        return false;
    }

    // y = scale * x + shift per channel, from the BN's constants.
    static bool channelAffine(const ir::Node& bn, std::vector<double>& scale, std::vector<double>& shift) {
        const ir::Tensor* gamma = constantInput(&bn, 1);
        const ir::Tensor* beta = constantInput(&bn, 2);
        const ir::Tensor* mean = constantInput(&bn, 3);
        const ir::Tensor* var = constantInput(&bn, 4);
        if (!gamma || !beta || !mean || !var || bn.attrInt("training_mode", 0) != 0) return false;
        const int64_t c = gamma->numel();
        if (beta->numel() != c || mean->numel() != c || var->numel() != c) return false;
        const double eps = bn.attrFloat("epsilon", 1e-5f);
        for (int64_t i = 0; i < c; ++i) {
            const double s = gamma->at(i) / std::sqrt(var->at(i) + eps);
            scale.push_back(s);
            shift.push_back(beta->at(i) - mean->at(i) * s);
        }
        return true;
    }

    // Scales the weights of output channel c by scale[c]; nullopt when the channel count or
    // layout does not match (the BN is then left alone).
    static std::optional<ir::Tensor> foldWeights(const ir::Node& p, const ir::Tensor& w,
                                                 const std::vector<double>& scale) {
        const auto& d = w.shape().dims();
        const int64_t channels = static_cast<int64_t>(scale.size());
        ir::Tensor out = ir::Tensor::fromFloats(w.shape(), w.toFloatVector());
        float* data = out.mutableAs<float>();
        const int64_t n = w.numel();
        if (p.op == ir::OpKind::Conv) {
            if (d.empty() || d[0] != channels) return std::nullopt;
            const int64_t inner = n / channels;
            for (int64_t i = 0; i < n; ++i)
                data[i] = static_cast<float>(data[i] * scale[static_cast<size_t>(i / inner)]);
        } else if (p.op == ir::OpKind::ConvTranspose) {
            // [Cin, Cout/group, k...]; output channel = group index * Cout/group + j.
            const int64_t group = p.attrInt("group", 1);
            if (d.size() < 2 || d[1] * group != channels || d[0] % group) return std::nullopt;
            const int64_t inner = n / (d[0] * d[1]);
            const int64_t cinPerGroup = d[0] / group;
            for (int64_t i = 0; i < n; ++i) {
                const int64_t ci = i / (d[1] * inner), j = (i / inner) % d[1];
                data[i] = static_cast<float>(data[i] * scale[static_cast<size_t>((ci / cinPerGroup) * d[1] + j)]);
            }
        } else { // Gemm: B is [K, N] or [N, K] with transB; alpha stays on A*B.
            if (d.size() != 2) return std::nullopt;
            const bool transB = p.attrInt("transB", 0) != 0;
            if ((transB ? d[0] : d[1]) != channels) return std::nullopt;
            for (int64_t i = 0; i < n; ++i) {
                const int64_t col = transB ? i / d[1] : i % d[1];
                data[i] = static_cast<float>(data[i] * scale[static_cast<size_t>(col)]);
            }
        }
        return out;
    }
};

} // namespace

std::unique_ptr<Pass> makeFuseBatchNorm() { return std::make_unique<FuseBatchNorm>(); }

} // namespace embark::passes
