// collate.cpp — see collate.hpp.
#include "collate.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "attention_mask.hpp"
#include "code_size.hpp"
#include "input_error.hpp"
#include "labels.hpp"
#include "limits.hpp"
#include "packing.hpp"
#include "padding.hpp"
#include "positions.hpp"

namespace masklab {

namespace {

constexpr int kMaxRows = 256;

MASKLAB_SMALL_CODE std::string feature_field(size_t i, const char* name) {
  return "features[" + std::to_string(i) + "]." + name;
}

MASKLAB_SMALL_CODE void check_id(int id, const std::string& field, const CollateOptions& o) {
  if (id < 0) throw InputError(field, "is " + std::to_string(id) + "; token ids must be >= 0");
  if (o.vocab_size && id >= *o.vocab_size)
    throw InputError(field, "is " + std::to_string(id) + ", outside the vocabulary (vocab_size " +
                                std::to_string(*o.vocab_size) + ")");
}

// check_id on every id of features[i].<name> (with skip_negative, a negative label is an ignore
// value, not checked). The field's name is built only for an id that fails, not once per token.
void check_ids(const std::vector<int>& ids, size_t i, const char* name, const CollateOptions& o, bool skip_negative) {
  for (size_t t = 0; t < ids.size(); ++t) {
    const int id = ids[t];
    if (id < 0 ? !skip_negative : o.vocab_size && id >= *o.vocab_size)
      check_id(id, feature_field(i, name) + "[" + std::to_string(t) + "]", o);
  }
}

MASKLAB_SMALL_CODE void check_parallel(const std::optional<std::vector<int>>& v, size_t n, size_t i, const char* name,
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

MASKLAB_SMALL_CODE void validate_collate_input(const std::vector<Feature>& features, const CollateOptions& o) {
  if (features.empty()) throw InputError("features", "is empty; give at least one example");
  limit_request("features", "examples", features.size(), kMaxRows);
  if (o.vocab_size && *o.vocab_size < 1) throw InputError("vocab_size", "must be >= 1");
  if (o.pad_token_id) check_id(*o.pad_token_id, "pad_token_id", o);
  if (o.eos_token_id) check_id(*o.eos_token_id, "eos_token_id", o);
  if (o.max_length && *o.max_length < 1)
    throw InputError("max_length", "is " + std::to_string(*o.max_length) + "; it must be >= 1");
  if (o.pad_to_multiple_of && *o.pad_to_multiple_of < 1)
    throw InputError("pad_to_multiple_of", "is " + std::to_string(*o.pad_to_multiple_of) +
                                               "; it must be >= 1 (leave it out to not round)");
  if (o.truncation && !o.max_length)
    throw InputError("max_length", "is required when truncation is true");
  // _get_padding_truncation_strategies: the rounded length would exceed the truncated one.
  if (o.truncation && o.packing == Packing::None && o.padding != Padding::DoNotPad && o.pad_to_multiple_of &&
      *o.max_length % *o.pad_to_multiple_of != 0)
    throw InputError("max_length", "is " + std::to_string(*o.max_length) + ", not a multiple of pad_to_multiple_of " +
                                       std::to_string(*o.pad_to_multiple_of) +
                                       ": with truncation and padding both on, transformers refuses this (\"truncation "
                                       "length is not a multiple of pad_to_multiple_of\")");
  if (o.pad_to_multiple_of && (o.packing == Packing::Flatten || o.packing == Packing::ConcatUnsafe))
    throw InputError("pad_to_multiple_of", std::string("does not apply to packing \"") +
                                               (o.packing == Packing::Flatten ? "flatten" : "concat_unsafe") +
                                               "\", which never pads; TRL's padding-free collator (packing "
                                               "\"padding_free\") pads the packed row's tail");
  // A non-negative label_pad_token_id is a class the pads will be trained on; a negative one
  // is any ignore value the loss is told about (docs/semantics.md §3.2).
  if (o.label_pad_token_id >= 0) check_id(o.label_pad_token_id, "label_pad_token_id", o);

  const bool seq_lengths_read = o.packing == Packing::PaddingFree || o.packing == Packing::PaddingFreeLegacy;
  long long total = 0;
  for (size_t i = 0; i < features.size(); ++i) {
    const Feature& f = features[i];
    const size_t n = f.input_ids.size();
    if (n == 0 && o.packing == Packing::Flatten)
      throw InputError(feature_field(i, "input_ids"),
                       "is empty; DataCollatorWithFlattening would still write its separator label, so "
                       "labels and input_ids would no longer line up");
    total += static_cast<long long>(n);
    check_ids(f.input_ids, i, "input_ids", o, false);
    // Under "given" labels are padded on their own and may have their own length (seq2seq);
    // everywhere else they sit one under each token.
    const bool own_length = o.label_policy == LabelPolicy::Given && o.packing == Packing::None &&
                            !f.completion_mask && !f.assistant_masks;
    if (!own_length) check_parallel(f.labels, n, i, "labels", false);
    if (f.labels) check_ids(*f.labels, i, "labels", o, true);
    check_parallel(f.attention_mask, n, i, "attention_mask", true);
    check_parallel(f.completion_mask, n, i, "completion_mask", true);
    check_parallel(f.assistant_masks, n, i, "assistant_masks", true);
    if (o.label_policy == LabelPolicy::Given && !f.labels)
      throw InputError(feature_field(i, "labels"),
                       "is missing; label_policy \"given\" needs every example's own labels");
    if (seq_lengths_read) {
      // TRL reads seq_lengths from every example once the first has them.
      if (f.seq_lengths.has_value() != features[0].seq_lengths.has_value())
        throw InputError(feature_field(i, "seq_lengths"),
                         std::string(f.seq_lengths ? "is given but features[0] has none"
                                                   : "is missing but features[0] has seq_lengths") +
                             "; TRL reads them from every example when the first has them");
      if (f.seq_lengths) {
        long long sum = 0;
        for (size_t d = 0; d < f.seq_lengths->size(); ++d) {
          const int len = (*f.seq_lengths)[d];
          if (len < 1)
            throw InputError(feature_field(i, "seq_lengths") + "[" + std::to_string(d) + "]",
                             "is " + std::to_string(len) + "; a packed document has at least one token");
          sum += len;
        }
        if (sum != static_cast<long long>(n))
          throw InputError(feature_field(i, "seq_lengths"), "adds up to " + std::to_string(sum) +
                                                                " but input_ids has " + std::to_string(n) +
                                                                " tokens; they must describe the same tokens");
      }
    }
  }
  limit_request("features", "tokens in all", static_cast<std::uint64_t>(total), kMaxBatchTokens);
}

namespace {

// The pad id, or an error saying which row needed one (docs/semantics.md §2.5).
MASKLAB_SMALL_CODE int require_pad_id(const CollateOptions& o, const std::string& why) {
  if (!o.pad_token_id)
    throw InputError("pad_token_id", "is missing, and " + why +
                                         "; give the tokenizer's pad id (tokenizers without one often set "
                                         "pad = eos, which is exactly where the label bugs start)");
  return *o.pad_token_id;
}

}  // namespace

Batch collate(std::vector<Feature> features, const CollateOptions& o) {
  validate_collate_input(features, o);

  std::vector<int> truncated(features.size(), 0);
  if (o.truncation)
    for (size_t i = 0; i < features.size(); ++i) {
      truncated[i] = truncate_feature(features[i], *o.max_length, o.truncation_side);
      if (truncated[i] > 0 && features[i].seq_lengths && o.packing != Packing::None)
        throw InputError(feature_field(i, "seq_lengths"),
                         "describe an example that truncation just cut; an already-packed example was "
                         "truncated when it was packed (TRL truncates before packing)");
    }

  if (o.packing != Packing::None) return pack(features, truncated, o);

  std::vector<int> lengths, label_lengths;
  for (const auto& f : features) {
    lengths.push_back(static_cast<int>(f.input_ids.size()));
    const bool own = o.label_policy == LabelPolicy::Given && f.labels;
    label_lengths.push_back(static_cast<int>(own ? f.labels->size() : f.input_ids.size()));
  }
  const int T = padded_length(lengths, o);
  const int L = label_lengths == lengths ? T : padded_length(label_lengths, o, "labels");
  for (size_t b = 0; b < lengths.size(); ++b)
    if (lengths[b] < T)
      require_pad_id(o, "features[" + std::to_string(b) + "] must be padded from " + std::to_string(lengths[b]) +
                            " to " + std::to_string(T) + " tokens");
  const int pad_id = o.pad_token_id.value_or(0);  // only written where a pad is, which needs one

  Batch batch;
  batch.B = static_cast<int>(features.size());
  batch.T = T;
  batch.L = L;
  batch.lengths = lengths;
  batch.truncated_tokens = truncated;
  const auto [pad_lab, pad_reason] = pad_label(o);
  // Every cell is written below, by index: sized once (segment_ids stays 0: one example a row).
  const size_t cells = static_cast<size_t>(batch.B) * T, label_cells = static_cast<size_t>(batch.B) * L;
  batch.input_ids.resize(cells);
  batch.is_pad.resize(cells);
  batch.attention_mask.resize(cells);
  batch.segment_ids.assign(cells, 0);
  batch.position_ids.resize(cells);
  batch.labels.resize(label_cells);
  batch.label_reasons.resize(label_cells);
  batch.label_is_pad.resize(label_cells);

  for (int b = 0; b < batch.B; ++b) {
    const Feature& f = features[b];
    const int n = lengths[b];
    const int first_real = o.padding_side == Side::Left ? T - n : 0;
    RowLabels row = label_real_tokens(f, o);

    const size_t at = static_cast<size_t>(b) * T;
    int* const ids = batch.input_ids.data() + at;  // data(), not [at]: T may be 0 (all rows empty)
    int* const mask = batch.attention_mask.data() + at;
    std::uint8_t* const is_pad = batch.is_pad.data() + at;
    for (int t = 0; t < T; ++t) {
      const bool pad = t < first_real || t >= first_real + n;
      const int id = pad ? pad_id : f.input_ids[t - first_real];
      ids[t] = id;
      is_pad[t] = pad ? 1 : 0;
      const int given = !pad && f.attention_mask ? (*f.attention_mask)[t - first_real] : 1;
      mask[t] = attention_mask_value(o.attention_mask_policy, pad, id, o.pad_token_id, given);
    }
    const int m = static_cast<int>(row.labels.size());
    const int first_label = o.padding_side == Side::Left ? L - m : 0;
    const size_t label_at = static_cast<size_t>(b) * L;
    for (int t = 0; t < L; ++t) {
      const bool pad = t < first_label || t >= first_label + m;
      batch.labels[label_at + t] = pad ? pad_lab : row.labels[t - first_label];
      batch.label_reasons[label_at + t] = pad ? pad_reason : row.reasons[t - first_label];
      batch.label_is_pad[label_at + t] = pad ? 1 : 0;
    }
    const std::vector<int> mask_row(mask, mask + T);
    const auto pos = position_ids_for_row(mask_row, o.position_ids);
    std::copy(pos.begin(), pos.end(), batch.position_ids.begin() + static_cast<std::ptrdiff_t>(at));
  }
  return batch;
}

}  // namespace masklab
