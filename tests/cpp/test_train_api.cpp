// test_train_api.cpp — `masklab train`'s settings and lines (train_api.cpp): defaults, every bad
// field named in the error, and the JSON-lines contract of issue 9 (one line per logged step and
// run, then one "final" line with eval_loss and eos_prob_at_end).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixtures.hpp"
#include "json.hpp"
#include "train_api.hpp"

using namespace masklab;
using masklab::test::contains;

namespace {

ApiResult run(const std::string& json, std::vector<std::string>* lines = nullptr) {
  return run_train_command(json, [&](std::string_view line) {
    if (lines) lines->emplace_back(line);
  });
}

}  // namespace

TEST_CASE("train settings: defaults, and every name the CLI accepts") {
  const TrainSettings s = decode_train_settings(parse_json(R"({"bug": "pads_trained"})"));
  CHECK(s.bug == TrainBug::PadsTrained);
  CHECK(s.steps == 300);
  CHECK(s.seed == 0u);
  CHECK(s.lr == 3e-3);
  CHECK(s.model == ModelSize::Small);
  CHECK(s.mix == DataMix::Uniform);
  CHECK(s.log_every == 10);
  for (std::string_view bug : train_bug_names())
    CHECK(parse_train_bug(bug).has_value());
  CHECK(train_bug_names().size() == 7u);
  const TrainSettings short_run = decode_train_settings(parse_json(R"({"bug": "pads_trained", "steps": 4})"));
  CHECK(short_run.log_every == 4);  // the default never exceeds the run
}

TEST_CASE("bad train settings name the field and what was expected") {
  struct Case {
    const char* json;
    const char* field;
    const char* words;
  };
  const Case cases[] = {
      {R"({})", "bug", "is missing"},
      {R"({"bug": "pad_is_eos"})", "bug", "pad_eos_masked"},
      {R"({"bug": "pads_trained", "steps": 0})", "steps", "expected 1 to 3000"},
      {R"({"bug": "pads_trained", "steps": 3001})", "steps", "expected 1 to 3000"},
      {R"({"bug": "pads_trained", "steps": 2.5})", "steps", "integer"},
      {R"({"bug": "pads_trained", "lr": 0})", "lr", "above 0"},
      {R"({"bug": "pads_trained", "lr": 0.5})", "lr", "at most 0.1"},
      {R"({"bug": "pads_trained", "seed": -1})", "seed", ">= 0"},
      {R"({"bug": "pads_trained", "model": "huge"})", "model", "tiny"},
      {R"({"bug": "pads_trained", "mix": "long"})", "mix", "skewed"},
      {R"({"bug": "pads_trained", "steps": 20, "log_every": 21})", "log_every", "expected 1 to steps (20)"},
      {R"({"bug": "pads_trained", "batch": 8})", "batch", "is not a field here"},
      {R"({"bug": "pads_trained",)", "json", "line 1"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> lines;
    const ApiResult r = run(c.json, &lines);
    CAPTURE(c.json);
    CHECK_FALSE(r.ok);
    CHECK(r.field == c.field);
    CHECK(contains(r.message, c.words));
    CHECK(lines.empty());  // nothing is printed before the settings are known to be good
  }
}

TEST_CASE("the lines: buggy then fixed per logged step, then one final line with both runs") {
  std::vector<std::string> lines;
  const ApiResult r = run(R"({"bug": "pad_eos_masked", "steps": 5, "log_every": 2})", &lines);
  REQUIRE(r.ok);
  REQUIRE(lines.size() == 7u);  // steps 2, 4 and 5 (the last), two runs each, then the final line
  const int steps[] = {2, 2, 4, 4, 5, 5};
  for (int i = 0; i < 6; ++i) {
    const Json line = parse_json(lines[i]);
    CHECK(line.members().size() == 5u);
    CHECK(line.find("step")->as_number() == steps[i]);
    CHECK(line.find("run")->as_string() == (i % 2 == 0 ? "buggy" : "fixed"));
    for (const char* key : {"train_loss", "real_loss", "eval_loss"}) CHECK(line.find(key)->as_number() > 0);
  }
  const Json last = parse_json(lines.back());
  const Json* final = last.find("final");
  REQUIRE(final);
  for (const char* run_name : {"buggy", "fixed"}) {
    const Json* run_json = final->find(run_name);
    REQUIRE(run_json);
    CHECK(run_json->find("steps")->as_number() == 5);
    CHECK(run_json->find("eval_loss")->as_number() == parse_json(lines[run_name[0] == 'b' ? 4 : 5]).find("eval_loss")->as_number());
    const double eos = run_json->find("eos_prob_at_end")->as_number();
    CHECK(eos > 0);
    CHECK(eos < 1);
    CHECK(run_json->find("samples")->items().size() == 4u);
    CHECK(contains(run_json->find("samples")->items()[0].find("prompt")->as_string(), "<bos> "));
  }
}
