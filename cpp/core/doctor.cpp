// doctor.cpp — see doctor.hpp: align, derive the layout, count, run every check that has what it
// needs, then add the notes that are not checks (what PyTorch elided, how padding was found,
// fields not read).
#include "doctor.hpp"

#include <algorithm>

#include "doctor_checks.hpp"

namespace masklab {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
  }
  return "info";
}

namespace {

const char* form_name(PastedForm f) {
  switch (f) {
    case PastedForm::PrintedDict: return "printed";
    case PastedForm::Json: return "json";
    case PastedForm::JsonLines: return "jsonl";
  }
  return "printed";
}

std::string span_text(const std::vector<int>& index, int gap, const char* what) {
  // Items gap .. (the first one after the "...") are shown; the elided ones lie between.
  return std::string(what) + " " + std::to_string(index[gap - 1] + 1) + " to " + std::to_string(index[gap] - 1);
}

void add_notes(const DoctorBatch& d, const DoctorOptions& o, std::vector<Finding>& out) {
  if (d.elided()) {
    Finding f;
    f.id = "elided";
    f.severity = Severity::Info;
    std::string what;
    if (d.row_gap >= 0) what = span_text(d.row_index, d.row_gap, "rows");
    if (d.position_gap >= 0) what += (what.empty() ? "" : " and ") + span_text(d.position_index, d.position_gap, "positions");
    f.message = "PyTorch printed '...' in place of " + what +
                " (it summarises a tensor of more than 1000 elements, showing 3 items at each end), so the doctor "
                "checked the " + std::to_string(d.B) + " × " + std::to_string(d.T) +
                " cells shown. Items after the '...' are numbered from the end, as in Python: -1 is the last.";
    f.fix = "To check every cell, print with torch.set_printoptions(profile='full') (or threshold=float('inf')) "
            "and paste again.";
    out.push_back(std::move(f));
  }
  if (d.pad_source == PadSource::PadId) {
    Finding f;
    f.id = "padding-from-pad-id";
    f.severity = Severity::Info;
    f.message = std::string(d.attention_mask ? "The attention_mask is all ones" : "There is no attention_mask") +
                ", so padding was read as the runs of pad id " +
                std::to_string(*o.pad_token_id) + " at each row's ends" +
                (d.assumed_end_token ? "; that id is also an end token, so the first of each trailing run was taken "
                                       "as the row's own end token."
                                     : ".");
    f.fix = d.attention_mask ? "Nothing to fix here; the findings above say what the all-ones mask does."
                             : "Paste the attention_mask too, and the doctor reads padding from it.";
    out.push_back(std::move(f));
  }
  if (!d.unread.empty()) {
    Finding f;
    f.id = "unread-fields";
    f.severity = Severity::Info;
    std::string names;
    for (const auto& n : d.unread) names += (names.empty() ? "" : ", ") + n;
    f.message = "Not checked: " + names +
                ". The doctor reads input_ids, attention_mask, labels, position_ids, completion_mask, "
                "assistant_masks, seq_idx and packed lengths (cu_seq_lens_q, seq_lens).";
    f.fix = "Nothing to fix: these fields are outside the doctor's checks.";
    out.push_back(std::move(f));
  }
}

}  // namespace

DoctorReport diagnose(const PastedBatch& pasted, const DoctorOptions& options) {
  DoctorReport report;
  report.options = options;
  report.batch = align_pasted_batch(pasted, options.encoder);
  std::vector<int> end_ids;
  if (options.eos_token_id) end_ids.push_back(*options.eos_token_id);
  if (options.end_of_turn_id && options.end_of_turn_id != options.eos_token_id) end_ids.push_back(*options.end_of_turn_id);
  derive_layout(report.batch, DoctorLayoutHints{options.pad_token_id, end_ids});
  report.figures = compute_figures(report.batch, !options.encoder);
  report.figures.form = form_name(pasted.form);
  for (const auto& f : pasted.fields)
    if (std::find(report.batch.unread.begin(), report.batch.unread.end(), f.name) == report.batch.unread.end())
      report.figures.fields.push_back(f.name);

  const CheckContext context{report.batch, options, report.figures, end_ids};
  for (const DoctorCheck& check : doctor_checks()) {
    std::string needs = check.needs(context);
    if (!needs.empty()) {
      report.checks_skipped.push_back({check.id, std::move(needs)});
      continue;
    }
    report.checks_run.push_back(check.id);
    check.run(context, report.findings);
  }
  add_notes(report.batch, options, report.findings);
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
  return report;
}

}  // namespace masklab
