// train_api.cpp — see train_api.hpp.
#include "train_api.hpp"

#include <algorithm>
#include <string>

#include "api_guard.hpp"
#include "input_error.hpp"
#include "json_fields.hpp"
#include "limits.hpp"

namespace masklab {

namespace {

std::string words(const std::vector<int>& ids) {
  const auto& vocab = task_vocabulary();
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? " " : "") + vocab[ids[i]];
  return s;
}

const char* run_name(RunKind run) { return run == RunKind::Buggy ? "buggy" : "fixed"; }

}  // namespace

TrainSettings decode_train_settings(const Json& request) {
  ObjectReader r(request, "", {"bug", "steps", "seed", "lr", "model", "mix", "log_every"});
  TrainSettings s;
  const Json* bug = r.get("bug");
  if (!bug)
    throw InputError("bug", "is missing; expected one of pads_trained, pad_eos_masked, all_ones_mask, "
                            "left_pad_arange_positions, prompt_trained, token_vs_example_mean, grad_accum_mean_of_means");
  s.bug = static_cast<TrainBug>(read_choice(*bug, "bug", train_bug_names()));
  if (const Json* v = r.get("steps")) s.steps = read_int(*v, "steps");
  if (const Json* v = r.get("seed")) {
    const int seed = read_int(*v, "seed");
    if (seed < 0) throw InputError("seed", "is " + std::to_string(seed) + "; expected a whole number >= 0");
    s.seed = static_cast<std::uint64_t>(seed);
  }
  if (const Json* v = r.get("lr")) s.lr = read_number(*v, "lr");
  if (const Json* v = r.get("model")) s.model = static_cast<ModelSize>(read_choice(*v, "model", model_size_names()));
  if (const Json* v = r.get("mix")) s.mix = static_cast<DataMix>(read_choice(*v, "mix", data_mix_names()));
  s.log_every = std::min(10, s.steps);
  if (const Json* v = r.get("log_every")) s.log_every = read_int(*v, "log_every");
  validate_train_settings(s);
  return s;
}

TrainSettings parse_train_settings(std::string_view settings_json) {
  limit_request("json", "bytes", settings_json.size(), kMaxTrainSettingsBytes);
  return decode_train_settings(parse_json(settings_json, JsonLimits{kMaxTrainSettingsValues, "the settings"}));
}

Json encode_log_line(const LogLine& line, RunKind run) {
  return Json::object()
      .set("step", Json::number(line.step))
      .set("run", Json::string(run_name(run)))
      .set("train_loss", Json::number(line.train_loss))
      .set("real_loss", Json::number(line.real_loss))
      .set("eval_loss", Json::number(line.eval_loss));
}

Json encode_final_run(const TrainRun& run, const LogLine& last, std::vector<SampleFigures> samples) {
  Json list = Json::array();
  for (const SampleFigures& s : samples)
    list.push(Json::object().set("prompt", Json::string(words(s.prompt))).set("completion", Json::string(words(s.completion))));
  return Json::object()
      .set("steps", Json::number(run.steps_done()))
      .set("train_loss", Json::number(last.train_loss))
      .set("real_loss", Json::number(last.real_loss))
      .set("eval_loss", Json::number(last.eval_loss))
      .set("eos_prob_at_end", Json::number(last.eos_prob_at_end))
      .set("samples", std::move(list));
}

ApiResult run_train_command(std::string_view request_json, const std::function<void(std::string_view)>& emit_line) {
  return guarded([&] {
    const TrainSettings settings = parse_train_settings(request_json);
    TrainRun buggy(settings, RunKind::Buggy), fixed(settings, RunKind::Fixed);
    LogLine last_buggy, last_fixed;
    while (!buggy.finished()) {
      const std::optional<LogLine> b = buggy.advance();
      const std::optional<LogLine> f = fixed.advance();
      if (b) emit_line(to_json(encode_log_line(last_buggy = *b, RunKind::Buggy)));
      if (f) emit_line(to_json(encode_log_line(last_fixed = *f, RunKind::Fixed)));
    }
    Json runs = Json::object();
    runs.set("buggy", encode_final_run(buggy, last_buggy, buggy.samples()));
    runs.set("fixed", encode_final_run(fixed, last_fixed, fixed.samples()));
    emit_line(to_json(Json::object().set("final", std::move(runs))));
    ApiResult r;
    r.ok = true;
    return r;
  });
}

}  // namespace masklab
