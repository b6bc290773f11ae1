// softmax_exp.hpp — exp of every entry of a row, bit for bit what std::exp gives, but fast in wasm.
//
// Why: the loss calls exp once per logit (B × T × V of them), and in wasm that call is most of
// its time. Emscripten's std::exp is musl's (Arm's optimized-routines exp, 2018): a table of
// 2^(k/128) and a degree-5 polynomial. In wasm (compiled with -msimd128) exp_row runs that same
// algorithm, operation for operation in the same order, two lanes at a time, reading musl's own
// table (__exp_data): IEEE double arithmetic has one answer per operation and wasm never fuses a
// multiply-add, so every lane gets the bits musl's exp returns. Inputs outside musl's fast range
// (|x| >= 512, or NaN/inf) go to std::exp itself; |x| < 2^-54 (the row's max, x = 0) is 1 + x,
// as musl returns. tests/node/typed.test.mjs checks it against std::exp through the loss.
// Natively (glibc picks an FMA variant of exp at run time) it is std::exp, unchanged.
#pragma once

#include <algorithm>
#include <cmath>

#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
#include <cstdint>
#include <wasm_simd128.h>

// musl's table and constants for exp (src/math/exp_data.h; EXP_TABLE_BITS 7, EXP_POLY_ORDER 5).
extern "C" const struct MuslExpData {
  double invln2N;
  double shift;
  double negln2hiN;
  double negln2loN;
  double poly[4];
  double exp2_shift;
  double exp2_poly[5];
  std::uint64_t tab[2 * 128];
} __exp_data;
#endif

namespace masklab {

// out[v] = std::exp(x[v]) for v in [0, n) (when kStore), and returns their sum added in order
// v = 0, 1, ... (interleaved with the exps, so its chain of additions overlaps their work).
template <bool kStore>
inline double exp_row_and_sum(const double* x, double* out, int n) {
  double sum = 0;
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
  const MuslExpData& d = __exp_data;
  const v128_t inv_ln2_n = wasm_f64x2_splat(d.invln2N), shift = wasm_f64x2_splat(d.shift);
  const v128_t neg_ln2_hi = wasm_f64x2_splat(d.negln2hiN), neg_ln2_lo = wasm_f64x2_splat(d.negln2loN);
  const v128_t c2 = wasm_f64x2_splat(d.poly[0]), c3 = wasm_f64x2_splat(d.poly[1]);
  const v128_t c4 = wasm_f64x2_splat(d.poly[2]), c5 = wasm_f64x2_splat(d.poly[3]);
  const v128_t one = wasm_f64x2_splat(1.0);
  const v128_t two_pow_9 = wasm_f64x2_splat(512.0), two_pow_minus_54 = wasm_f64x2_splat(0x1p-54);
  int v = 0;
  for (; v + 2 <= n; v += 2) {
    const v128_t xv = wasm_v128_load(x + v);
    // musl: abstop = top12(x) & 0x7ff; fast when abstop - top12(0x1p-54) < top12(512) - top12(0x1p-54),
    // i.e. 2^-54 <= |x| < 512 (the exponent field alone decides both bounds: they are powers of 2).
    const v128_t abs_x = wasm_f64x2_abs(xv);
    if (!wasm_i64x2_all_true(wasm_f64x2_lt(abs_x, two_pow_9))) {  // |x| >= 512, inf or NaN: musl's special cases
      const double e0 = std::exp(x[v]), e1 = std::exp(x[v + 1]);
      if constexpr (kStore) out[v] = e0, out[v + 1] = e1;
      sum += e0;
      sum += e1;
      continue;
    }
    const v128_t z = wasm_f64x2_mul(inv_ln2_n, xv);
    v128_t kd = wasm_f64x2_add(z, shift);
    const v128_t ki = kd;  // its bits
    kd = wasm_f64x2_sub(kd, shift);
    const v128_t r = wasm_f64x2_add(wasm_f64x2_add(xv, wasm_f64x2_mul(kd, neg_ln2_hi)), wasm_f64x2_mul(kd, neg_ln2_lo));
    const std::uint64_t k0 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(ki, 0));
    const std::uint64_t k1 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(ki, 1));
    const std::uint64_t i0 = 2 * (k0 % 128), i1 = 2 * (k1 % 128);
    const v128_t tail = wasm_i64x2_make(static_cast<std::int64_t>(d.tab[i0]), static_cast<std::int64_t>(d.tab[i1]));
    const v128_t sbits = wasm_i64x2_add(wasm_i64x2_make(static_cast<std::int64_t>(d.tab[i0 + 1]), static_cast<std::int64_t>(d.tab[i1 + 1])),
                                        wasm_i64x2_shl(ki, 52 - 7));
    const v128_t r2 = wasm_f64x2_mul(r, r);
    // tmp = tail + r + r2 * (C2 + r * C3) + r2 * r2 * (C4 + r * C5), left to right as C reads it.
    const v128_t p23 = wasm_f64x2_mul(r2, wasm_f64x2_add(c2, wasm_f64x2_mul(r, c3)));
    const v128_t p45 = wasm_f64x2_mul(wasm_f64x2_mul(r2, r2), wasm_f64x2_add(c4, wasm_f64x2_mul(r, c5)));
    const v128_t tmp = wasm_f64x2_add(wasm_f64x2_add(wasm_f64x2_add(tail, r), p23), p45);
    v128_t y = wasm_f64x2_add(sbits, wasm_f64x2_mul(sbits, tmp));  // scale + scale * tmp
    const v128_t near_zero = wasm_f64x2_lt(abs_x, two_pow_minus_54);  // |x| < 2^-54: musl returns 1 + x
    if (wasm_v128_any_true(near_zero)) y = wasm_v128_bitselect(wasm_f64x2_add(one, xv), y, near_zero);
    if constexpr (kStore) wasm_v128_store(out + v, y);
    sum += wasm_f64x2_extract_lane(y, 0);
    sum += wasm_f64x2_extract_lane(y, 1);
  }
#else
  int v = 0;
#endif
  for (; v < n; ++v) {
    const double e = std::exp(x[v]);
    if constexpr (kStore) out[v] = e;
    sum += e;
  }
  return sum;
}

inline void exp_row(const double* x, double* out, int n) { exp_row_and_sum<true>(x, out, n); }

// The largest of x[0..n) (n >= 1, no NaN), as the loop m = std::max(m, x[v]) gives it. In wasm
// eight lanes (v mod 8) keep their own max with f64x2.pmax, which is std::max lane by lane
// (a < b ? b : a), in four independent chains. Equal doubles have equal bits except 0 and -0, so
// only a max of zero, where the loop keeps whichever zero came first, is recomputed by the loop.
inline double row_max(const double* x, int n) {
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
  if (n >= 8) {
    v128_t m0 = wasm_v128_load(x), m1 = wasm_v128_load(x + 2), m2 = wasm_v128_load(x + 4), m3 = wasm_v128_load(x + 6);
    int v = 8;
    for (; v + 8 <= n; v += 8) {
      m0 = wasm_f64x2_pmax(m0, wasm_v128_load(x + v));
      m1 = wasm_f64x2_pmax(m1, wasm_v128_load(x + v + 2));
      m2 = wasm_f64x2_pmax(m2, wasm_v128_load(x + v + 4));
      m3 = wasm_f64x2_pmax(m3, wasm_v128_load(x + v + 6));
    }
    const v128_t all = wasm_f64x2_pmax(wasm_f64x2_pmax(m0, m1), wasm_f64x2_pmax(m2, m3));
    double m = std::max(wasm_f64x2_extract_lane(all, 0), wasm_f64x2_extract_lane(all, 1));
    for (; v < n; ++v) m = std::max(m, x[v]);
    if (m != 0) return m;
  }
#endif
  double m = x[0];
  for (int v = 1; v < n; ++v) m = std::max(m, x[v]);
  return m;
}

// out[v] = x[v] - m for v in [0, n): one IEEE subtraction each, two lanes at a time in wasm.
inline void shift_row(const double* x, double m, double* out, int n) {
  int v = 0;
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
  const v128_t m2 = wasm_f64x2_splat(m);
  for (; v + 2 <= n; v += 2) wasm_v128_store(out + v, wasm_f64x2_sub(wasm_v128_load(x + v), m2));
#endif
  for (; v < n; ++v) out[v] = x[v] - m;
}

// sum of std::exp(x[v]), added in order v = 0, 1, ...
inline double exp_sum(const double* x, int n) { return exp_row_and_sum<false>(x, nullptr, n); }

}  // namespace masklab
