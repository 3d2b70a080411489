// Part of every export (src/output_compact.h), read by run_export and Embark's export test
// harness. An output planned at its capacity (model_api.h outputDims) holds the run's values in
// the first dims[a] of cap[a] on the one axis a where the two differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace embark_run {

// Moves the run's values of such an output together; returns the run's element count.
inline int64_t compactOutput(unsigned char* data, size_t elemBytes, int rank, const int64_t* cap, const int64_t* dims) {
    int a = 0;
    while (a < rank && cap[a] == dims[a]) ++a;
    int64_t numel = 1;
    for (int i = 0; i < rank; ++i) numel *= dims[i];
    if (a == rank) return numel;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < a; ++i) outer *= cap[i];
    for (int i = a + 1; i < rank; ++i) inner *= cap[i];
    const size_t run = static_cast<size_t>(dims[a] * inner) * elemBytes;
    const size_t stride = static_cast<size_t>(cap[a] * inner) * elemBytes;
    for (int64_t o = 0; o < outer; ++o)
        std::memmove(data + static_cast<size_t>(o) * run, data + static_cast<size_t>(o) * stride, run);
    return numel;
}

} // namespace embark_run
