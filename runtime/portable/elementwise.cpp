// Element-wise binary ops with numpy broadcasting and unary activations. Broadcast shapes are
// first coalesced into as few dimensions as possible so the inner loop is long and contiguous.
#include "copy_bytes.h"
#include "gemm_ukernel.h"
#include "portable.h"
#include "stream_rvv.h"
#include "vmath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#if defined(__AVX__)
#  include <immintrin.h>
#endif

namespace embark::portable {

Dims::Dims(std::initializer_list<int64_t> dims) : Dims(dims.begin(), static_cast<int>(dims.size())) {}

Dims::Dims(const int64_t* dims, int rank_) : rank(rank_) {
    if (rank_ < 0 || rank_ > 8)
        throw std::invalid_argument("embark portable: a shape has " + std::to_string(rank_) +
                                    " dimensions, at most 8 are supported");
    for (int i = 0; i < rank_; ++i) d[i] = dims[i];
}

int64_t Dims::count() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= d[i];
    return n;
}

namespace {

template <BinaryOp OP>
inline float op_value(float a, float b) {
    if constexpr (OP == BinaryOp::Add)
        return a + b;
    else if constexpr (OP == BinaryOp::Sub)
        return a - b;
    else if constexpr (OP == BinaryOp::Mul)
        return a * b;
    else if constexpr (OP == BinaryOp::Div)
        return a / b;
    else if constexpr (OP == BinaryOp::Min)
        return a < b ? a : b;
    else if constexpr (OP == BinaryOp::Max)
        return a > b ? a : b;
    else
        return std::pow(a, b);
}

// The activations applied inside an element-wise loop (one pass over the output); the others
// (Act::None here) run over the stored row afterwards. Same comparisons as apply_activation.
template <Act KA>
inline float activate(float v, float lo, float hi) {
    if constexpr (KA == Act::Relu) return v > 0.f ? v : 0.f;
    if constexpr (KA == Act::Clamp) {
        v = v < lo ? lo : v;
        return v > hi ? hi : v;
    }
    return v;
}

#if EMBARK_STREAM_RVV
namespace rv = stream_rvv;

// a OP b on two vectors, on a vector and a scalar, and on a scalar and a vector, with op_value's
// results (Min and Max through a compare and a merge, as a < b ? a : b picks).
template <BinaryOp OP>
inline rv::V op_vv(rv::V a, rv::V b, size_t vl) {
    if constexpr (OP == BinaryOp::Add)
        return __riscv_vfadd_vv_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Sub)
        return __riscv_vfsub_vv_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Mul)
        return __riscv_vfmul_vv_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Div)
        return __riscv_vfdiv_vv_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Min)
        return rv::pick(__riscv_vmflt_vv_f32m8_b4(a, b, vl), a, b, vl);
    else
        return rv::pick(__riscv_vmfgt_vv_f32m8_b4(a, b, vl), a, b, vl);
}

template <BinaryOp OP>
inline rv::V op_vs(rv::V a, float b, size_t vl) {
    if constexpr (OP == BinaryOp::Add)
        return __riscv_vfadd_vf_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Sub)
        return __riscv_vfsub_vf_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Mul)
        return __riscv_vfmul_vf_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Div)
        return __riscv_vfdiv_vf_f32m8(a, b, vl);
    else if constexpr (OP == BinaryOp::Min) // a < b ? a : b
        return rv::pick(__riscv_vmnot_m_b4(__riscv_vmflt_vf_f32m8_b4(a, b, vl), vl), b, a, vl);
    else
        return rv::pick(__riscv_vmnot_m_b4(__riscv_vmfgt_vf_f32m8_b4(a, b, vl), vl), b, a, vl);
}

template <BinaryOp OP>
inline rv::V op_sv(float a, rv::V b, size_t vl) {
    if constexpr (OP == BinaryOp::Add)
        return __riscv_vfadd_vf_f32m8(b, a, vl);
    else if constexpr (OP == BinaryOp::Sub)
        return __riscv_vfrsub_vf_f32m8(b, a, vl);
    else if constexpr (OP == BinaryOp::Mul)
        return __riscv_vfmul_vf_f32m8(b, a, vl);
    else if constexpr (OP == BinaryOp::Div)
        return __riscv_vfrdiv_vf_f32m8(b, a, vl);
    else if constexpr (OP == BinaryOp::Min) // a < b ? a : b
        return rv::pick(__riscv_vmfgt_vf_f32m8_b4(b, a, vl), a, b, vl);
    else
        return rv::pick(__riscv_vmflt_vf_f32m8_b4(b, a, vl), a, b, vl);
}

template <Act KA>
inline rv::V activate_v(rv::V v, float lo, float hi, size_t vl) {
    if constexpr (KA == Act::Relu) return rv::relu(v, vl);
    if constexpr (KA == Act::Clamp) return rv::clamp(v, lo, hi, vl);
    return v;
}
#endif

// One contiguous output row; an input with stride 0 is a broadcast scalar for the row. out may
// be a or b (in-place ops): each element reads only its own inputs (EMBARK_STREAM_LOOP).
template <BinaryOp OP, Act KA>
void binary_row(const float* a, bool a_step, const float* b, bool b_step, float* out, int64_t n, float lo, float hi) {
    if constexpr (OP == BinaryOp::Pow) { // std::pow does not vectorize: a plain loop (no pragma warning)
        for (int64_t i = 0; i < n; ++i) out[i] = op_value<OP>(a[a_step ? i : 0], b[b_step ? i : 0]);
        return;
    }
#if EMBARK_STREAM_RVV
    const size_t m = static_cast<size_t>(n);
    if (a_step && b_step) {
        rv::zip(a, b, out, m,
                [&](rv::V x, rv::V y, size_t vl) { return activate_v<KA>(op_vv<OP>(x, y, vl), lo, hi, vl); });
        return;
    }
    if (a_step || b_step) {
        const float s = a_step ? b[0] : a[0];
        if (a_step)
            rv::map(a, out, m, [&](rv::V x, size_t vl) { return activate_v<KA>(op_vs<OP>(x, s, vl), lo, hi, vl); });
        else
            rv::map(b, out, m, [&](rv::V x, size_t vl) { return activate_v<KA>(op_sv<OP>(s, x, vl), lo, hi, vl); });
        return;
    }
#endif
    if (a_step && b_step) {
        EMBARK_STREAM_LOOP
        for (int64_t i = 0; i < n; ++i) out[i] = activate<KA>(op_value<OP>(a[i], b[i]), lo, hi);
    } else if (a_step) {
        const float bv = b[0];
        EMBARK_STREAM_LOOP
        for (int64_t i = 0; i < n; ++i) out[i] = activate<KA>(op_value<OP>(a[i], bv), lo, hi);
    } else if (b_step) {
        const float av = a[0];
        EMBARK_STREAM_LOOP
        for (int64_t i = 0; i < n; ++i) out[i] = activate<KA>(op_value<OP>(av, b[i]), lo, hi);
    } else {
        const float v = activate<KA>(op_value<OP>(a[0], b[0]), lo, hi);
        EMBARK_STREAM_LOOP
        for (int64_t i = 0; i < n; ++i) out[i] = v;
    }
}

// The broadcast as at most 8 coalesced dimensions: sizes plus per-input element strides
// (0 where that input is broadcast).
struct BroadcastPlan {
    int rank = 0;
    int64_t size[8], a_stride[8], b_stride[8];
};

BroadcastPlan plan_broadcast(const Dims& a, const Dims& b) {
    const int rank = std::max(a.rank, b.rank);
    int64_t as[8], bs[8], os[8];
    for (int i = 0; i < rank; ++i) {
        const int ai = i - (rank - a.rank), bi = i - (rank - b.rank);
        as[i] = ai >= 0 ? a.d[ai] : 1;
        bs[i] = bi >= 0 ? b.d[bi] : 1;
        if (as[i] != bs[i] && as[i] != 1 && bs[i] != 1)
            throw std::invalid_argument("embark portable binary: dimension " + std::to_string(i) +
                                        " does not broadcast (" + std::to_string(as[i]) + " vs " +
                                        std::to_string(bs[i]) + ")");
        os[i] = std::max(as[i], bs[i]);
        if (as[i] == 0 || bs[i] == 0) os[i] = 0;
    }
    // Merge neighbours with the same broadcast pattern; drop size-1 dimensions.
    BroadcastPlan plan;
    int64_t sizes[8];
    bool a_full[8], b_full[8];
    int r = 0;
    for (int i = 0; i < rank; ++i) {
        if (os[i] == 1) continue;
        const bool af = as[i] != 1, bf = bs[i] != 1;
        if (r > 0 && a_full[r - 1] == af && b_full[r - 1] == bf) {
            sizes[r - 1] *= os[i];
        } else {
            sizes[r] = os[i];
            a_full[r] = af;
            b_full[r] = bf;
            ++r;
        }
    }
    if (r == 0) {
        sizes[0] = 1;
        a_full[0] = b_full[0] = true;
        r = 1;
    }
    plan.rank = r;
    int64_t a_step = 1, b_step = 1;
    for (int i = r - 1; i >= 0; --i) {
        plan.size[i] = sizes[i];
        plan.a_stride[i] = a_full[i] ? a_step : 0;
        plan.b_stride[i] = b_full[i] ? b_step : 0;
        if (a_full[i]) a_step *= sizes[i];
        if (b_full[i]) b_step *= sizes[i];
    }
    return plan;
}

// Rows of at most half this, of one input against one row repeated, go k at a time (run_binary).
constexpr int64_t kShortRow = 1024;

template <BinaryOp OP, Act KA>
void run_binary(const BroadcastPlan& plan, const float* a, const float* b, float* out, const Activation& act,
                ThreadPool* pool) {
    const int inner = plan.rank - 1;
    const int64_t row = plan.size[inner];
    int64_t rows = 1;
    for (int i = 0; i < inner; ++i) rows *= plan.size[i];
    // The ops are memory bound: threads pay off from a few thousand elements on, mostly because
    // the caller alone would read across cores the part of the inputs that the other threads
    // wrote in the previous layer (and leave the whole output in its own cache for the next
    // layer's threads to fetch); below that, the hand-over costs more. Few long rows (a
    // residual Add of two same-shaped tensors is one row) are cut into pieces, so each thread
    // works on the part of the tensors the previous layer's split left in its own cache.
    ThreadPool* use_pool = rows * row >= (1 << 12) ? pool : nullptr;
    const int threads = use_pool ? use_pool->threads() : 1;
    const int64_t split = threads == 1 || rows >= kFineParts * threads
                              ? 1
                              : std::max<int64_t>(1, std::min<int64_t>(kFineParts * threads, row / 1024));
    const int64_t piece = ((row + split - 1) / split + 15) & ~int64_t(15); // whole cache lines
    parallel_for(
        use_pool, rows * split,
        [&](int64_t begin, int64_t end) {
            const bool a_full = plan.a_stride[inner] != 0, b_full = plan.b_stride[inner] != 0;
            if (split == 1 && inner <= 1) { // whole rows of at most one outer dimension: offsets by steps
                const int64_t a_step = inner ? plan.a_stride[0] : 0, b_step = inner ? plan.b_stride[0] : 0;
                // Short rows of one contiguous input against one row repeated (a bias over
                // [tokens, channels]): that row copied k times, so that each call takes k rows.
                if (a_full && b_full && 2 * row <= kShortRow && end - begin > 1 &&
                    ((a_step == row && b_step == 0) || (a_step == 0 && b_step == row))) {
                    const int64_t k = std::min(end - begin, kShortRow / row);
                    const float* once = a_step == 0 ? a : b;
                    float* repeated = detail::thread_scratch(static_cast<size_t>(k * row));
                    for (int64_t i = 0; i < k; ++i) std::memcpy(repeated + i * row, once, sizeof(float) * row);
                    for (int64_t r = begin; r < end; r += k) {
                        const int64_t count = std::min(k, end - r) * row;
                        float* o = out + r * row;
                        binary_row<OP, KA>(a_step ? a + r * row : repeated, true, b_step ? b + r * row : repeated, true,
                                           o, count, act.min, act.max);
                        if (KA == Act::None && act.kind != Act::None)
                            apply_activation(act, o, static_cast<size_t>(count));
                    }
                    return;
                }
                for (int64_t r = begin; r < end; ++r) {
                    float* o = out + r * row;
                    binary_row<OP, KA>(a + r * a_step, a_full, b + r * b_step, b_full, o, row, act.min, act.max);
                    if (KA == Act::None && act.kind != Act::None) apply_activation(act, o, static_cast<size_t>(row));
                }
                return;
            }
            for (int64_t index = begin; index < end; ++index) {
                const int64_t r = index / split, c0 = index % split * piece, c1 = std::min(row, c0 + piece);
                if (c0 >= c1) continue;
                int64_t rest = r, a_off = 0, b_off = 0;
                for (int i = inner - 1; i >= 0; --i) {
                    const int64_t at = rest % plan.size[i];
                    rest /= plan.size[i];
                    a_off += at * plan.a_stride[i];
                    b_off += at * plan.b_stride[i];
                }
                float* o = out + r * row + c0;
                binary_row<OP, KA>(a + a_off + (a_full ? c0 : 0), a_full, b + b_off + (b_full ? c0 : 0), b_full, o,
                                   c1 - c0, act.min, act.max);
                if (KA == Act::None && act.kind != Act::None) apply_activation(act, o, static_cast<size_t>(c1 - c0));
            }
        },
        kFineParts);
}

// The activation picks the loop: ReLU and clamp inside it, the others after it.
template <BinaryOp OP>
void run_binary_act(const BroadcastPlan& plan, const float* a, const float* b, float* out, const Activation& act,
                    ThreadPool* pool) {
    switch (act.kind) {
    case Act::Relu: run_binary<OP, Act::Relu>(plan, a, b, out, act, pool); return;
    case Act::Clamp: run_binary<OP, Act::Clamp>(plan, a, b, out, act, pool); return;
    default: run_binary<OP, Act::None>(plan, a, b, out, act, pool); return;
    }
}

} // namespace

void binary(BinaryOp op, const float* a, const Dims& a_dims, const float* b, const Dims& b_dims, float* out,
            Activation act, ThreadPool* pool) {
    const BroadcastPlan plan = plan_broadcast(a_dims, b_dims);
    for (int i = 0; i < plan.rank; ++i)
        if (plan.size[i] == 0) return;
    switch (op) {
    case BinaryOp::Add: run_binary_act<BinaryOp::Add>(plan, a, b, out, act, pool); return;
    case BinaryOp::Sub: run_binary_act<BinaryOp::Sub>(plan, a, b, out, act, pool); return;
    case BinaryOp::Mul: run_binary_act<BinaryOp::Mul>(plan, a, b, out, act, pool); return;
    case BinaryOp::Div: run_binary_act<BinaryOp::Div>(plan, a, b, out, act, pool); return;
    case BinaryOp::Min: run_binary_act<BinaryOp::Min>(plan, a, b, out, act, pool); return;
    case BinaryOp::Max: run_binary_act<BinaryOp::Max>(plan, a, b, out, act, pool); return;
    case BinaryOp::Pow: run_binary<BinaryOp::Pow, Act::None>(plan, a, b, out, act, pool); return;
    }
}

void unary(UnaryOp op, const float* x, float* y, size_t n, UnaryParams p) {
#if EMBARK_STREAM_RVV
    // The piecewise-linear ones in vector strips; the others take the loops below.
    using rv::V;
    switch (op) {
    case UnaryOp::Relu: rv::map(x, y, n, [](V v, size_t vl) { return rv::relu(v, vl); }); return;
    case UnaryOp::Clip: rv::map(x, y, n, [&](V v, size_t vl) { return rv::clamp(v, p.min, p.max, vl); }); return;
    case UnaryOp::LeakyRelu: rv::map(x, y, n, [&](V v, size_t vl) { return rv::leaky_relu(v, p.alpha, vl); }); return;
    case UnaryOp::HardSwish: rv::map(x, y, n, [](V v, size_t vl) { return rv::hard_swish(v, vl); }); return;
    case UnaryOp::HardSigmoid:
        rv::map(x, y, n, [&](V v, size_t vl) { return rv::hard_sigmoid(v, p.alpha, p.beta, vl); });
        return;
    case UnaryOp::Neg: rv::map(x, y, n, [](V v, size_t vl) { return __riscv_vfneg_v_f32m8(v, vl); }); return;
    case UnaryOp::Abs: rv::map(x, y, n, [](V v, size_t vl) { return __riscv_vfabs_v_f32m8(v, vl); }); return;
    case UnaryOp::Sqrt: rv::map(x, y, n, [](V v, size_t vl) { return __riscv_vfsqrt_v_f32m8(v, vl); }); return;
    default: break;
    }
#endif
    switch (op) {
    case UnaryOp::Relu:
        for (size_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
        return;
    case UnaryOp::Clip:
        for (size_t i = 0; i < n; ++i) {
            const float v = x[i] < p.min ? p.min : x[i];
            y[i] = v > p.max ? p.max : v;
        }
        return;
    case UnaryOp::LeakyRelu:
        for (size_t i = 0; i < n; ++i) y[i] = vmath::select(x[i] >= 0.f, x[i], x[i] * p.alpha);
        return;
    case UnaryOp::Sigmoid:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::sigmoid(x[i]);
        return;
    case UnaryOp::Tanh:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::tanh(x[i]);
        return;
    case UnaryOp::Swish:
        if (p.alpha == 1.f) {
            EMBARK_STREAM_LOOP_WIDE
            for (size_t i = 0; i < n; ++i) y[i] = vmath::silu(x[i]);
        } else {
            EMBARK_STREAM_LOOP_WIDE
            for (size_t i = 0; i < n; ++i) y[i] = x[i] * vmath::sigmoid(p.alpha * x[i]);
        }
        return;
    case UnaryOp::GeluTanh:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::gelu_tanh(x[i]);
        return;
    case UnaryOp::HardSwish:
        for (size_t i = 0; i < n; ++i) y[i] = vmath::hard_swish(x[i]);
        return;
    case UnaryOp::HardSigmoid:
        for (size_t i = 0; i < n; ++i) {
            const float v = p.alpha * x[i] + p.beta;
            y[i] = v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
        }
        return;
    case UnaryOp::Elu:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) {
            const float v = x[i];
            y[i] = vmath::select(v < 0.f, p.alpha * vmath::expm1_nonpositive(v), v);
        }
        return;
    case UnaryOp::Gelu:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::gelu(x[i]);
        return;
    case UnaryOp::Erf:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::erf(x[i]);
        return;
    case UnaryOp::Exp:
        EMBARK_STREAM_LOOP_WIDE
        for (size_t i = 0; i < n; ++i) y[i] = vmath::exp(x[i]);
        return;
    case UnaryOp::Neg:
        for (size_t i = 0; i < n; ++i) y[i] = -x[i];
        return;
    case UnaryOp::Abs:
        for (size_t i = 0; i < n; ++i) y[i] = std::fabs(x[i]);
        return;
    case UnaryOp::Sqrt:
        for (size_t i = 0; i < n; ++i) y[i] = std::sqrt(x[i]);
        return;
    }
}

// ----- Data movement -----------------------------------------------------------------------

namespace {
#if defined(__AVX__)
// out[c][r] = in[r][c] for an 8x8 tile; the leading dimensions are in floats.
inline void transpose_8x8(const float* in, int64_t ld_in, float* out, int64_t ld_out) {
    const __m256 r0 = _mm256_loadu_ps(in), r1 = _mm256_loadu_ps(in + ld_in), r2 = _mm256_loadu_ps(in + 2 * ld_in),
                 r3 = _mm256_loadu_ps(in + 3 * ld_in), r4 = _mm256_loadu_ps(in + 4 * ld_in),
                 r5 = _mm256_loadu_ps(in + 5 * ld_in), r6 = _mm256_loadu_ps(in + 6 * ld_in),
                 r7 = _mm256_loadu_ps(in + 7 * ld_in);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
                 t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)),
                 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)),
                 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)),
                 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)),
                 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)),
                 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2)),
                 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)),
                 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    _mm256_storeu_ps(out, _mm256_permute2f128_ps(s0, s4, 0x20));
    _mm256_storeu_ps(out + ld_out, _mm256_permute2f128_ps(s1, s5, 0x20));
    _mm256_storeu_ps(out + 2 * ld_out, _mm256_permute2f128_ps(s2, s6, 0x20));
    _mm256_storeu_ps(out + 3 * ld_out, _mm256_permute2f128_ps(s3, s7, 0x20));
    _mm256_storeu_ps(out + 4 * ld_out, _mm256_permute2f128_ps(s0, s4, 0x31));
    _mm256_storeu_ps(out + 5 * ld_out, _mm256_permute2f128_ps(s1, s5, 0x31));
    _mm256_storeu_ps(out + 6 * ld_out, _mm256_permute2f128_ps(s2, s6, 0x31));
    _mm256_storeu_ps(out + 7 * ld_out, _mm256_permute2f128_ps(s3, s7, 0x31));
}
#endif

// One block of out[c][r] = in[r][c]; R > 0 fixes the row count at compile time, so an image's
// few channels (NCHW -> NHWC with 3 rows) unroll into straight stores.
template <int R>
void transpose_block(const float* __restrict in, int64_t rows, int64_t cols, int64_t r0, int64_t r1, int64_t c0,
                     int64_t c1, float* __restrict out) {
    if constexpr (R > 0) {
        for (int64_t c = c0; c < c1; ++c)
            for (int r = 0; r < R; ++r) out[c * R + r] = in[r * cols + c];
    } else {
#if defined(__AVX__)
        // Whole 8x8 tiles through registers (8 row loads, 24 shuffles, 8 column stores); the
        // scalar loop below takes the block's last rows and columns.
        const int64_t r8 = r0 + (r1 - r0) / 8 * 8, c8 = c0 + (c1 - c0) / 8 * 8;
        // Column tiles outer: each of the 8 output rows a tile column writes fills whole cache
        // lines before the next 8 (output rows `rows` apart can share a cache set).
        for (int64_t c = c0; c < c8; c += 8)
            for (int64_t r = r0; r < r8; r += 8) transpose_8x8(in + r * cols + c, cols, out + c * rows + r, rows);
        for (int64_t c = c0; c < c1; ++c)
            for (int64_t r = c < c8 ? r8 : r0; r < r1; ++r) out[c * rows + r] = in[r * cols + c];
#elif EMBARK_STREAM_RVV
        // Four columns at a time: a strided segment load takes four neighbouring values of each
        // of vl rows into four registers (one per column), stored as four output rows' parts.
        // The last columns: one strided load down the input column, one store.
        const ptrdiff_t stride = static_cast<ptrdiff_t>(cols * sizeof(float));
        const int64_t c4 = c0 + (c1 - c0) / 4 * 4;
        for (int64_t c = c0; c < c4; c += 4)
            for (size_t r = static_cast<size_t>(r0), end = static_cast<size_t>(r1), vl; r < end; r += vl) {
                vl = __riscv_vsetvl_e32m2(end - r);
                const vfloat32m2x4_t t =
                    __riscv_vlsseg4e32_v_f32m2x4(in + static_cast<int64_t>(r) * cols + c, stride, vl);
                float* o = out + c * rows + static_cast<int64_t>(r);
                __riscv_vse32_v_f32m2(o, __riscv_vget_v_f32m2x4_f32m2(t, 0), vl);
                __riscv_vse32_v_f32m2(o + rows, __riscv_vget_v_f32m2x4_f32m2(t, 1), vl);
                __riscv_vse32_v_f32m2(o + 2 * rows, __riscv_vget_v_f32m2x4_f32m2(t, 2), vl);
                __riscv_vse32_v_f32m2(o + 3 * rows, __riscv_vget_v_f32m2x4_f32m2(t, 3), vl);
            }
        for (int64_t c = c4; c < c1; ++c)
            for (size_t r = static_cast<size_t>(r0), end = static_cast<size_t>(r1), vl; r < end; r += vl) {
                vl = __riscv_vsetvl_e32m8(end - r);
                __riscv_vse32_v_f32m8(out + c * rows + static_cast<int64_t>(r),
                                      __riscv_vlse32_v_f32m8(in + static_cast<int64_t>(r) * cols + c, stride, vl), vl);
            }
#else
        for (int64_t c = c0; c < c1; ++c)
            for (int64_t r = r0; r < r1; ++r) out[c * rows + r] = in[r * cols + c];
#endif
    }
}
} // namespace

void transpose_matrices(const float* in, int64_t batch, int64_t rows, int64_t cols, float* out, ThreadPool* pool) {
    if (batch <= 0 || rows <= 0 || cols <= 0) return;
    // Blocks of 64 rows by up to 256 columns, walked 8 columns (8 output rows) at a time: each
    // output row gets 64 contiguous floats (4 cache lines) per visit. With 32 x 32 blocks it got
    // 2 lines, and an NHWC -> NCHW conversion of many pixels (output rows a power-of-two
    // distance apart, in the same cache sets) ran at under half the speed.
    constexpr int64_t kRowBlock = 64, kColBlock = 256;
    const int64_t row_blocks = (rows + kRowBlock - 1) / kRowBlock, col_blocks = (cols + kColBlock - 1) / kColBlock;
    const int64_t matrix = rows * cols;
    auto run = [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const int64_t n = i / (row_blocks * col_blocks);
            const int64_t r0 = i / col_blocks % row_blocks * kRowBlock, c0 = i % col_blocks * kColBlock;
            const int64_t r1 = std::min(rows, r0 + kRowBlock), c1 = std::min(cols, c0 + kColBlock);
            const float* src = in + n * matrix;
            float* dst = out + n * matrix;
            switch (rows) {
            case 1: transpose_block<1>(src, rows, cols, r0, r1, c0, c1, dst); break;
            case 2: transpose_block<2>(src, rows, cols, r0, r1, c0, c1, dst); break;
            case 3: transpose_block<3>(src, rows, cols, r0, r1, c0, c1, dst); break;
            case 4: transpose_block<4>(src, rows, cols, r0, r1, c0, c1, dst); break;
            default: transpose_block<0>(src, rows, cols, r0, r1, c0, c1, dst); break;
            }
        }
    };
    // Threads only pay off on large tensors (the copy is memory bound).
    parallel_for(batch * matrix >= (1 << 14) ? pool : nullptr, batch * row_blocks * col_blocks, run, kFineParts);
}

void copy_rows(const float* src, int64_t rows, int64_t len, int64_t src_stride, float* dst, int64_t dst_stride,
               ThreadPool* pool) {
    if (rows <= 0 || len <= 0) return;
    if (src_stride == len && dst_stride == len) { // one block: split it into equal runs
        len *= rows;
        src_stride = dst_stride = len;
        rows = 1;
    }
    // Rows of at least 4 KB each, or whole rows when they are longer.
    const int64_t piece = rows == 1 ? std::min<int64_t>(len, std::max<int64_t>(1024, len / (4 * kFineParts))) : len;
    const int64_t pieces_per_row = (len + piece - 1) / piece;
    parallel_for(
        rows * len >= (1 << 14) ? pool : nullptr, rows * pieces_per_row,
        [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                const int64_t r = i / pieces_per_row, from = i % pieces_per_row * piece;
                copy_bytes(dst + r * dst_stride + from, src + r * src_stride + from,
                           static_cast<size_t>(std::min(piece, len - from)) * sizeof(float));
            }
        },
        kFineParts);
}

} // namespace embark::portable
