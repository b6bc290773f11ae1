// fuzz_target.hpp — what every masklab fuzz target checks about one input, shared by the libFuzzer
// targets (npm run fuzz) and the plain replay driver that npm test runs under AddressSanitizer
// and UndefinedBehaviorSanitizer (replay_main.cpp).
//
// A finding is any of: a crash or sanitizer report (the tools see those), an exception escaping
// the core, or a broken promise of api.hpp — an answer that is not valid JSON (or not valid
// UTF-8), an error without a message, or an "internal error" (a bug reached through bad input).
// A broken promise calls fuzz_fail, which prints the reason and aborts, so libFuzzer saves the
// input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api.hpp"
#include "input_error.hpp"
#include "json.hpp"

namespace masklab::fuzz {

[[noreturn]] inline void fuzz_fail(std::string_view command, std::string_view why, std::string_view detail) {
  std::fprintf(stderr, "masklab fuzz: %.*s: %.*s: %.*s\n", static_cast<int>(command.size()), command.data(),
               static_cast<int>(why.size()), why.data(), static_cast<int>(detail.size() > 400 ? 400 : detail.size()),
               detail.data());
  std::abort();
}

// The promises of an ApiResult (api.hpp), whichever entry point produced it.
inline void check_answer(std::string_view command, const ApiResult& r) {
  Json answer;
  try {
    answer = parse_json(r.json);
  } catch (const InputError& e) {
    fuzz_fail(command, "the answer is not valid JSON", e.message + " in " + r.json);
  }
  if (!answer.is_object()) fuzz_fail(command, "the answer is not an object", r.json);
  if (r.ok) return;
  if (r.message.empty()) fuzz_fail(command, "an error without a message", r.json);
  if (r.message.rfind("internal error", 0) == 0) fuzz_fail(command, "an internal error", r.json);
}

// One input for one run_command command.
inline void run_one(std::string_view command, const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_answer(command, run_command(command, text));
}

// Pasted text for the batch doctor as it is (run_doctor), with default options.
inline void run_doctor_text(const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_answer("doctor (text)", run_doctor(text, "{}"));
}

}  // namespace masklab::fuzz
