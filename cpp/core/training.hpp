// training.hpp — one training run of the Train page: the synthetic task, a collator recipe (the
// buggy or the fixed one), the tiny transformer, the loss and AdamW, step by step.
//
//   TrainRun run(settings, RunKind::Buggy);
//   for (int s = 0; s < settings.steps; ++s) StepFigures f = run.step();
//   EvalFigures e = run.evaluate();
//
// The buggy and the fixed run of the same settings see the same batches in the same order and
// start from the same weights; only the recipe differs (train_bugs.hpp), so any difference in
// their curves is the bug's. Deterministic: a seed gives the same numbers on every run.
// The rules are in docs/semantics.md §9. Not here: JSON (train_api.cpp), the model's maths
// (transformer.cpp), the collation rules (collate.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "adamw.hpp"
#include "random.hpp"
#include "synthetic_task.hpp"
#include "train_bugs.hpp"
#include "transformer.hpp"

namespace masklab {

enum class ModelSize { Tiny, Small, Medium };
const std::vector<std::string_view>& model_size_names();  // "tiny", "small", "medium"
ModelConfig model_config(ModelSize size);

const std::vector<std::string_view>& data_mix_names();  // "uniform", "skewed"

struct TrainSettings {
  TrainBug bug = TrainBug::PadEosMasked;
  int steps = 300;
  std::uint64_t seed = 0;
  double lr = 3e-3;  // peak learning rate; decays linearly to 0 (the Trainer's default schedule)
  ModelSize model = ModelSize::Small;
  DataMix mix = DataMix::Uniform;
  int log_every = 10;
};

constexpr int kTrainBatchRows = 16;    // examples per optimizer step
constexpr int kMaxTrainSteps = 3000;
constexpr int kMaxNewTokens = 10;      // greedy samples stop at EOS or after this many tokens
constexpr double kMaxGradNorm = 1.0;   // the Trainer's max_grad_norm
constexpr double kMaxLearningRate = 0.1;

// Throws InputError naming the field ("steps", "lr", "log_every", "seed") when out of range.
void validate_train_settings(const TrainSettings& settings);

// The learning rate of optimizer step `step` (0-based): lr · (steps - step) / steps, as
// transformers' get_linear_schedule_with_warmup with no warmup.
double learning_rate_at(const TrainSettings& settings, int step);

enum class RunKind { Buggy, Fixed };

struct StepFigures {
  int step = 0;            // 1-based: the number of optimizer steps taken so far
  double train_loss = 0;   // the loss as this run's trainer reports it (its reduction, its labels)
  double real_loss = 0;    // token mean over the targets the fixed collator trains, on the same logits
  int targets = 0;         // targets this run's labels score in the step (after the shift)
  int real_targets = 0;    // targets the fixed collator's labels score in the same rows
  // How much each target counts in this step's loss, by group: the rows of the batch, or the
  // micro-batches under gradient accumulation. group_weights[i] is d loss / d (one target's
  // token loss) for a target of group i: 1/N for the token mean, 1/(B·N_b) for the mean of row
  // means, 1/(G·N_i) for the mean of micro-batch means.
  bool groups_are_micro_batches = false;
  std::vector<int> group_targets;
  std::vector<double> group_weights;
  double grad_norm = 0;    // global gradient norm before clipping
  double learning_rate = 0;
};

struct EvalFigures {
  double eval_loss = 0;        // token mean over the eval rows' answer targets, collated correctly
  double eos_prob_at_end = 0;  // mean P(<eos>) right after the last answer word of each eval row
};

// One logged step, as the CLI prints it: the window's mean train and real loss (the Trainer logs
// the mean of the losses since its last log), and the eval figures after the window's last step.
struct LogLine {
  int step = 0;
  double train_loss = 0, real_loss = 0, eval_loss = 0, eos_prob_at_end = 0;
};

struct SampleFigures {
  std::vector<int> prompt;
  std::vector<int> answer;            // the correct completion (sounds, <eos>); empty for "<bos>" alone
  std::vector<int> completion;        // greedy; ends with <eos> if the model emitted it
  // Teacher-forced on the correct answer (empty when the prompt is not a task pair):
  std::vector<double> probs_at_end;   // [V] next-token probabilities where <eos> belongs
  std::vector<double> probs_after_eos;  // [V] after the correct <eos>
};

class TrainRun {
 public:
  TrainRun(const TrainSettings& settings, RunKind kind);

  StepFigures step();        // one optimizer step on the next batch
  // step(), and at every log_every-th step (and the last) the window's LogLine.
  std::optional<LogLine> advance();
  bool finished() const { return steps_done_ >= settings_.steps; }
  EvalFigures evaluate();    // on the eval split, with the current weights
  std::vector<SampleFigures> samples();  // the sample prompts (sample_prompts), greedy

  int steps_done() const { return steps_done_; }
  const TaskSplit& split() const { return split_; }
  const RunRecipe& recipe() const { return recipe_; }
  Transformer<float>& model() { return model_; }

  // The batch this run's collator built for the last step's first micro-batch, and that step.
  const Batch& last_batch() const { return last_batch_; }
  const StepFigures& last_step() const { return last_step_; }

 private:
  TrainSettings settings_;
  RunRecipe recipe_, fixed_recipe_;
  TaskSplit split_;
  Random data_random_;
  Transformer<float> model_;
  AdamW<float> optimizer_;
  int steps_done_ = 0;
  Batch last_batch_;
  StepFigures last_step_;
  double window_train_ = 0, window_real_ = 0;
  int window_steps_ = 0;
};

// The prompts samples() completes: the first four eval pairs, plus "<bos>" alone when the bug
// trains the prompt (a model that learnt prompts writes one).
std::vector<std::vector<int>> sample_prompts(const TrainSettings& settings, const TaskSplit& split);

// P(next token) for every position of one unpadded row: [n, V], computed in double from the
// model's logits (softmax with the max subtracted).
std::vector<double> next_token_probabilities(Transformer<float>& model, const std::vector<int>& ids);

}  // namespace masklab
