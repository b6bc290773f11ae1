// tiny_model.cpp — see tiny_model.hpp.
#include "tiny_model.hpp"

#include <cmath>
#include <cstdint>

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
