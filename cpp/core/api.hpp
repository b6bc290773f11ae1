// api.hpp — the core's single entry point: one subcommand, one JSON request, one JSON answer.
//
// The CLI and the WebAssembly module both call exactly this, so native and browser answers
// are byte-for-byte the same. Never throws: every failure comes back as data.
#pragma once

#include <string>
#include <string_view>

namespace masklab {

struct ApiResult {
  bool ok = false;
  std::string json;     // the response, or {"error":{"field":"…","message":"…"}}
  std::string field;    // on error: the request field at fault ("json" for unparsable text)
  std::string message;  // on error: what was expected
};

// command: "collate" | "loss" | "accumulate" | "attention" | "inspect" | "chat" | "doctor".
ApiResult run_command(std::string_view command, std::string_view request_json);

// The batch doctor on pasted text as it is (print(batch) output, JSON or JSONL) with its options as
// a JSON object ({"pad_token_id": 2, …}, every doctor field but "text"). The same answer as
// run_command("doctor", {"text": …, …}), without escaping megabytes of text into JSON and parsing
// them back: the CLI hands a FILE's bytes over unchanged, the page its paste.
ApiResult run_doctor(std::string_view text, std::string_view options_json);

// A failed ApiResult whose json is {"error":{"field","message"}} (for other entry points, e.g.
// run_train_command in train_api.hpp).
ApiResult error_result(std::string field, std::string message);

}  // namespace masklab
