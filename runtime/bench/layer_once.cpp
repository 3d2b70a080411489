// Runs one convolution layer `calls` times on one thread, for counting retired instructions
// under qemu (rvv_insn_count.sh subtracts the 1-call count from the 2-call count, so packing,
// set-up and the indirection buffer are excluded).
// Usage: layer_once CALLS batch in_h in_w in_c out_c kh kw sh sw dh dw pt pl pb pr groups
#include "portable.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ep = embark::portable;

int main(int argc, char** argv) {
    if (argc != 18) {
        std::fprintf(stderr,
                     "usage: layer_once CALLS batch in_h in_w in_c out_c kh kw sh sw dh dw pt pl pb pr groups\n");
        return 2;
    }
    int v[17];
    for (int i = 0; i < 17; ++i) v[i] = std::atoi(argv[i + 1]);
    const ep::Conv2DShape s{v[1], v[2],  v[3],  v[4],  v[5],  v[6],  v[7],  v[8],
                            v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16]};
    std::vector<float> x(size_t(s.batch) * s.in_h * s.in_w * s.in_c, 0.5f);
    std::vector<float> w(size_t(s.out_c) * (s.in_c / s.groups) * s.kernel_h * s.kernel_w, 0.25f);
    std::vector<float> b(s.out_c, 0.125f);
    std::vector<float> y(size_t(s.batch) * s.out_h() * s.out_w() * s.out_c);
    ep::Activation relu;
    relu.kind = ep::Act::Relu;
    const ep::Conv2D op = ep::pack_conv2d(s, w.data(), b.data(), relu);
    for (int i = 0; i < v[0]; ++i) ep::conv2d(op, x.data(), y.data());
    std::printf("%g\n", double(y[y.size() / 2]));
    return 0;
}
