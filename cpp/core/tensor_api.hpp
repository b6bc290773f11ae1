// tensor_api.hpp — the typed-array path: a command whose big tensors travel as flat buffers
// (logits and gradients as float32/float64, ids as int32) while the small fields stay JSON.
//
// Why: a loss request at B=8, T=512, V=64 is 262,144 numbers; as JSON text they cost ~30x the
// arithmetic to parse and print. The training page (a Web Worker) and any large loss request
// from the site use this path; the CLI and small requests use run_command (api.hpp).
//
// Same decoders, same validation, same maths and the same limits as run_command, so an answer
// differs from the JSON path only in where its tensors are: fields listed below come back as
// tensors and are left out of the JSON. One deliberate difference: a gradient is not bounded by
// kMaxGradientValues (that bound is about printing it as JSON), only by the logits' own bound.
//
//   loss     in:  logits  float32|float64 [B,T,V], labels int32 [B,T]
//                 JSON: shift, ignore_index, reduction, num_items_in_batch, gradient
//            out: per_token float64 [B,T], targets int32 [B,T], gradient (the logits' dtype)
//                 [B,T,V] when asked and defined; JSON: every other field of the loss answer
//   collate  in:  input_ids int32 [N] (all rows end to end), lengths int32 [B] (sum N);
//                 optional labels, completion_mask, assistant_masks int32 [N]
//                 JSON: every collate option (features left out)
//            out: input_ids, attention_mask (absent when the batch has none), labels,
//                 position_ids int32 [B,T]; is_pad, label_reasons uint8 [B,T] (reason codes,
//                 named by label_reason_names in the JSON); JSON: the rest of the collate answer
//
// Not here: any JavaScript or Emscripten detail (cpp/bindings/core_module.cpp marshals the buffers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api.hpp"

namespace masklab {

enum class DType : std::uint8_t { Int32 = 0, Float32 = 1, Float64 = 2, Uint8 = 3 };

// A borrowed input: `count` elements of `dtype` at `data`, with `shape` (product = count).
struct TensorIn {
  std::string name;
  DType dtype = DType::Float64;
  std::vector<int> shape;
  const void* data = nullptr;
  std::size_t count = 0;
};

// An owned output; exactly one of the vectors holds its values, as `dtype` says.
struct TensorOut {
  std::string name;
  DType dtype = DType::Float64;
  std::vector<int> shape;
  std::vector<std::int32_t> i32;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<std::uint8_t> u8;

  const void* data() const;
  std::size_t count() const;
};

struct TensorAnswer {
  ApiResult answer;  // JSON without the tensor fields, or the error (as run_command's)
  std::vector<TensorOut> tensors;
};

// command: "loss" | "collate". Never throws; every failure comes back in answer.
TensorAnswer run_tensor_command(std::string_view command, std::string_view options_json,
                                const std::vector<TensorIn>& inputs);

}  // namespace masklab
