// test_doctor_fixtures.cpp — the doctor on the printed batches of tests/fixtures/doctor/, written
// out by hand as each collator prints them: every finding a fixture must produce (id, severity,
// rows, positions), none it must not, no error or warning on a clean fixture, and the figures
// worked out by hand in fixtures.json. Also: every exercise a finding can link to exists in
// content/exercises/, and the doctor command's JSON contract as the CLI and the page receive it.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "api.hpp"
#include "doctor.hpp"
#include "doctor_checks.hpp"
#include "fixtures.hpp"
#include "json.hpp"
#include "printed_batch.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

std::string source_path(const std::string& relative) { return std::string(MASKLAB_SOURCE_DIR) + "/" + relative; }

bool read_file(const std::string& path, std::string& out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
  std::fclose(f);
  return true;
}

std::vector<int> ints(const Json& list) {
  std::vector<int> out;
  for (const auto& x : list.items()) out.push_back(static_cast<int>(x.as_number()));
  return out;
}

std::vector<std::pair<int, int>> cells(const Json& list) {
  std::vector<std::pair<int, int>> out;
  for (const auto& pair : list.items())
    out.emplace_back(static_cast<int>(pair.items()[0].as_number()), static_cast<int>(pair.items()[1].as_number()));
  return out;
}

DoctorOptions options_of(const Json& o) {
  DoctorOptions options;
  if (const Json* v = o.find("pad_token_id")) options.pad_token_id = static_cast<int>(v->as_number());
  if (const Json* v = o.find("eos_token_id")) options.eos_token_id = static_cast<int>(v->as_number());
  if (const Json* v = o.find("end_of_turn_id")) options.end_of_turn_id = static_cast<int>(v->as_number());
  if (const Json* v = o.find("encoder")) options.encoder = v->as_bool();
  if (const Json* v = o.find("prompt_completion")) options.prompt_completion = v->as_bool();
  return options;
}

std::optional<int> figure(const DoctorFigures& f, const std::string& name) {
  if (name == "targets") return f.targets;
  if (name == "pad_targets") return f.pad_targets;
  if (name == "real_targets") return f.real_targets;
  if (name == "pads") return f.pads;
  FAIL("fixtures.json names a figure this test does not know: " << name);
  return std::nullopt;
}

}  // namespace

TEST_CASE("every fixture makes exactly the findings worked out by hand") {
  std::string manifest;
  REQUIRE(read_file(source_path("tests/fixtures/doctor/fixtures.json"), manifest));
  const Json m = parse_json(manifest);
  const Json& fixtures = *m.find("fixtures");
  REQUIRE(fixtures.items().size() >= 14u);
  int clean = 0;
  for (const Json& fx : fixtures.items()) {
    const std::string file = fx.find("file")->as_string();
    const DoctorOptions options = options_of(*fx.find("options"));
    CAPTURE(file);
    CAPTURE(to_json(*fx.find("options")));
    std::string text;
    REQUIRE(read_file(source_path("tests/fixtures/doctor/" + file), text));
    const DoctorReport r = diagnose(parse_printed_batch(text), options);
    for (const Json& must : fx.find("must")->items()) {
      const std::string id = must.find("id")->as_string();
      CAPTURE(id);
      const Finding* found = nullptr;
      for (const auto& f : r.findings)
        if (f.id == id) found = &f;
      REQUIRE_MESSAGE(found != nullptr, "missing finding " << id);
      CHECK(severity_name(found->severity) == must.find("severity")->as_string());
      CHECK(found->rows == ints(*must.find("rows")));
      CHECK(found->positions == cells(*must.find("positions")));
    }
    for (const Json& id : fx.find("must_not")->items())
      for (const auto& f : r.findings) CHECK_MESSAGE(f.id != id.as_string(), "unexpected finding " << f.id);
    if (fx.find("clean")->as_bool()) {
      ++clean;
      for (const auto& f : r.findings) CHECK_MESSAGE(f.severity == Severity::Info, "false alarm: " << f.id << ": " << f.message);
    }
    if (const Json* figures = fx.find("figures"))
      for (const auto& [name, value] : figures->members()) {
        CAPTURE(name);
        CHECK(figure(r.figures, name) == static_cast<int>(value.as_number()));
      }
  }
  CHECK(clean >= 7);  // a clean batch for each collator
}

TEST_CASE("every exercise a finding can link to exists in content/exercises/") {
  for (std::string_view id : doctor_exercise_ids()) {
    CAPTURE(id);
    std::string text;
    CHECK(read_file(source_path("content/exercises/" + std::string(id) + ".yaml"), text));
    CHECK(contains(text, "id: " + std::string(id)));
  }
}

TEST_SUITE("doctor command (run_command)") {
  TEST_CASE("the answer has exactly the four parts, and each finding exactly its seven fields") {
    Json request = Json::object();
    request.set("text", Json::string("{'input_ids': tensor([[5, 6, 2], [7, 2, 2]]), 'attention_mask': tensor([[1, 1, 1], "
                                     "[1, 1, 0]]), 'labels': tensor([[5, 6, -100], [7, -100, -100]])}"))
        .set("pad_token_id", Json::number(2))
        .set("eos_token_id", Json::number(2));
    const ApiResult r = run_command("doctor", to_json(request));
    REQUIRE(r.ok);
    const Json j = parse_json(r.json);
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.members()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"findings", "checks_run", "checks_skipped", "figures"});
    const Json& f = j.find("findings")->items().at(0);
    keys.clear();
    for (const auto& [k, v] : f.members()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"id", "severity", "rows", "positions", "message", "fix", "exercise"});
    CHECK(f.find("id")->as_string() == "eos-masked");
    CHECK(f.find("severity")->as_string() == "error");
    CHECK(to_json(*f.find("positions")) == "[[0,2],[1,1]]");
    const Json& skipped = j.find("checks_skipped")->items().at(0);
    keys.clear();
    for (const auto& [k, v] : skipped.members()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"id", "needs"});
  }

  TEST_CASE("a view returns that window of the batch for the grid, with label reasons") {
    const std::string request =
        R"({"text": "{'input_ids': tensor([[5, 6, 2], [7, 2, 2]]), 'attention_mask': tensor([[1, 1, 1], [1, 1, 0]]), )"
        R"('labels': tensor([[5, 6, -100], [7, -100, -100]])}", "pad_token_id": 2, "view": {"rows": [1], "from": 1, "to": 3}})";
    const ApiResult r = run_command("doctor", request);
    REQUIRE(r.ok);
    const Json batch = *parse_json(r.json).find("batch");
    CHECK(to_json(*batch.find("rows")) == "[1]");
    CHECK(to_json(*batch.find("positions")) == "[1,2]");
    CHECK(to_json(*batch.find("input_ids")) == "[[2,2]]");
    CHECK(to_json(*batch.find("is_pad")) == "[[0,1]]");
    CHECK(to_json(*batch.find("label_reasons")) == R"([["pad_id","padding"]])");
    CHECK(batch.find("position_ids")->is_null());
  }

  TEST_CASE("text it cannot read: field text, message with line and column") {
    const ApiResult r = run_command("doctor", R"({"text": "{'input_ids': tensor([[1, 2],\n  [3]])}"})");
    CHECK_FALSE(r.ok);
    CHECK(r.field == "text");
    CHECK(r.message == "line 2, column 3: this list has 1 items but the first one at this depth has 2; a printed tensor "
                       "is rectangular");
  }

  TEST_CASE("bad requests name the field") {
    ApiResult r = run_command("doctor", R"({"pad_token_id": 2})");
    CHECK(r.field == "text");
    CHECK(contains(r.message, "is missing"));
    r = run_command("doctor", R"({"text": "{'input_ids': [[1]]}", "pad_token_id": "2"})");
    CHECK(r.field == "pad_token_id");
    r = run_command("doctor", R"({"text": "{'input_ids': [[1]]}", "view": {"rows": [3], "from": 0, "to": 1}})");
    CHECK(r.field == "view.rows");
    CHECK(contains(r.message, "row 3 is outside the 1 rows shown"));
    r = run_command("doctor", R"({"text": "{'input_ids': [[1]]}", "view": {"rows": [0], "from": 0, "to": 9999}})");
    CHECK(r.field == "view");
    r = run_command("doctor", R"({"text": "{'input_ids': [[1]]}", "padding": "left"})");
    CHECK(r.field == "padding");
  }
}

TEST_CASE("hostile pastes: mutated fixtures are answered or refused with a line and column, never a crash") {
  // Deterministic mutations of every fixture — flipped, deleted, repeated and cut bytes — through
  // run_doctor, the entry a libFuzzer target calls with raw bytes.
  std::string manifest;
  REQUIRE(read_file(source_path("tests/fixtures/doctor/fixtures.json"), manifest));
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&](std::uint64_t n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<size_t>(state % n);
  };
  const char kBytes[] = "[](),.-0123456789 \n'\"{}:eTF\xff\x00";
  int answered = 0, refused = 0;
  const Json parsed = parse_json(manifest);
  for (const Json& fx : parsed.find("fixtures")->items()) {
    std::string text;
    REQUIRE(read_file(source_path("tests/fixtures/doctor/" + fx.find("file")->as_string()), text));
    for (int i = 0; i < 150; ++i) {
      std::string m = text;
      for (int edits = 1 + static_cast<int>(next(4)); edits > 0 && !m.empty(); --edits) {
        const size_t at = next(m.size());
        switch (next(4)) {
          case 0: m[at] = kBytes[next(sizeof kBytes - 1)]; break;
          case 1: m.erase(at, 1 + next(8)); break;
          case 2: m.insert(at, m.substr(at, 1 + next(16))); break;
          default: m.resize(at); break;
        }
      }
      const ApiResult r = run_doctor(m, R"({"pad_token_id": 2, "eos_token_id": 2})");
      if (r.ok) {
        ++answered;
      } else {
        ++refused;
        CAPTURE(m.substr(0, 200));
        CHECK(r.field == "text");
        CHECK(r.message.rfind("line ", 0) == 0);
      }
    }
  }
  CHECK(answered > 0);
  CHECK(refused > 0);
}
