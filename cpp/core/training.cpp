// training.cpp — see training.hpp.
#include "training.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "collate.hpp"
#include "figures.hpp"
#include "input_error.hpp"
#include "json.hpp"
#include "loss.hpp"

namespace masklab {

namespace {

// Independent random streams of one seed: adding draws to one never shifts another.
constexpr std::uint64_t kDataStream = 1;
constexpr std::uint64_t kWeightStream = 2;
constexpr int kSamplePrompts = 4;

std::vector<Feature> without_completion_mask(std::vector<Feature> features) {
  for (Feature& f : features) f.completion_mask.reset();
  return features;
}

ModelInputs inputs_of(const Batch& batch) {
  ModelInputs in;
  in.B = batch.B;
  in.T = batch.T;
  in.input_ids = batch.input_ids.data();
  in.attention_mask = batch.has_attention_mask ? batch.attention_mask.data() : nullptr;
  in.position_ids = batch.position_ids.data();
  return in;
}

LossInput loss_input(const std::vector<float>& logits, const Batch& batch, const std::vector<int>& labels, int V,
                     Reduction reduction, bool gradient) {
  LossInput in;
  in.B = batch.B;
  in.T = batch.T;
  in.V = V;
  in.logits.assign(logits.begin(), logits.end());
  in.labels = labels;
  in.reduction = reduction;
  in.gradient = gradient;
  return in;
}

int count_targets(const Batch& batch, const CollateOptions& options) {
  int n = 0;
  for (int b = 0; b < batch.B; ++b) n += row_figures(batch, b, options).targets;
  return n;
}

// Evaluation and sampling collate the correct way whatever the run's recipe: right padding,
// mask from lengths, labels by position, only the answer scored.
CollateOptions eval_options(const RunRecipe& fixed) {
  CollateOptions o = fixed.collate;
  o.padding_side = Side::Right;
  o.attention_mask_policy = AttentionMaskPolicy::FromLengths;
  o.label_policy = LabelPolicy::MaskPadding;
  o.position_ids = PositionPolicy::Arange;
  return o;
}

std::vector<double> softmax_row(const float* logits, int V) {
  std::vector<double> p(V);
  double m = logits[0];
  for (int v = 1; v < V; ++v) m = std::max(m, static_cast<double>(logits[v]));
  double z = 0;
  for (int v = 0; v < V; ++v) z += (p[v] = std::exp(static_cast<double>(logits[v]) - m));
  for (double& x : p) x /= z;
  return p;
}

int argmax(const std::vector<double>& p, std::size_t offset, int V) {
  int best = 0;
  for (int v = 1; v < V; ++v)
    if (p[offset + v] > p[offset + best]) best = v;  // ties go to the lower id
  return best;
}

}  // namespace

const std::vector<std::string_view>& model_size_names() {
  static const std::vector<std::string_view> names = {"tiny", "small", "medium"};
  return names;
}

ModelConfig model_config(ModelSize size) {
  ModelConfig c;
  c.vocab_size = task::kVocabSize;
  c.context = 16;  // the longest row (11) plus room for samples that run on
  switch (size) {
    case ModelSize::Tiny: c.layers = 1, c.width = 32, c.heads = 2; break;
    case ModelSize::Small: c.layers = 2, c.width = 32, c.heads = 2; break;
    case ModelSize::Medium: c.layers = 2, c.width = 64, c.heads = 4; break;
  }
  return c;
}

const std::vector<std::string_view>& data_mix_names() {
  static const std::vector<std::string_view> names = {"uniform", "skewed"};
  return names;
}

void validate_train_settings(const TrainSettings& s) {
  if (s.steps < 1 || s.steps > kMaxTrainSteps)
    throw InputError("steps", "is " + std::to_string(s.steps) + "; expected 1 to " + std::to_string(kMaxTrainSteps));
  if (!(s.lr > 0) || !(s.lr <= kMaxLearningRate) || !std::isfinite(s.lr))
    throw InputError("lr", "is " + format_number(s.lr) + "; expected a learning rate above 0 and at most 0.1");
  if (s.log_every < 1 || s.log_every > s.steps)
    throw InputError("log_every", "is " + std::to_string(s.log_every) + "; expected 1 to steps (" +
                                      std::to_string(s.steps) + ")");
}

double learning_rate_at(const TrainSettings& s, int step) {
  return s.lr * static_cast<double>(std::max(0, s.steps - step)) / static_cast<double>(s.steps);
}

TrainRun::TrainRun(const TrainSettings& settings, RunKind kind)
    : settings_(settings),
      split_(split_task(settings.seed)),
      data_random_(Random(settings.seed).fork(kDataStream)),
      model_(model_config(settings.model)),
      optimizer_(model_.parameters().size(), AdamWOptions{}) {
  validate_train_settings(settings);
  const BugRecipes recipes = bug_recipes(settings.bug);
  recipe_ = kind == RunKind::Buggy ? recipes.buggy : recipes.fixed;
  fixed_recipe_ = recipes.fixed;
  Random weights = Random(settings.seed).fork(kWeightStream);
  model_.initialize(weights);
}

StepFigures TrainRun::step() {
  const int V = model_.config().vocab_size;
  const std::vector<Feature> rows = draw_batch(data_random_, split_, settings_.mix, kTrainBatchRows);
  const int G = recipe_.micro_batches;
  const int per_micro = kTrainBatchRows / G;

  // Collate every micro-batch first: the global token mean needs the step's target count before
  // the first backward pass (the Trainer counts num_items_in_batch the same way, up front).
  std::vector<Batch> batches, fixed_batches;
  std::vector<int> micro_targets;
  int targets = 0, real_targets = 0;
  for (int g = 0; g < G; ++g) {
    std::vector<Feature> chunk(rows.begin() + g * per_micro, rows.begin() + (g + 1) * per_micro);
    batches.push_back(collate(recipe_.completion_only ? chunk : without_completion_mask(chunk), recipe_.collate));
    fixed_batches.push_back(collate(chunk, fixed_recipe_.collate));
    micro_targets.push_back(count_targets(batches.back(), recipe_.collate));
    targets += micro_targets.back();
    real_targets += count_targets(fixed_batches.back(), fixed_recipe_.collate);
  }
  last_batch_ = batches.front();

  model_.zero_gradients();
  double reported = 0, real_sum = 0;
  for (int g = 0; g < G; ++g) {
    const Batch& batch = batches[g];
    const std::vector<float>& logits = model_.forward(inputs_of(batch));

    LossInput in = loss_input(logits, batch, batch.labels, V, recipe_.reduction, true);
    double scale = 1;  // d(step loss) / d(this micro-batch's loss)
    if (G > 1 && recipe_.mean_of_means) {
      in.reduction = Reduction::Mean;
      scale = 1.0 / G;
    } else if (G > 1) {
      in.reduction = Reduction::SumOverNumItems;
      in.num_items_in_batch = targets;
    }
    const LossResult loss = cross_entropy(in);
    if (!loss.loss) throw InputError("bug", "the batch of step " + std::to_string(steps_done_ + 1) +
                                                " has no loss: " + loss.null_reason);
    reported += *loss.loss * scale;

    LossInput real = loss_input(logits, batch, fixed_batches[g].labels, V, Reduction::Sum, false);
    real_sum += cross_entropy(real).sum;

    std::vector<float> dlogits(loss.gradient.size());
    for (std::size_t i = 0; i < dlogits.size(); ++i) dlogits[i] = static_cast<float>(loss.gradient[i] * scale);
    model_.backward(dlogits);
  }

  StepFigures f;
  f.grad_norm = clip_gradient_norm(model_.gradients(), kMaxGradNorm);
  f.learning_rate = learning_rate_at(settings_, steps_done_);
  optimizer_.step(model_.parameters(), model_.gradients(), model_.decay_mask(), f.learning_rate);
  f.step = ++steps_done_;
  f.train_loss = reported;
  f.real_loss = real_sum / real_targets;
  f.targets = targets;
  f.real_targets = real_targets;
  f.groups_are_micro_batches = G > 1;
  if (G > 1) {
    f.group_targets = micro_targets;
    for (int n : micro_targets) f.group_weights.push_back(recipe_.mean_of_means ? 1.0 / (G * n) : 1.0 / targets);
  } else {
    const Batch& batch = batches.front();
    for (int b = 0; b < batch.B; ++b) {
      const int n = row_figures(batch, b, recipe_.collate).targets;
      f.group_targets.push_back(n);
      f.group_weights.push_back(recipe_.reduction == Reduction::PerExampleMean ? 1.0 / (batch.B * n) : 1.0 / targets);
    }
  }
  last_step_ = f;
  return f;
}

std::optional<LogLine> TrainRun::advance() {
  const StepFigures f = step();
  window_train_ += f.train_loss;
  window_real_ += f.real_loss;
  ++window_steps_;
  if (f.step % settings_.log_every != 0 && f.step != settings_.steps) return std::nullopt;
  const EvalFigures e = evaluate();
  LogLine line{f.step, window_train_ / window_steps_, window_real_ / window_steps_, e.eval_loss, e.eos_prob_at_end};
  window_train_ = window_real_ = 0;
  window_steps_ = 0;
  return line;
}

EvalFigures TrainRun::evaluate() {
  const int V = model_.config().vocab_size;
  std::vector<Feature> rows;
  for (const TaskPair& p : split_.eval) rows.push_back(task_feature(p));
  const CollateOptions options = eval_options(fixed_recipe_);
  const Batch batch = collate(rows, options);
  const std::vector<float>& logits = model_.forward(inputs_of(batch));

  EvalFigures e;
  const LossResult loss = cross_entropy(loss_input(logits, batch, batch.labels, V, Reduction::Mean, false));
  e.eval_loss = *loss.loss;  // every eval row has answer targets
  double eos = 0;
  for (int b = 0; b < batch.B; ++b) {
    const int last_word = task::kPromptLength + split_.eval[b].count - 1;  // its next token is <eos>
    eos += softmax_row(&logits[(static_cast<std::size_t>(b) * batch.T + last_word) * V], V)[task::kEos];
  }
  e.eos_prob_at_end = eos / batch.B;
  return e;
}

std::vector<double> next_token_probabilities(Transformer<float>& model, const std::vector<int>& ids) {
  const int n = static_cast<int>(ids.size());
  const int V = model.config().vocab_size;
  std::vector<int> positions(n);
  for (int t = 0; t < n; ++t) positions[t] = t;
  ModelInputs in;
  in.B = 1;
  in.T = n;
  in.input_ids = ids.data();
  in.position_ids = positions.data();
  const std::vector<float>& logits = model.forward(in);
  std::vector<double> probs;
  probs.reserve(static_cast<std::size_t>(n) * V);
  for (int t = 0; t < n; ++t) {
    std::vector<double> row = softmax_row(&logits[static_cast<std::size_t>(t) * V], V);
    probs.insert(probs.end(), row.begin(), row.end());
  }
  return probs;
}

std::vector<std::vector<int>> sample_prompts(const TrainSettings& settings, const TaskSplit& split) {
  std::vector<std::vector<int>> prompts;
  for (int i = 0; i < kSamplePrompts && i < static_cast<int>(split.eval.size()); ++i)
    prompts.push_back(task_prompt(split.eval[i]));
  if (settings.bug == TrainBug::PromptTrained) prompts.push_back({task::kBos});
  return prompts;
}

std::vector<SampleFigures> TrainRun::samples() {
  const int V = model_.config().vocab_size;
  std::vector<SampleFigures> out;
  const auto prompts = sample_prompts(settings_, split_);
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    SampleFigures s;
    s.prompt = prompts[i];
    std::vector<int> ids = s.prompt;
    for (int k = 0; k < kMaxNewTokens; ++k) {
      const std::vector<double> probs = next_token_probabilities(model_, ids);
      const int next = argmax(probs, (ids.size() - 1) * V, V);
      ids.push_back(next);
      s.completion.push_back(next);
      if (next == task::kEos) break;
    }
    if (i < split_.eval.size() && s.prompt.size() == static_cast<std::size_t>(task::kPromptLength)) {
      const Feature correct = task_feature(split_.eval[i]);
      s.answer.assign(correct.input_ids.begin() + task::kPromptLength, correct.input_ids.end());
      const std::vector<double> probs = next_token_probabilities(model_, correct.input_ids);
      const std::size_t n = correct.input_ids.size();  // ... last word, <eos>
      s.probs_at_end.assign(probs.begin() + (n - 2) * V, probs.begin() + (n - 1) * V);
      s.probs_after_eos.assign(probs.begin() + (n - 1) * V, probs.begin() + n * V);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace masklab
