// tiny_model.cpp — see tiny_model.hpp.
#include "tiny_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
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

// A pair as one sortable key (input id, target id), with its index in the caller's list.
struct KeyedPair {
  std::uint64_t key;
  std::uint32_t index;
  bool held_out;  // a copy, so the runs below never reach back into the caller's list
};

// Sorts by key: an LSD radix sort on 12-bit digits that skips every digit all keys share (a
// pair of 17-bit ids packed side by side takes three passes). On a 64 × 4096 batch this is
// several times faster than a comparison sort or a hash table, whose random probes miss the cache.
void sort_by_key(std::vector<KeyedPair>& pairs) {
  constexpr int kBits = 12, kBuckets = 1 << kBits;
  std::uint64_t any = 0, all = ~0ull;
  for (const auto& p : pairs) {
    any |= p.key;
    all &= p.key;
  }
  const std::uint64_t varying = any ^ all;
  std::vector<KeyedPair> buffer(pairs.size());
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

// log(c + plus) for small integer counts, looked up: the same std::log of the same double, so
// the same bits, without a call per pair.
class CountLogs {
 public:
  explicit CountLogs(double plus) : plus_(plus), cache_(4096) {
    for (std::size_t c = 0; c < cache_.size(); ++c) cache_[c] = std::log(static_cast<double>(c) + plus_);
  }
  double operator()(std::size_t c) const {
    return c < cache_.size() ? cache_[c] : std::log(static_cast<double>(c) + plus_);
  }

 private:
  double plus_;
  std::vector<double> cache_;
};

}  // namespace

BigramPairLosses bigram_pair_losses(const std::vector<BigramPair>& pairs, int V) {
  // The key is the input id above the target id, the target taking only the bits the largest
  // one needs: fewer varying bits, fewer radix passes.
  std::uint32_t targets_or = 0;
  for (const auto& p : pairs) targets_or |= static_cast<std::uint32_t>(p.target);
  int target_bits = 0;
  while (target_bits < 32 && (targets_or >> target_bits) != 0) ++target_bits;
  std::vector<KeyedPair> keyed(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i)
    keyed[i] = {(static_cast<std::uint64_t>(static_cast<std::uint32_t>(pairs[i].input)) << target_bits) |
                    static_cast<std::uint32_t>(pairs[i].target),
                static_cast<std::uint32_t>(i), pairs[i].held_out};
  sort_by_key(keyed);
  BigramPairLosses out;
  out.all.assign(pairs.size(), 0.0);
  out.kept.assign(pairs.size(), 0.0);
  const CountLogs log_total(kBigramSmoothing * V), log_count(kBigramSmoothing);
  // Runs of one input id a; inside them, runs of one pair (a, y). Both fits count the same runs,
  // the second without the held-out pairs: -log P(y | a) = log(n_a + k·V) - log(c_ay + k), as
  // bigram_logits' table holds it.
  for (std::size_t i = 0; i < keyed.size();) {
    const std::uint64_t a = keyed[i].key >> target_bits;
    std::size_t end_a = i, kept_a = 0;
    for (; end_a < keyed.size() && (keyed[end_a].key >> target_bits) == a; ++end_a) kept_a += keyed[end_a].held_out ? 0 : 1;
    const double total_all = log_total(end_a - i), total_kept = log_total(kept_a);
    for (std::size_t j = i; j < end_a;) {
      std::size_t end_pair = j, kept_pair = 0;
      for (; end_pair < end_a && keyed[end_pair].key == keyed[j].key; ++end_pair)
        kept_pair += keyed[end_pair].held_out ? 0 : 1;
      const double nll_all = total_all - log_count(end_pair - j), nll_kept = total_kept - log_count(kept_pair);
      for (std::size_t k = j; k < end_pair; ++k) {
        const std::uint32_t index = keyed[k].index;
        out.all[index] = nll_all;
        if (!keyed[k].held_out) out.kept[index] = nll_kept;
      }
      j = end_pair;
    }
    i = end_a;
  }
  return out;
}

std::vector<double> bigram_target_losses(const Batch& batch, int V, bool shift) {
  const int B = batch.B, T = batch.T;
  std::vector<BigramPair> pairs;
  std::vector<std::size_t> position;  // where each pair's loss goes: the logit position t
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int src = shift ? t + 1 : t;  // the label scored at logit t
      if (src >= T) continue;
      const int y = batch.labels[batch.at(b, src)];
      if (y < 0) continue;  // kIgnoreIndex (a negative label is never a target)
      pairs.push_back({batch.input_ids[batch.at(b, t)], y, false});
      position.push_back(static_cast<std::size_t>(batch.at(b, t)));
    }
  const BigramPairLosses fitted = bigram_pair_losses(pairs, V);
  std::vector<double> losses(static_cast<std::size_t>(B) * T, 0.0);
  for (std::size_t i = 0; i < pairs.size(); ++i) losses[position[i]] = fitted.all[i];
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
