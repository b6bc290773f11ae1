// fixtures.hpp — small helpers shared by several doctest files in tests/cpp: building a feature
// from token ids, printing int buffers as the JSON the CLI writes and a batch's label reasons as
// text, catching the InputError a bad input throws, and building a LossInput from flat buffers.
//
// Not here: helpers only one file uses (they stay in that file, next to the tests that read them),
// expected values, or tolerances (each test file states its own). Everything is `inline` so each
// test file can include this header without clashing at link time.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "batch.hpp"
#include "collate.hpp"
#include "input_error.hpp"
#include "loss.hpp"

namespace masklab::test {

// A feature with only input_ids set (no labels, completion_mask or assistant_masks).
inline Feature ids(std::vector<int> input_ids) {
  Feature f;
  f.input_ids = std::move(input_ids);
  return f;
}

// Default options with pad id 0: most fixtures pad with 0, and collate needs a pad id
// wherever it writes a pad (docs/semantics.md §2.5).
inline CollateOptions pad0() {
  CollateOptions o;
  o.pad_token_id = 0;
  return o;
}

// A list printed as JSON. Example: {5, 6, 2} -> "[5,6,2]".
inline std::string show(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// A [B,T] row-major buffer printed as JSON, one list per row.
// Example: {5, 6, 2, 7, 2, 0}, B=2, T=3 -> "[[5,6,2],[7,2,0]]".
inline std::string show(const std::vector<int>& flat, int B, int T) {
  std::string s = "[";
  for (int b = 0; b < B; ++b) {
    s += b ? ",[" : "[";
    for (int t = 0; t < T; ++t) s += (t ? "," : "") + std::to_string(flat[static_cast<size_t>(b) * T + t]);
    s += "]";
  }
  return s + "]";
}

// A batch's label_reasons [B,L] as text: "." for a trained label, else the reason's name; rows
// separated by " | ". Example: "given . . | given . padding". A packed batch (B=1) is one row.
inline std::string reasons(const Batch& b) {
  std::string s;
  for (int r = 0; r < b.B; ++r) {
    if (r) s += " | ";
    for (int t = 0; t < b.L; ++t) {
      const char* name = reason_name(b.label_reasons[b.at_label(r, t)]);
      s += (t ? " " : "") + std::string(*name ? name : ".");
    }
  }
  return s;
}

// Runs `run` and returns the InputError it throws (field and message); if it throws nothing the
// test fails with `accepted`, which says what was wrongly accepted.
template <class Run>
InputError input_error(Run&& run, const std::string& accepted) {
  try {
    run();
  } catch (const InputError& e) {
    return e;
  }
  FAIL(accepted);
  return InputError("", "");  // not reached: FAIL throws
}

// Runs collate and returns the InputError it throws, or fails the test.
inline InputError collate_error(std::vector<Feature> features, const CollateOptions& o) {
  return input_error([&] { collate(std::move(features), o); }, "collate accepted input it should have rejected");
}

// True when `part` occurs in `s`: for error messages, where a test pins the words that teach and
// leaves the rest of the sentence free.
inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A loss input from flat buffers. logits: [B,T,V] row-major; labels: [B,T], -100 = not scored.
// Other fields keep LossInput's defaults (shift on, ignore_index -100, mean, no gradient).
inline LossInput loss_input(int B, int T, int V, std::vector<double> logits, std::vector<int> labels) {
  LossInput in;
  in.B = B;
  in.T = T;
  in.V = V;
  in.logits = std::move(logits);
  in.labels = std::move(labels);
  return in;
}

}  // namespace masklab::test
