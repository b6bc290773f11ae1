// loss.cpp — see loss.hpp.
#include "loss.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "code_size.hpp"
#include "input_error.hpp"
#include "json.hpp"
#include "softmax_exp.hpp"

namespace masklab {

namespace {

constexpr std::uint64_t kExponentBits = 0x7ffull << 52;

MASKLAB_SMALL_CODE std::string idx(int b, int t) { return "[" + std::to_string(b) + "][" + std::to_string(t) + "]"; }

// The logits as the loss reads them: LossInput::logits, or the buffer the caller lent
// (LossInput::borrowed), float64 read in place, float32 widened to double a row at a time.
class Logits {
 public:
  explicit Logits(const LossInput& in)
      : f64_(in.borrowed.empty() ? in.logits.data() : in.borrowed.f64),
        f32_(in.borrowed.f32),
        size_(in.borrowed.empty() ? in.logits.size() : in.borrowed.size) {}

  size_t size() const { return size_; }
  double at(size_t i) const { return f32_ ? static_cast<double>(f32_[i]) : f64_[i]; }

  // The V logits from index `start` as doubles: in place, or widened into `scratch` (V values).
  // Out of line, as every loop over a row: its callers are compiled for size.
  [[gnu::noinline]] const double* row(size_t start, int V, double* scratch) const {
    if (!f32_) return f64_ + start;
    for (int v = 0; v < V; ++v) scratch[v] = f32_[start + v];
    return scratch;
  }

  // Whether any value is inf or NaN: one branch-free pass over the exponent bits (all ones).
  [[gnu::noinline]] bool any_not_finite() const {
    bool found = false;
    if (f32_)
      for (size_t i = 0; i < size_; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &f32_[i], sizeof bits);
        found |= (bits & kFloatExponentBits) == kFloatExponentBits;
      }
    else
      for (size_t i = 0; i < size_; ++i) {
        std::uint64_t bits;
        std::memcpy(&bits, &f64_[i], sizeof bits);  // std::bit_cast is missing from Emscripten 3.1.6's libc++
        found |= (bits & kExponentBits) == kExponentBits;
      }
    return found;
  }

 private:
  static constexpr std::uint32_t kFloatExponentBits = 0xffu << 23;
  const double* f64_;
  const float* f32_;
  size_t size_;
};

MASKLAB_SMALL_CODE void validate(const LossInput& in, const Logits& logits) {
  if (in.B < 1 || in.T < 1 || in.V < 1)
    throw InputError("logits", "must have shape [B][T][V] with B, T, V >= 1");
  if (logits.size() != static_cast<size_t>(in.B) * in.T * in.V)
    throw InputError("logits", "has the wrong number of values for [B][T][V]");
  if (in.labels.size() != static_cast<size_t>(in.B) * in.T)
    throw InputError("labels", "must have shape [B][T] matching logits");
  // The message needs a second pass, over the values.
  if (logits.any_not_finite())
    for (size_t i = 0; i < logits.size(); ++i) {
      const double x = logits.at(i);
      if (!std::isfinite(x))
        throw InputError("logits" + idx(static_cast<int>(i / in.V / in.T), static_cast<int>(i / in.V % in.T)) + "[" +
                             std::to_string(i % in.V) + "]",
                         std::string("is ") + (std::isnan(x) ? "NaN" : (x > 0 ? "+inf" : "-inf")) +
                             "; logits must be finite numbers");
    }
  for (int b = 0; b < in.B; ++b)
    for (int t = 0; t < in.T; ++t) {
      int y = in.labels[static_cast<size_t>(b) * in.T + t];
      if (y == in.ignore_index) continue;
      if (y < 0 || y >= in.V)
        throw InputError("labels" + idx(b, t),
                         "is " + std::to_string(y) + ", outside the vocabulary [0, " + std::to_string(in.V) +
                             ") and not ignore_index (" + std::to_string(in.ignore_index) + ")");
    }
  if (in.reduction == Reduction::SumOverNumItems) {
    if (!in.num_items_in_batch)
      throw InputError("num_items_in_batch", "is required when reduction is \"sum_over_num_items\"");
    if (!std::isfinite(*in.num_items_in_batch) || *in.num_items_in_batch < 0)
      throw InputError("num_items_in_batch", "must be a finite number >= 0");
  }
  if (in.gradient && in.reduction == Reduction::None)
    throw InputError("gradient", "needs a scalar loss; reduction \"none\" gives one loss per token "
                                 "(use \"sum\" for the gradient of their sum)");
  if (in.per_token_loss == PerTokenLoss::LogSoftmaxGather) {
    if (in.reduction != Reduction::MaskedMean && in.reduction != Reduction::PerExampleMean)
      throw InputError("per_token_loss", "\"log_softmax_gather\" describes a hand-written reduction; use it with "
                                         "reduction \"masked_mean\" or \"per_example_mean\"");
    if (in.ignore_index >= in.V)
      throw InputError("ignore_index", "is " + std::to_string(in.ignore_index) + ": labels.clamp(min=0) would gather "
                                       "outside the vocabulary [0, " + std::to_string(in.V) + ")");
  }
}

// log softmax(row) = (x - m) - log z relative to the row max m, with z = sum exp(x_v - m) in [1, V].
// Not x - (m + log z): for logits [1e17, 1e17] m + log 2 rounds back to 1e17, so the loss came
// out 0 instead of ln 2, and at [1e308, 1e308] the softmax came out [1, 1]. A logp is -inf only
// when x sits more than ~1.8e308 below the max, where the true value is not a double either.
// Writes x - m into `shifted` (V values) and returns log z; the exps are summed in order
// v = 0, 1, ....
[[gnu::noinline]] double shifted_log_z(const double* row, int V, double* shifted) {
  shift_row(row, row_max(row, V), shifted, V);
  return std::log(exp_sum(shifted, V));
}

// out[v] = x[v] - c for v in [0, n).
[[gnu::noinline]] void subtract(const double* x, double c, double* out, int n) {
  for (int v = 0; v < n; ++v) out[v] = x[v] - c;
}

// log softmax(row) into logp.
[[gnu::noinline]] void log_softmax(const double* row, int V, double* logp) {
  const double log_z = shifted_log_z(row, V, logp);
  for (int v = 0; v < V; ++v) logp[v] -= log_z;
}

// "logits[b][t]" of the first token whose loss is not a finite double, or "" if none.
MASKLAB_SMALL_CODE std::string overflowing_token(const LossResult& r, int T) {
  for (size_t i = 0; i < r.per_token.size(); ++i)
    if (!std::isfinite(r.per_token[i])) return "logits" + idx(static_cast<int>(i / T), static_cast<int>(i % T));
  return "";
}

MASKLAB_SMALL_CODE std::string list_rows(const std::vector<int>& rows) {
  std::string s;
  for (size_t i = 0; i < rows.size(); ++i) s += (i ? ", " : "") + std::to_string(rows[i]);
  return s;
}

// d loss / d nll[b,t] as autograd computes it, before it reaches the per-token loss (§7.3).
// Hand-written reductions multiply by keep, so their upstream is (1 / count) * keep: with a
// count of 0 that is inf * 0 = NaN at every position, scored or not. The built-in reductions
// have no keep; their weight only matters where a target is scored.
double upstream_weight(const LossInput& in, const LossResult& r, int b, bool kept) {
  const double keep = kept ? 1.0 : 0.0;
  switch (in.reduction) {
    case Reduction::Mean: return r.num_targets ? 1.0 / r.num_targets : 0.0;  // nothing is scored when 0
    case Reduction::Sum: return 1.0;
    case Reduction::None: return 0.0;  // refused by validate when a gradient is asked
    case Reduction::SumOverNumItems: return 1.0 / *in.num_items_in_batch;  // inf when 0
    case Reduction::MaskedMean: return (1.0 / r.num_targets) * keep;
    case Reduction::PerExampleMean: return (1.0 / (static_cast<double>(in.B) * r.per_example_targets[b])) * keep;
  }
  return 0.0;
}

// Why d loss / d logits is not sent: it has NaN or infinite entries.
MASKLAB_SMALL_CODE std::string gradient_not_finite(const LossInput& in, const LossResult& r) {
  std::string what = "d loss / d logits has " + std::to_string(r.gradient_nan_count) + " NaN and " +
                     std::to_string(r.gradient_inf_count) + " infinite entries (JSON carries neither): ";
  if (in.reduction == Reduction::SumOverNumItems)
    what += "num_items_in_batch is " + format_number(*in.num_items_in_batch) + ", so d loss / d sum = 1 / " +
            format_number(*in.num_items_in_batch) +
            " = inf (beyond the largest double) reaches every scored logit row (+inf, and inf - inf = NaN at "
            "its target)";
  else
    what += "the target count is 0, so the division sends inf back, inf * keep = inf * 0 = NaN reaches "
            "every per-token loss, and log_softmax(...).gather(...) passes it on to the logits "
            "(F.cross_entropy with ignore_index writes nothing at ignored targets and would have dropped it)";
  return what;
}

// One row of log_softmax backward: with g = 0 except g[at] = g_at, out (the row's log-softmax)
// becomes g - softmax * sum(g). g and exps are V values of scratch.
[[gnu::noinline]] void backward_row(double* out, double* g, double* exps, int V, int at, double g_at) {
  std::fill(g, g + V, 0.0);
  g[at] = g_at;
  double total = 0;
  for (int v = 0; v < V; ++v) total += g[v];
  exp_row(out, exps, V);  // the softmax, as exp(log_softmax)
  for (int v = 0; v < V; ++v) out[v] = g[v] - exps[v] * total;
}

// Counts r.gradient's NaN and infinite entries; of the finite ones, the largest |x| and the sum
// of squares.
[[gnu::noinline]] void count_not_finite(LossResult& r, double& max_abs, double& squares) {
  for (double x : r.gradient) {
    if (std::isnan(x)) ++r.gradient_nan_count;
    else if (std::isinf(x)) ++r.gradient_inf_count;
    else {
      max_abs = std::max(max_abs, std::fabs(x));
      squares += x * x;
    }
  }
}

// Fills r.gradient with d loss / d logits, following autograd entry by entry in IEEE doubles:
//   nll_loss backward (cross_entropy) writes -w only at a scored target and nothing at an
//     ignored one, so a NaN w there is never read;
//   gather backward writes -w at labels.clamp(min=0) for every position it covers;
//   log_softmax backward: g_in = g - softmax * sum(g).
// Then counts NaN/inf entries and, when all are finite, the max and the L2 norm.
// r.gradient holds, in each scored row, the log-softmax the forward pass computed.
MASKLAB_SMALL_CODE void backward(const LossInput& in, const Logits& logits, LossResult& r) {
  const int B = in.B, T = in.T, V = in.V;
  const bool gather = in.per_token_loss == PerTokenLoss::LogSoftmaxGather;
  // A hand-written loss slices logits[:, :-1] against labels[:, 1:]: the last logit is not in it
  // (nor is a target there: every scored row is covered).
  const int covered = gather && in.shift ? T - 1 : T;
  std::vector<double> g(V), exps(V), widened(V);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < covered; ++t) {
      const int y = r.targets[static_cast<size_t>(b) * T + t];
      const bool kept = y != in.ignore_index;
      if (!gather && !kept) continue;
      const size_t bt = static_cast<size_t>(b) * T + t;
      double* out = &r.gradient[bt * V];
      // An ignored row the gather still reaches: the forward pass skipped it.
      if (!kept) log_softmax(logits.row(bt * V, V, widened.data()), V, out);
      backward_row(out, g.data(), exps.data(), V, kept ? y : std::max(y, 0), -upstream_weight(in, r, b, kept));
    }

  double max_abs = 0, squares = 0;
  count_not_finite(r, max_abs, squares);
  if (r.gradient_nan_count == 0 && r.gradient_inf_count == 0) {
    r.gradient_max_abs = max_abs;
    r.gradient_norm = std::sqrt(squares);
    return;
  }
  r.gradient.clear();
  r.gradient_null_reason = gradient_not_finite(in, r);
}

// From the per-token losses to the reduction's scalar (or the reason there is none) and each
// row's token weight. O(B × T): compiled for size, with the messages it builds.
MASKLAB_SMALL_CODE void reduce(const LossInput& in, const std::vector<double>& row_sum, LossResult& r) {
  const int B = in.B, T = in.T;
  r.per_example_sum = row_sum;
  for (int b = 0; b < B; ++b) {
    r.sum += row_sum[b];
    r.num_targets += r.per_example_targets[b];
    if (r.per_example_targets[b] > 0) r.per_example_loss[b] = row_sum[b] / r.per_example_targets[b];
    else r.rows_without_targets.push_back(b);
  }

  switch (in.reduction) {
    case Reduction::Mean:
      if (r.num_targets == 0)
        r.null_reason = "no targets: every label is ignore_index (" + std::to_string(in.ignore_index) +
                        "), and a mean over zero targets is 0/0 (PyTorch returns NaN)";
      else r.loss = r.sum / r.num_targets;
      break;
    case Reduction::MaskedMean:
      if (r.num_targets == 0)
        r.null_reason = "no targets: keep.sum() is 0, so (nll * keep).sum() / keep.sum() is 0/0 (NaN in PyTorch)";
      else r.loss = r.sum / r.num_targets;
      break;
    case Reduction::Sum:
      r.loss = r.sum;
      break;
    case Reduction::None:
      r.null_reason = "reduction \"none\" gives one loss per token: see per_token";
      break;
    case Reduction::PerExampleMean:
      if (!r.rows_without_targets.empty())
        r.null_reason = std::string(r.rows_without_targets.size() == 1 ? "row " : "rows ") +
                        list_rows(r.rows_without_targets) +
                        (r.rows_without_targets.size() == 1 ? " has" : " have") +
                        " no targets, so its mean is 0/0 (NaN in PyTorch) and the mean of row means is undefined";
      else {
        double acc = 0;
        for (int b = 0; b < B; ++b) acc += *r.per_example_loss[b];
        r.loss = acc / B;
      }
      break;
    case Reduction::SumOverNumItems:
      if (*in.num_items_in_batch == 0)
        r.null_reason = "num_items_in_batch is 0: sum / 0 is undefined (NaN or inf in PyTorch)";
      else r.loss = r.sum / *in.num_items_in_batch;
      break;
  }

  // Beyond the double range: say why instead of a silent null (PyTorch would give inf).
  auto no_loss = [&](const std::string& why) {  // keeps an earlier reason ("none" gives no scalar)
    r.null_reason = r.loss || r.null_reason.empty() ? why : r.null_reason + "; " + why;
    r.loss.reset();
  };
  const std::string overflow = overflowing_token(r, T);
  if (!overflow.empty())
    no_loss("the loss at " + overflow +
            " is beyond the largest double (its target logit is more than ~1.8e308 below the row's largest), so "
            "the sum and the loss are too (PyTorch gives inf)");
  else if (!std::isfinite(r.sum))
    no_loss("the sum of the per-token losses is beyond the largest double (~1.8e308; PyTorch gives inf)");
  else if (r.loss && !std::isfinite(*r.loss))
    no_loss("sum / num_items_in_batch = " + format_number(r.sum) + " / " + format_number(*in.num_items_in_batch) +
            " is beyond the largest double (~1.8e308; PyTorch gives inf)");

  // How much one token of each row counts under the reduction (null without a loss).
  r.per_example_token_weight.assign(B, std::nullopt);
  if (r.loss)
    for (int b = 0; b < B; ++b) r.per_example_token_weight[b] = upstream_weight(in, r, b, true);
}

}  // namespace

int target_at(const LossInput& in, int b, int t) {
  if (!in.shift) return in.labels[static_cast<size_t>(b) * in.T + t];
  if (t + 1 >= in.T) return in.ignore_index;  // labels are padded with ignore_index, then shifted
  return in.labels[static_cast<size_t>(b) * in.T + t + 1];
}

// Compiled for size: its loops are over rows, each row's work is in the kernels above.
MASKLAB_SMALL_CODE LossResult cross_entropy(const LossInput& in) {
  const Logits logits(in);
  validate(in, logits);
  const int B = in.B, T = in.T, V = in.V;
  LossResult r;
  r.per_token.assign(static_cast<size_t>(B) * T, 0.0);
  r.targets.assign(static_cast<size_t>(B) * T, in.ignore_index);
  r.per_example_loss.assign(B, std::nullopt);
  r.per_example_targets.assign(B, 0);
  std::vector<double> row_sum(B, 0.0), shifted(V), widened(V);
  // With a gradient asked, each scored row's log-softmax (shifted - log z, as log_softmax gives)
  // is left in r.gradient for the backward pass, so a row's max and exp sum are computed once.
  if (in.gradient) r.gradient.assign(logits.size(), 0.0);

  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int y = target_at(in, b, t);
      const size_t bt = static_cast<size_t>(b) * T + t;
      r.targets[bt] = y;
      if (y == in.ignore_index) continue;
      // -log softmax(row)[y]: the loss needs no other entry.
      const double log_z = shifted_log_z(logits.row(bt * V, V, widened.data()), V, shifted.data());
      const double nll = -(shifted[y] - log_z);
      if (in.gradient) subtract(shifted.data(), log_z, &r.gradient[bt * V], V);
      r.per_token[bt] = nll;
      row_sum[b] += nll;
      ++r.per_example_targets[b];
    }

  reduce(in, row_sum, r);
  if (in.gradient) backward(in, logits, r);
  return r;
}

}  // namespace masklab
