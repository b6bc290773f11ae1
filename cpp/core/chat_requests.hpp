// chat_requests.hpp — the `chat` command's JSON: request -> ChatInput, ChatResult -> answer.
//
// Field names follow the rest of the core (Hugging Face spellings where one exists). Every
// dimension is bounded before any work is done, so the largest accepted request answers in well
// under 2 s and 512 MB; an oversized field is refused by name. Not here: the masking rules
// (chat_masks.cpp).
#pragma once

#include "chat_masks.hpp"
#include "json.hpp"

namespace masklab {

constexpr int kMaxChatTokens = 262144;     // 256 K tokens: longer than any context a page shows
constexpr int kMaxChatMessages = 1000;
constexpr int kMaxTemplateIds = 512;
constexpr size_t kMaxTokenText = 1024;     // characters of one token's display string
// Tokens holding both message and template text: where a message's text meets the template's,
// a few per message at most. Each one is a warning in the answer, so they are bounded apart.
constexpr int kMaxBoundaryTokens = 4 * kMaxChatMessages;

ChatInput decode_chat(const Json& request);
Json encode_chat(const ChatResult& result);

}  // namespace masklab
