// The interface of a graph pass: a small rewrite that returns how many changes it made and
// logs one line per change. Passes are created by the factories listed at the bottom.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"
#include "targets/kernel_library.h"

#include <memory>
#include <string>
#include <vector>

namespace embark::passes {

struct PassContext {
    // Decides which activation fusions are allowed (its FusionPatterns); none if null. The
    // libraries themselves are the export's (core/export/kernel_libraries.h).
    const targets::KernelLibrary* library = nullptr;
    // One line per rewrite, appended by the passes ("fused BatchNormalization 'bn1' into ...").
    std::vector<std::string> log;

    const targets::KernelLibrary& lib() const { return library ? *library : targets::noKernelLibrary(); }
    void note(std::string line) { log.push_back(std::move(line)); }
};

class Pass {
public:
    virtual ~Pass() = default;
    virtual std::string name() const = 0;
    // Applies the rewrite everywhere it matches once; the PassManager repeats to a fixed point.
    // Returns the number of rewrites, or an error naming this pass and the node it could not
    // handle (the graph is then left unchanged or consistently partially rewritten).
    virtual Expected<int> run(ir::Graph& graph, PassContext& ctx) = 0;
};

std::unique_ptr<Pass> makeRemoveIdentity();  // Identity and inference Dropout
std::unique_ptr<Pass> makeConstantFolding(); // nodes computable from constants (reference kernels)
std::unique_ptr<Pass> makeRemoveFlatten();   // no-op Flatten in front of Gemm
std::unique_ptr<Pass> makeFuseBatchNorm();   // BatchNormalization into Conv/ConvTranspose/Gemm
std::unique_ptr<Pass> makeFusePad();         // Pad into Conv/MaxPool/AveragePool pads
std::unique_ptr<Pass> makeFuseActivation();  // Relu/Clip/... into Conv/Gemm/MatMul/Add
std::unique_ptr<Pass> makeFuseSwish();       // x * Sigmoid(x) -> Swish (SiLU), x * HardSigmoid(x) -> HardSwish
std::unique_ptr<Pass> makeFuseGelu();        // 0.5 * x * (1 + erf(x / sqrt 2)) -> Gelu
std::unique_ptr<Pass> makeMatMulAddToGemm(); // MatMul(2-D, constant B) + Add -> Gemm
std::unique_ptr<Pass> makeFuseQdq();         // DequantizeLinear -> op -> QuantizeLinear -> int8 ops
std::unique_ptr<Pass> makeLowerEinsum();     // Einsum -> ReduceSum/Transpose/Reshape/MatMul where it can

// Every pass by name ("remove_identity", ...), for recipes and tests; null if unknown.
std::unique_ptr<Pass> makePass(const std::string& name);
std::vector<std::string> passNames();

} // namespace embark::passes
