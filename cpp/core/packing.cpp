// packing.cpp — see packing.hpp.
#include "packing.hpp"

#include "labels.hpp"

namespace masklab {

Batch pack(const std::vector<Feature>& features, const std::vector<int>& truncated,
           const CollateOptions& options) {
  const bool safe = options.packing == Packing::Flatten;
  Batch batch;
  batch.B = 1;
  batch.has_attention_mask = !safe;
  int total_truncated = 0;
  int segment = 0;
  for (size_t i = 0; i < features.size(); ++i) {
    const Feature& f = features[i];
    RowLabels row = label_real_tokens(f, options);
    const int n = static_cast<int>(f.input_ids.size());
    if (safe && n > 0) {  // [separator_id] + labels[1:]
      row.labels[0] = kIgnoreIndex;
      row.reasons[0] = IgnoreReason::Boundary;
    }
    for (int t = 0; t < n; ++t) {
      batch.input_ids.push_back(f.input_ids[t]);
      batch.labels.push_back(row.labels[t]);
      batch.label_reasons.push_back(row.reasons[t]);
      batch.attention_mask.push_back(1);
      batch.position_ids.push_back(safe ? t : static_cast<int>(batch.position_ids.size()));
      batch.segment_ids.push_back(segment);
      batch.is_pad.push_back(0);
    }
    batch.seq_lengths.push_back(n);
    total_truncated += truncated[i];
    ++segment;
  }
  batch.T = static_cast<int>(batch.input_ids.size());
  batch.lengths = {batch.T};
  batch.truncated_tokens = {total_truncated};
  return batch;
}

}  // namespace masklab
