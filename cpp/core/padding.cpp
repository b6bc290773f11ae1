// padding.cpp — see padding.hpp.
#include "padding.hpp"

#include <algorithm>
#include <string>

#include "code_size.hpp"
#include "input_error.hpp"
#include "limits.hpp"

namespace masklab {

namespace {
void cut(std::vector<int>& v, int max_length, Side side) {
  int extra = static_cast<int>(v.size()) - max_length;
  if (extra <= 0) return;
  if (side == Side::Right) v.resize(max_length);
  else v.erase(v.begin(), v.begin() + extra);
}
}  // namespace

int truncate_feature(Feature& feature, int max_length, Side side) {
  int removed = std::max(0, static_cast<int>(feature.input_ids.size()) - max_length);
  cut(feature.input_ids, max_length, side);
  if (feature.labels) cut(*feature.labels, max_length, side);
  if (feature.attention_mask) cut(*feature.attention_mask, max_length, side);
  if (feature.completion_mask) cut(*feature.completion_mask, max_length, side);
  if (feature.assistant_masks) cut(*feature.assistant_masks, max_length, side);
  return removed;
}

long long round_up(long long n, long long m) { return n % m == 0 ? n : (n / m + 1) * m; }

// Compiled for size (code_size.hpp): one pass over B lengths, and its messages.
MASKLAB_SMALL_CODE int padded_length(const std::vector<int>& lengths, const CollateOptions& options, const char* field) {
  int longest = 0;
  for (int n : lengths) longest = std::max(longest, n);
  const std::string noun = std::string(field) == "labels" ? " labels" : " tokens";
  auto where = [&](size_t i) { return "features[" + std::to_string(i) + "]." + field; };

  if (options.padding == Padding::DoNotPad) {
    for (size_t i = 0; i < lengths.size(); ++i)
      if (lengths[i] != lengths[0])
        throw InputError(where(i), "has " + std::to_string(lengths[i]) + noun + " but features[0] has " +
                                       std::to_string(lengths[0]) +
                                       "; with padding \"do_not_pad\" rows must be equal to form a tensor");
    return longest;
  }

  long long T = longest;
  if (options.padding == Padding::MaxLength) {
    if (!options.max_length)
      throw InputError("max_length", "is required when padding is \"max_length\"");
    T = *options.max_length;
    for (size_t i = 0; i < lengths.size(); ++i)
      if (lengths[i] > T)
        throw InputError(where(i), "has " + std::to_string(lengths[i]) + noun + ", more than max_length " +
                                       std::to_string(T) + "; set truncation to true or raise max_length");
  }
  const long long rows = static_cast<long long>(lengths.size());
  auto too_big = [&](long long t) { return t * rows > kMaxBatchTokens; };
  if (options.padding == Padding::MaxLength && too_big(T))
    limit_answer("max_length", "padded tokens (B × T = " + shape_text({rows, T}) + ")", product({rows, T}),
                 kMaxBatchTokens, "; lower max_length");
  if (options.pad_to_multiple_of) {
    T = round_up(T, *options.pad_to_multiple_of);
    if (too_big(T))
      limit_answer("pad_to_multiple_of", "padded tokens (B × T = " + shape_text({rows, T}) + ", rounded up)",
                   product({rows, T}), kMaxBatchTokens, "; lower pad_to_multiple_of");
  }
  return static_cast<int>(T);
}

std::vector<int> pad_row(const std::vector<int>& row, int T, int value, Side side) {
  int d = T - static_cast<int>(row.size());
  if (d <= 0) return row;
  std::vector<int> out;
  out.reserve(T);
  if (side == Side::Left) out.insert(out.end(), d, value);
  out.insert(out.end(), row.begin(), row.end());
  if (side == Side::Right) out.insert(out.end(), d, value);
  return out;
}

}  // namespace masklab
