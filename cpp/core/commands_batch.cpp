// commands_batch.cpp — the batch commands (commands.hpp): collate, loss, accumulate, attention,
// inspect.
#include "commands.hpp"

#include "collate.hpp"
#include "requests.hpp"

namespace masklab {

Json answer_collate(const Json& request) {
  CollateRequest r = decode_collate(request);
  return encode_batch(collate(r.features, r.options), r.options);
}

Json answer_loss(const Json& request) {
  LossInput in = decode_loss(request);
  return encode_loss(cross_entropy(in), in);
}

Json answer_accumulate(const Json& request) { return encode_accumulation(accumulate(decode_accumulate(request))); }

Json answer_attention(const Json& request) {
  AttentionInput in = decode_attention(request);
  return encode_attention(attend(in), in.B, in.T, in.D);
}

Json answer_inspect(const Json& request) {
  InspectInput in = decode_inspect(request);
  return encode_inspect(inspect(in), in);
}

Commands batch_commands() {
  static constexpr Command kCommands[] = {
      {"collate", answer_collate}, {"loss", answer_loss},           {"accumulate", answer_accumulate},
      {"attention", answer_attention}, {"inspect", answer_inspect},
  };
  return kCommands;
}

}  // namespace masklab
