// tiny_model.cpp — see tiny_model.hpp.
#include "tiny_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace masklab {

std::vector<double> bigram_logits(const Batch& batch, int V, bool shift) {
  const int B = batch.B, T = batch.T;
  std::vector<double> counts(static_cast<size_t>(V) * V, 0.0);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int src = shift ? t + 1 : t;  // the label scored at logit t
      if (src >= T) continue;
      const int y = batch.labels[batch.at(b, src)];
      if (y == kIgnoreIndex || y < 0 || y >= V) continue;
      counts[static_cast<size_t>(batch.input_ids[batch.at(b, t)]) * V + y] += 1.0;
    }
  std::vector<double> table(static_cast<size_t>(V) * V);
  for (int a = 0; a < V; ++a) {
    double total = 0;
    for (int y = 0; y < V; ++y) total += counts[static_cast<size_t>(a) * V + y];
    const double log_denominator = std::log(total + kBigramSmoothing * V);
    for (int y = 0; y < V; ++y)
      table[static_cast<size_t>(a) * V + y] =
          std::log(counts[static_cast<size_t>(a) * V + y] + kBigramSmoothing) - log_denominator;
  }
  std::vector<double> logits(static_cast<size_t>(B) * T * V);
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int a = batch.input_ids[batch.at(b, t)];
      for (int y = 0; y < V; ++y)
        logits[(static_cast<size_t>(batch.at(b, t))) * V + y] = table[static_cast<size_t>(a) * V + y];
    }
  return logits;
}

std::vector<double> bigram_target_losses(const Batch& batch, int V, bool shift) {
  const int B = batch.B, T = batch.T;
  // (input id, scored label) as one sortable key, with the position it came from.
  std::vector<std::pair<std::uint64_t, std::size_t>> pairs;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int src = shift ? t + 1 : t;
      if (src >= T) continue;
      const int y = batch.labels[batch.at(b, src)];
      if (y == kIgnoreIndex || y < 0) continue;
      const auto a = static_cast<std::uint32_t>(batch.input_ids[batch.at(b, t)]);
      pairs.emplace_back((static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(y),
                         static_cast<std::size_t>(batch.at(b, t)));
    }
  std::sort(pairs.begin(), pairs.end());
  std::vector<double> losses(static_cast<std::size_t>(B) * T, 0.0);
  const double smoothing_mass = kBigramSmoothing * V;
  // Runs of one source id a; inside them, runs of one pair (a, y).
  for (std::size_t i = 0; i < pairs.size();) {
    const std::uint64_t a = pairs[i].first >> 32;
    std::size_t end_a = i;
    while (end_a < pairs.size() && (pairs[end_a].first >> 32) == a) ++end_a;
    const double log_denominator = std::log(static_cast<double>(end_a - i) + smoothing_mass);
    for (std::size_t j = i; j < end_a;) {
      std::size_t end_pair = j;
      while (end_pair < end_a && pairs[end_pair].first == pairs[j].first) ++end_pair;
      const double nll = log_denominator - std::log(static_cast<double>(end_pair - j) + kBigramSmoothing);
      for (std::size_t k = j; k < end_pair; ++k) losses[pairs[k].second] = nll;
      j = end_pair;
    }
    i = end_a;
  }
  return losses;
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
