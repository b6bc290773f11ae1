// positions.cpp — see positions.hpp.
#include "positions.hpp"

namespace masklab {

std::vector<int> position_ids_for_row(const std::vector<int>& mask, PositionPolicy policy) {
  const int T = static_cast<int>(mask.size());
  std::vector<int> pos(T);
  if (policy == PositionPolicy::Arange) {
    for (int t = 0; t < T; ++t) pos[t] = t;
    return pos;
  }
  // position_ids = attention_mask.cumsum(-1) - 1; position_ids.masked_fill_(mask == 0, 1)
  int running = 0;
  for (int t = 0; t < T; ++t) {
    running += mask[t] != 0 ? 1 : 0;
    pos[t] = mask[t] != 0 ? running - 1 : 1;
  }
  return pos;
}

std::vector<int> documents_from_positions(const std::vector<int>& position_ids, int B, int T) {
  std::vector<int> doc(position_ids.size());
  for (int b = 0; b < B; ++b) {
    int current = 0;
    for (int t = 0; t < T; ++t) {
      const size_t i = static_cast<size_t>(b) * T + t;
      if (t > 0 && position_ids[i] != position_ids[i - 1] + 1) ++current;
      doc[i] = current;
    }
  }
  return doc;
}

}  // namespace masklab
