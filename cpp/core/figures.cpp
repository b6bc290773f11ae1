// figures.cpp — see figures.hpp.
#include "figures.hpp"

namespace masklab {

RowFigures row_figures(const Batch& batch, int b, const CollateOptions& options) {
  RowFigures f;
  for (int t = 0; t < batch.T; ++t) batch.is_pad[batch.at(b, t)] ? ++f.pads : ++f.real_tokens;
  for (int t = 0; t < batch.L; ++t) {
    const int i = batch.at_label(b, t);
    const int label = batch.labels[i];
    if (!is_trained_label(label)) {
      ++f.ignored[static_cast<int>(batch.label_reasons[i])];
      continue;
    }
    ++f.label_tokens;
    if (!is_scored_position(t, options.shift)) continue;
    ++f.targets;
    if (batch.label_is_pad[i]) ++f.pad_targets;
    else if (options.eos_token_id && label == *options.eos_token_id) ++f.eos_targets;
  }
  f.pad_share = batch.T > 0 ? static_cast<double>(f.pads) / batch.T : 0.0;
  f.truncated_tokens = batch.truncated_tokens.empty() ? 0 : batch.truncated_tokens[b];
  return f;
}

}  // namespace masklab
