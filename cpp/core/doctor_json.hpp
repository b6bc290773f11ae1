// doctor_json.hpp — the doctor command's JSON: the request (the pasted text and what the batch
// cannot say) and the answer (findings, checks run and skipped, figures, and optionally a window
// of the aligned batch for the page's grid). Field names are those of the README's `doctor`
// section; the CLI builds the same request from its flags. Not here: any rule (doctor_*.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doctor.hpp"
#include "json.hpp"

namespace masklab {

// A window of the aligned batch (visible indices: row b, positions [from, to)), for the grid.
struct DoctorView {
  std::vector<int> rows;
  int from = 0, to = 0;
};
constexpr int kMaxViewRows = 32, kMaxViewPositions = 512;

struct DoctorRequest {
  std::string text;
  DoctorOptions options;
  std::optional<DoctorView> view;
};

DoctorRequest decode_doctor(const Json& request);
// The same fields without "text", for run_doctor (api.hpp), which takes the text on its own.
DoctorRequest decode_doctor_options(const Json& options);

// {"findings": [...], "checks_run": [...], "checks_skipped": [...], "figures": {...}} and, when a
// view is asked for, "batch": the window's cells.
Json encode_doctor(const DoctorReport& report, const std::optional<DoctorView>& view);

}  // namespace masklab
