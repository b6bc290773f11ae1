// test_synthetic_task.cpp — the Train page's toy task (synthetic_task.cpp): the rows it writes,
// the held-out eval pairs, and the length mixes (docs/semantics.md §9.4). Counts are checked by
// hand: a row for count n is 4 prompt tokens + n sounds + <eos>.
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "random.hpp"
#include "synthetic_task.hpp"

using namespace masklab;
using masklab::test::show;

TEST_CASE("a task row: <bos> animal count : then count sounds and <eos>, only the answer in the completion mask") {
  const std::vector<std::string>& vocab = task_vocabulary();
  CHECK(vocab.size() == static_cast<size_t>(task::kVocabSize));
  CHECK(vocab[0] == "<pad>");
  CHECK(vocab[2] == "<eos>");
  const Feature f = task_feature({2, 3});  // cow, 3
  std::string words;
  for (int id : f.input_ids) words += vocab[id] + " ";
  CHECK(words == "<bos> cow 3 : moo moo moo <eos> ");
  CHECK(show(*f.completion_mask) == "[0,0,0,0,1,1,1,1]");
  CHECK(show(task_prompt({2, 3})) == show(std::vector<int>(f.input_ids.begin(), f.input_ids.begin() + 4)));
  CHECK(task_feature({0, 1}).input_ids.size() == 6u);                 // the shortest row
  CHECK(task_feature({0, task::kMaxCount}).input_ids.size() == 11u);  // the longest
}

TEST_CASE("the split holds out one count per animal; every animal and every count still trains") {
  for (std::uint64_t seed : {0u, 1u, 5u, 123u}) {
    const TaskSplit split = split_task(seed);
    CHECK(split.eval.size() == static_cast<size_t>(task::kAnimals));
    CHECK(split.train.size() == static_cast<size_t>(task::kAnimals * (task::kMaxCount - 1)));
    std::set<std::pair<int, int>> train;
    std::set<int> train_animals, train_counts, held_counts;
    for (const TaskPair& p : split.train) {
      train.insert({p.animal, p.count});
      train_animals.insert(p.animal);
      train_counts.insert(p.count);
    }
    for (size_t a = 0; a < split.eval.size(); ++a) {
      CHECK(split.eval[a].animal == static_cast<int>(a));
      CHECK(train.count({split.eval[a].animal, split.eval[a].count}) == 0);  // never seen in training
      held_counts.insert(split.eval[a].count);
    }
    CHECK(train_animals.size() == static_cast<size_t>(task::kAnimals));
    CHECK(train_counts.size() == static_cast<size_t>(task::kMaxCount));
    CHECK(held_counts.size() == static_cast<size_t>(task::kMaxCount));  // every length is asked for
  }
}

TEST_CASE("draws come from the training pairs only, the same for the same seed, and follow the mix") {
  const TaskSplit split = split_task(0);
  std::set<std::pair<int, int>> eval;
  for (const TaskPair& p : split.eval) eval.insert({p.animal, p.count});
  Random a(9), b(9);
  const auto rows = draw_batch(a, split, DataMix::Uniform, 2000);
  const auto again = draw_batch(b, split, DataMix::Uniform, 2000);
  std::vector<int> per_count(task::kMaxCount + 1, 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].input_ids == again[i].input_ids);
    const int animal = rows[i].input_ids[1] - task::kFirstAnimal;
    const int count = static_cast<int>(rows[i].input_ids.size()) - task::kPromptLength - 1;
    CHECK(eval.count({animal, count}) == 0);
    ++per_count[count];
  }
  // Uniform: each count about 2000/6 = 333 times (binomial sd ≈ 17; ±25% is over 4 sd).
  for (int n = 1; n <= task::kMaxCount; ++n) CHECK(per_count[n] == doctest::Approx(2000.0 / 6).epsilon(0.25));
  // Skewed: counts 1 and 2 are 12 of 16 in weight, so about 1500 of 2000 rows.
  Random c(9);
  int short_rows = 0;
  for (const Feature& f : draw_batch(c, split, DataMix::Skewed, 2000)) short_rows += f.input_ids.size() <= 7u ? 1 : 0;
  CHECK(short_rows == doctest::Approx(1500).epsilon(0.1));
}
