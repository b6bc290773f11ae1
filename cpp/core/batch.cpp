// batch.cpp — names of the ignore reasons, as they appear in JSON and on the grid.
#include "batch.hpp"

namespace masklab {

const char* reason_name(IgnoreReason r) {
  switch (r) {
    case IgnoreReason::None: return "";
    case IgnoreReason::Padding: return "padding";
    case IgnoreReason::Prompt: return "prompt";
    case IgnoreReason::PadId: return "pad_id";
    case IgnoreReason::Boundary: return "boundary";
    case IgnoreReason::Given: return "given";
    case IgnoreReason::User: return "user";
  }
  return "";
}

}  // namespace masklab
