// commands_all.cpp — every command (commands.hpp), for the CLI, the tests and the fuzzers, and
// run_command without a set (api.hpp).
#include "commands.hpp"

#include "api.hpp"

namespace masklab {

Commands all_commands() {
  static constexpr Command kCommands[] = {
      {"collate", answer_collate},     {"loss", answer_loss},       {"accumulate", answer_accumulate},
      {"attention", answer_attention}, {"inspect", answer_inspect}, {"chat", answer_chat},
      {"doctor", answer_doctor},
  };
  return kCommands;
}

ApiResult run_command(std::string_view command, std::string_view request_json) {
  return run_command(all_commands(), command, request_json);
}

}  // namespace masklab
