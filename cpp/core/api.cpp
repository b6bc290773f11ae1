// api.cpp — see api.hpp.
#include "api.hpp"

#include <new>

#include "chat_requests.hpp"
#include "collate.hpp"
#include "input_error.hpp"
#include "limits.hpp"
#include "requests.hpp"

namespace masklab {

namespace {

Json dispatch(std::string_view command, const Json& request) {
  if (command == "collate") {
    CollateRequest r = decode_collate(request);
    return encode_batch(collate(r.features, r.options), r.options);
  }
  if (command == "loss") {
    LossInput in = decode_loss(request);
    return encode_loss(cross_entropy(in), in);
  }
  if (command == "accumulate") return encode_accumulation(accumulate(decode_accumulate(request)));
  if (command == "attention") {
    AttentionInput in = decode_attention(request);
    return encode_attention(attend(in), in.B, in.T, in.D);
  }
  if (command == "inspect") {
    InspectInput in = decode_inspect(request);
    return encode_inspect(inspect(in), in);
  }
  if (command == "chat") return encode_chat(chat_masks(decode_chat(request)));
  throw InputError("command", "\"" + std::string(command) +
                                  "\" is not a command; expected collate, loss, accumulate, attention, inspect or chat");
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

ApiResult run_command(std::string_view command, std::string_view request_json) {
  try {
    limit_request("json", "bytes", request_json.size(), kMaxRequestBytes);
    Json request = parse_json(request_json, JsonLimits{max_request_values(command), "the request"});
    ApiResult r;
    r.ok = true;
    r.json = to_json(dispatch(command, request));
    return r;
  } catch (const InputError& e) {
    return error_result(e.field, e.message);
  } catch (const std::bad_alloc&) {
    return error_result("json", "the request is too large to process in memory");
  } catch (const std::exception& e) {
    return error_result("", std::string("internal error: ") + e.what());
  }
}

}  // namespace masklab
