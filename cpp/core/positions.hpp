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

// [B,T] document index of every position, as a kernel reading position_ids finds them: a new
// document starts where a position is not its predecessor plus one (transformers'
// find_packed_sequence_indices; FlashAttention's cu_seqlens from position resets;
// docs/semantics.md §4.3). Example: one row [0,1,0,1,2,0] -> [0,0,1,1,1,2].
std::vector<int> documents_from_positions(const std::vector<int>& position_ids, int B, int T);

}  // namespace masklab
