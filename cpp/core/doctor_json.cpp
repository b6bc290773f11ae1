// doctor_json.cpp — see doctor_json.hpp.
#include "doctor_json.hpp"

#include <algorithm>

#include "input_error.hpp"
#include "json_fields.hpp"

namespace masklab {

namespace {

Json optional_int(const std::optional<int>& x) { return x ? Json::number(*x) : Json::null(); }
Json optional_number(const std::optional<double>& x) { return x ? Json::number(*x) : Json::null(); }
Json string_or_null(const std::string& s) { return s.empty() ? Json::null() : Json::string(s); }

Json strings(const std::vector<std::string>& v) {
  Json a = Json::array();
  for (const auto& s : v) a.push(Json::string(s));
  return a;
}

Json encode_finding(const Finding& f) {
  Json positions = Json::array();
  for (auto [row, position] : f.positions) positions.push(int_list({row, position}));
  Json j = Json::object();
  j.set("id", Json::string(f.id))
      .set("severity", Json::string(severity_name(f.severity)))
      .set("rows", int_list(f.rows))
      .set("positions", std::move(positions))
      .set("message", Json::string(f.message))
      .set("fix", Json::string(f.fix))
      .set("exercise", string_or_null(f.exercise));
  return j;
}

Json encode_figures(const DoctorFigures& f) {
  Json rows = Json::array();
  for (const auto& r : f.per_row) {
    Json row = Json::object();
    row.set("row", Json::number(r.row))
        .set("real_tokens", Json::number(r.real_tokens))
        .set("pads", Json::number(r.pads))
        .set("pad_share", optional_number(r.pad_share))
        .set("targets", optional_int(r.targets))
        .set("pad_targets", optional_int(r.pad_targets))
        .set("weight_token_mean", optional_number(r.weight_token_mean))
        .set("weight_per_example", optional_number(r.weight_per_example));
    rows.push(std::move(row));
  }
  Json loss = Json::null();
  if (f.loss) {
    loss = Json::object();
    loss.set("model", Json::string("bigram"))
        .set("reported", Json::number(f.loss->reported))
        .set("real_targets", optional_number(f.loss->real_targets))
        .set("pad_targets", optional_number(f.loss->pad_targets))
        .set("without_pad_targets", optional_number(f.loss->without_pad_targets))
        .set("per_example_mean", optional_number(f.loss->per_example_mean));
  }
  Json shape = Json::array();
  shape.push(optional_int(f.rows)).push(optional_int(f.positions));
  Json out = Json::object();
  out.set("form", Json::string(f.form))
      .set("fields", strings(f.fields))
      .set("shape", std::move(shape))
      .set("shown", int_list({f.rows_shown, f.positions_shown}))
      .set("partial", Json::boolean(f.partial))
      .set("padding_side", Json::string(f.pad_side))
      .set("padding_from", string_or_null(f.padding_from))
      .set("real_tokens", optional_int(f.real_tokens))
      .set("pads", optional_int(f.pads))
      .set("pad_share", optional_number(f.pad_share))
      .set("targets", optional_int(f.targets))
      .set("real_targets", optional_int(f.real_targets))
      .set("pad_targets", optional_int(f.pad_targets))
      .set("dilution_factor", optional_number(f.dilution_factor))
      .set("loss", std::move(loss))
      .set("loss_note", Json::string(f.loss_note))
      .set("rows", std::move(rows));
  return out;
}

// The window's cells, row by row (a ragged row stops at its length).
Json encode_view(const DoctorBatch& d, const DoctorView& v, std::optional<int> pad_token_id) {
  const int from = std::min(v.from, d.T), to = std::min(v.to, d.T);
  auto rows_of = [&](auto cell) {
    Json out = Json::array();
    for (int b : v.rows) {
      Json row = Json::array();
      for (int t = from; t < std::min(to, d.length[b]); ++t) row.push(cell(b, t));
      out.push(std::move(row));
    }
    return out;
  };
  auto field = [&](const std::optional<std::vector<int>>& grid) {
    return grid ? rows_of([&](int b, int t) { return Json::number((*grid)[d.at(b, t)]); }) : Json::null();
  };
  Json rows = Json::array(), positions = Json::array();
  for (int b : v.rows) rows.push(Json::number(d.row_index[b]));
  for (int t = from; t < to; ++t) positions.push(Json::number(d.position_index[t]));
  Json out = Json::object();
  out.set("rows", std::move(rows))
      .set("positions", std::move(positions))
      .set("row_gap", d.row_gap >= 0 ? Json::number(d.row_gap) : Json::null())
      .set("position_gap", d.position_gap >= 0 ? Json::number(d.position_gap) : Json::null())
      .set("input_ids", rows_of([&](int b, int t) { return Json::number(d.input_ids[d.at(b, t)]); }))
      .set("attention_mask", field(d.attention_mask))
      .set("labels", field(d.labels))
      .set("position_ids", field(d.position_ids))
      .set("completion_mask", field(d.completion_mask))
      .set("assistant_masks", field(d.assistant_masks))
      .set("is_pad", rows_of([&](int b, int t) { return Json::number(d.is_pad[d.at(b, t)]); }))
      .set("segment_start", rows_of([&](int b, int t) { return Json::number(d.segment_start[d.at(b, t)]); }))
      .set("label_reasons",
           rows_of([&](int b, int t) { return Json::string(reason_name(ignore_reason(d, b, t, pad_token_id))); }));
  return out;
}

// A token id the user gives (pad, EOS, end of turn): refused when negative, as collate does.
std::optional<int> optional_token_id(const ObjectReader& r, const char* key) {
  const Json* v = r.get(key);
  if (!v) return std::nullopt;
  const int id = read_int(*v, key);
  if (id < 0) throw InputError(key, "is " + std::to_string(id) + "; token ids must be >= 0");
  return id;
}

}  // namespace

namespace {

DoctorRequest decode_fields(const Json& request, bool with_text) {
  std::vector<std::string_view> fields = {"pad_token_id", "eos_token_id", "end_of_turn_id", "encoder",
                                          "prompt_completion", "view"};
  if (with_text) fields.push_back("text");
  ObjectReader r(request, "", fields);
  DoctorRequest out;
  if (with_text) {
    const Json* text = r.get("text");
    if (!text) throw InputError("text", "is missing; paste what print(batch) printed, a JSON object or JSON lines");
    out.text = read_string(*text, "text");
  }
  out.options.pad_token_id = optional_token_id(r, "pad_token_id");
  out.options.eos_token_id = optional_token_id(r, "eos_token_id");
  out.options.end_of_turn_id = optional_token_id(r, "end_of_turn_id");
  if (const Json* v = r.get("encoder")) out.options.encoder = read_bool(*v, "encoder");
  if (const Json* v = r.get("prompt_completion")) out.options.prompt_completion = read_bool(*v, "prompt_completion");
  if (const Json* v = r.get("view")) {
    ObjectReader vr(*v, "view", {"rows", "from", "to"});
    DoctorView view;
    if (const Json* rows = vr.get("rows")) view.rows = read_int_list(*rows, "view.rows");
    if (const Json* from = vr.get("from")) view.from = read_int(*from, "view.from");
    if (const Json* to = vr.get("to")) view.to = read_int(*to, "view.to");
    if (view.rows.size() > static_cast<size_t>(kMaxViewRows))
      throw InputError("view.rows", "lists more than " + std::to_string(kMaxViewRows) + " rows");
    if (view.from < 0 || view.to < view.from || view.to - view.from > kMaxViewPositions)
      throw InputError("view", "needs 0 <= from <= to with at most " + std::to_string(kMaxViewPositions) +
                                   " positions between them");
    out.view = std::move(view);
  }
  return out;
}

}  // namespace

DoctorRequest decode_doctor(const Json& request) { return decode_fields(request, true); }
DoctorRequest decode_doctor_options(const Json& options) { return decode_fields(options, false); }

Json encode_doctor(const DoctorReport& report, const std::optional<DoctorView>& view) {
  Json findings = Json::array();
  for (const auto& f : report.findings) findings.push(encode_finding(f));
  Json skipped = Json::array();
  for (const auto& s : report.checks_skipped) {
    Json j = Json::object();
    j.set("id", Json::string(s.id)).set("needs", Json::string(s.needs));
    skipped.push(std::move(j));
  }
  Json out = Json::object();
  out.set("findings", std::move(findings))
      .set("checks_run", strings(report.checks_run))
      .set("checks_skipped", std::move(skipped))
      .set("figures", encode_figures(report.figures));
  if (view) {
    for (int b : view->rows)
      if (b < 0 || b >= report.batch.B)
        throw InputError("view.rows", "row " + std::to_string(b) + " is outside the " +
                                          std::to_string(report.batch.B) + " rows shown");
    out.set("batch", encode_view(report.batch, *view, report.options.pad_token_id));
  }
  return out;
}

}  // namespace masklab
