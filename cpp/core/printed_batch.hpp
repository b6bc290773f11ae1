// printed_batch.hpp — reads a batch the way people paste it: what `print(batch)` printed at a
// trainer or collator boundary, a JSON object of lists, or one JSON object per line (JSONL).
//
// Accepted forms (docs/semantics.md §10.1 lists them with the PyTorch and transformers sources):
//   {'input_ids': tensor([[ 128000,   9906, ...]]), 'attention_mask': tensor(...), ...}
//     — PyTorch's tensor repr inside a Python dict, with `...` where PyTorch elided items,
//       `device='cuda:0'`, `dtype=torch.int64`, `size=(…)`, `requires_grad=…`, `grad_fn=<…>`,
//       line breaks and indentation anywhere; optionally wrapped as BatchEncoding({...}) or
//       BatchFeature(data={...});
//   {'input_ids': array([[ 101, 7592, ...]]), ...} — numpy's array repr (return_tensors='np'),
//       read like a tensor, with numpy's suffixes `dtype=int32` and `shape=(…)`;
//   {'input_ids': [[1, 2, 3], [4, 5]]} — plain (possibly ragged) Python lists, as collators
//       return them before tensors are made;
//   {"input_ids": [[...]], ...} — JSON; several such objects on separate lines — JSONL, one
//       example (one row) per line.
// Anything else is refused with InputError("text", "line L, column C: …").
//
// This file only reads text into named arrays of numbers. It knows nothing of padding or labels
// (doctor_batch.cpp aligns the fields; the doctor_check_*.cpp files judge them). It never
// throws anything but InputError and std::bad_alloc, bounds everything it allocates, and keeps
// no state. A libFuzzer target for it and everything after it is three lines:
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     masklab::run_doctor({reinterpret_cast<const char*>(data), size}, "{}"); return 0; }
// (api.hpp; run_doctor never throws).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace masklab {

// Bounds on what one paste may hold, checked while reading (so a huge paste is refused before
// the work, not after): the text, all numbers together, the fields, nesting, JSONL lines.
constexpr size_t kMaxPastedBytes = 32u << 20;         // 32 MiB
constexpr long long kMaxPastedNumbers = 1ll << 22;    // 4,194,304 numbers over every field
constexpr int kMaxPastedFields = 64;
constexpr int kMaxPastedRank = 4;                     // nesting depth of one value
constexpr int kMaxPastedLines = 1 << 16;              // JSONL examples
constexpr size_t kMaxPastedKeyLength = 128;

enum class PastedForm { PrintedDict, Json, JsonLines };

// One dimension of a field. PyTorch prints `...` in a dimension longer than 2 × edgeitems when
// the tensor has more than `threshold` (1000) elements: then `head` leading and
// `visible - head` trailing items are shown and the true extent is not printed anywhere.
struct PastedDim {
  int visible = 0;      // items printed in this dimension
  bool elided = false;  // PyTorch printed "..." here
  int head = 0;         // when elided: items before the "..."
};

struct PastedField {
  std::string name;
  int line = 0, column = 0;      // where the value starts (1-based), for messages
  bool is_tensor = false;        // tensor(...) rather than a plain list or number
  std::vector<PastedDim> dims;   // rank = dims.size(); 0 for a scalar
  std::vector<int> row_lengths;  // rank-2 ragged lists (JSONL, Python lists): each row's length
  std::vector<double> values;    // row-major; ragged rows one after the other
  std::string dtype;             // "torch.int32" etc. when printed (int64 and bool never are)
  std::string device;            // "cuda:0" etc. when printed
  bool floating = false;         // some value was printed as a float (1., 0.5000, inf, nan)

  int rank() const { return static_cast<int>(dims.size()); }
  bool ragged() const { return !row_lengths.empty(); }
};

struct PastedBatch {
  PastedForm form = PastedForm::PrintedDict;
  std::vector<PastedField> fields;   // in the order they were printed
  std::vector<std::string> skipped;  // keys whose values hold no numbers (strings, None)

  const PastedField* find(std::string_view name) const;
};

// Throws InputError{"text", "line L, column C: <what was expected>"} for anything it cannot read.
// Example: "{'input_ids': tensor([[5, 6, 2]])}" -> one field input_ids, dims {1, 3}, values 5 6 2.
PastedBatch parse_printed_batch(std::string_view text);

// "line 3, column 17" for byte offset `at` of `text` (columns count characters, not bytes).
std::string text_position(std::string_view text, size_t at);

}  // namespace masklab
