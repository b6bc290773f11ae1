// accumulation.cpp — see accumulation.hpp.
#include "accumulation.hpp"

#include <cmath>
#include <string>

#include "input_error.hpp"

namespace masklab {

AccumulationResult accumulate(const std::vector<LossInput>& micro_batches) {
  if (micro_batches.empty()) throw InputError("micro_batches", "is empty; give at least one micro-batch");
  AccumulationResult r;
  double total_sum = 0;
  double sum_of_means = 0;
  std::vector<int> empty;
  std::string overflow;
  for (size_t i = 0; i < micro_batches.size(); ++i) {
    LossInput in = micro_batches[i];
    in.reduction = Reduction::Sum;
    in.gradient = false;
    LossResult lr;
    try {
      lr = cross_entropy(in);
    } catch (const InputError& e) {
      throw InputError("micro_batches[" + std::to_string(i) + "]." + e.field, e.message);
    }
    if (!std::isfinite(lr.sum)) {
      // A summed loss beyond the double range: no average can be finite; say where.
      overflow = "micro-batch " + std::to_string(i) + ": " + lr.null_reason;
    }
    MicroBatchFigures m;
    m.sum = lr.sum;
    m.num_targets = lr.num_targets;
    for (int y : in.labels) m.label_tokens += y != in.ignore_index ? 1 : 0;
    if (m.num_targets > 0) {
      m.mean = m.sum / m.num_targets;
      sum_of_means += *m.mean;
    } else {
      empty.push_back(static_cast<int>(i));
    }
    total_sum += m.sum;
    r.num_items_in_batch += m.num_targets;
    r.num_items_unshifted += m.label_tokens;
    r.micro_batches.push_back(m);
  }
  if (overflow.empty() && !std::isfinite(total_sum))
    overflow = "the summed loss of all micro-batches is beyond the largest double (~1.8e308; PyTorch gives inf)";
  if (!overflow.empty()) {
    r.null_reason = overflow;
    return r;
  }
  if (r.num_items_in_batch > 0) r.global_token_mean = total_sum / r.num_items_in_batch;
  if (empty.empty()) {
    // Finite: each micro-batch's mean is at most its sum, and the sums added up to a double.
    r.mean_of_means = sum_of_means / static_cast<double>(micro_batches.size());
  } else {
    std::string list;
    for (size_t j = 0; j < empty.size(); ++j) list += (j ? ", " : "") + std::to_string(empty[j]);
    r.null_reason = "micro-batch " + list + " has no targets: its mean is 0/0 (NaN in PyTorch), so the mean of means is undefined";
    if (!r.global_token_mean) r.null_reason += "; no micro-batch has a target, so the token mean is undefined too";
  }
  return r;
}

}  // namespace masklab
