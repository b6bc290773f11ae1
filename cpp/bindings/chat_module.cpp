// The chat module (masklab_chat.mjs + .wasm): the chat set (commands.hpp chat_commands: chat,
// and collate for the page's batch) over wasm_api.cpp. Loaded by the Chat masks page only.

#include "wasm_boundary.hpp"

masklab::Commands masklab::wasm::module_commands() { return chat_commands(); }
