// Internal to the reference interpreter: the kernel signature, the per-family kernel entry
// points the kernel table dispatches to, and the small helpers every family shares.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace embark::reference::detail {

using Tensors = std::vector<ir::Tensor>;
// A kernel computes a node's outputs from its inputs (absent optional inputs are null
// tensors). It validates what it reads and reports problems as Errors naming the node.
using Kernel = Expected<Tensors> (*)(const ir::Node& node, const Tensors& inputs);

// --- errors naming the node: "node 'conv1' (Conv): ..."
Error unsupported(const ir::Node& node, const std::string& what);
Error invalid(const ir::Node& node, const std::string& what);

// --- inputs
// Input i or nullptr when absent / null.
const ir::Tensor* optionalInput(const Tensors& inputs, size_t i);
// Input i, or an InvalidInput error saying it is required.
Expected<const ir::Tensor*> requiredInput(const ir::Node& node, const Tensors& inputs, size_t i);
// Normalises axis against rank, or an InvalidInput error naming the node.
Expected<int64_t> normalizedAxis(const ir::Node& node, int64_t axis, int64_t rank);

// --- shapes and element access
std::vector<int64_t> stridesOf(const ir::Shape& shape);
// Multidirectional (numpy) broadcasting of several shapes.
Expected<ir::Shape> broadcastShapes(const ir::Node& node, const std::vector<ir::Shape>& shapes);
// For each element of `out`, the flat index of the element of `in` it reads under
// broadcasting. Empty when the shapes are equal (identity mapping) or `out` is empty.
std::vector<int64_t> broadcastIndex(const ir::Shape& in, const ir::Shape& out);
std::vector<double> toDoubles(const ir::Tensor& t);
// Stores doubles into a tensor of `dtype` (integers truncated, bool = non-zero).
ir::Tensor fromDoubles(ir::DType dtype, ir::Shape shape, const std::vector<double>& values);
// Same data, different shape; the element count must match.
ir::Tensor withShape(const ir::Tensor& t, ir::Shape shape);
// out[i] = src[index[i]] for any dtype (data movement by bytes).
ir::Tensor gatherByIndex(const ir::Tensor& src, ir::Shape outShape, const std::vector<int64_t>& index);
// Generic transpose of src viewed as `view` (same element count) by `perm`.
ir::Tensor transposeView(const ir::Tensor& src, const ir::Shape& view, const std::vector<int64_t>& perm);
// Tensor of int64 values shaped [n].
ir::Tensor int64Vector(const std::vector<int64_t>& values);

// --- convolution and pooling windows
struct SpatialGeometry {
    std::vector<int64_t> kernel, strides, dilations, padBegin, padEnd, out;
};
// Reads strides/dilations/pads/auto_pad for the spatial dims `in` and a window `kernel`,
// and computes the output dims (ceil_mode for pooling). Errors name the node.
Expected<SpatialGeometry> spatialGeometry(const ir::Node& node, const std::vector<int64_t>& in,
                                          const std::vector<int64_t>& kernel, bool ceilMode);

// --- accumulators shared by the float and the integer kernels: products summed in double,
// before bias and output conversion (exact for integer operands while sums stay below 2^53).
struct ConvAccumulation {
    ir::Shape shape; // N x M x spatial
    std::vector<double> acc;
};
// Conv of float32 X (input 0) and W (input 1) with the node's Conv attributes; input 2 ignored.
Expected<ConvAccumulation> convAccumulate(const ir::Node& node, const Tensors& inputs); // conv.cpp
struct MatMulAccumulation {
    ir::Shape shape; // numpy matmul result shape
    std::vector<double> acc;
};
// numpy matmul of float32 A and B (batched, broadcast, 1-D operands).
Expected<MatMulAccumulation> matmulAccumulate(const ir::Node& node, const ir::Tensor& a,
                                              const ir::Tensor& b); // linear.cpp

// --- kernel families (one per file). Each switches on node.op where it serves several ops.
Expected<Tensors> convKernel(const ir::Node&, const Tensors&);           // conv.cpp
Expected<Tensors> convTransposeKernel(const ir::Node&, const Tensors&);  // conv.cpp
Expected<Tensors> gemmKernel(const ir::Node&, const Tensors&);           // linear.cpp
Expected<Tensors> matmulKernel(const ir::Node&, const Tensors&);         // linear.cpp
Expected<Tensors> normalizationKernel(const ir::Node&, const Tensors&);  // normalization.cpp
Expected<Tensors> unaryKernel(const ir::Node&, const Tensors&);          // elementwise.cpp
Expected<Tensors> binaryKernel(const ir::Node&, const Tensors&);         // elementwise.cpp
Expected<Tensors> whereKernel(const ir::Node&, const Tensors&);          // elementwise.cpp
Expected<Tensors> preluKernel(const ir::Node&, const Tensors&);          // elementwise.cpp
Expected<Tensors> clipKernel(const ir::Node&, const Tensors&);           // elementwise.cpp
Expected<Tensors> poolKernel(const ir::Node&, const Tensors&);           // pooling.cpp
Expected<Tensors> globalPoolKernel(const ir::Node&, const Tensors&);     // pooling.cpp
Expected<Tensors> softmaxKernel(const ir::Node&, const Tensors&);        // reduce.cpp
Expected<Tensors> reduceKernel(const ir::Node&, const Tensors&);         // reduce.cpp
Expected<Tensors> argKernel(const ir::Node&, const Tensors&);            // reduce.cpp
Expected<Tensors> shapeOpKernel(const ir::Node&, const Tensors&);        // shape_ops.cpp
Expected<Tensors> sliceLikeKernel(const ir::Node&, const Tensors&);      // slice_ops.cpp
Expected<Tensors> padKernel(const ir::Node&, const Tensors&);            // pad.cpp
Expected<Tensors> resizeKernel(const ir::Node&, const Tensors&);         // resize.cpp
Expected<Tensors> dataKernel(const ir::Node&, const Tensors&);           // data_ops.cpp
Expected<Tensors> quantizeKernel(const ir::Node&, const Tensors&);       // quantize.cpp
Expected<Tensors> integerLinearKernel(const ir::Node&, const Tensors&);  // quantized_linear.cpp
Expected<Tensors> fusedQuantizedKernel(const ir::Node&, const Tensors&); // quantized_fused.cpp
Expected<Tensors> controlFlowKernel(const ir::Node&, const Tensors&);    // control_flow.cpp
Expected<Tensors> recurrentKernel(const ir::Node&, const Tensors&);      // recurrent.cpp
Expected<Tensors> indexingKernel(const ir::Node&, const Tensors&);       // index_ops.cpp
Expected<Tensors> einsumKernel(const ir::Node&, const Tensors&);         // einsum.cpp
Expected<Tensors> signalKernel(const ir::Node&, const Tensors&);         // signal_ops.cpp
Expected<Tensors> lossKernel(const ir::Node&, const Tensors&);           // loss_ops.cpp
Expected<Tensors> mathKernel(const ir::Node&, const Tensors&);           // math_ops.cpp

// --- graphs (interpreter.cpp) and the bodies of control flow (control_flow.cpp)
using Environment = std::unordered_map<const ir::Value*, ir::Tensor>;
// Where captured values go: every computed value under prefix + its name.
struct Capture {
    std::map<std::string, ir::Tensor>* values = nullptr;
    std::string prefix;
};
// Runs `graph` with its inputs (and a body's outer-scope values) bound in env; returns its
// outputs in order. With a capture, keeps every value it computes.
Expected<Tensors> runGraph(const ir::Graph& graph, Environment env, const Capture* capture);
// If, Loop, Scan: `inputs` are the node's inputs, its implicit outer-scope inputs included.
// A body's values are captured as prefix + attr + "/" + name (a loop's from its last iteration).
Expected<Tensors> runControlFlow(const ir::Node& node, const Tensors& inputs, const Capture& capture);

} // namespace embark::reference::detail
