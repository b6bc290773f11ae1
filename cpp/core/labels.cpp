// labels.cpp — see labels.hpp.
#include "labels.hpp"

namespace masklab {

RowLabels label_real_tokens(const Feature& feature, const CollateOptions& options) {
  const auto& ids = feature.input_ids;
  const size_t n = ids.size();
  RowLabels out{std::vector<int>(n), std::vector<IgnoreReason>(n, IgnoreReason::None)};

  switch (options.label_policy) {
    case LabelPolicy::InputIds:
      out.labels = ids;
      break;
    case LabelPolicy::MaskPadId:
      // DataCollatorForLanguageModeling: labels = input_ids.clone(); labels[labels == pad] = -100.
      // Any labels the example brought are overwritten (transformers #26357).
      for (size_t i = 0; i < n; ++i) {
        bool collides = options.pad_token_id && ids[i] == *options.pad_token_id;
        out.labels[i] = collides ? kIgnoreIndex : ids[i];
        if (collides) out.reasons[i] = IgnoreReason::PadId;
      }
      break;
    case LabelPolicy::MaskPadding:
    case LabelPolicy::Given:
      out.labels = feature.labels ? *feature.labels : ids;
      out.reasons.assign(out.labels.size(), IgnoreReason::None);  // own labels may be longer (§3.2)
      for (size_t i = 0; i < out.labels.size(); ++i)
        if (!is_trained_label(out.labels[i])) out.reasons[i] = IgnoreReason::Given;
      break;
  }

  // TRL: labels[completion_mask == 0] = -100; labels[assistant_masks == 0] = -100.
  for (const auto* mask : {&feature.completion_mask, &feature.assistant_masks}) {
    if (!*mask) continue;
    for (size_t i = 0; i < n; ++i)
      if ((**mask)[i] == 0 && is_trained_label(out.labels[i])) {
        out.labels[i] = kIgnoreIndex;
        out.reasons[i] = IgnoreReason::Prompt;
      }
  }
  return out;
}

std::pair<int, IgnoreReason> pad_label(const CollateOptions& options) {
  switch (options.label_policy) {
    // Only used where a pad is written, and collate requires a pad id there.
    case LabelPolicy::InputIds: return {options.pad_token_id.value_or(0), IgnoreReason::None};
    case LabelPolicy::MaskPadId: return {kIgnoreIndex, IgnoreReason::Padding};
    case LabelPolicy::MaskPadding:
    case LabelPolicy::Given: {
      // label_pad_token_id = 0 is a real bug: pads become trained targets of token 0. Any
      // negative value (-100, or -1 with a loss told ignore_index=-1) is never a target.
      int v = options.label_pad_token_id;
      return {v, is_trained_label(v) ? IgnoreReason::None : IgnoreReason::Padding};
    }
  }
  return {kIgnoreIndex, IgnoreReason::Padding};
}

}  // namespace masklab
