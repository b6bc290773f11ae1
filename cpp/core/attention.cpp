// attention.cpp — see attention.hpp.
#include "attention.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "input_error.hpp"

namespace masklab {

namespace {
void check_finite(const std::vector<double>& x, const char* name, int T, int D) {
  for (size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) {
      size_t b = i / (static_cast<size_t>(T) * D), t = (i / D) % T, d = i % D;
      throw InputError(std::string(name) + "[" + std::to_string(b) + "][" + std::to_string(t) + "][" +
                           std::to_string(d) + "]",
                       "is not a finite number");
    }
}
// The softmax numerators of query i of row b over its visible keys, for a query whose scores
// overflow: q and k are scaled by powers of two (exact), so a_j = q'·k'·scale is small and
// w_j = exp((a_j - max a) * 2^(eq+ek)) — the same weights as exp(s_j - max s), without forming s.
// Returns their sum.
double scaled_softmax_row(const AttentionInput& in, int b, int i, double scale, const std::uint8_t* visible,
                          double* weights) {
  const int T = in.T, D = in.D;
  auto exponent = [](const double* x, int n) {
    int e = INT_MIN;
    for (int d = 0; d < n; ++d)
      if (x[d] != 0) e = std::max(e, std::ilogb(x[d]) + 1);
    return e == INT_MIN ? 0 : e;
  };
  const double* qi = &in.q[(static_cast<size_t>(b) * T + i) * D];
  const int eq = exponent(qi, D);
  int ek = INT_MIN;
  for (int j = 0; j < T; ++j)
    if (visible[j]) ek = std::max(ek, exponent(&in.k[(static_cast<size_t>(b) * T + j) * D], D));
  std::vector<double> a(T, 0.0);
  double a_max = -INFINITY;
  for (int j = 0; j < T; ++j) {
    if (!visible[j]) continue;
    const double* kj = &in.k[(static_cast<size_t>(b) * T + j) * D];
    double dot = 0;
    for (int d = 0; d < D; ++d) dot += std::ldexp(qi[d], -eq) * std::ldexp(kj[d], -ek);
    a[j] = dot * scale;
    a_max = std::max(a_max, a[j]);
  }
  double z = 0;
  for (int j = 0; j < T; ++j)
    if (visible[j]) z += (weights[j] = std::exp(std::ldexp(a[j] - a_max, eq + ek)));
  return z;
}

}  // namespace

AttentionResult attend(const AttentionInput& in) {
  const int B = in.B, T = in.T, D = in.D;
  if (B < 1 || T < 1 || D < 1) throw InputError("q", "must have shape [B][T][D] with B, T, D >= 1");
  const size_t btd = static_cast<size_t>(B) * T * D;
  if (in.q.size() != btd) throw InputError("q", "has the wrong number of values for [B][T][D]");
  if (in.k.size() != btd) throw InputError("k", "must have the same shape [B][T][D] as q");
  if (in.v.size() != btd) throw InputError("v", "must have the same shape [B][T][D] as q");
  if (!in.attention_mask.empty() && in.attention_mask.size() != static_cast<size_t>(B) * T)
    throw InputError("attention_mask", "must have shape [B][T] matching q");
  if (!in.segment_ids.empty() && in.segment_ids.size() != static_cast<size_t>(B) * T)
    throw InputError("segment_ids", "must have shape [B][T] matching q");
  check_finite(in.q, "q", T, D);
  check_finite(in.k, "k", T, D);
  check_finite(in.v, "v", T, D);
  if (in.scale && !std::isfinite(*in.scale)) throw InputError("scale", "must be a finite number");

  AttentionResult r;
  const size_t btt = static_cast<size_t>(B) * T * T;
  r.scores.assign(btt, 0.0);
  r.visible.assign(btt, 0);
  r.weights.assign(btt, 0.0);
  r.output.assign(btd, 0.0);
  // SDPA: scale_factor = 1 / sqrt(E) if scale is None else scale (E = head dim).
  const double scale = in.scale ? *in.scale : 1.0 / std::sqrt(static_cast<double>(D));
  r.scale = scale;
  r.fully_masked_rows_are_nan = in.fully_masked_rows == FullyMaskedRows::NaN;

  for (int b = 0; b < B; ++b)
    for (int i = 0; i < T; ++i) {
      const double* qi = &in.q[(static_cast<size_t>(b) * T + i) * D];
      const size_t row = (static_cast<size_t>(b) * T + i) * T;
      double m = -INFINITY;
      bool any_visible = false, finite_scores = true;
      for (int j = 0; j < T; ++j) {
        const double* kj = &in.k[(static_cast<size_t>(b) * T + j) * D];
        double s = 0;
        for (int d = 0; d < D; ++d) s += qi[d] * kj[d];
        s *= scale;
        r.scores[row + j] = s;
        bool vis = !(in.causal && j > i);
        if (!in.attention_mask.empty() && in.attention_mask[static_cast<size_t>(b) * T + j] == 0) vis = false;
        if (!in.segment_ids.empty() &&
            in.segment_ids[static_cast<size_t>(b) * T + j] != in.segment_ids[static_cast<size_t>(b) * T + i])
          vis = false;
        r.visible[row + j] = vis ? 1 : 0;
        if (vis) m = std::max(m, s);
        any_visible = any_visible || vis;
        finite_scores = finite_scores && (!vis || std::isfinite(s));
      }
      if (!any_visible) {  // nothing to read: zeros (or marked NaN), listed
        r.fully_masked_queries.emplace_back(b, i);
        continue;
      }
      double z = 0;
      if (finite_scores) {
        for (int j = 0; j < T; ++j)
          if (r.visible[row + j]) z += (r.weights[row + j] = std::exp(r.scores[row + j] - m));
      } else {
        z = scaled_softmax_row(in, b, i, scale, &r.visible[row], &r.weights[row]);
        if (r.scores_null_reason.empty())
          r.scores_null_reason = "q·k·scale for query [" + std::to_string(b) + "][" + std::to_string(i) +
                                 "] is beyond the largest double (~1.8e308), so those scores are null; the weights and "
                                 "output are exact (computed from q and k scaled by powers of two)";
      }
      double* out = &r.output[(static_cast<size_t>(b) * T + i) * D];
      for (int j = 0; j < T; ++j) {
        if (!r.visible[row + j]) continue;
        const double w = (r.weights[row + j] /= z);
        const double* vj = &in.v[(static_cast<size_t>(b) * T + j) * D];
        for (int d = 0; d < D; ++d) out[d] += w * vj[d];
      }
    }
  return r;
}

}  // namespace masklab
