// doctor_check_packing.cpp — checks of packed rows, several examples in one row
// (docs/semantics.md §10.3, §4):
//   packed-positions           position_ids that do not restart at each example (or are missing)
//   packed-boundary-labels     the first label of an example trained: the previous example's last
//                              token learns to predict it
//   packed-attention-mask      an attention_mask next to position-id packing switches off the
//                              boundary detection
//   packed-without-boundaries  documents joined by EOS with nothing marking where each starts
#include <string>

#include "batch.hpp"
#include "doctor_checks.hpp"

namespace masklab {

namespace {

const char* kPackedNeed = "packed rows (cu_seq_lens, seq_lens, seq_idx, or position_ids that restart)";

std::string packed_where(const DoctorBatch& d) { return "packed rows (their boundaries come from " + d.packing_source + ")"; }

}  // namespace

std::string needs_packed_positions(const CheckContext& c) { return c.batch.packed ? "" : kPackedNeed; }

void check_packed_positions(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  if (!d.position_ids) {
    FindingCells cells(d);
    for (int b = 0; b < d.B; ++b)
      for (int t = 0; t < d.length[b]; ++t)
        if (d.segment_start[d.at(b, t)]) cells.add(b, t);
    if (cells.empty())
      for (int b = 0; b < d.B; ++b) cells.add_row(b);
    out.push_back(cells.finding(
        "packed-positions", Severity::Warning,
        "These are " + packed_where(d) +
            " but the batch has no position_ids: a training forward then numbers the whole row 0..T-1, so every "
            "example after the first starts at a large position, and SDPA/eager attention cannot find the "
            "boundaries (only FlashAttention given cu_seq_lens can).",
        "Send position_ids that restart at 0 for every packed example (DataCollatorWithFlattening does).",
        exercise_ids::kPacking));
    return;
  }
  const auto& pos = *d.position_ids;
  FindingCells starts(d), jumps(d);
  for (int b = 0; b < d.B; ++b) {
    int previous = -1;  // last real cell seen in this row, when adjacent
    for (int t = 0; t < d.length[b]; ++t) {
      if (!d.real(b, t)) {
        previous = -1;
        continue;
      }
      const int i = d.at(b, t);
      if (d.segment_start[i]) {
        if (pos[i] != 0) starts.add(b, t);
      } else if (previous >= 0 && t != d.position_gap && pos[i] != pos[d.at(b, previous)] + 1) {
        jumps.add(b, t);
      }
      previous = t;
    }
  }
  if (!starts.empty())
    out.push_back(starts.finding(
        "packed-positions", Severity::Error,
        "position_ids do not restart at 0 at " + count_of(starts.count(), "packed example start", "packed example starts") +
            " in " + starts.rows_text() + " (the boundaries come from " + d.packing_source +
            "): RoPE sees one long document, and the attention paths that find boundaries from position_ids "
            "(FlashAttention-2's varlen path, SDPA since transformers PR #39194) find none there.",
        "Restart position_ids at 0 for every packed example.", exercise_ids::kPacking));
  if (!jumps.empty())
    out.push_back(jumps.finding(
        "packed-positions", Severity::Error,
        "position_ids jump inside a packed example at " + count_of(jumps.count(), "position", "positions") + " in " +
            jumps.rows_text() + ": they should count up by one from each example's start.",
        "Build position_ids as 0..n-1 for each packed example, in order.", exercise_ids::kPacking));
}

std::string needs_packed_labels(const CheckContext& c) {
  if (!c.batch.packed) return kPackedNeed;
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return c.labels_need();
  return "";
}

void check_packed_boundary_labels(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  bool same_first = true;
  int first_id = -1;
  for (int b = 0; b < d.B; ++b)
    for (int t = 1; t < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (!d.segment_start[i] || !is_trained_label(labels[i])) continue;
      cells.add(b, t);
      if (first_id < 0) first_id = d.input_ids[i];
      same_first = same_first && d.input_ids[i] == first_id;
    }
  if (cells.empty()) return;
  std::string message = "The first label of " + count_of(cells.count(), "packed example", "packed examples") + " in " +
                        cells.rows_text() +
                        " is trained, so after the shift the last token of the example before it is trained to "
                        "predict it — a pair no single document contains.";
  message += same_first ? " Every one of them is id " + std::to_string(first_id) +
                              " (a BOS?): one constant, soon easy target per boundary that still counts in the mean."
                        : " They differ, so the model is asked to guess how the next document begins.";
  out.push_back(cells.finding("packed-boundary-labels", Severity::Warning, std::move(message),
                              "Set the label at each packed example's first token to -100 (DataCollatorWithFlattening: "
                              "[-100] + labels[1:]; TRL: labels[position_ids == 0] = -100).",
                              exercise_ids::kPacking));
}

std::string needs_packed_mask(const CheckContext& c) {
  if (!c.batch.packed) return kPackedNeed;
  if (!c.batch.attention_mask) return "attention_mask in the batch";
  return "";
}

void check_packed_attention_mask(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  if (d.mask_kind == MaskKind::SequenceIds) return;  // mask-values explains sequence-id masks
  bool has_zero = false;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t) has_zero = has_zero || (*d.attention_mask)[d.at(b, t)] == 0;
  FindingCells cells(d);
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t)
      if (d.segment_start[d.at(b, t)]) cells.add(b, t);
  std::string message =
      "These are " + packed_where(d) + " with an attention_mask. SDPA and eager attention build the block-diagonal "
      "mask from position_ids only when attention_mask is None (transformers PR #39194), so here every example reads "
      "the ones before it.";
  message += has_zero ? " The mask has zeros, so FlashAttention-2 also unpads by the mask and ignores the "
                        "position_ids boundaries."
                      : " FlashAttention-2 drops an all-ones mask and does use position_ids.";
  out.push_back(cells.finding("packed-attention-mask", Severity::Warning, std::move(message),
                              "Send no attention_mask with position-id packing (DataCollatorWithFlattening and TRL's "
                              "padding-free collator return none).",
                              exercise_ids::kPacking));
}

std::string needs_unpacked_eos(const CheckContext& c) {
  if (c.batch.packed) return "rows that are not marked as packed";
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return c.labels_need();
  if (!c.options.eos_token_id) return "eos_token_id";
  return "";
}

void check_packed_without_boundaries(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const int eos = *c.options.eos_token_id;
  // An EOS that also ends each turn of one conversation is not a document boundary.
  if (c.options.end_of_turn_id && *c.options.end_of_turn_id == eos) return;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t + 1 < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (d.input_ids[i] != eos || !d.real(b, t) || !d.adjacent(b, t) || !d.real(b, t + 1)) continue;
      if (!is_trained_label(labels[d.at(b, t + 1)])) continue;
      cells.add(b, t);
    }
  if (cells.empty()) return;
  out.push_back(cells.finding(
      "packed-without-boundaries", Severity::Warning,
      cells.rows_text() + (cells.rows().size() == 1 ? " joins" : " join") + " several documents with EOS (id " +
          std::to_string(eos) + ", at " + count_of(cells.count(), "place", "places") +
          ") and nothing marks where each starts: position_ids run on (or are absent), the attention mask lets each "
          "document read the ones before it, and the token after each EOS is trained as if it followed from them. If "
          "a row is one conversation whose turns end with this id, give it as end_of_turn_id.",
      "Pack with DataCollatorWithFlattening or TRL's packing (restarted position_ids, no mask, -100 at each "
      "boundary), or do not pack.",
      exercise_ids::kPacking));
}

}  // namespace masklab
