// Compile-time register-tile sizes of the portable GEMM/convolution micro-kernel, picked per
// target so the accumulator tile fits the vector register file and the compiler vectorizes it.
#pragma once

// A tile is MR output pixels x NR output channels of float accumulators. The channel loop of
// length NR is the innermost one, so compilers vectorize along channels; MR is the number of
// broadcast input values reused per weight load. Override with -DEMBARK_MR=.. -DEMBARK_NR=..
//
// Why these defaults:
// - AVX-512 (32 zmm): 7 x 32 floats = 14 accumulators + 2 weight registers (bench_portable.sh
//   compares it with XNNPACK layer by layer).
// - AVX/AVX2 (16 ymm): 4 x 24 = 12 accumulators + 3 weights + 1 broadcast. GCC 12 spills
//   a 6 x 16 tile (and 5 x 16) inside the FMA loop; 4 x 24 is spill-free.
// - aarch64 NEON (32 q registers): 6 x 16 = 24 accumulators + 4 weights (XNNPACK's 6x8 doubled).
//   Checked by instruction mix only (no arm64 hardware here).
// - RVV: 32 vector registers of VLEN bits. At VLEN 128, NR = 16 floats is one LMUL-4 register
//   group; 6 pixels use 24 registers and the weights 4, leaving v0-v3 for the clamp's masks.
//   XNNPACK's 7 x 4v layout (all 32 registers) makes Clang 19 shuffle an accumulator through
//   v0 and, with the k loop unrolled by 4 (gemm_ukernel.h), spill; 6 x 16 unrolled does not.
//   VLEN >= 256 known to the compiler (-march=rv64gcv_zvl256b, as sim-k1's cflags, SpacemiT
//   K1): 6 x 32, i.e. the same LMUL-4 register groups holding twice the floats, so every
//   vector instruction of the tile does twice the work (XNNPACK's 7 x 4v doubles likewise).
//   The compiler must know the VLEN: with plain rv64gcv (zvl128b) a 32-float row is an LMUL-8
//   group, six of them do not fit the 32 registers and the tile spills, so
//   -DEMBARK_VLEN_BITS=256 alone keeps 6 x 16. 7 x 32 spills even with zvl256b (28 + 4
//   registers leave none for v0). Such a build needs a core with VLEN >= 256 (zvl256b says so).
//   The measurements behind these choices are in bench/README.md. 1x1 convolutions on RVV
//   take gemm_rows_rvv.h's tile instead: 3 rows x 2 * NR channels, one LMUL-8 group per row.
// - anything else: a modest 4 x 8 tile that scalar code handles as well as any.

// RVV: the vector length of the board in bits (-DEMBARK_VLEN_BITS from its cflags; else the
// minimum the compiler assumes, __riscv_v_min_vlen: 128 for rv64gcv, 256 with _zvl256b).
// Code built for 128 runs correctly on any VLEN.
#if defined(__riscv_vector) && !defined(EMBARK_VLEN_BITS)
#  if defined(__riscv_v_min_vlen)
#    define EMBARK_VLEN_BITS __riscv_v_min_vlen
#  else
#    define EMBARK_VLEN_BITS 128
#  endif
#endif

#if !defined(EMBARK_MR) || !defined(EMBARK_NR)
#  if defined(__AVX512F__)
#    define EMBARK_DEFAULT_MR 7
#    define EMBARK_DEFAULT_NR 32
#  elif defined(__AVX__)
#    define EMBARK_DEFAULT_MR 4
#    define EMBARK_DEFAULT_NR 24
#  elif defined(__aarch64__) || defined(__ARM_NEON)
#    define EMBARK_DEFAULT_MR 6
#    define EMBARK_DEFAULT_NR 16
#  elif defined(__riscv_vector) && defined(__riscv_v_min_vlen) && __riscv_v_min_vlen >= 256
#    define EMBARK_DEFAULT_MR 6
#    define EMBARK_DEFAULT_NR 32
#  elif defined(__riscv_vector)
#    define EMBARK_DEFAULT_MR 6
#    define EMBARK_DEFAULT_NR 16
#  elif defined(__x86_64__)
#    define EMBARK_DEFAULT_MR 4
#    define EMBARK_DEFAULT_NR 8
#  else
#    define EMBARK_DEFAULT_MR 4
#    define EMBARK_DEFAULT_NR 8
#  endif
#endif

#ifndef EMBARK_MR
#  define EMBARK_MR EMBARK_DEFAULT_MR
#endif
#ifndef EMBARK_NR
#  define EMBARK_NR EMBARK_DEFAULT_NR
#endif

// Streaming element-wise loops (out[i] = f(a[i], b[i]), activations, residual adds): every
// iteration is independent, also when out is one of the inputs (in-place ops). Saying so spares
// the compiler a run-time overlap check, which an in-place call fails, so the loop would run
// scalar (a residual Add on RVV: 9 instructions per element). The vector width stays the
// compiler's (LMUL 2 on RVV): LMUL 8, as XNNPACK's u8v kernels, retires fewer instructions on
// long rows but leaves up to 31 (VLEN 128) or 63 (VLEN 256) elements of every row to scalar
// code, which rows of one pixel's channels (per-channel broadcasts) would pay.
#if defined(__clang__)
#  define EMBARK_STREAM_LOOP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#  define EMBARK_STREAM_LOOP _Pragma("GCC ivdep")
#else
#  define EMBARK_STREAM_LOOP
#endif

// The streaming loops of the transcendental activations (vmath's exp, erf: tens of instructions
// per element) on RVV: LMUL 8, whose scalar tail (up to 31 elements at VLEN 128) costs less than
// LMUL 2's four times as many strips (bench/README.md, the RISC-V grid). Elsewhere the loops stay
// as they are.
#if defined(__clang__) && defined(__riscv_vector)
#  define EMBARK_STREAM_LOOP_WIDE _Pragma("clang loop vectorize(assume_safety) vectorize_width(16, scalable)")
#else
#  define EMBARK_STREAM_LOOP_WIDE
#endif

namespace embark::portable {

inline constexpr int kTilePixels = EMBARK_MR;   // MR: output pixels per register tile
inline constexpr int kTileChannels = EMBARK_NR; // NR: output channels per packed panel

// Depthwise kernels work on this many channels at a time (a multiple of any vector width).
inline constexpr int kDepthwiseChannelBlock = 64;

static_assert(kTilePixels >= 1 && kTilePixels <= 8, "EMBARK_MR must be 1..8");
static_assert(kTileChannels >= 1 && kTileChannels <= 128, "EMBARK_NR must be 1..128");

} // namespace embark::portable
