// commands.hpp — the JSON commands, each a name and the function that answers its parsed request,
// grouped in the sets the programs need.
//
// Why sets: a program built on the core links only the code its commands reach. The CLI takes
// every command; each WebAssembly module takes one set, so a page downloads only the code it runs
// (the exercise pages never load the chat masks or the batch doctor). Each set lives in its own
// .cpp file, so referencing one set never pulls another's objects out of the static library.
//
// Not here: parsing, limits and turning failures into answers (api.hpp run_command does that).
#pragma once

#include <span>
#include <string_view>

#include "json.hpp"

namespace masklab {

struct Command {
  std::string_view name;
  Json (*answer)(const Json& request);  // throws InputError on bad input
};

using Commands = std::span<const Command>;

// collate, loss, accumulate, attention, inspect — the exercise, grid, dilution, lab and home
// pages (commands_batch.cpp).
Commands batch_commands();
// chat, and collate for the chat page's batch of conversations (commands_chat.cpp).
Commands chat_commands();
// doctor (commands_doctor.cpp).
Commands doctor_commands();
// Every command once, in the order the CLI's usage lists them (commands_all.cpp).
Commands all_commands();

// The answers, one per command, for the sets above.
Json answer_collate(const Json& request);
Json answer_loss(const Json& request);
Json answer_accumulate(const Json& request);
Json answer_attention(const Json& request);
Json answer_inspect(const Json& request);
Json answer_chat(const Json& request);
Json answer_doctor(const Json& request);

}  // namespace masklab
