// api.cpp — see api.hpp. The commands themselves are in commands_*.cpp (commands.hpp).
#include "api.hpp"

#include "api_guard.hpp"
#include "commands.hpp"
#include "limits.hpp"

namespace masklab {

namespace {

// "a, b or c"
std::string listed(Commands commands) {
  std::string out;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) out += i + 1 == commands.size() ? " or " : ", ";
    out += commands[i].name;
  }
  return out;
}

Json dispatch(Commands commands, std::string_view command, const Json& request) {
  for (const Command& c : commands)
    if (c.name == command) return c.answer(request);
  throw InputError("command", "\"" + std::string(command) + "\" is not a command; expected " + listed(commands));
}

}  // namespace

ApiResult error_result(std::string field, std::string message) {
  ApiResult r;
  r.field = std::move(field);
  r.message = std::move(message);
  Json error = Json::object();
  error.set("field", Json::string(r.field)).set("message", Json::string(r.message));
  r.json = to_json(Json::object().set("error", std::move(error)));
  return r;
}

ApiResult run_command(Commands commands, std::string_view command, std::string_view request_json) {
  return answer_guarded([&] {
    limit_request("json", "bytes", request_json.size(), kMaxRequestBytes);
    return dispatch(commands, command,
                    parse_json(request_json, JsonLimits{max_request_values(command), "the request"}));
  });
}

}  // namespace masklab
