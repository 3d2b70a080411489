// copy_bytes: memcpy for the short rows a concatenation or a layout change copies (one pixel's
// channels, a few hundred bytes each).
#pragma once

#include <cstddef>
#include <cstring>
#if defined(__clang__) && defined(__riscv_vector)
#  include <riscv_vector.h>
#endif

namespace embark::portable {

// dst and src do not overlap. On RVV, vector loads and stores of LMUL 8 (a 256-byte row is one
// of each at VLEN 256): the C library's memcpy on riscv64 copies with scalar registers, a few
// instructions per 8 bytes plus its call and alignment set-up on every row.
inline void copy_bytes(void* dst, const void* src, size_t n) {
#if defined(__clang__) && defined(__riscv_vector)
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for (size_t i = 0; i < n;) {
        const size_t vl = __riscv_vsetvl_e8m8(n - i);
        __riscv_vse8_v_u8m8(d + i, __riscv_vle8_v_u8m8(s + i, vl), vl);
        i += vl;
    }
#else
    std::memcpy(dst, src, n);
#endif
}

} // namespace embark::portable
