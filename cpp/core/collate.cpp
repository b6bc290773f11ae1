// collate.cpp — see collate.hpp.
#include "collate.hpp"

#include <string>

#include "attention_mask.hpp"
#include "input_error.hpp"
#include "labels.hpp"
#include "limits.hpp"
#include "packing.hpp"
#include "padding.hpp"
#include "positions.hpp"

namespace masklab {

namespace {

constexpr int kMaxRows = 256;

std::string feature_field(size_t i, const char* name) {
  return "features[" + std::to_string(i) + "]." + name;
}

void check_id(int id, const std::string& field, const CollateOptions& o) {
  if (id < 0) throw InputError(field, "is " + std::to_string(id) + "; token ids must be >= 0");
  if (o.vocab_size && id >= *o.vocab_size)
    throw InputError(field, "is " + std::to_string(id) + ", outside the vocabulary (vocab_size " +
                                std::to_string(*o.vocab_size) + ")");
}

void check_parallel(const std::optional<std::vector<int>>& v, size_t n, size_t i, const char* name,
                    bool zero_one) {
  if (!v) return;
  if (v->size() != n) {
    std::string hint = v->size() + 1 == n ? " — were they shifted already? Labels stay aligned with "
                                            "input_ids; the loss shifts them"
                                          : "";
    throw InputError(feature_field(i, name), "has " + std::to_string(v->size()) +
                                                 " entries but input_ids has " + std::to_string(n) + hint);
  }
  if (zero_one)
    for (size_t t = 0; t < n; ++t)
      if ((*v)[t] != 0 && (*v)[t] != 1)
        throw InputError(feature_field(i, name) + "[" + std::to_string(t) + "]",
                         "is " + std::to_string((*v)[t]) + "; expected 0 or 1");
}

}  // namespace

void validate_collate_input(const std::vector<Feature>& features, const CollateOptions& o) {
  if (features.empty()) throw InputError("features", "is empty; give at least one example");
  limit_request("features", "examples", features.size(), kMaxRows);
  if (o.vocab_size && *o.vocab_size < 1) throw InputError("vocab_size", "must be >= 1");
  check_id(o.pad_token_id, "pad_token_id", o);
  if (o.eos_token_id) check_id(*o.eos_token_id, "eos_token_id", o);
  if (o.max_length && *o.max_length < 1)
    throw InputError("max_length", "is " + std::to_string(*o.max_length) + "; it must be >= 1");
  if (o.pad_to_multiple_of && *o.pad_to_multiple_of < 1)
    throw InputError("pad_to_multiple_of", "is " + std::to_string(*o.pad_to_multiple_of) +
                                               "; it must be >= 1 (leave it out to not round)");
  if (o.truncation && !o.max_length)
    throw InputError("max_length", "is required when truncation is true");
  if (o.label_pad_token_id != kIgnoreIndex) check_id(o.label_pad_token_id, "label_pad_token_id", o);

  long long total = 0;
  for (size_t i = 0; i < features.size(); ++i) {
    const Feature& f = features[i];
    const size_t n = f.input_ids.size();
    if (n == 0) throw InputError(feature_field(i, "input_ids"), "is empty; every example needs a token");
    total += static_cast<long long>(n);
    for (size_t t = 0; t < n; ++t)
      check_id(f.input_ids[t], feature_field(i, "input_ids") + "[" + std::to_string(t) + "]", o);
    check_parallel(f.labels, n, i, "labels", false);
    if (f.labels)
      for (size_t t = 0; t < n; ++t)
        if ((*f.labels)[t] != kIgnoreIndex)
          check_id((*f.labels)[t], feature_field(i, "labels") + "[" + std::to_string(t) + "]", o);
    check_parallel(f.completion_mask, n, i, "completion_mask", true);
    check_parallel(f.assistant_masks, n, i, "assistant_masks", true);
    if (o.label_policy == LabelPolicy::Given && !f.labels)
      throw InputError(feature_field(i, "labels"),
                       "is missing; label_policy \"given\" needs every example's own labels");
  }
  limit_request("features", "tokens in all", static_cast<std::uint64_t>(total), kMaxBatchTokens);
}

Batch collate(std::vector<Feature> features, const CollateOptions& o) {
  validate_collate_input(features, o);

  std::vector<int> truncated(features.size(), 0);
  if (o.truncation)
    for (size_t i = 0; i < features.size(); ++i)
      truncated[i] = truncate_feature(features[i], *o.max_length, o.truncation_side);

  if (o.packing != Packing::None) return pack(features, truncated, o);

  std::vector<int> lengths;
  for (const auto& f : features) lengths.push_back(static_cast<int>(f.input_ids.size()));
  const int T = padded_length(lengths, o);

  Batch batch;
  batch.B = static_cast<int>(features.size());
  batch.T = T;
  batch.lengths = lengths;
  batch.truncated_tokens = truncated;
  const auto [pad_lab, pad_reason] = pad_label(o);
  batch.reserve_cells();

  for (int b = 0; b < batch.B; ++b) {
    const Feature& f = features[b];
    const int n = lengths[b];
    const int pads = T - n;
    const int first_real = o.padding_side == Side::Left ? pads : 0;
    RowLabels row = label_real_tokens(f, o);

    std::vector<int> mask_row(T);
    for (int t = 0; t < T; ++t) {
      const bool pad = t < first_real || t >= first_real + n;
      const int id = pad ? o.pad_token_id : f.input_ids[t - first_real];
      batch.input_ids.push_back(id);
      batch.is_pad.push_back(pad ? 1 : 0);
      batch.labels.push_back(pad ? pad_lab : row.labels[t - first_real]);
      batch.label_reasons.push_back(pad ? pad_reason : row.reasons[t - first_real]);
      mask_row[t] = attention_mask_value(o.attention_mask_policy, pad, id, o.pad_token_id);
      batch.attention_mask.push_back(mask_row[t]);
      batch.segment_ids.push_back(0);
    }
    auto pos = position_ids_for_row(mask_row, o.position_ids);
    batch.position_ids.insert(batch.position_ids.end(), pos.begin(), pos.end());
  }
  return batch;
}

}  // namespace masklab
