// response_template.hpp — TRL's DataCollatorForCompletionOnlyLM (v0.4.5 – v0.19, removed in
// v0.20): find the token ids of a response template in a row's labels and set -100 on everything
// before the answer. Implemented by name so the chat page can show it failing next to spans taken
// from the template itself (docs/semantics.md §3.4, §8.5).
//
// Not here: building the labels it starts from (chat_masks.cpp) or tokenizing the template (the
// JavaScript side encodes it alone, add_special_tokens=False, exactly as TRL did).
#pragma once

#include <vector>

namespace masklab {

struct TemplateSearch {
  std::vector<int> labels;           // [T] the row's labels after the search
  std::vector<unsigned char> masked;  // [T] 1 where the search set -100 (was trained before)
  bool response_found = false;       // false: TRL warns "Could not find response key" and drops the row
  bool instruction_found = false;    // only meaningful with an instruction template
  std::vector<int> response_ends;    // positions right after each response-template match
};

// Without an instruction template: the last match wins and labels[:end of that match] = -100, so
// only the final answer of a multi-turn row is trained. With one: human/response spans alternate
// and everything outside response spans is -100 (TRL v0.19 utils.py, torch_call).
// Example: labels [1,9,5,9,6,7], response [9] -> last match at 3 -> [-100,-100,-100,-100,6,7].
// Not found -> every label -100.
TemplateSearch search_response_template(const std::vector<int>& labels, const std::vector<int>& response_ids,
                                        const std::vector<int>& instruction_ids);

}  // namespace masklab
