// random.hpp — the one random number generator of the training code: SplitMix64.
//
// Why our own: the standard library's distributions (std::uniform_real_distribution, …) are
// implementation-defined, so libstdc++ (native) and libc++ (wasm) would draw different numbers
// from the same seed. SplitMix64 is eight lines of integer arithmetic, identical everywhere, and
// good enough for shuffling toy data and initialising a toy model. Not for cryptography.
#pragma once

#include <cstdint>

namespace masklab {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  // Sebastiano Vigna's SplitMix64 (public domain, the seeder of the xoshiro family).
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1), from the top 53 bits: exact in a double.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n >= 1. The modulo bias is below 2^-40 for the small n used here.
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

  // A generator for a named sub-stream, so adding draws to one stream never shifts another.
  // Example: Random(seed).fork(1) draws the data, .fork(2) the weights.
  Random fork(std::uint64_t stream) const { return Random(state_ ^ (0xD1B54A32D192ED03ull * (stream + 1))); }

 private:
  std::uint64_t state_;
};

}  // namespace masklab
