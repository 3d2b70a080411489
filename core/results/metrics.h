// Accuracy metrics between an output and its reference (DESIGN.md "Accuracy"): max |diff|,
// max |diff| / max |ref|, RMSE, cosine similarity, SNR in dB, top-k agreement.
#pragma once

#include "ir/tensor.h"

#include <string>
#include <vector>

namespace embark::bench {

struct Accuracy {
    std::string name;
    double maxAbs = 0; // max |got - ref|
    double maxRel = 0; // maxAbs / max |ref|
    double rmse = 0;
    double cosine = 1; // 1 when both are all zero
    double snrDb = 0;  // 10 log10(sum ref^2 / sum diff^2); +inf-capped at 300 when identical
    double maxRef = 0; // max |ref|
    bool shapeMatches = true;
};

// Compares element-wise; a shape mismatch gives shapeMatches=false and NaN metrics.
Accuracy compare(const ir::Tensor& got, const ir::Tensor& ref, const std::string& name = {});

// Passes when maxAbs <= tolerance * max(maxRef, tiny) (the CLI's default tolerance is 1e-4
// of the expected output's max magnitude).
bool withinTolerance(const Accuracy& a, double relativeTolerance);

// Indices of the k largest values (descending), for classifier outputs.
std::vector<int64_t> topK(const ir::Tensor& t, int k);

} // namespace embark::bench
