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
        bool collides = ids[i] == options.pad_token_id;
        out.labels[i] = collides ? kIgnoreIndex : ids[i];
        if (collides) out.reasons[i] = IgnoreReason::PadId;
      }
      break;
    case LabelPolicy::MaskPadding:
    case LabelPolicy::Given:
      out.labels = feature.labels ? *feature.labels : ids;
      for (size_t i = 0; i < n; ++i)
        if (out.labels[i] == kIgnoreIndex) out.reasons[i] = IgnoreReason::Given;
      break;
  }

  // TRL: labels[completion_mask == 0] = -100; labels[assistant_masks == 0] = -100.
  for (const auto* mask : {&feature.completion_mask, &feature.assistant_masks}) {
    if (!*mask) continue;
    for (size_t i = 0; i < n; ++i)
      if ((**mask)[i] == 0 && out.labels[i] != kIgnoreIndex) {
        out.labels[i] = kIgnoreIndex;
        out.reasons[i] = IgnoreReason::Prompt;
      }
  }
  return out;
}

std::pair<int, IgnoreReason> pad_label(const CollateOptions& options) {
  switch (options.label_policy) {
    case LabelPolicy::InputIds: return {options.pad_token_id, IgnoreReason::None};
    case LabelPolicy::MaskPadId: return {kIgnoreIndex, IgnoreReason::Padding};
    case LabelPolicy::MaskPadding:
    case LabelPolicy::Given: {
      // label_pad_token_id = 0 is a real bug: pads become trained targets of token 0.
      int v = options.label_pad_token_id;
      return {v, v == kIgnoreIndex ? IgnoreReason::Padding : IgnoreReason::None};
    }
  }
  return {kIgnoreIndex, IgnoreReason::Padding};
}

}  // namespace masklab
