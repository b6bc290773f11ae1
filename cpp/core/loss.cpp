// loss.cpp — see loss.hpp.
#include "loss.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "input_error.hpp"
#include "json.hpp"

namespace masklab {

namespace {

std::string idx(int b, int t) { return "[" + std::to_string(b) + "][" + std::to_string(t) + "]"; }

void validate(const LossInput& in) {
  if (in.B < 1 || in.T < 1 || in.V < 1)
    throw InputError("logits", "must have shape [B][T][V] with B, T, V >= 1");
  if (in.logits.size() != static_cast<size_t>(in.B) * in.T * in.V)
    throw InputError("logits", "has the wrong number of values for [B][T][V]");
  if (in.labels.size() != static_cast<size_t>(in.B) * in.T)
    throw InputError("labels", "must have shape [B][T] matching logits");
  for (int b = 0; b < in.B; ++b)
    for (int t = 0; t < in.T; ++t)
      for (int v = 0; v < in.V; ++v) {
        double x = in.logits[(static_cast<size_t>(b) * in.T + t) * in.V + v];
        if (!std::isfinite(x))
          throw InputError("logits" + idx(b, t) + "[" + std::to_string(v) + "]",
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
}

// -log softmax(row)[target]; writes softmax(row) into probs when given.
// Log-sum-exp relative to the row max m: log z - (x - m), with z = sum exp(x_v - m) in [1, V].
// Not (m + log z) - x: for logits [1e17, 1e17] m + log 2 rounds back to 1e17 and the loss came
// out 0 instead of ln 2, and at 1e308 the softmax came out [1, 1]. Infinite only when the target
// sits more than ~1.8e308 below the max, where the true loss is not a double either.
double token_nll(const double* row, int V, int target, double* probs) {
  double m = row[0];
  for (int v = 1; v < V; ++v) m = std::max(m, row[v]);
  double z = 0;
  for (int v = 0; v < V; ++v) z += std::exp(row[v] - m);
  if (probs)
    for (int v = 0; v < V; ++v) probs[v] = std::exp(row[v] - m) / z;
  return std::log(z) - (row[target] - m);
}

// "logits[b][t]" of the first token whose loss is not a finite double, or "" if none.
std::string overflowing_token(const LossResult& r, int T) {
  for (size_t i = 0; i < r.per_token.size(); ++i)
    if (!std::isfinite(r.per_token[i])) return "logits" + idx(static_cast<int>(i / T), static_cast<int>(i % T));
  return "";
}

std::string list_rows(const std::vector<int>& rows) {
  std::string s;
  for (size_t i = 0; i < rows.size(); ++i) s += (i ? ", " : "") + std::to_string(rows[i]);
  return s;
}

}  // namespace

int target_at(const LossInput& in, int b, int t) {
  if (!in.shift) return in.labels[static_cast<size_t>(b) * in.T + t];
  if (t + 1 >= in.T) return in.ignore_index;  // labels are padded with ignore_index, then shifted
  return in.labels[static_cast<size_t>(b) * in.T + t + 1];
}

LossResult cross_entropy(const LossInput& in) {
  validate(in);
  const int B = in.B, T = in.T, V = in.V;
  LossResult r;
  r.per_token.assign(static_cast<size_t>(B) * T, 0.0);
  r.targets.assign(static_cast<size_t>(B) * T, in.ignore_index);
  r.per_example_loss.assign(B, std::nullopt);
  r.per_example_targets.assign(B, 0);
  std::vector<double> row_sum(B, 0.0);
  if (in.gradient) r.gradient.assign(static_cast<size_t>(B) * T * V, 0.0);

  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int y = target_at(in, b, t);
      const size_t bt = static_cast<size_t>(b) * T + t;
      r.targets[bt] = y;
      if (y == in.ignore_index) continue;
      double* probs = in.gradient ? &r.gradient[bt * V] : nullptr;
      const double nll = token_nll(&in.logits[bt * V], V, y, probs);
      if (probs) probs[y] -= 1.0;  // d nll / d logits = softmax - onehot (scaled below)
      r.per_token[bt] = nll;
      row_sum[b] += nll;
      ++r.per_example_targets[b];
    }

  for (int b = 0; b < B; ++b) {
    r.sum += row_sum[b];
    r.num_targets += r.per_example_targets[b];
    if (r.per_example_targets[b] > 0) r.per_example_loss[b] = row_sum[b] / r.per_example_targets[b];
    else r.rows_without_targets.push_back(b);
  }

  // Weight each token's gradient by d loss / d nll_token for the chosen reduction.
  std::vector<double> row_weight(B, 0.0);
  switch (in.reduction) {
    case Reduction::Mean:
      if (r.num_targets == 0)
        r.null_reason = "no targets: every label is ignore_index (" + std::to_string(in.ignore_index) +
                        "), and a mean over zero targets is 0/0 (PyTorch returns NaN)";
      else {
        r.loss = r.sum / r.num_targets;
        std::fill(row_weight.begin(), row_weight.end(), 1.0 / r.num_targets);
      }
      break;
    case Reduction::Sum:
      r.loss = r.sum;
      std::fill(row_weight.begin(), row_weight.end(), 1.0);
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
        for (int b = 0; b < B; ++b) {
          acc += *r.per_example_loss[b];
          row_weight[b] = 1.0 / (static_cast<double>(B) * r.per_example_targets[b]);
        }
        r.loss = acc / B;
      }
      break;
    case Reduction::SumOverNumItems:
      if (*in.num_items_in_batch == 0)
        r.null_reason = "num_items_in_batch is 0: sum / 0 is undefined (NaN or inf in PyTorch)";
      else {
        r.loss = r.sum / *in.num_items_in_batch;
        std::fill(row_weight.begin(), row_weight.end(), 1.0 / *in.num_items_in_batch);
      }
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
            " is beyond the largest double (its target logit is more than ~1.8e308 below the row's largest), so the "
            "sum and the loss are too (PyTorch gives inf)");
  else if (!std::isfinite(r.sum))
    no_loss("the sum of the per-token losses is beyond the largest double (~1.8e308; PyTorch gives inf)");
  else if (r.loss && !std::isfinite(*r.loss))
    no_loss("sum / num_items_in_batch = " + format_number(r.sum) + " / " + format_number(*in.num_items_in_batch) +
            " is beyond the largest double (~1.8e308; PyTorch gives inf)");

  if (in.gradient) {
    if (!r.loss) {
      r.gradient.clear();  // no loss, no gradient: say so rather than hand back zeros or NaN
    } else {
      // 1 / num_items_in_batch overflows for a subnormal count: divide instead. Either way each
      // gradient is at most the (finite) loss in size, since 1 - p <= -log p.
      const bool divide = in.reduction == Reduction::SumOverNumItems && !std::isfinite(row_weight[0]);
      for (int b = 0; b < B; ++b)
        for (size_t i = static_cast<size_t>(b) * T * V; i < static_cast<size_t>(b + 1) * T * V; ++i)
          r.gradient[i] = divide ? r.gradient[i] / *in.num_items_in_batch : r.gradient[i] * row_weight[b];
    }
  }
  return r;
}

}  // namespace masklab
