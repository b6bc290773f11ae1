// synthetic_task.hpp — the toy task the Train page trains on: "an animal and a count -> that
// many of its sounds, then stop".
//
//   <bos> cow 3 : moo moo moo <eos>          prompt = <bos> animal count ":"; answer = sounds + EOS
//
// Small and legible on purpose: a vocabulary of a few dozen words, rows of 6 to 11 tokens, and
// an answer whose *end* depends on the prompt, so a model only stops in the right place if EOS
// is a trained target (the pad = eos bug) and if it can tell how many sounds it has written
// (positions: the left-padding bug). Every example carries a completion_mask (0 on the prompt,
// 1 on the answer), the way TRL marks prompt-completion data.
//
// Splits: some (animal, count) pairs never appear in training and make up the eval set, so the
// eval loss asks for the combination, not a memorised row. Everything is drawn from a seed with
// random.hpp, identically natively and in wasm. Not here: padding, labels, the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "batch.hpp"
#include "random.hpp"

namespace masklab {

namespace task {
constexpr int kPad = 0;  // the built-in tokenizer's ids for <pad>, <bos>, <eos>
constexpr int kBos = 1;
constexpr int kEos = 2;
constexpr int kColon = 3;
constexpr int kAnimals = 12;
constexpr int kMaxCount = 6;
constexpr int kPromptLength = 4;                              // <bos> animal count ":"
constexpr int kLongestRow = kPromptLength + kMaxCount + 1;    // 11
constexpr int kFirstAnimal = 4;
constexpr int kFirstSound = kFirstAnimal + kAnimals;          // 12
constexpr int kFirstCount = kFirstSound + kAnimals;           // 20
constexpr int kVocabSize = kFirstCount + kMaxCount;           // 26
}  // namespace task

// How answer lengths are spread in the training data.
enum class DataMix {
  Uniform,  // every count 1..6 equally often
  Skewed    // three rows in four have a count of 1 or 2, the rest 5 or 6: lengths differ a lot
};

struct TaskPair {
  int animal = 0;  // 0 .. kAnimals-1
  int count = 1;   // 1 .. kMaxCount
};

struct TaskSplit {
  std::vector<TaskPair> train;  // pairs training draws from
  std::vector<TaskPair> eval;   // held-out pairs, one per animal; the eval set, in this order
};

// The words of the vocabulary, indexed by id: "<pad>", "<bos>", "<eos>", ":", "cat", …
const std::vector<std::string>& task_vocabulary();

// The row for one pair, with completion_mask 0 on the prompt and 1 on the answer.
// Example: (cow, 3) -> input_ids [1, 6, 22, 3, 14, 14, 14, 2], completion_mask [0,0,0,0,1,1,1,1].
Feature task_feature(TaskPair pair);

// Just the prompt: <bos> animal count ":".
std::vector<int> task_prompt(TaskPair pair);

// Holds out one count per animal, chosen by the seed so every count is held out at least once
// and every animal and every count still appears in training.
TaskSplit split_task(std::uint64_t seed);

// `rows` training examples drawn independently (with replacement) from split.train by `mix`.
std::vector<Feature> draw_batch(Random& random, const TaskSplit& split, DataMix mix, int rows);

}  // namespace masklab
