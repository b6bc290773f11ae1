// limits.hpp — how large a request may be, and how a command refuses one before doing the work.
//
// Requests come from strangers (pasted batches, JSONL files, URLs), so every command bounds what
// it will build, in three layers, cheapest first:
//
//   1. Bytes. run_command refuses a text longer than kMaxRequestBytes before reading it, and the
//      CLI stops reading its input there (so `masklab collate </dev/zero` ends at once).
//   2. Values. parse_json counts values while it parses and stops at the command's
//      max_request_values(command): a request of 50 M numbers costs what was read, not 50 M
//      parse-tree entries. A new command gets kDefaultMaxValues, or adds one line to the table in
//      limits.cpp.
//   3. Shape. A decoder, once it knows the dimensions, bounds them with one line per bound:
//
//        limit_request("logits", "logits values (B × T × V)", B * T * V, kMaxLossValues);
//        limit_answer("q", "attention weights (B × T × T)", B * T * T, kMaxAttentionCells);
//
//      limit_request says the request is too large ("has 16,384,000 logits values …; at most …
//      are accepted"); limit_answer says the answer would be ("the answer would hold …"), which is
//      not the same thing: T = 4,000 is a 60 KB attention request whose answer holds 48 M numbers.
//      Multiply with product() so hostile sizes saturate instead of overflowing.
//
// The numbers are chosen so the largest request each command accepts answers in ≤ 2 s and
// ≤ 512 MB natively (`npm run bench` prints its time and peak memory) and is answered, not
// aborted, by the WebAssembly module too (tests/node/limits.test.mjs runs each one). Two commands
// keep their bounds beside their readers: the doctor's pasted text (printed_batch.hpp: bytes and
// numbers, counted while it is read) and train's settings (train_api.hpp, training.hpp: steps).
// A training run is the one answer whose length the user picks; it streams a line every
// log_every steps, so what is bounded is the wait for each line and the memory, not the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace masklab {

// Layer 1: the request's text.
constexpr std::size_t kMaxRequestBytes = std::size_t{64} << 20;  // 64 MiB

// Layer 2: values per request (numbers, strings, true/false/null, arrays and objects).
constexpr std::size_t kDefaultMaxValues = std::size_t{1} << 20;
std::size_t max_request_values(std::string_view command);

// Layer 3: shapes, per command. Besides the native ≤ 2 s / 512 MB, the answers a JSON request
// may ask for are kept to what the WebAssembly module prints in a few seconds (it formats numbers
// with decimal.hpp's exact arithmetic, slower than native to_chars); bigger gradients go through the typed-array
// path (tensor_api.hpp), which prints nothing.
constexpr std::uint64_t kMaxLossValues = std::uint64_t{1} << 21;         // B·T·V logits (loss, accumulate)
constexpr std::uint64_t kMaxGradientValues = std::uint64_t{1} << 19;     // B·T·V gradient numbers in a JSON answer
constexpr std::uint64_t kMaxAttentionCells = std::uint64_t{1} << 18;     // B·T·T score/weight cells in an answer
constexpr std::uint64_t kMaxAttentionWork = std::uint64_t{1} << 26;      // B·T·T·D multiply-adds
constexpr std::uint64_t kMaxInspectModelValues = 20'000'000;            // B·T·V logits of the tiny model

// a × b × …, saturating at UINT64_MAX instead of wrapping (a negative factor counts as 0).
std::uint64_t product(std::initializer_list<long long> factors);

// "16,384,000": digits grouped in threes, for messages about sizes.
std::string grouped(std::uint64_t n);

// "1 × 512 × 32,000": a shape for messages.
std::string shape_text(std::initializer_list<long long> dims);

// Throws InputError(field, "has <count> <what>; at most <max> are accepted (the request is too
// large)") when count > max.
void limit_request(std::string_view field, std::string_view what, std::uint64_t count, std::uint64_t max);

// Throws InputError(field, "the answer would hold <count> <what>, more than the <max> it may
// (the answer would be too large)<hint>") when count > max. hint: e.g. "; use fewer positions".
void limit_answer(std::string_view field, std::string_view what, std::uint64_t count, std::uint64_t max,
                  std::string_view hint = {});

}  // namespace masklab
