// test_training.cpp — does each bug show? Short native runs of the Train page's two runs
// (training.cpp), buggy collator against fixed, on the default settings (small model, seed 0,
// uniform mix, lr 3e-3) unless a case says otherwise. docs/semantics.md §9.5.
//
// Every threshold comes from what the bug does, explained where it is asserted; none is a number
// read off one run. Where a bug leaves the maths identical, the check is exact equality.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

#include "collate.hpp"
#include "synthetic_task.hpp"
#include "training.hpp"

using namespace masklab;

namespace {

struct Trained {
  std::unique_ptr<TrainRun> buggy, fixed;
  std::vector<StepFigures> buggy_steps, fixed_steps;
  EvalFigures buggy_start, fixed_start;  // before the first step
};

TrainSettings settings_for(TrainBug bug, int steps, DataMix mix = DataMix::Uniform) {
  TrainSettings s;
  s.bug = bug;
  s.steps = steps;
  s.mix = mix;
  return s;
}

Trained train(const TrainSettings& s) {
  Trained t;
  t.buggy = std::make_unique<TrainRun>(s, RunKind::Buggy);
  t.fixed = std::make_unique<TrainRun>(s, RunKind::Fixed);
  t.buggy_start = t.buggy->evaluate();
  t.fixed_start = t.fixed->evaluate();
  for (int i = 0; i < s.steps; ++i) {
    t.buggy_steps.push_back(t.buggy->step());
    t.fixed_steps.push_back(t.fixed->step());
  }
  return t;
}

double mean_of(const std::vector<StepFigures>& steps, int from, double StepFigures::*field) {
  double sum = 0;
  for (size_t i = from; i < steps.size(); ++i) sum += steps[i].*field;
  return sum / static_cast<double>(steps.size() - from);
}

bool ends_with_eos(const SampleFigures& s) { return !s.completion.empty() && s.completion.back() == task::kEos; }

// The correct answer for a task prompt: count sounds, then <eos>.
std::vector<int> answer_for(const std::vector<int>& prompt) {
  const int animal = prompt[1] - task::kFirstAnimal, count = prompt[2] - task::kFirstCount + 1;
  std::vector<int> out(count, task::kFirstSound + animal);
  out.push_back(task::kEos);
  return out;
}

}  // namespace

TEST_CASE("determinism: the same settings give the same curve bit for bit; both runs share batches and weights") {
  const TrainSettings s = settings_for(TrainBug::PadsTrained, 30);
  TrainRun a(s, RunKind::Buggy), b(s, RunKind::Buggy), fixed(s, RunKind::Fixed);
  CHECK(a.model().parameters() == fixed.model().parameters());  // same starting weights
  for (int i = 0; i < s.steps; ++i) {
    const StepFigures x = a.step(), y = b.step(), f = fixed.step();
    CHECK(x.train_loss == y.train_loss);
    CHECK(x.real_loss == y.real_loss);
    CHECK(x.real_targets == f.real_targets);  // the same rows, labelled the fixed way, in both runs
  }
  CHECK(a.model().parameters() == b.model().parameters());
  CHECK(a.evaluate().eval_loss == b.evaluate().eval_loss);
  TrainSettings other = s;
  other.seed = 1;
  TrainRun c(other, RunKind::Buggy);
  CHECK(c.step().train_loss != TrainRun(s, RunKind::Buggy).step().train_loss);
}

TEST_CASE("the learning rate decays linearly to 0, as the Trainer's default schedule") {
  TrainSettings s;
  s.steps = 4;
  s.lr = 0.004;
  CHECK(learning_rate_at(s, 0) == doctest::Approx(0.004));
  CHECK(learning_rate_at(s, 1) == doctest::Approx(0.003));
  CHECK(learning_rate_at(s, 3) == doctest::Approx(0.001));
  CHECK(learning_rate_at(s, 4) == 0.0);
}

TEST_CASE("pads_trained: the reported loss sits below the loss over real targets") {
  // labels = input_ids scores every pad. Its target is always <pad>, and the token before it is
  // <eos> or <pad>: a one-token rule the model learns in a few dozen steps, while a real target
  // needs the prompt read through attention. The reported loss is the count-weighted mix
  //   train = f·real + (1 - f)·pad_loss,   f = real targets / all targets,
  // so once pad_loss < real it lies below the real loss — the bug's signature — and it can never
  // lie below f·real (pad_loss >= 0). The fixed run scores no pad: its two numbers are one.
  const Trained t = train(settings_for(TrainBug::PadsTrained, 300));
  for (size_t i = 0; i < t.buggy_steps.size(); ++i) {
    const StepFigures& b = t.buggy_steps[i];
    const double f = static_cast<double>(b.real_targets) / b.targets;
    CAPTURE(b.step);
    CHECK(b.targets > b.real_targets);                    // pads are targets
    CHECK(b.train_loss >= f * b.real_loss - 1e-12);       // the mix identity: pad_loss >= 0
    if (b.step > 50) CHECK(b.train_loss < b.real_loss);   // after the pad rule is learnt
    CHECK(t.fixed_steps[i].train_loss == t.fixed_steps[i].real_loss);
    CHECK(t.fixed_steps[i].targets == t.fixed_steps[i].real_targets);
  }
}

TEST_CASE("pad_eos_masked: the buggy model never learns to stop; the fixed one does") {
  // pad == eos and labels masked where id == pad removes every <eos> target. <eos> is then never
  // a target anywhere, so every step's gradient only pushes its logit down: P(<eos>) after an
  // answer falls below where it started (the untrained model spreads mass evenly, so about 1/V).
  // With labels masked by position the end of an answer is always <eos>, and it is fully
  // determined by the prompt's count; a model that has learnt to stop puts most of its mass
  // there: above 1/2 means <eos> beats everything else together.
  const Trained t = train(settings_for(TrainBug::PadEosMasked, 300));
  const EvalFigures buggy = t.buggy->evaluate(), fixed = t.fixed->evaluate();
  CHECK(t.buggy_start.eos_prob_at_end == doctest::Approx(1.0 / task::kVocabSize).epsilon(0.2));
  CHECK(buggy.eos_prob_at_end < t.buggy_start.eos_prob_at_end);
  CHECK(buggy.eos_prob_at_end < 1.0 / task::kVocabSize);
  CHECK(fixed.eos_prob_at_end > 0.5);
  CHECK(buggy.eval_loss > fixed.eval_loss);  // the eval scores <eos>, which the buggy run never met
  // Greedy samples: the buggy model runs on to the token limit; the fixed one stops.
  for (const SampleFigures& s : t.buggy->samples()) {
    CHECK_FALSE(ends_with_eos(s));
    CHECK(s.completion.size() == static_cast<size_t>(kMaxNewTokens));
  }
  for (const SampleFigures& s : t.fixed->samples()) CHECK(ends_with_eos(s));
}

TEST_CASE("all_ones_mask with right padding: the two runs are identical, bit for bit") {
  // Under the causal mask a real query at t reads keys <= t, and every right pad is later than
  // every real token: no real position can read a pad whatever the padding mask says. Only pad
  // queries read differently, and their labels are -100, so no loss and no gradient differs.
  const Trained t = train(settings_for(TrainBug::AllOnesMask, 60));
  for (size_t i = 0; i < t.buggy_steps.size(); ++i) {
    CHECK(t.buggy_steps[i].train_loss == t.fixed_steps[i].train_loss);
    CHECK(t.buggy_steps[i].real_loss == t.fixed_steps[i].real_loss);
  }
  CHECK(t.buggy->model().parameters() == t.fixed->model().parameters());
  CHECK(t.buggy->evaluate().eval_loss == t.fixed->evaluate().eval_loss);

  // The bug is really there: in the last training batch a pad query reads pad keys (weight > 0)
  // in the buggy run and none in the fixed run. Weights are [B,H,T,T].
  auto pad_reads_pad = [](TrainRun& run) {
    const Batch& batch = run.last_batch();
    ModelInputs in;
    in.B = batch.B;
    in.T = batch.T;
    in.input_ids = batch.input_ids.data();
    in.attention_mask = batch.attention_mask.data();
    in.position_ids = batch.position_ids.data();
    run.model().forward(in);
    const auto& w = run.model().attention_weights(0);
    const int H = run.model().config().heads, T = batch.T;
    for (int b = 0; b < batch.B; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < T; ++i)
          for (int j = 0; j <= i; ++j)
            if (batch.is_pad[b * T + i] && batch.is_pad[b * T + j] && w[((b * H + h) * T + i) * T + j] > 0) return true;
    return false;
  };
  CHECK(pad_reads_pad(*t.buggy));
  CHECK_FALSE(pad_reads_pad(*t.fixed));
}

TEST_CASE("left_pad_arange_positions: the buggy model learns the wrong length; positions from the mask fix it") {
  // With arange positions a left-padded row's real tokens start at its pad count, so the only row
  // of a batch whose words sit at positions 0, 1, 2, … is its longest — a count-6 row in almost
  // every batch of 16 (1 - (5/6)^16 ≈ 95%). Evaluated and sampled the correct way (positions from
  // 0), the buggy model has learnt "a row at these positions has 6 sounds": every prompt whose
  // count is below 6 gets a wrong answer, and its eval loss ends above the fixed run's.
  const Trained t = train(settings_for(TrainBug::LeftPadArangePositions, 300));
  CHECK(t.buggy->evaluate().eval_loss > t.fixed->evaluate().eval_loss);
  for (const SampleFigures& s : t.buggy->samples()) {
    const std::vector<int> answer = answer_for(s.prompt);
    if (answer.size() - 1 < static_cast<size_t>(task::kMaxCount)) CHECK(s.completion != answer);
  }
  // The collators differ only in position_ids: same tokens, same mask, same labels.
  const Batch& b = t.buggy->last_batch();
  const Batch& f = t.fixed->last_batch();
  CHECK(b.input_ids == f.input_ids);
  CHECK(b.attention_mask == f.attention_mask);
  CHECK(b.labels == f.labels);
  CHECK(b.position_ids != f.position_ids);

  // With positions from the mask, left padding is exactly right padding: the pads are invisible
  // to every real token, the real tokens get the same positions, and the pads' own outputs are
  // never scored, so the run matches the plain right-padded recipe (every other bug's fixed run)
  // bit for bit.
  TrainRun right_padded(settings_for(TrainBug::PadsTrained, 300), RunKind::Fixed);
  for (const StepFigures& step : t.fixed_steps) {
    const StepFigures r = right_padded.step();
    CHECK(step.train_loss == r.train_loss);
  }
  CHECK(t.fixed->model().parameters() == right_padded.model().parameters());
}

TEST_CASE("prompt_trained: the reported loss keeps the prompt's randomness, and the model learns to write prompts") {
  // Without the completion mask the prompt's animal and count are targets. They are drawn at
  // random from the 60 training pairs (uniform mix: count 1/6, then one of the 10 animals that
  // train with it), so no model can predict them better than the pair's entropy, ln 60 nats per
  // row. The reported loss over a step is at least rows·ln 60 / targets in expectation; averaged
  // over 100 steps (1600 rows) the sampling noise is a few percent, hence the factor 0.9.
  const Trained t = train(settings_for(TrainBug::PromptTrained, 300));
  double floor = 0;
  for (size_t i = 200; i < t.buggy_steps.size(); ++i)
    floor += kTrainBatchRows * std::log(60.0) / t.buggy_steps[i].targets;
  floor /= 100;
  CHECK(mean_of(t.buggy_steps, 200, &StepFigures::train_loss) > 0.9 * floor);
  CHECK(mean_of(t.buggy_steps, 200, &StepFigures::real_loss) < 0.5 * floor);  // the answers are learnt
  for (const StepFigures& f : t.fixed_steps) CHECK(f.train_loss == f.real_loss);

  // Every training row has an animal right after <bos>, and the buggy run is trained on it: its
  // probabilities after "<bos>" go to the 12 animals. The fixed run is never asked there.
  auto animal_mass = [](TrainRun& run) {
    const std::vector<double> p = next_token_probabilities(run.model(), {task::kBos});
    double sum = 0;
    for (int a = 0; a < task::kAnimals; ++a) sum += p[task::kFirstAnimal + a];
    return sum;
  };
  CHECK(animal_mass(*t.buggy) > 0.9);
  CHECK(animal_mass(*t.fixed) < animal_mass(*t.buggy));
  const auto samples = t.buggy->samples();
  REQUIRE(samples.back().prompt == std::vector<int>{task::kBos});  // the extra "<bos>" prompt
  const std::vector<int>& written = samples.back().completion;
  REQUIRE(written.size() >= 3u);
  CHECK(written[0] >= task::kFirstAnimal);  // an animal, a count and ":" — a prompt
  CHECK(written[0] < task::kFirstSound);
  CHECK(written[1] >= task::kFirstCount);
  CHECK(written[2] == task::kColon);
}

TEST_CASE("token_vs_example_mean: the reported loss is the mean of row means, not the token mean") {
  // Rows have 2 to 7 answer targets, so averaging row means gives a short row's tokens up to 3.5
  // times the weight of a long row's. The two numbers differ whenever rows differ in length and
  // in loss — that is every step: 16 rows of one length has a chance below 1e-6 under the skewed
  // mix (2·(3/8)^16). The fixed run reports the token mean itself.
  const Trained t = train(settings_for(TrainBug::TokenVsExampleMean, 60, DataMix::Skewed));
  int differ = 0;
  for (size_t i = 0; i < t.buggy_steps.size(); ++i) {
    differ += std::abs(t.buggy_steps[i].train_loss - t.buggy_steps[i].real_loss) > 1e-9 ? 1 : 0;
    CHECK(t.fixed_steps[i].train_loss == t.fixed_steps[i].real_loss);
    CHECK(t.buggy_steps[i].targets == t.buggy_steps[i].real_targets);  // same targets, other weights
  }
  CHECK(differ == static_cast<int>(t.buggy_steps.size()));
  // The weights behind the two numbers: 1/(B·N_b) per target of row b against 1/N for all.
  const StepFigures& b = t.buggy_steps.back();
  const StepFigures& f = t.fixed_steps.back();
  REQUIRE(b.group_targets.size() == static_cast<size_t>(kTrainBatchRows));
  double total = 0;
  for (size_t r = 0; r < b.group_targets.size(); ++r) {
    CHECK(b.group_weights[r] == doctest::Approx(1.0 / (kTrainBatchRows * b.group_targets[r])));
    CHECK(f.group_weights[r] == doctest::Approx(1.0 / f.targets));
    total += b.group_weights[r] * b.group_targets[r];
  }
  CHECK(total == doctest::Approx(1.0));  // every reduction's weights sum to one over the targets
}

TEST_CASE("grad_accum_mean_of_means: the logged loss is the mean of micro-batch means, not the step's token mean") {
  // Four micro-batches of four rows each: their target counts differ, so the mean of their means
  // weighs their tokens unequally (1/(4·N_i) instead of 1/ΣN). The fixed run divides each
  // micro-batch's sum by the step's total (num_items_in_batch): the same number as the token mean,
  // summed in another order (so equal to 1e-12, not bit for bit).
  // When all four counts happen to be equal, (1/4)·Σ S_i/N = ΣS_i/(4N): the bug vanishes.
  const Trained t = train(settings_for(TrainBug::GradAccumMeanOfMeans, 60, DataMix::Skewed));
  int unequal_steps = 0;
  for (size_t i = 0; i < t.buggy_steps.size(); ++i) {
    const StepFigures& b = t.buggy_steps[i];
    REQUIRE(b.groups_are_micro_batches);
    REQUIRE(b.group_targets.size() == 4u);
    const bool unequal = std::adjacent_find(b.group_targets.begin(), b.group_targets.end(), std::not_equal_to<int>()) !=
                         b.group_targets.end();
    // Each micro-batch's targets weigh 1/(4·N_i) in the buggy loss, 1/ΣN in the fixed one.
    for (size_t g = 0; g < 4; ++g) {
      CHECK(b.group_weights[g] == doctest::Approx(1.0 / (4 * b.group_targets[g])));
      CHECK(t.fixed_steps[i].group_weights[g] == doctest::Approx(1.0 / t.fixed_steps[i].targets));
    }
    const double gap = std::abs(b.train_loss - b.real_loss);
    CAPTURE(b.step);
    if (unequal) CHECK(gap > 1e-9);
    else CHECK(gap <= 1e-12 * b.real_loss);
    unequal_steps += unequal ? 1 : 0;
    CHECK(t.fixed_steps[i].train_loss == doctest::Approx(t.fixed_steps[i].real_loss).epsilon(1e-12));
  }
  CHECK(unequal_steps > 0);
}

TEST_CASE("advance() logs the mean of each window of log_every steps and evaluates at its end") {
  TrainSettings s = settings_for(TrainBug::PadsTrained, 7);
  s.log_every = 3;
  TrainRun logged(s, RunKind::Buggy), stepped(s, RunKind::Buggy);
  std::vector<LogLine> lines;
  while (!logged.finished())
    if (auto line = logged.advance()) lines.push_back(*line);
  std::vector<StepFigures> steps;
  for (int i = 0; i < 7; ++i) steps.push_back(stepped.step());
  REQUIRE(lines.size() == 3u);  // steps 3, 6 and the last, 7
  CHECK(lines[0].step == 3);
  CHECK(lines[1].step == 6);
  CHECK(lines[2].step == 7);
  CHECK(lines[0].train_loss == doctest::Approx((steps[0].train_loss + steps[1].train_loss + steps[2].train_loss) / 3));
  CHECK(lines[2].real_loss == steps[6].real_loss);
  CHECK(lines[2].eval_loss == stepped.evaluate().eval_loss);
}
