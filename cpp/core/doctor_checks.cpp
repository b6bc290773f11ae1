// doctor_checks.cpp — the list of checks (what runs, in which order) and the helpers every check
// uses to name rows and positions. The rules themselves are in the doctor_check_*.cpp files.
#include "doctor_checks.hpp"

#include <algorithm>

namespace masklab {

const std::vector<std::string_view>& doctor_exercise_ids() {
  using namespace exercise_ids;
  static const std::vector<std::string_view> ids = {kPadsScored,  kPadEos,         kDoubleShift,
                                                    kLeftPadding, kZeroTargets,    kTruncation,
                                                    kCompletionOnly, kPacking,     kEncoderMask,
                                                    kRightPaddedOverclaim, kPadIdCollides};
  return ids;
}

bool CheckContext::is_end(int id) const { return std::find(end_ids.begin(), end_ids.end(), id) != end_ids.end(); }

std::string CheckContext::labels_need() const {
  if (batch.labels_elsewhere) return "labels aligned with input_ids (these are the decoder's targets, with their own length)";
  if (batch.row_labels) return "token labels (these are one label per row)";
  return "labels in the batch";
}

const std::vector<DoctorCheck>& doctor_checks() {
  static const std::vector<DoctorCheck> checks = {
      {"shapes", needs_nothing, check_shapes},
      {"mask-values", needs_mask, check_mask_values},
      {"mask-mismatch", needs_mask, check_mask_mismatch},
      {"pad-labels", needs_labels_and_pads, check_pad_labels},
      {"eos-masked", needs_labels_and_end_ids, check_eos_masked},
      {"pad-id-masked", needs_labels_and_pad_id, check_pad_id_masked},
      {"pre-shifted", needs_decoder_labels, check_pre_shifted},
      {"prompt-trained", needs_prompt_info, check_prompt_trained},
      {"zero-target-rows", needs_whole_rows_of_labels, check_zero_target_rows},
      {"packed-positions", needs_packed_positions, check_packed_positions},
      {"packed-boundary-labels", needs_packed_labels, check_packed_boundary_labels},
      {"packed-attention-mask", needs_packed_mask, check_packed_attention_mask},
      {"packed-without-boundaries", needs_unpacked_eos, check_packed_without_boundaries},
      {"all-ones-mask", needs_mask_and_pad_id, check_all_ones_mask},
      {"truncated-rows", needs_truncation, check_truncated_rows},
      {"right-padded-generation", needs_right_padded_generation, check_right_padded_generation},
      {"left-padding", needs_left_padding, check_left_padding},
  };
  return checks;
}

std::string needs_nothing(const CheckContext&) { return ""; }

void FindingCells::add_row(int b) {
  if (in_row_[b]) return;
  in_row_[b] = 1;
  // Cells arrive row by row, so the list stays sorted; a row added out of order is placed.
  rows_.insert(std::upper_bound(rows_.begin(), rows_.end(), b), b);
}

void FindingCells::add(int b, int t) {
  ++count_;
  add_row(b);
  if (positions_.size() < static_cast<size_t>(kMaxFindingPositions))
    positions_.emplace_back(batch_.row_index[b], batch_.position_index[t]);
}

std::string FindingCells::rows_text() const {
  std::vector<int> printed;
  for (int b : rows_) printed.push_back(batch_.row_index[b]);
  return (printed.size() == 1 ? "row " : "rows ") + list_text(printed);
}

Finding FindingCells::finding(std::string id, Severity severity, std::string message, std::string fix,
                              std::string_view exercise) const {
  Finding f;
  f.id = std::move(id);
  f.severity = severity;
  for (int b : rows_) f.rows.push_back(batch_.row_index[b]);
  f.positions = positions_;
  f.message = std::move(message);
  f.fix = std::move(fix);
  f.exercise = std::string(exercise);
  return f;
}

std::string count_of(long long n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string list_text(const std::vector<int>& values, size_t shown) {
  std::string s;
  const size_t n = values.size();
  const size_t listed = n <= shown + 1 ? n : shown;
  for (size_t i = 0; i < listed; ++i) {
    if (i > 0) s += (i + 1 == listed && listed == n) ? " and " : ", ";
    s += std::to_string(values[i]);
  }
  if (listed < n) s += " and " + std::to_string(n - listed) + " more";
  return s;
}

}  // namespace masklab
