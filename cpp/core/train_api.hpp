// train_api.hpp — `masklab train`: JSON settings in, JSON lines out.
//
//   {"bug": "pad_eos_masked", "steps": 300, "seed": 0, "lr": 0.003, "model": "small",
//    "mix": "uniform", "log_every": 10}
//
// emits, for every logged step, one line per run (buggy first):
//   {"step":10,"run":"buggy","train_loss":…,"real_loss":…,"eval_loss":…}
// and a last line
//   {"final":{"buggy":{"steps":…,"train_loss":…,"real_loss":…,"eval_loss":…,"eos_prob_at_end":…,
//                      "samples":[{"prompt":"<bos> cat 1 :","completion":"meow <eos>"},…]},
//             "fixed":{…}}}
//
// Kept apart from run_command (api.hpp) on purpose: that answers one request with one JSON
// value, this one streams, and the site's main WebAssembly module should not carry the training
// code (the Train page runs it in its own module, cpp/bindings/train_embind.cpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "api.hpp"
#include "json.hpp"
#include "training.hpp"

namespace masklab {

// Throws InputError naming the field. Fields not listed above are refused.
TrainSettings decode_train_settings(const Json& request);

// The settings' text as every entry point reads it (CLI, the Train page's module, the fuzz
// target): at most kMaxTrainSettingsBytes, and few values, both refused before the parse is done
// (limits.hpp); then decode_train_settings. A run's work is bounded by the settings themselves
// (steps ≤ kMaxTrainSteps, a model size from a fixed list).
constexpr size_t kMaxTrainSettingsBytes = 64u << 10;  // a settings object is a few dozen bytes
constexpr size_t kMaxTrainSettingsValues = 256;
TrainSettings parse_train_settings(std::string_view settings_json);

Json encode_log_line(const LogLine& line, RunKind run);
Json encode_final_run(const TrainRun& run, const LogLine& last, std::vector<SampleFigures> samples);

// Trains both runs, calling emit_line with each line (no newline). Never throws: bad settings
// come back as a failed ApiResult before any line is emitted; ok results carry no json.
ApiResult run_train_command(std::string_view request_json, const std::function<void(std::string_view)>& emit_line);

}  // namespace masklab
