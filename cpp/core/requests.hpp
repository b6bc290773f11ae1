// requests.hpp — JSON requests to core inputs, and core results to JSON responses.
//
// The field names are Hugging Face's and PyTorch's (README "CLI"). Every decoding error
// names the field. Not here: any rule of collation, loss or attention.
#pragma once

#include "accumulation.hpp"
#include "attention.hpp"
#include "batch.hpp"
#include "figures.hpp"
#include "inspect.hpp"
#include "json.hpp"
#include "loss.hpp"

namespace masklab {

struct CollateRequest {
  std::vector<Feature> features;
  CollateOptions options;
};

CollateRequest decode_collate(const Json& request);
LossInput decode_loss(const Json& request);

// The typed-array path (tensor_api.hpp) hands the big tensors over as flat buffers and the rest
// as JSON; these are the same decoders, so both paths read options and refuse the same way.
// The JSON must then leave the handed-over fields out.
struct LossTensors {
  int B = 0, T = 0, V = 0;
  std::vector<double> logits;  // [B,T,V]
  std::vector<int> labels;     // [B,T]
  BorrowedLogits borrowed;     // [B,T,V] instead of `logits`: the caller's buffer, not copied
};
CollateRequest decode_collate(const Json& request, std::vector<Feature>* features);
LossInput decode_loss(const Json& request, LossTensors* tensors);
std::vector<LossInput> decode_accumulate(const Json& request);
AttentionInput decode_attention(const Json& request);
InspectInput decode_inspect(const Json& request);

// with_tensors false leaves out the [B][T] tensors: the typed-array path's JSON.
Json encode_batch(const Batch& batch, const CollateOptions& options, bool with_tensors = true);
// with_gradient_values: write the [B][T][V] gradient itself (the summary fields always come);
// with_tensors false also leaves out per_token and targets (the typed-array path's JSON).
Json encode_loss(const LossResult& result, const LossInput& input, bool with_gradient_values = true,
                 bool with_tensors = true);
Json encode_accumulation(const AccumulationResult& result);
Json encode_attention(const AttentionResult& result, int B, int T, int D, bool with_scores = true);
Json encode_inspect(const InspectResult& result, const InspectInput& input);

}  // namespace masklab
