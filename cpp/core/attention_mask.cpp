// attention_mask.cpp — see attention_mask.hpp.
#include "attention_mask.hpp"

namespace masklab {

int attention_mask_value(AttentionMaskPolicy policy, bool is_pad, int id, std::optional<int> pad_token_id,
                         int given) {
  switch (policy) {
    case AttentionMaskPolicy::FromLengths: return is_pad ? 0 : given;
    case AttentionMaskPolicy::AllOnes: return 1;
    case AttentionMaskPolicy::InputIdsNePad: return pad_token_id && id == *pad_token_id ? 0 : 1;
  }
  return 1;
}

}  // namespace masklab
