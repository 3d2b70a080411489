// The graph inputs a model declares, read without importing it: names, element types and
// dimensions, fixed or free (symbolic like "batch", or unknown). The studio asks the user for
// the free ones and imports with ImportOptions::shapeOverrides, as `--shape` does on the CLI.
#pragma once

#include "ir/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace embark::onnx {

struct DeclaredDim {
    int64_t value = -1; // -1 when free
    std::string param;  // the symbolic name of a free dimension ("batch"), empty when unnamed
    bool isFree() const { return value < 0; }
};

struct DeclaredInput {
    std::string name;
    std::string elementType; // "float32", ...
    bool hasShape = true;    // false: the model declares no shape at all (rank unknown)
    std::vector<DeclaredDim> dims;
    bool hasFreeDims() const;
};

// The model's graph inputs that are not initializers, in order. Errors name the file.
Expected<std::vector<DeclaredInput>> declaredInputs(const std::string& path);

} // namespace embark::onnx
