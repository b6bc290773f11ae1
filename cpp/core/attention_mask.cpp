// attention_mask.cpp — see attention_mask.hpp.
#include "attention_mask.hpp"

namespace masklab {

int attention_mask_value(AttentionMaskPolicy policy, bool is_pad, int id, int pad_token_id) {
  switch (policy) {
    case AttentionMaskPolicy::FromLengths: return is_pad ? 0 : 1;
    case AttentionMaskPolicy::AllOnes: return 1;
    case AttentionMaskPolicy::InputIdsNePad: return id != pad_token_id ? 1 : 0;
  }
  return 1;
}

}  // namespace masklab
