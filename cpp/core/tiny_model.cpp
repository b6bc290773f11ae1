// tiny_model.cpp — see tiny_model.hpp.
#include "tiny_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace masklab {

std::vector<double> bigram_logits(const Batch& batch, int V, bool shift) {
  const int B = batch.B, T = batch.T;
  // The scored pairs (input id a, target y), sorted so each a's counts sit together. Only the
  // rows of ids that occur as inputs are ever computed: a V x V table of a batch with thousands
  // of distinct ids would cost gigabytes for a few thousand positions.
  std::vector<std::pair<int, int>> pairs;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int src = shift ? t + 1 : t;  // the label scored at logit t
      if (src >= T) continue;
      const int y = batch.labels[batch.at(b, src)];
      if (y == kIgnoreIndex || y < 0 || y >= V) continue;
      pairs.emplace_back(batch.input_ids[batch.at(b, t)], y);
    }
  std::sort(pairs.begin(), pairs.end());

  // Row a of the table: log P(y | a) = log(count(a, y) + k) - log(total(a) + k V).
  auto fill_row = [&](int a, double* row) {
    auto first = std::lower_bound(pairs.begin(), pairs.end(), std::pair<int, int>(a, -1));
    auto last = std::lower_bound(first, pairs.end(), std::pair<int, int>(a + 1, -1));
    const double total = static_cast<double>(last - first);
    const double log_denominator = std::log(total + kBigramSmoothing * V);
    const double unseen = std::log(0.0 + kBigramSmoothing) - log_denominator;
    std::fill(row, row + V, unseen);
    for (auto it = first; it != last;) {
      auto run = it;
      while (run != last && run->second == it->second) ++run;
      row[it->second] = std::log(static_cast<double>(run - it) + kBigramSmoothing) - log_denominator;
      it = run;
    }
  };

  std::vector<double> logits(static_cast<size_t>(B) * T * V);
  std::unordered_map<int, size_t> row_of;  // input id -> the position whose logits hold its row
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int a = batch.input_ids[batch.at(b, t)];
      const size_t at = static_cast<size_t>(batch.at(b, t)) * V;
      auto [it, is_new] = row_of.emplace(a, at);
      if (is_new) fill_row(a, &logits[at]);
      else std::copy(logits.begin() + static_cast<long>(it->second), logits.begin() + static_cast<long>(it->second + V),
                     logits.begin() + static_cast<long>(at));
    }
  return logits;
}

namespace {
// splitmix64: a fixed, portable hash so native and wasm produce the same embeddings.
double unit_hash(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) / static_cast<double>(1ull << 53) * 2.0 - 1.0;  // [-1, 1)
}
}  // namespace

std::vector<double> embed(const Batch& batch) {
  const int D = kEmbeddingDim;
  std::vector<double> x(static_cast<size_t>(batch.B) * batch.T * D);
  for (int b = 0; b < batch.B; ++b)
    for (int t = 0; t < batch.T; ++t) {
      const int id = batch.input_ids[batch.at(b, t)];
      const int p = batch.position_ids[batch.at(b, t)];
      for (int d = 0; d < D; ++d) {
        const double freq = std::pow(10000.0, -static_cast<double>(d / 2 * 2) / D);
        const double pe = d % 2 == 0 ? std::sin(p * freq) : std::cos(p * freq);
        x[static_cast<size_t>(batch.at(b, t)) * D + d] =
            unit_hash(static_cast<std::uint64_t>(id) * 131 + static_cast<std::uint64_t>(d)) + pe;
      }
    }
  return x;
}

}  // namespace masklab
