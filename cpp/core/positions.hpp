// positions.hpp — position_ids for one row.
//
// A training forward (e.g. LlamaModel) uses arange when none are passed, so left pads shift
// every real token's position; generate() derives them from the mask instead
// (docs/semantics.md §5). Packed rows restart per example (packing.cpp).
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

// mask: [T] 0/1 attention mask of the row.
// Example: mask [0,0,1,1,1]: Arange -> [0,1,2,3,4]; FromMask -> [1,1,0,1,2].
std::vector<int> position_ids_for_row(const std::vector<int>& mask, PositionPolicy policy);

}  // namespace masklab
