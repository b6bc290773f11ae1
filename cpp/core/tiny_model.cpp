// tiny_model.cpp — see tiny_model.hpp.
#include "tiny_model.hpp"

#include <cmath>
#include <cstddef>
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

// A scored pair (input id, label) as one key, and the flat position it was scored at.
struct ScoredPair {
  std::uint64_t key;
  std::uint32_t at;
};

// Sorts by key: an LSD radix sort on 11-bit digits that skips every digit all keys share (ids
// use well under 32 of the 64 bits). On a 64 × 4096 batch this is several times faster than a
// comparison sort or a hash table, whose random probes miss the cache.
void sort_by_key(std::vector<ScoredPair>& pairs) {
  constexpr int kBits = 11, kBuckets = 1 << kBits;
  std::uint64_t any = 0, all = ~0ull;
  for (const auto& p : pairs) {
    any |= p.key;
    all &= p.key;
  }
  const std::uint64_t varying = any ^ all;
  std::vector<ScoredPair> buffer(pairs.size());
  for (int shift = 0; shift < 64; shift += kBits) {
    if (((varying >> shift) & (kBuckets - 1)) == 0) continue;
    std::size_t count[kBuckets] = {};
    for (const auto& p : pairs) ++count[(p.key >> shift) & (kBuckets - 1)];
    std::size_t next = 0;
    for (auto& c : count) {
      const std::size_t n = c;
      c = next;
      next += n;
    }
    for (const auto& p : pairs) buffer[count[(p.key >> shift) & (kBuckets - 1)]++] = p;
    pairs.swap(buffer);
  }
}

}  // namespace

std::vector<double> bigram_target_losses(const Batch& batch, int V, bool shift) {
  const int B = batch.B, T = batch.T;
  std::vector<ScoredPair> pairs;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int src = shift ? t + 1 : t;  // the label scored at logit t
      if (src >= T) continue;
      const int y = batch.labels[batch.at(b, src)];
      if (y < 0) continue;  // kIgnoreIndex (a negative label is never a target)
      const auto a = static_cast<std::uint32_t>(batch.input_ids[batch.at(b, t)]);
      pairs.push_back({(static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(y),
                       static_cast<std::uint32_t>(batch.at(b, t))});
    }
  sort_by_key(pairs);
  std::vector<double> losses(static_cast<std::size_t>(B) * T, 0.0);
  const double smoothing_mass = kBigramSmoothing * V;
  // Counts are small integers, so their logs repeat: look the first thousands up (the same
  // std::log of the same double, so the same bits) instead of calling log per pair.
  constexpr std::size_t kCached = 4096;
  std::vector<double> log_count(kCached), log_total(kCached);
  for (std::size_t c = 0; c < kCached; ++c) {
    log_count[c] = std::log(static_cast<double>(c) + kBigramSmoothing);
    log_total[c] = std::log(static_cast<double>(c) + smoothing_mass);
  }
  auto log_of = [](const std::vector<double>& cache, std::size_t c, double plus) {
    return c < cache.size() ? cache[c] : std::log(static_cast<double>(c) + plus);
  };
  // Runs of one input id a (n_a pairs); inside them, runs of one pair (a, y) (c_ay pairs):
  // -log P(y | a) = log(n_a + k·V) - log(c_ay + k), as bigram_logits' table holds it.
  for (std::size_t i = 0; i < pairs.size();) {
    const std::uint64_t a = pairs[i].key >> 32;
    std::size_t end_a = i;
    while (end_a < pairs.size() && (pairs[end_a].key >> 32) == a) ++end_a;
    const double log_denominator = log_of(log_total, end_a - i, smoothing_mass);
    for (std::size_t j = i; j < end_a;) {
      std::size_t end_pair = j;
      while (end_pair < end_a && pairs[end_pair].key == pairs[j].key) ++end_pair;
      const double nll = log_denominator - log_of(log_count, end_pair - j, kBigramSmoothing);
      for (std::size_t k = j; k < end_pair; ++k) losses[pairs[k].at] = nll;
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
