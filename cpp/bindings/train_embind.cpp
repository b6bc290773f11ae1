// The Train page's WebAssembly module (masklab_train.mjs), run inside a Web Worker: one training
// run per module instance, driven step by step so the worker can answer "pause" between chunks.
//
// Thin on purpose, like embind.cpp: the core does the work (training.hpp, train_api.hpp); this
// file only moves values across. Settings come in as the same JSON the CLI reads; figures, token
// ids and probabilities go out as fresh typed arrays (copied out of the wasm heap with slice(), so
// they survive later calls and can be transferred to the page). Errors come back as
// { error: { field, message } }, never as a C++ exception.
//
//   start(settingsJson, "buggy" | "fixed") -> JSON {steps, log_every, vocab, parameters, layers,
//                          width, heads, context, batch_rows, max_new_tokens} | {error}
//   advance(maxSteps)    -> { lines: Float64Array [step, train_loss, real_loss, eval_loss,
//                            eos_prob_at_end] per logged step, stepsDone } | { error }
//   lastBatch()          -> { B, T, input_ids, attention_mask, labels, position_ids } (Int32Array)
//                           of the last step's first micro-batch, and that step's weights:
//                           { groups: "rows" | "micro-batches", targets (Int32Array),
//                             weights (Float64Array): how much one target of each group counts }
//   samples()            -> { prompts, answers, completions (Int32Array, rows joined),
//                            promptLengths, answerLengths, completionLengths, probsAtEnd,
//                            probsAfterEos (Float64Array, V per sample; NaN where the prompt has
//                            no correct answer) }
//   benchSteps(n)        -> milliseconds for n more steps, timed inside wasm (scripts/bench)

#include "train_api.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "input_error.hpp"

namespace {

using emscripten::val;

std::unique_ptr<masklab::TrainRun> current;

template <typename T>
val copy_out(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

val error_value(const std::string& field, const std::string& message) {
  val error = val::object();
  error.set("field", field);
  error.set("message", message);
  val out = val::object();
  out.set("error", error);
  return out;
}

std::string start(std::string settings_json, std::string kind) {
  try {
    if (kind != "buggy" && kind != "fixed") throw masklab::InputError("run", "must be \"buggy\" or \"fixed\"");
    const masklab::TrainSettings settings = masklab::parse_train_settings(settings_json);
    current = std::make_unique<masklab::TrainRun>(settings, kind == "buggy" ? masklab::RunKind::Buggy
                                                                              : masklab::RunKind::Fixed);
    using masklab::Json;
    Json vocab = Json::array();
    for (const std::string& word : masklab::task_vocabulary()) vocab.push(Json::string(word));
    const masklab::ModelConfig& model = current->model().config();
    return masklab::to_json(Json::object()
                                .set("steps", Json::number(settings.steps))
                                .set("log_every", Json::number(settings.log_every))
                                .set("parameters", Json::number(static_cast<double>(current->model().parameters().size())))
                                .set("layers", Json::number(model.layers))
                                .set("width", Json::number(model.width))
                                .set("heads", Json::number(model.heads))
                                .set("context", Json::number(model.context))
                                .set("batch_rows", Json::number(masklab::kTrainBatchRows))
                                .set("max_new_tokens", Json::number(masklab::kMaxNewTokens))
                                .set("vocab", std::move(vocab)));
  } catch (const masklab::InputError& e) {
    current.reset();
    return masklab::error_result(e.field, e.message).json;
  } catch (const std::exception& e) {
    current.reset();
    return masklab::error_result("", std::string("internal error: ") + e.what()).json;
  }
}

val advance(int max_steps) {
  if (!current) return error_value("run", "no run started");
  try {
    std::vector<double> lines;
    for (int i = 0; i < max_steps && !current->finished(); ++i)
      if (const auto line = current->advance())
        lines.insert(lines.end(), {static_cast<double>(line->step), line->train_loss, line->real_loss, line->eval_loss,
                                   line->eos_prob_at_end});
    val out = val::object();
    out.set("lines", copy_out(lines));
    out.set("stepsDone", current->steps_done());
    return out;
  } catch (const masklab::InputError& e) {
    return error_value(e.field, e.message);
  } catch (const std::exception& e) {
    return error_value("", std::string("internal error: ") + e.what());
  }
}

val last_batch() {
  if (!current) return val::null();
  const masklab::Batch& b = current->last_batch();
  val out = val::object();
  out.set("B", b.B);
  out.set("T", b.T);
  out.set("input_ids", copy_out(b.input_ids));
  out.set("attention_mask", copy_out(b.attention_mask));
  out.set("labels", copy_out(b.labels));
  out.set("position_ids", copy_out(b.position_ids));
  const masklab::StepFigures& step = current->last_step();
  val weights = val::object();
  weights.set("groups", std::string(step.groups_are_micro_batches ? "micro-batches" : "rows"));
  weights.set("targets", copy_out(step.group_targets));
  weights.set("weights", copy_out(step.group_weights));
  out.set("weights", weights);
  return out;
}

val samples() {
  if (!current) return error_value("run", "no run started");
  try {
    const int V = current->model().config().vocab_size;
    std::vector<int> prompts, answers, completions, prompt_lengths, answer_lengths, completion_lengths;
    std::vector<double> at_end, after_eos;
    for (const masklab::SampleFigures& s : current->samples()) {
      prompts.insert(prompts.end(), s.prompt.begin(), s.prompt.end());
      answers.insert(answers.end(), s.answer.begin(), s.answer.end());
      completions.insert(completions.end(), s.completion.begin(), s.completion.end());
      prompt_lengths.push_back(static_cast<int>(s.prompt.size()));
      answer_lengths.push_back(static_cast<int>(s.answer.size()));
      completion_lengths.push_back(static_cast<int>(s.completion.size()));
      for (const auto* probs : {&s.probs_at_end, &s.probs_after_eos}) {
        std::vector<double>& out = probs == &s.probs_at_end ? at_end : after_eos;
        if (probs->empty()) out.insert(out.end(), V, std::nan(""));
        else out.insert(out.end(), probs->begin(), probs->end());
      }
    }
    val out = val::object();
    out.set("prompts", copy_out(prompts));
    out.set("answers", copy_out(answers));
    out.set("completions", copy_out(completions));
    out.set("promptLengths", copy_out(prompt_lengths));
    out.set("answerLengths", copy_out(answer_lengths));
    out.set("completionLengths", copy_out(completion_lengths));
    out.set("probsAtEnd", copy_out(at_end));
    out.set("probsAfterEos", copy_out(after_eos));
    return out;
  } catch (const std::exception& e) {
    return error_value("", std::string("internal error: ") + e.what());
  }
}

// -1 if no run is started or a step fails, so a benchmark never reports an error path's speed.
double bench_steps(int steps) {
  if (!current) return -1;
  try {
    const double start_ms = emscripten_get_now();
    for (int i = 0; i < steps && !current->finished(); ++i) current->step();
    return emscripten_get_now() - start_ms;
  } catch (...) {
    return -1;
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(masklab_train) {
  emscripten::function("start", &start);
  emscripten::function("advance", &advance);
  emscripten::function("lastBatch", &last_batch);
  emscripten::function("samples", &samples);
  emscripten::function("benchSteps", &bench_steps);
}
