#include "interpreter.h"

#include "ir/fused.h"
#include "kernels.h"

#include <algorithm>
#include <array>
#include <new>
#include <unordered_map>

namespace embark::reference {
namespace {

using detail::Kernel;
using detail::Tensors;
using ir::DType;
using ir::OpKind;

// How a kernel treats dtypes: FloatMath kernels compute on float32 (float64/float16 inputs
// are converted in and out); Generic kernels handle every dtype themselves (element-wise
// maths through double, data movement through bytes).
enum class DTypePolicy : uint8_t { FloatMath, Generic };

struct KernelEntry {
    Kernel kernel = nullptr;
    DTypePolicy policy = DTypePolicy::Generic;
};

KernelEntry entryFor(OpKind op) {
    using namespace detail;
    constexpr auto F = DTypePolicy::FloatMath;
    constexpr auto G = DTypePolicy::Generic;
    switch (op) {
    case OpKind::Conv: return {convKernel, F};
    case OpKind::ConvTranspose: return {convTransposeKernel, F};
    case OpKind::Gemm: return {gemmKernel, F};
    case OpKind::MatMul: return {matmulKernel, F};
    case OpKind::LSTM:
    case OpKind::GRU:
    case OpKind::RNN: return {recurrentKernel, F};
    case OpKind::BatchNormalization:
    case OpKind::InstanceNormalization:
    case OpKind::LRN:
    case OpKind::LayerNormalization: return {normalizationKernel, F};
    case OpKind::Relu:
    case OpKind::LeakyRelu:
    case OpKind::Sigmoid:
    case OpKind::Tanh:
    case OpKind::HardSigmoid:
    case OpKind::HardSwish:
    case OpKind::Elu:
    case OpKind::Selu:
    case OpKind::Softplus:
    case OpKind::Softsign:
    case OpKind::Gelu:
    case OpKind::Mish:
    case OpKind::Swish:
    case OpKind::Sqrt:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Neg:
    case OpKind::Abs:
    case OpKind::Reciprocal:
    case OpKind::Floor:
    case OpKind::Ceil:
    case OpKind::Round:
    case OpKind::Sign:
    case OpKind::Erf:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Not: return {unaryKernel, G};
    case OpKind::PRelu: return {preluKernel, G};
    case OpKind::Clip: return {clipKernel, G};
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Pow:
    case OpKind::Min:
    case OpKind::Max:
    case OpKind::Sum:
    case OpKind::Mean:
    case OpKind::Mod:
    case OpKind::Equal:
    case OpKind::Less:
    case OpKind::Greater:
    case OpKind::LessOrEqual:
    case OpKind::GreaterOrEqual:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor: return {binaryKernel, G};
    case OpKind::Where: return {whereKernel, G};
    case OpKind::MaxPool:
    case OpKind::AveragePool: return {poolKernel, F};
    case OpKind::GlobalAveragePool:
    case OpKind::GlobalMaxPool: return {globalPoolKernel, F};
    case OpKind::Softmax:
    case OpKind::LogSoftmax: return {softmaxKernel, F};
    case OpKind::ReduceMean:
    case OpKind::ReduceSum:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
    case OpKind::ReduceProd: return {reduceKernel, G};
    case OpKind::ArgMax:
    case OpKind::ArgMin: return {argKernel, G};
    case OpKind::Flatten:
    case OpKind::Reshape:
    case OpKind::Transpose:
    case OpKind::Concat:
    case OpKind::Shape:
    case OpKind::Size:
    case OpKind::Expand:
    case OpKind::Tile:
    case OpKind::DepthToSpace:
    case OpKind::SpaceToDepth: return {shapeOpKernel, G};
    case OpKind::Split:
    case OpKind::Slice:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Gather: return {sliceLikeKernel, G};
    case OpKind::Pad: return {padKernel, G};
    case OpKind::Resize: return {resizeKernel, F};
    case OpKind::Constant:
    case OpKind::ConstantOfShape:
    case OpKind::Range:
    case OpKind::Identity:
    case OpKind::Dropout:
    case OpKind::Cast: return {dataKernel, G};
    case OpKind::QuantizeLinear:
    case OpKind::DequantizeLinear:
    case OpKind::DynamicQuantizeLinear: return {quantizeKernel, G};
    case OpKind::QLinearConv:
    case OpKind::QLinearMatMul:
    case OpKind::ConvInteger:
    case OpKind::MatMulInteger: return {integerLinearKernel, G};
    case OpKind::QConv:
    case OpKind::QGemm:
    case OpKind::QAdd:
    case OpKind::QAveragePool:
    case OpKind::QLookup: return {fusedQuantizedKernel, G};
    case OpKind::If:
    case OpKind::Loop:
    case OpKind::Scan: return {controlFlowKernel, G};
    // indexing, scatter, selection, einsum and signal ops (issue 31)
    case OpKind::ScatterND:
    case OpKind::ScatterElements:
    case OpKind::GatherElements:
    case OpKind::GatherND:
    case OpKind::TopK:
    case OpKind::CumSum:
    case OpKind::OneHot:
    case OpKind::Trilu:
    case OpKind::BitShift:
    case OpKind::NonMaxSuppression: return {indexingKernel, G};
    case OpKind::Einsum: return {einsumKernel, G};
    case OpKind::GridSample:
    case OpKind::RoiAlign:
    case OpKind::DFT:
    case OpKind::STFT: return {signalKernel, F};
    case OpKind::NegativeLogLikelihoodLoss:
    case OpKind::SoftmaxCrossEntropyLoss: return {lossKernel, G};
    case OpKind::ReduceL1:
    case OpKind::ReduceL2:
    case OpKind::ReduceLogSum:
    case OpKind::ReduceLogSumExp:
    case OpKind::ReduceSumSquare: return {reduceKernel, G};
    case OpKind::Hardmax:
    case OpKind::CastLike:
    case OpKind::EyeLike:
    case OpKind::Tan:
    case OpKind::Asin:
    case OpKind::Acos:
    case OpKind::Atan:
    case OpKind::Sinh:
    case OpKind::Cosh:
    case OpKind::Asinh:
    case OpKind::Acosh:
    case OpKind::Atanh:
    case OpKind::IsNaN:
    case OpKind::IsInf:
    case OpKind::ThresholdedRelu:
    case OpKind::Shrink:
    case OpKind::Celu:
    case OpKind::Det:
    case OpKind::MeanVarianceNormalization:
    case OpKind::HannWindow:
    case OpKind::HammingWindow:
    case OpKind::BlackmanWindow: return {mathKernel, G};
    case OpKind::Unique:
    case OpKind::Compress:
    case OpKind::NonZero:
    case OpKind::ReverseSequence:
    case OpKind::MaxUnpool: return {indexingKernel, G};
    case OpKind::Count_: break;
    }
    return {};
}

bool isFloat(DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::Float16; }

// Runs a FloatMath kernel: float64/float16 inputs go in as float32 and float32 outputs come
// back in the dtype of input 0, so double and half models run on the same kernels.
Expected<Tensors> runFloatMath(const ir::Node& node, Kernel kernel, const Tensors& inputs) {
    const DType dataType = inputs.empty() || inputs[0].isNull() ? DType::Float32 : inputs[0].dtype();
    // Max pooling only compares and copies, so small integers go through float32 exactly.
    const bool exactInFloat = node.op == OpKind::MaxPool && (dataType == DType::Int8 || dataType == DType::UInt8 ||
                                                             dataType == DType::Int16 || dataType == DType::UInt16);
    if (!isFloat(dataType) && !exactInFloat)
        return detail::unsupported(node, "dtype " + std::string(ir::dtypeName(dataType)) +
                                             " is not supported by the reference interpreter");
    if (dataType == DType::Float32) return kernel(node, inputs);
    Tensors converted = inputs;
    for (ir::Tensor& t : converted)
        if (!t.isNull() &&
            (t.dtype() == DType::Float64 || t.dtype() == DType::Float16 || (exactInFloat && t.dtype() == dataType)))
            t = t.castTo(DType::Float32);
    Expected<Tensors> out = kernel(node, converted);
    if (!out) return out;
    for (ir::Tensor& t : *out)
        if (!t.isNull() && t.dtype() == DType::Float32) t = t.castTo(dataType);
    return out;
}

void applyFusedActivation(const ir::Node& node, ir::Tensor& t) {
    const auto act = ir::fusedActivation(node);
    if (!act || t.dtype() != DType::Float32) return;
    float* p = t.mutableAs<float>();
    const int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(act->apply(p[i]));
}

std::string describeTensor(DType dtype, const ir::Shape& shape) {
    return std::string(ir::dtypeName(dtype)) + " " + shape.str();
}

} // namespace

bool supports(OpKind op) { return entryFor(op).kernel != nullptr; }

std::vector<OpKind> supportedOps() {
    std::vector<OpKind> ops;
    for (OpKind op : ir::allOps())
        if (supports(op)) ops.push_back(op);
    return ops;
}

Expected<std::vector<ir::Tensor>> evalNode(const ir::Node& node, const std::vector<ir::Tensor>& inputs) {
    const KernelEntry entry = entryFor(node.op);
    if (!entry.kernel) return detail::unsupported(node, "the reference interpreter has no kernel for this op");
    if (ir::fusedActivation(node) == std::nullopt && node.has(ir::kActivation))
        return detail::unsupported(node, "unknown fused activation '" + node.attrString(ir::kActivation, "") + "'");
    try {
        Expected<Tensors> out = entry.policy == DTypePolicy::FloatMath ? runFloatMath(node, entry.kernel, inputs)
                                                                       : entry.kernel(node, inputs);
        if (!out) return out;
        if (!out->empty()) applyFusedActivation(node, out->front());
        return out;
    } catch (const std::bad_alloc&) {
        return makeError(ErrorKind::InvalidInput, "node '" + node.name + "' (" + std::string(ir::opName(node.op)) +
                                                      "): out of memory computing its output; "
                                                      "check the model's shapes");
    }
}

namespace detail {

Expected<Tensors> runGraph(const ir::Graph& graph, Environment env, const Capture* capture) {
    const std::vector<ir::Node*> nodes = graph.nodes();
    // Free each intermediate after its last reader so big models fit in memory.
    std::unordered_map<const ir::Value*, size_t> lastUse;
    for (size_t i = 0; i < nodes.size(); ++i)
        for (const ir::Value* v : nodes[i]->inputs())
            if (v) lastUse[v] = i;

    for (size_t i = 0; i < nodes.size(); ++i) {
        const ir::Node& node = *nodes[i];
        Tensors ins;
        ins.reserve(node.inputs().size());
        for (const ir::Value* v : node.inputs()) {
            if (!v) {
                ins.emplace_back();
                continue;
            }
            auto it = env.find(v);
            if (it != env.end())
                ins.push_back(it->second);
            else if (v->isConstant())
                ins.push_back(v->constant);
            else
                return detail::invalid(node, "its input '" + v->name +
                                                 "' is not computed before it (no producer, or "
                                                 "the graph is not in topological order)");
        }
        // Control flow runs its bodies with the capture, so their values are kept too.
        Expected<Tensors> outs =
            !node.subgraphs.empty() && capture
                ? runControlFlow(node, ins, Capture{capture->values, capture->prefix + node.name + "/"})
                : evalNode(node, ins);
        if (!outs) return outs.error();
        for (size_t k = 0; k < node.outputs().size(); ++k) {
            const ir::Value* v = node.outputs()[k];
            if (!v) continue;
            if (k >= outs->size() || (*outs)[k].isNull())
                return detail::unsupported(node, "output " + std::to_string(k) + " ('" + v->name +
                                                     "') is not produced by the reference kernel");
            env[v] = (*outs)[k];
            if (capture) (*capture->values)[capture->prefix + v->name] = (*outs)[k];
        }
        for (const ir::Value* v : node.inputs()) {
            if (!v || v->isGraphOutput()) continue;
            auto lu = lastUse.find(v);
            if (lu != lastUse.end() && lu->second == i) env.erase(v);
        }
    }

    Tensors outputs;
    for (const ir::Value* v : graph.outputs()) {
        auto it = env.find(v);
        if (it != env.end())
            outputs.push_back(it->second);
        else if (v->isConstant())
            outputs.push_back(v->constant);
        else
            return makeError(ErrorKind::InvalidInput,
                             "output '" + v->name + "' of graph '" + graph.name + "' is never computed");
    }
    return outputs;
}

} // namespace detail

Expected<RunResult> run(const ir::Graph& graph, const std::map<std::string, ir::Tensor>& inputs,
                        const RunOptions& options) {
    detail::Environment env;
    std::string inputList;
    for (const ir::Value* v : graph.inputs()) inputList += (inputList.empty() ? "" : ", ") + v->name;
    for (const auto& [name, tensor] : inputs) {
        const ir::Value* v = graph.findValue(name);
        if (!v || !v->isGraphInput())
            return makeError(ErrorKind::InvalidInput, "'" + name + "' is not an input of model '" + graph.name +
                                                          "'; its inputs are: " + inputList);
    }
    for (const ir::Value* v : graph.inputs()) {
        auto it = inputs.find(v->name);
        if (it == inputs.end()) {
            if (v->isConstant()) continue; // an initializer listed as input keeps its value
            return makeError(ErrorKind::InvalidInput, "input '" + v->name + "' (" + describeTensor(v->dtype, v->shape) +
                                                          ") is missing; give it a value");
        }
        const ir::Tensor& t = it->second;
        if (t.dtype() != v->dtype || t.shape() != v->shape)
            return makeError(ErrorKind::InvalidInput,
                             "input '" + v->name + "' is " + describeTensor(t.dtype(), t.shape()) +
                                 " but the model expects " + describeTensor(v->dtype, v->shape));
        env[v] = t;
    }

    RunResult result;
    const detail::Capture capture{&result.values, ""};
    Expected<Tensors> outputs = detail::runGraph(graph, std::move(env), options.captureAll ? &capture : nullptr);
    if (!outputs) return outputs.error();
    for (const ir::Value* v : graph.outputs()) result.outputNames.push_back(v->name);
    result.outputs = std::move(*outputs);
    return result;
}

Expected<std::map<std::string, ir::Tensor>> runAllValues(const ir::Graph& graph,
                                                         const std::map<std::string, ir::Tensor>& inputs) {
    RunOptions ro;
    ro.captureAll = true;
    auto r = run(graph, inputs, ro);
    if (!r) return r.error();
    std::map<std::string, ir::Tensor> values = std::move(r->values);
    for (size_t k = 0; k < r->outputs.size() && k < r->outputNames.size(); ++k)
        values[r->outputNames[k]] = r->outputs[k];
    return values;
}

Status propagateShapes(ir::Graph& graph, const std::map<std::string, ir::Tensor>& sample) {
    std::map<std::string, ir::Tensor> zeros;
    for (const ir::Value* v : graph.inputs()) {
        if (v->isConstant()) continue;
        if (!v->shape.checkedNumel())
            return makeError(ErrorKind::InvalidInput, "input '" + v->name + "' has an invalid shape " + v->shape.str());
        const auto given = sample.find(v->name);
        const bool fits =
            given != sample.end() && given->second.dtype() == v->dtype && given->second.shape() == v->shape;
        zeros[v->name] = fits ? given->second : ir::Tensor(v->dtype, v->shape);
    }
    RunOptions options;
    options.captureAll = true;
    Expected<RunResult> r = run(graph, zeros, options);
    if (!r) return r.error();
    for (ir::Node* n : graph.nodes()) {
        for (ir::Value* v : n->outputs()) {
            if (!v || v->isConstant()) continue;
            auto it = r->values.find(v->name);
            if (it == r->values.end()) continue;
            v->dtype = it->second.dtype();
            v->shape = it->second.shape();
        }
    }
    return {};
}

} // namespace embark::reference
