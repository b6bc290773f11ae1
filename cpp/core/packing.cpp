// packing.cpp — see packing.hpp.
#include "packing.hpp"

#include <string>

#include "input_error.hpp"
#include "labels.hpp"
#include "padding.hpp"

namespace masklab {

namespace {

// The documents inside one example: its seq_lengths when it was packed already and the
// collator reads them (padding-free), else the whole example as one document.
std::vector<int> documents(const Feature& f, const CollateOptions& options) {
  const int n = static_cast<int>(f.input_ids.size());
  const bool padding_free = options.packing == Packing::PaddingFree || options.packing == Packing::PaddingFreeLegacy;
  if (padding_free && f.seq_lengths) return *f.seq_lengths;
  return n > 0 || options.packing == Packing::ConcatUnsafe ? std::vector<int>{n} : std::vector<int>{};
}

}  // namespace

Batch pack(const std::vector<Feature>& features, const std::vector<int>& truncated,
           const CollateOptions& options) {
  const Packing p = options.packing;
  const bool restart = p != Packing::ConcatUnsafe;  // positions restart per document
  // The boundary label: DataCollatorWithFlattening's separator, TRL >= 0.24's labels[position == 0].
  const bool mask_boundary = p == Packing::Flatten || p == Packing::PaddingFree;
  const bool padding_free = p == Packing::PaddingFree || p == Packing::PaddingFreeLegacy;
  Batch batch;
  batch.B = 1;
  // TRL 0.20-0.23 sent a mask unless the examples carried seq_lengths (PR #3673).
  batch.has_attention_mask =
      p == Packing::ConcatUnsafe || (p == Packing::PaddingFreeLegacy && !features.front().seq_lengths);
  int total_truncated = 0;
  int segment = 0;
  for (size_t i = 0; i < features.size(); ++i) {
    const Feature& f = features[i];
    RowLabels row = label_real_tokens(f, options);
    int t = 0;
    for (int length : documents(f, options)) {
      for (int k = 0; k < length; ++k, ++t) {
        const bool boundary = mask_boundary && k == 0;
        batch.input_ids.push_back(f.input_ids[t]);
        batch.labels.push_back(boundary ? kIgnoreIndex : row.labels[t]);
        batch.label_reasons.push_back(boundary ? IgnoreReason::Boundary : row.reasons[t]);
        batch.attention_mask.push_back(1);
        batch.position_ids.push_back(restart ? k : static_cast<int>(batch.position_ids.size()));
        batch.segment_ids.push_back(segment);
        batch.is_pad.push_back(0);
        batch.label_is_pad.push_back(0);
      }
      batch.seq_lengths.push_back(length);
      ++segment;
    }
    total_truncated += truncated[i];
  }
  const int real = static_cast<int>(batch.input_ids.size());
  int T = real;
  if (padding_free && options.pad_to_multiple_of) {
    const long long rounded = round_up(real, *options.pad_to_multiple_of);
    if (rounded > kMaxBatchTokens)
      throw InputError("pad_to_multiple_of", "rounds the packed row up to " + std::to_string(rounded) +
                                                 " tokens, more than the " + std::to_string(kMaxBatchTokens) +
                                                 "-token limit of a batch");
    T = static_cast<int>(rounded);
  }
  if (T > real && !options.pad_token_id)
    throw InputError("pad_token_id", "is missing, and the packed row must be padded from " + std::to_string(real) +
                                         " to " + std::to_string(T) +
                                         " tokens (pad_to_multiple_of); give the tokenizer's pad id");
  // TRL pads the tail with the pad id, label -100 and position 0; each pad starts a new
  // "document" of one token for a kernel that reads the positions (docs/semantics.md §4.2).
  for (int t = real; t < T; ++t) {
    batch.input_ids.push_back(*options.pad_token_id);
    batch.labels.push_back(kIgnoreIndex);
    batch.label_reasons.push_back(IgnoreReason::Padding);
    batch.attention_mask.push_back(0);
    batch.position_ids.push_back(0);
    batch.segment_ids.push_back(segment++);
    batch.is_pad.push_back(1);
    batch.label_is_pad.push_back(1);
  }
  batch.T = T;
  batch.L = T;
  batch.lengths = {real};
  batch.truncated_tokens = {total_truncated};
  return batch;
}

}  // namespace masklab
