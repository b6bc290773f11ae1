// doctor_checks.hpp — the batch doctor's checks: each one a rule of docs/semantics.md §10.3,
// what it needs to run, and the findings it makes. The checks live by concern in
// doctor_check_layout.cpp (shapes, padding side), doctor_check_mask.cpp (attention_mask),
// doctor_check_labels.cpp (what the labels train) and doctor_check_packing.cpp (packed rows);
// this header is their shared vocabulary, doctor_checks.cpp the list and the helpers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "doctor.hpp"

namespace masklab {

// The exercises findings link to (content/exercises/<id>.yaml). A test checks every one exists.
namespace exercise_ids {
inline constexpr std::string_view kPadsScored = "pad-to-max-all-ones";
inline constexpr std::string_view kPadEos = "pad-eos-mask-by-id";
inline constexpr std::string_view kDoubleShift = "double-shift";
inline constexpr std::string_view kLeftPadding = "left-padding-everywhere";
inline constexpr std::string_view kZeroTargets = "zero-target-micro-batch";
inline constexpr std::string_view kTruncation = "truncation-drops-answer";
inline constexpr std::string_view kCompletionOnly = "completion-only-text-search";
inline constexpr std::string_view kPacking = "packing-cross-attention";
inline constexpr std::string_view kEncoderMask = "encoder-all-ones-mask";
inline constexpr std::string_view kRightPaddedOverclaim = "right-padded-decoder-overclaim";
inline constexpr std::string_view kPadIdCollides = "pad-token-id-zero";
}  // namespace exercise_ids
const std::vector<std::string_view>& doctor_exercise_ids();

struct CheckContext {
  const DoctorBatch& batch;
  const DoctorOptions& options;
  const DoctorFigures& figures;
  std::vector<int> end_ids;  // eos_token_id and end_of_turn_id, as given

  bool decoder() const { return !options.encoder; }
  bool is_end(int id) const;
  bool has_pad_map() const { return batch.pad_source != PadSource::None; }
  bool token_labels() const { return batch.labels.has_value(); }
  // What a check needs when there are no token labels aligned with input_ids.
  std::string labels_need() const;
};

struct DoctorCheck {
  const char* id;
  // "" when the check can run; otherwise what it needs, e.g. "eos_token_id or end_of_turn_id".
  std::string (*needs)(const CheckContext&);
  void (*run)(const CheckContext&, std::vector<Finding>&);
};

// Every check, in the order their findings are listed.
const std::vector<DoctorCheck>& doctor_checks();

// Collects the cells of one finding: rows (sorted, unique), the first kMaxFindingPositions
// positions in printed indices, and the total count for the message.
class FindingCells {
 public:
  explicit FindingCells(const DoctorBatch& batch) : batch_(batch), in_row_(batch.B, 0) {}
  void add(int b, int t);
  void add_row(int b);
  int count() const { return count_; }
  bool empty() const { return count_ == 0 && rows_.empty(); }
  const std::vector<int>& rows() const { return rows_; }  // visible rows, in order
  // "rows 0, 2 and -1" (printed indices; long lists end "… and 12 more").
  std::string rows_text() const;
  Finding finding(std::string id, Severity severity, std::string message, std::string fix,
                  std::string_view exercise) const;

 private:
  const DoctorBatch& batch_;
  std::vector<char> in_row_;  // [B] whether row b is among rows_
  std::vector<int> rows_;     // visible rows, in the order first met
  std::vector<std::pair<int, int>> positions_;
  int count_ = 0;
};

// "1 pad position" / "3 pad positions".
std::string count_of(long long n, const std::string& singular, const std::string& plural);
// "3, 5 and 9" for a list of printed positions (at most `shown`, then "… and N more").
std::string list_text(const std::vector<int>& values, size_t shown = 6);

// The checks, by file.
std::string needs_nothing(const CheckContext&);
void check_shapes(const CheckContext&, std::vector<Finding>&);
std::string needs_left_padding(const CheckContext&);
void check_left_padding(const CheckContext&, std::vector<Finding>&);
std::string needs_right_padded_generation(const CheckContext&);
void check_right_padded_generation(const CheckContext&, std::vector<Finding>&);

std::string needs_mask(const CheckContext&);
void check_mask_values(const CheckContext&, std::vector<Finding>&);
void check_mask_mismatch(const CheckContext&, std::vector<Finding>&);
std::string needs_mask_and_pad_id(const CheckContext&);
void check_all_ones_mask(const CheckContext&, std::vector<Finding>&);

std::string needs_labels_and_pads(const CheckContext&);
void check_pad_labels(const CheckContext&, std::vector<Finding>&);
std::string needs_labels_and_end_ids(const CheckContext&);
void check_eos_masked(const CheckContext&, std::vector<Finding>&);
std::string needs_labels_and_pad_id(const CheckContext&);
void check_pad_id_masked(const CheckContext&, std::vector<Finding>&);
std::string needs_decoder_labels(const CheckContext&);
void check_pre_shifted(const CheckContext&, std::vector<Finding>&);
std::string needs_whole_rows_of_labels(const CheckContext&);
void check_zero_target_rows(const CheckContext&, std::vector<Finding>&);
std::string needs_truncation(const CheckContext&);
void check_truncated_rows(const CheckContext&, std::vector<Finding>&);
std::string needs_prompt_info(const CheckContext&);
void check_prompt_trained(const CheckContext&, std::vector<Finding>&);

std::string needs_packed_positions(const CheckContext&);
void check_packed_positions(const CheckContext&, std::vector<Finding>&);
std::string needs_packed_labels(const CheckContext&);
void check_packed_boundary_labels(const CheckContext&, std::vector<Finding>&);
std::string needs_packed_mask(const CheckContext&);
void check_packed_attention_mask(const CheckContext&, std::vector<Finding>&);
std::string needs_unpacked_eos(const CheckContext&);
void check_packed_without_boundaries(const CheckContext&, std::vector<Finding>&);

}  // namespace masklab
