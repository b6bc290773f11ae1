// synthetic_task.cpp — see synthetic_task.hpp.
#include "synthetic_task.hpp"

#include <array>

namespace masklab {

namespace {

constexpr std::array<const char*, task::kAnimals> kAnimalNames = {"cat", "dog", "cow", "duck",
                                                                  "sheep", "owl", "frog", "bee",
                                                                  "pig", "horse", "lion", "mouse"};
constexpr std::array<const char*, task::kAnimals> kSoundNames = {"meow", "woof", "moo", "quack",
                                                                 "baa", "hoot", "croak", "buzz",
                                                                 "oink", "neigh", "roar", "squeak"};

// Relative frequency of each count 1..kMaxCount under DataMix::Skewed: 12 of 16 rows are short.
constexpr std::array<int, task::kMaxCount> kSkewedWeights = {8, 4, 1, 1, 1, 1};

int draw_count(Random& random, DataMix mix) {
  if (mix == DataMix::Uniform) return 1 + random.below(task::kMaxCount);
  int total = 0;
  for (int w : kSkewedWeights) total += w;
  int r = random.below(total);
  for (int n = 0; n < task::kMaxCount; ++n) {
    if (r < kSkewedWeights[n]) return n + 1;
    r -= kSkewedWeights[n];
  }
  return task::kMaxCount;
}

}  // namespace

const std::vector<std::string>& task_vocabulary() {
  static const std::vector<std::string> vocab = [] {
    std::vector<std::string> v = {"<pad>", "<bos>", "<eos>", ":"};
    for (const char* a : kAnimalNames) v.emplace_back(a);
    for (const char* s : kSoundNames) v.emplace_back(s);
    for (int n = 1; n <= task::kMaxCount; ++n) v.push_back(std::to_string(n));
    return v;
  }();
  return vocab;
}

std::vector<int> task_prompt(TaskPair pair) {
  return {task::kBos, task::kFirstAnimal + pair.animal, task::kFirstCount + pair.count - 1, task::kColon};
}

Feature task_feature(TaskPair pair) {
  Feature f;
  f.input_ids = task_prompt(pair);
  f.input_ids.insert(f.input_ids.end(), pair.count, task::kFirstSound + pair.animal);
  f.input_ids.push_back(task::kEos);
  std::vector<int> mask(f.input_ids.size(), 1);
  for (int t = 0; t < task::kPromptLength; ++t) mask[t] = 0;
  f.completion_mask = std::move(mask);
  return f;
}

TaskSplit split_task(std::uint64_t seed) {
  const int shift = static_cast<int>(seed % task::kMaxCount);
  TaskSplit split;
  for (int a = 0; a < task::kAnimals; ++a) {
    const int held_out = 1 + (a + shift) % task::kMaxCount;
    split.eval.push_back({a, held_out});
    for (int n = 1; n <= task::kMaxCount; ++n)
      if (n != held_out) split.train.push_back({a, n});
  }
  return split;
}

std::vector<Feature> draw_batch(Random& random, const TaskSplit& split, DataMix mix, int rows) {
  std::vector<Feature> batch;
  batch.reserve(rows);
  for (int i = 0; i < rows; ++i) {
    // Pick the length first, then an animal that trains with it, so the mix controls lengths.
    const int count = draw_count(random, mix);
    std::vector<int> animals;
    for (const TaskPair& p : split.train)
      if (p.count == count) animals.push_back(p.animal);
    batch.push_back(task_feature({animals[random.below(static_cast<int>(animals.size()))], count}));
  }
  return batch;
}

}  // namespace masklab
