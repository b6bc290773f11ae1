// api.hpp — the core's single entry point: one subcommand, one JSON request, one JSON answer.
//
// The CLI and the WebAssembly module both call exactly this, so native and browser answers
// are byte-for-byte the same. Never throws: every failure comes back as data.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace masklab {

struct Command;  // commands.hpp

struct ApiResult {
  bool ok = false;
  std::string json;     // the response, or {"error":{"field":"…","message":"…"}}
  std::string field;    // on error: the request field at fault ("json" for unparsable text)
  std::string message;  // on error: what was expected
};

// command: "collate" | "loss" | "accumulate" | "attention" | "inspect" | "chat" | "doctor".
// (Defined in commands_all.cpp: it links every command's code.)
ApiResult run_command(std::string_view command, std::string_view request_json);

// The same over one set of commands (commands.hpp): a name outside the set is refused like an
// unknown command. What the WebAssembly modules call, so each links only its own set's code.
ApiResult run_command(std::span<const Command> commands, std::string_view command, std::string_view request_json);

// The batch doctor on pasted text as it is (print(batch) output, JSON or JSONL) with its options as
// a JSON object ({"pad_token_id": 2, …}, every doctor field but "text"). The same answer as
// run_command("doctor", {"text": …, …}), without escaping megabytes of text into JSON and parsing
// them back: the CLI hands a FILE's bytes over unchanged, the page its paste.
// (Defined in commands_doctor.cpp, with the doctor's command.)
ApiResult run_doctor(std::string_view text, std::string_view options_json);

// A failed ApiResult whose json is {"error":{"field","message"}} (for other entry points, e.g.
// run_train_command in train_api.hpp).
ApiResult error_result(std::string field, std::string message);

}  // namespace masklab
