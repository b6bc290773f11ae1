// doctor_check_mask.cpp — checks of the attention_mask (docs/semantics.md §10.3):
//   mask-values    values other than 0/1: packing sequence ids, an additive float mask, fractions
//   mask-mismatch  a 0 between real tokens (a mask rebuilt from input_ids != pad), a 0 on a token
//                  that is not the pad id, a 1 on some of a row's pads
//   all-ones-mask  every value 1 while rows visibly end (or start) in runs of the pad id
#include <cmath>
#include <string>

#include "doctor_checks.hpp"
#include "json.hpp"

namespace masklab {

namespace {

std::string value_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return format_number(x);
}

}  // namespace

std::string needs_mask(const CheckContext& c) { return c.batch.attention_mask ? "" : "attention_mask in the batch"; }

void check_mask_values(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  if (d.mask_kind == MaskKind::Binary) return;
  FindingCells cells(d);
  std::string values;
  for (size_t i = 0; i < d.mask_odd_values.size(); ++i) {
    values += (i ? ", " : "") + value_text(d.mask_odd_values[i]);
    cells.add(d.mask_odd_cells[i] / d.T, d.mask_odd_cells[i] % d.T);
  }
  if (d.mask_kind == MaskKind::SequenceIds) {
    out.push_back(cells.finding(
        "mask-values", Severity::Warning,
        "attention_mask holds " + values +
            ": sequence ids 1..k of packed examples, as axolotl's sample packing and LLaMA-Factory's neat_packing "
            "write them. Only their patched attention reads the ids; stock transformers reads a 2-D mask as 0/1 "
            "(since v4.53 any nonzero value attends, so the packed examples read each other; before, only exactly 1 "
            "did, so every token of example 2 onwards was hidden).",
        "Keep sequence-id masks inside the trainer that patches attention for them; for stock transformers send "
        "0/1 masks, or no mask and position_ids that restart per example.",
        exercise_ids::kPacking));
    return;
  }
  if (d.mask_kind == MaskKind::Additive) {
    out.push_back(cells.finding(
        "mask-values", Severity::Error,
        "attention_mask holds " + values +
            " besides 0: an additive float mask (0 = attend, a large negative = hidden), the form attention adds to "
            "its scores. A 2-D attention_mask is read as 1 = attend, 0 = hidden, so this one is read backwards: the "
            "pads are shown and the real tokens hidden.",
        "Pass the 0/1 mask the tokenizer returns; the model builds the additive form itself.", ""));
    return;
  }
  out.push_back(cells.finding("mask-values", Severity::Error,
                              "attention_mask holds " + values +
                                  ", which is neither 0 nor 1. transformers reads a 2-D mask as booleans (since "
                                  "v4.53 any nonzero value attends), so these positions are simply visible.",
                              "Send 0 for padding and 1 for real tokens.", ""));
}

void check_mask_mismatch(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& mask = *d.attention_mask;
  const std::optional<int> pad = c.options.pad_token_id;

  // A 0 between real tokens hides them from every query.
  FindingCells holes(d);
  bool holes_are_pad_id = pad.has_value();
  for (int b = 0; b < d.B; ++b)
    for (int t = d.pads_left[b]; t < d.length[b] - d.pads_right[b]; ++t)
      if (mask[d.at(b, t)] == 0) {
        holes.add(b, t);
        holes_are_pad_id = holes_are_pad_id && d.input_ids[d.at(b, t)] == *pad;
      }
  if (!holes.empty()) {
    const bool by_id_with_eos = holes_are_pad_id && c.is_end(*pad);
    std::string message = "attention_mask is 0 at " + count_of(holes.count(), "real token", "real tokens") +
                          " inside " + holes.rows_text() + ", so no query can read " +
                          (holes.count() == 1 ? "it" : "them") + ".";
    if (by_id_with_eos)
      message += " Every one is id " + std::to_string(*pad) +
                 ", which is both the pad and an end token: the mask was rebuilt as input_ids != pad_token_id, "
                 "which hides every real EOS too.";
    out.push_back(holes.finding("mask-mismatch", Severity::Error, std::move(message),
                                "Build the mask from the lengths, as tokenizer.pad returns it, never from input_ids "
                                "!= pad_token_id.",
                                by_id_with_eos ? exercise_ids::kPadEos : std::string_view()));
  }
  if (!pad || d.mask_kind == MaskKind::Additive) return;

  // A 0 at a row end on a token that is not the pad id: another pad id, or another side.
  FindingCells strangers(d);
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t)
      if (d.is_pad[d.at(b, t)] && d.input_ids[d.at(b, t)] != *pad) strangers.add(b, t);
  if (!strangers.empty())
    out.push_back(strangers.finding(
        "mask-mismatch", Severity::Error,
        "attention_mask is 0 at " + count_of(strangers.count(), "position", "positions") + " in " +
            strangers.rows_text() + " whose token is not the pad id " + std::to_string(*pad) +
            ": either pad_token_id is not " + std::to_string(*pad) +
            ", or the mask and input_ids were padded on different sides.",
        "Pad input_ids and attention_mask together, in one tokenizer.pad call, and check pad_token_id.", ""));

  // Some of a row's pads visible: a mask from a different padding than the ids.
  bool all_ones = true;
  for (int b = 0; b < d.B && all_ones; ++b)
    for (int t = 0; t < d.length[b]; ++t) all_ones = all_ones && mask[d.at(b, t)] == 1;
  if (all_ones) return;  // all-ones-mask says it better
  const auto runs = pad_id_runs(d, *pad, c.end_ids);
  FindingCells visible_pads(d);
  for (int b = 0; b < d.B; ++b) {
    const int n = d.length[b];
    for (int t = 0; t < n; ++t) {
      const bool in_run = t < runs[b].first || t >= n - runs[b].second;
      if (in_run && mask[d.at(b, t)] == 1 && runs[b].first < n) visible_pads.add(b, t);
    }
  }
  if (!visible_pads.empty())
    out.push_back(visible_pads.finding(
        "mask-mismatch", Severity::Warning,
        "attention_mask is 1 on " + count_of(visible_pads.count(), "pad", "pads") + " (id " + std::to_string(*pad) +
            ") at the ends of " + visible_pads.rows_text() +
            ", while other pads are 0: the mask does not describe this padding.",
        "Let tokenizer.pad build the mask with the ids; if those tokens are real, check pad_token_id.", ""));
}

std::string needs_mask_and_pad_id(const CheckContext& c) {
  if (!c.batch.attention_mask) return "attention_mask in the batch";
  if (!c.options.pad_token_id) return "pad_token_id";
  return "";
}

void check_all_ones_mask(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& mask = *d.attention_mask;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t)
      if (mask[d.at(b, t)] != 1) return;
  if (d.packed) return;  // packed-attention-mask explains what an all-ones mask does there
  const auto runs = pad_id_runs(d, *c.options.pad_token_id, c.end_ids);
  FindingCells pads(d);
  bool left = false;
  for (int b = 0; b < d.B; ++b) {
    const int n = d.length[b];
    if (runs[b].first >= n) continue;  // a row of nothing but pad ids says nothing about a side
    for (int t = 0; t < runs[b].first; ++t) pads.add(b, t);
    for (int t = n - runs[b].second; t < n; ++t) pads.add(b, t);
    left = left || runs[b].first > 0;
  }
  if (pads.empty()) return;
  const std::string where = "attention_mask is 1 everywhere, also on the " +
                            count_of(pads.count(), "pad", "pads") + " (id " + std::to_string(*c.options.pad_token_id) +
                            ") in " + pads.rows_text() + ". ";
  if (c.options.encoder) {
    out.push_back(pads.finding("all-ones-mask", Severity::Error,
                               where + "In a bidirectional encoder every token reads every position, so real tokens "
                                       "read the pads and pooled outputs change with how much padding the batch has.",
                               "Pass the attention_mask tokenizer.pad returns (0 on pads).", exercise_ids::kEncoderMask));
  } else if (left) {
    out.push_back(pads.finding("all-ones-mask", Severity::Error,
                               where + "With left padding the pads come before the real tokens, so under the causal "
                                       "mask every real token reads them.",
                               "Pass the attention_mask tokenizer.pad returns (0 on pads).", exercise_ids::kLeftPadding));
  } else {
    out.push_back(pads.finding(
        "all-ones-mask", Severity::Warning,
        where + "With right padding and a causal decoder no real token can read a later pad, so the real tokens' "
                "outputs barely change (SDPA then runs its is_causal kernel: low-bit differences, not identical bits); "
                "what reads the mask — pooling, FlashAttention-2's unpadding, generate() — is misled.",
        "Pass the attention_mask tokenizer.pad returns (0 on pads); it costs nothing.",
        exercise_ids::kRightPaddedOverclaim));
  }
}

}  // namespace masklab
