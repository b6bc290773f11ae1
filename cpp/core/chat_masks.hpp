// chat_masks.hpp — which tokens of one rendered conversation are trained, and why the others are
// not: the target policies (all tokens, assistant turns, the last assistant turn, prompt/completion,
// `{% generation %}` blocks, TRL's response-template search), the end-of-turn policy (axolotl's
// train_on_eos: every turn / last / never), role headers in or out, masking by pad id, truncation
// at max_length, and the warnings a careful engineer checks before a long run.
//
// Input is token ids plus role spans measured on the real template render (the JavaScript side,
// web/chat/chat-analysis.js, renders and tokenizes; the core never sees text it must parse).
// Labels stay unshifted, aligned with input_ids (docs/semantics.md §1.1). Rules and sources:
// docs/semantics.md §8. Not here: JSON (chat_requests.cpp), padding a batch (collate.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "batch.hpp"

namespace masklab {

enum class ChatTarget {
  All,               // labels = input_ids (TRL's default for a plain `messages` dataset)
  Assistant,         // assistant turns: content (+ end-of-turn, + header per the options)
  LastAssistant,     // only the last assistant turn (LLaMA-Factory's mask_history)
  Completion,        // prompt/completion: every token from completion_start on (TRL completion_mask)
  Generation,        // the template's {% generation %} blocks (return_assistant_tokens_mask)
  ResponseTemplate,  // TRL's DataCollatorForCompletionOnlyLM search (response_template.hpp)
  TurnByTurn         // a mask built from token counts of growing prefixes (open-instruct's
                     // sft_tulu_tokenize_and_truncate): `turn_mask`, measured by the caller
};

enum class EndOfTurnPolicy { Every, Last, Never };  // axolotl train_on_eos: turn/all, last, none

// How padding is masked downstream: by position (DataCollatorForSeq2Seq, TRL >= 0.17) or by id
// (DataCollatorForLanguageModeling: every token equal to pad_token_id loses its label).
enum class PadMasking { ByPosition, ById };

// One message's place in the token sequence, as token index ranges [begin, end). A message the
// template did not print has rendered = false.
struct ChatSpan {
  std::string role;  // system | user | assistant | tool | developer
  bool rendered = true;
  int header_begin = 0, header_end = 0;    // role header and other template text before the content
  int content_begin = 0, content_end = 0;  // the message's own text
  int tail_begin = 0, tail_end = 0;        // end-of-turn token and what follows it
  int end_of_turn = -1;                    // position of the end-of-turn token, or -1
};

struct ChatInput {
  std::vector<int> input_ids;            // [T]
  std::vector<std::string> tokens;       // [T] display strings, for warning messages
  std::vector<ChatSpan> spans;           // one per message, conversation order
  std::optional<std::vector<int>> generation_mask;  // [T] 1 inside {% generation %}; absent: no blocks
  std::optional<std::vector<int>> turn_mask;        // [T] TurnByTurn: 1 = trained, 0 = inside a non-assistant range
  std::optional<int> bos_token_id, eos_token_id, pad_token_id;
  std::string eos_token, pad_token;      // their strings, for messages
  ChatTarget target = ChatTarget::Assistant;
  EndOfTurnPolicy end_of_turn = EndOfTurnPolicy::Every;
  bool train_role_headers = false;
  PadMasking pad_masking = PadMasking::ByPosition;
  std::optional<int> max_length;
  Side truncation_side = Side::Right;
  std::vector<int> response_template_ids;     // ResponseTemplate: encoded alone, no special tokens
  std::vector<int> instruction_template_ids;  // optional
  std::optional<int> completion_start;        // Completion: first completion token
  bool prompt_is_prefix = true;               // the prompt's render is a prefix of the whole
  std::vector<int> prefix_breaks;             // messages whose prefix render is not a prefix
  std::vector<int> boundary_tokens;           // tokens holding both message text and template text
};

enum class ChatReason : unsigned char {
  Trained,
  System, User, Tool, Developer,  // another role's turn
  RoleHeader,                     // a header (assistant headers unless train_role_headers)
  Scaffolding,                    // template text of no message: BOS, separators after end-of-turn
  EndOfTurn,                      // the end-of-turn token, left out by the end-of-turn policy
  EarlierTurn,                    // an assistant turn before the last (LastAssistant)
  Prompt,                         // before completion_start (Completion)
  NotGeneration,                  // outside every {% generation %} block (Generation)
  TemplateSearch,                 // set -100 by the response-template search
  PadId,                          // its id equals pad_token_id and padding is masked by id
  TurnRange                       // inside a non-assistant range of the turn-by-turn mask (TurnByTurn)
};
const char* chat_reason_name(ChatReason r);  // "", "system", …, "role_header", "pad_id"

struct ChatWarning {
  std::string id;        // e.g. "end_of_turn_untrained"
  std::string severity;  // "error" | "warning" | "info"
  int turn = -1;         // message index, or -1 for the whole conversation
  std::vector<int> positions;
  std::string message;
};

struct ChatTurn {
  int message = 0;
  std::string role;
  int tokens = 0, trained = 0, ignored = 0;
  int end_of_turn = -1;                      // position after truncation, -1 when none
  std::optional<bool> end_of_turn_trained;   // assistant turns with an end-of-turn token
  int truncated_tokens = 0;
};

struct ChatResult {
  std::vector<int> input_ids;            // [T'] after truncation
  std::vector<int> labels;               // [T'] -100 = not trained
  std::vector<ChatReason> reasons;       // [T']
  std::vector<int> message_of;           // [T'] message index, -1 for scaffolding
  std::vector<std::string> part_of;      // [T'] "header" | "content" | "end_of_turn" | "tail" | "scaffolding"
  std::vector<ChatTurn> turns;           // one per message
  int truncated_tokens = 0;
  std::optional<int> end_of_turn_token_id;  // the id that ends the last assistant turn in this render
  std::vector<ChatWarning> warnings;
};

// Every warning id the core can raise, in the order the page lists them.
const std::vector<std::string>& chat_warning_ids();

// Throws InputError for spans outside the sequence or overlapping, a generation mask of the wrong
// length, or a policy whose input is missing (Completion without completion_start, …).
// Example: ids [1,2,5,9,3,6,7,4] (bos 1; user header [1,2) content [2,3) tail [3,4) eot 3;
//   assistant header [4,5) content [5,7) tail [7,8) eot 7), target Assistant, end-of-turn Every
//   -> labels [-100,-100,-100,-100,-100,6,7,4].
ChatResult chat_masks(const ChatInput& input);

}  // namespace masklab
