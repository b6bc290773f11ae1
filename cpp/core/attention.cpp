// attention.cpp — see attention.hpp.
#include "attention.hpp"

#include <algorithm>
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
      }
      if (m == -INFINITY) {  // nothing to read: zeros (or marked NaN), listed
        r.fully_masked_queries.emplace_back(b, i);
        continue;
      }
      double z = 0;
      for (int j = 0; j < T; ++j)
        if (r.visible[row + j]) z += (r.weights[row + j] = std::exp(r.scores[row + j] - m));
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
