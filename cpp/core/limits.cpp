// limits.cpp — see limits.hpp.
#include "limits.hpp"

#include "input_error.hpp"
#include "padding.hpp"

namespace masklab {

std::size_t max_request_values(std::string_view command) {
  // Each command's largest request: the tensors it is allowed, plus their nesting and a margin
  // for the small fields around them.
  struct Entry {
    std::string_view command;
    std::size_t values;
  };
  static constexpr Entry kTable[] = {
      // input_ids, labels, completion_mask and assistant_masks for every token of a full batch
      {"collate", 4 * kMaxBatchTokens + 64 * 1024},
      // logits, and labels as many as logits when V = 1
      {"loss", 2 * kMaxLossValues + 64 * 1024},
      {"accumulate", 2 * kMaxLossValues + 64 * 1024},
  };
  for (const Entry& e : kTable)
    if (e.command == command) return e.values;
  return kDefaultMaxValues;
}

std::uint64_t product(std::initializer_list<long long> factors) {
  std::uint64_t p = 1;
  for (long long signed_f : factors) {
    if (signed_f <= 0) return 0;
    const auto f = static_cast<std::uint64_t>(signed_f);
    if (p > UINT64_MAX / f) p = UINT64_MAX;
    else p *= f;
  }
  return p;
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string shape_text(std::initializer_list<long long> dims) {
  std::string out;
  for (long long d : dims) out += (out.empty() ? "" : " × ") + grouped(d < 0 ? 0 : static_cast<std::uint64_t>(d));
  return out;
}

void limit_request(std::string_view field, std::string_view what, std::uint64_t count, std::uint64_t max) {
  if (count <= max) return;
  throw InputError(std::string(field), "has " + grouped(count) + " " + std::string(what) + "; at most " +
                                           grouped(max) + " are accepted (the request is too large)");
}

void limit_answer(std::string_view field, std::string_view what, std::uint64_t count, std::uint64_t max,
                  std::string_view hint) {
  if (count <= max) return;
  throw InputError(std::string(field), "the answer would hold " + grouped(count) + " " + std::string(what) +
                                           ", more than the " + grouped(max) + " it may (the answer would be too large)" +
                                           std::string(hint));
}

}  // namespace masklab
