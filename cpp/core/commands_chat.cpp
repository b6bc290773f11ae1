// commands_chat.cpp — the chat set (commands.hpp): chat, plus collate, which the chat page uses
// to pad its labelled conversations into a batch (answer_collate is in commands_batch.cpp).
#include "commands.hpp"

#include "chat_requests.hpp"

namespace masklab {

Json answer_chat(const Json& request) { return encode_chat(chat_masks(decode_chat(request))); }

Commands chat_commands() {
  static constexpr Command kCommands[] = {{"chat", answer_chat}, {"collate", answer_collate}};
  return kCommands;
}

}  // namespace masklab
