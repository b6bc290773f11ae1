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
std::vector<LossInput> decode_accumulate(const Json& request);
AttentionInput decode_attention(const Json& request);
InspectInput decode_inspect(const Json& request);

Json encode_batch(const Batch& batch, const CollateOptions& options);
// with_gradient_values: write the [B][T][V] gradient itself (the summary fields always come).
Json encode_loss(const LossResult& result, const LossInput& input, bool with_gradient_values = true);
Json encode_accumulation(const AccumulationResult& result);
Json encode_attention(const AttentionResult& result, int B, int T, int D, bool with_scores = true);
Json encode_inspect(const InspectResult& result, const InspectInput& input);

}  // namespace masklab
