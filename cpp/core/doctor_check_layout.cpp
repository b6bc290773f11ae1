// doctor_check_layout.cpp — checks of the batch's shape and padding side (docs/semantics.md §10.3):
//   shapes                   fields whose shape disagrees with input_ids (labels one shorter: pre-shifted)
//   left-padding             a training batch padded on the left, and what it means for position_ids
//   right-padded-generation  a batch without labels (a generation batch) padded on the right
#include <string>

#include "doctor_checks.hpp"

namespace masklab {

void check_shapes(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  for (const ShapeProblem& p : d.shape_problems) {
    FindingCells cells(d);
    for (int b : p.rows) cells.add_row(b);
    std::string message = p.message + ": the two cannot line up token by token, so the checks that compare them "
                                      "were skipped.";
    std::string fix = "Give every per-token field the shape of input_ids: pad them together, on the same side.";
    std::string_view exercise;
    if (p.field == "labels" && p.one_shorter) {
      message = p.message + " — were the labels shifted already? Decoder-only models take labels aligned with "
                            "input_ids and shift them inside the loss, so a shifted copy trains the token after next.";
      fix = "Pass labels unshifted (labels = input_ids where trained, -100 elsewhere); the model's loss shifts them.";
      exercise = exercise_ids::kDoubleShift;
    }
    out.push_back(cells.finding("shapes", Severity::Error, std::move(message), std::move(fix), exercise));
  }
}

std::string needs_left_padding(const CheckContext& c) {
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return "labels (a training batch)";
  if (!c.has_pad_map()) return "attention_mask in the batch, or pad_token_id";
  return "";
}

void check_left_padding(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  FindingCells cells(d);
  int offset_row = -1;  // a row whose first real token does not sit at position 0
  for (int b = 0; b < d.B; ++b) {
    const int left = d.pads_left[b];
    if (left == 0 || left >= d.length[b]) continue;
    for (int t = 0; t < left; ++t) cells.add(b, t);
    const int first_position = d.position_ids ? (*d.position_ids)[d.at(b, left)] : d.position_index[left];
    if (first_position != 0 && offset_row < 0) offset_row = b;
  }
  if (cells.empty()) return;
  std::string message = cells.rows_text() + (cells.rows().size() == 1 ? " is" : " are") +
                        " padded on the left in a training batch. Training code pads on the right (TRL's collator "
                        "always does); left padding is for batched generation.";
  if (offset_row >= 0) {
    const int b = offset_row;
    const int left = d.pads_left[b];
    const int first = d.position_ids ? (*d.position_ids)[d.at(b, left)] : d.position_index[left];
    message += d.position_ids
                   ? " Its position_ids do not start at 0 on the first real token (row " + std::to_string(d.row_index[b]) +
                         " starts at " + std::to_string(first) + "), so the real tokens sit at shifted positions."
                   : " With no position_ids, a training forward uses 0..T-1, so row " + std::to_string(d.row_index[b]) +
                         "'s first real token sits at position " + std::to_string(first) +
                         " (absolute position embeddings see the shift; RoPE cancels it up to rounding).";
  } else {
    message += " Its position_ids start at 0 on each row's first real token, as generate() derives them, so "
               "positions are right.";
  }
  out.push_back(cells.finding("left-padding", Severity::Info, std::move(message),
                              "Pad training batches on the right (tokenizer.padding_side = 'right'), and keep left "
                              "padding for generate().",
                              exercise_ids::kLeftPadding));
}

std::string needs_right_padded_generation(const CheckContext& c) {
  if (!c.decoder()) return "a decoder-only model";
  if (c.batch.labels_pasted) return "a batch without labels (a generation batch)";
  if (!c.has_pad_map()) return "attention_mask in the batch, or pad_token_id";
  return "";
}

void check_right_padded_generation(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  FindingCells cells(d);
  for (int b = 0; b < d.B; ++b) {
    const int right = d.pads_right[b];
    if (right == 0 || d.pads_left[b] + right >= d.length[b]) continue;
    for (int t = d.length[b] - right; t < d.length[b]; ++t) cells.add(b, t);
  }
  if (cells.empty()) return;
  out.push_back(cells.finding(
      "right-padded-generation", Severity::Warning,
      cells.rows_text() + " end in padding and the batch has no labels, so it looks like input to generate(): a "
                          "decoder-only model continues from the last position, which is a pad in these rows.",
      "For batched generation pad on the left (tokenizer.padding_side = 'left') and pass the attention_mask.",
      exercise_ids::kLeftPadding));
}

}  // namespace masklab
