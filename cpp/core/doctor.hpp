// doctor.hpp — the batch doctor: a pasted batch (printed_batch.hpp) plus what the batch alone
// cannot say (pad and end ids, encoder or decoder, prompt/completion data) -> findings, the
// checks that ran and the ones that could not, and the figures that explain the damage.
//
// The rules and their sources are docs/semantics.md §10. Findings are data — id, severity, rows,
// positions, a one-line why, the fix and the exercise that teaches it — so the CLI and the page
// show the same diagnosis; neither assembles prose of its own. Not here: reading text
// (printed_batch.cpp), aligning fields (doctor_batch.cpp), the checks (doctor_check_*.cpp),
// the figures (doctor_figures.cpp), JSON (doctor_json.cpp).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "doctor_batch.hpp"
#include "doctor_figures.hpp"
#include "printed_batch.hpp"

namespace masklab {

struct DoctorOptions {
  std::optional<int> pad_token_id;
  std::optional<int> eos_token_id;
  std::optional<int> end_of_turn_id;  // e.g. Llama 3's <|eot_id|> 128009, ChatML's <|im_end|>
  bool encoder = false;               // a bidirectional encoder (or encoder-decoder), not decoder-only
  bool prompt_completion = false;     // the data is prompt/completion: prompts must not be trained
};

enum class Severity { Error, Warning, Info };
const char* severity_name(Severity s);  // "error" | "warning" | "info"

struct Finding {
  std::string id;
  Severity severity = Severity::Error;
  std::vector<int> rows;                       // printed row indices (negative: counted from the end)
  std::vector<std::pair<int, int>> positions;  // (row, position), printed indices; capped, see below
  std::string message;                         // what is wrong, where, and why it matters — one line
  std::string fix;                             // what to change — one line
  std::string exercise;                        // the exercise id that teaches it ("" when none does)
};

// A finding lists at most this many positions; its message always gives the full count.
constexpr int kMaxFindingPositions = 256;

struct SkippedCheck {
  std::string id;
  std::string needs;  // what would let it run, e.g. "eos_token_id or end_of_turn_id (--eos-token-id N)"
};

struct DoctorReport {
  std::vector<Finding> findings;  // errors first, then warnings, then notes; each in check order
  std::vector<std::string> checks_run;
  std::vector<SkippedCheck> checks_skipped;
  DoctorFigures figures;
  DoctorBatch batch;       // the aligned batch, for the page's grid
  DoctorOptions options;   // what the diagnosis was given
};

// Never throws for a batch it could read: everything wrong with the batch is a finding.
// Throws InputError only when the batch cannot be checked at all (no input_ids, ids that are
// not whole numbers), naming the line and column of the field.
DoctorReport diagnose(const PastedBatch& pasted, const DoctorOptions& options);

}  // namespace masklab
