// Gemm (transA/transB, alpha, beta, broadcast C) and MatMul (numpy semantics: batched,
// broadcast batch dims, 1-D operands) on the shared double GEMM.
#include "gemm.h"
#include "kernels.h"

namespace embark::reference::detail {
namespace {

std::vector<float> transposed2d(const float* src, int64_t rows, int64_t cols) {
    std::vector<float> t(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) t[static_cast<size_t>(c * rows + r)] = src[r * cols + c];
    return t;
}

} // namespace

Expected<Tensors> gemmKernel(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &a = inputs[0], &b = inputs[1];
    const ir::Tensor* c = optionalInput(inputs, 2);
    if (a.shape().rank() != 2 || b.shape().rank() != 2)
        return invalid(node, "A " + a.shape().str() + " and B " + b.shape().str() + " must be 2-D");
    const bool transA = node.attrInt("transA", 0) != 0, transB = node.attrInt("transB", 0) != 0;
    const int64_t M = transA ? a.shape()[1] : a.shape()[0], K = transA ? a.shape()[0] : a.shape()[1];
    const int64_t kb = transB ? b.shape()[1] : b.shape()[0], N = transB ? b.shape()[0] : b.shape()[1];
    if (K != kb)
        return invalid(node, "A " + a.shape().str() + (transA ? " (transposed)" : "") + " and B " + b.shape().str() +
                                 (transB ? " (transposed)" : "") + " have different inner sizes");
    const double alpha = node.attrFloat("alpha", 1.f), beta = node.attrFloat("beta", 1.f);
    std::vector<float> at, bt;
    if (transA) at = transposed2d(a.as<float>(), a.shape()[0], a.shape()[1]);
    if (transB) bt = transposed2d(b.as<float>(), b.shape()[0], b.shape()[1]);
    std::vector<double> acc(static_cast<size_t>(M * N), 0.0);
    gemmAccumulate(M, N, K, transA ? at.data() : a.as<float>(), K, transB ? bt.data() : b.as<float>(), N, acc.data(),
                   N);
    const ir::Shape outShape{M, N};
    std::vector<int64_t> cIndex;
    if (c) {
        Expected<ir::Shape> bs = broadcastShapes(node, {c->shape(), outShape});
        if (!bs) return bs.error();
        if (*bs != outShape) return invalid(node, "C " + c->shape().str() + " does not broadcast to " + outShape.str());
        cIndex = broadcastIndex(c->shape(), outShape);
    }
    ir::Tensor out(ir::DType::Float32, outShape);
    float* y = out.mutableAs<float>();
    for (int64_t i = 0; i < M * N; ++i) {
        double v = alpha * acc[static_cast<size_t>(i)];
        if (c) v += beta * c->at(cIndex.empty() ? i : cIndex[static_cast<size_t>(i)]);
        y[i] = static_cast<float>(v);
    }
    return Tensors{out};
}

Expected<MatMulAccumulation> matmulAccumulate(const ir::Node& node, const ir::Tensor& a, const ir::Tensor& b) {
    if (a.shape().rank() == 0 || b.shape().rank() == 0) return invalid(node, "operands must not be scalars");
    // 1-D operands become matrices and lose the added dim in the result.
    std::vector<int64_t> ad = a.shape().dims(), bd = b.shape().dims();
    const bool aVector = ad.size() == 1, bVector = bd.size() == 1;
    if (aVector) ad.insert(ad.begin(), 1);
    if (bVector) bd.push_back(1);
    const int64_t M = ad[ad.size() - 2], K = ad.back(), N = bd.back();
    if (bd[bd.size() - 2] != K)
        return invalid(node, "A " + a.shape().str() + " and B " + b.shape().str() + " have different inner sizes");
    const ir::Shape aBatch(std::vector<int64_t>(ad.begin(), ad.end() - 2));
    const ir::Shape bBatch(std::vector<int64_t>(bd.begin(), bd.end() - 2));
    Expected<ir::Shape> batch = broadcastShapes(node, {aBatch, bBatch});
    if (!batch) return batch.error();
    const int64_t batches = batch->numel();
    std::vector<int64_t> aIndex = broadcastIndex(aBatch, *batch), bIndex = broadcastIndex(bBatch, *batch);
    MatMulAccumulation r;
    std::vector<double>& acc = r.acc;
    acc.assign(static_cast<size_t>(batches * M * N), 0.0);
    for (int64_t i = 0; i < batches; ++i) {
        const int64_t ai = aIndex.empty() ? i : aIndex[static_cast<size_t>(i)];
        const int64_t bi = bIndex.empty() ? i : bIndex[static_cast<size_t>(i)];
        gemmAccumulate(M, N, K, a.as<float>() + ai * M * K, K, b.as<float>() + bi * K * N, N, acc.data() + i * M * N,
                       N);
    }
    std::vector<int64_t> outDims = batch->dims();
    if (!aVector) outDims.push_back(M);
    if (!bVector) outDims.push_back(N);
    r.shape = ir::Shape(outDims);
    return r;
}

Expected<Tensors> matmulKernel(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    Expected<MatMulAccumulation> r = matmulAccumulate(node, inputs[0], inputs[1]);
    if (!r) return r.error();
    ir::Tensor out(ir::DType::Float32, r->shape);
    float* y = out.mutableAs<float>();
    for (size_t i = 0; i < r->acc.size(); ++i) y[i] = static_cast<float>(r->acc[i]);
    return Tensors{out};
}

} // namespace embark::reference::detail
