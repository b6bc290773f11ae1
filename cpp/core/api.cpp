// api.cpp — see api.hpp.
#include "api.hpp"

#include <new>

#include "chat_requests.hpp"
#include "collate.hpp"
#include "doctor_json.hpp"
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
  if (command == "doctor") {
    DoctorRequest r = decode_doctor(request);
    return encode_doctor(diagnose(parse_printed_batch(r.text), r.options), r.view);
  }
  throw InputError("command", "\"" + std::string(command) +
                                  "\" is not a command; expected collate, loss, accumulate, attention, inspect, chat or doctor");
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

namespace {

// Runs `answer` (which returns the response as Json) and turns every failure into data.
template <class Answer>
ApiResult guarded(Answer answer) {
  try {
    ApiResult r;
    r.ok = true;
    r.json = to_json(answer());
    return r;
  } catch (const InputError& e) {
    return error_result(e.field, e.message);
  } catch (const std::bad_alloc&) {
    return error_result("json", "the request is too large to process in memory");
  } catch (const std::exception& e) {
    return error_result("", std::string("internal error: ") + e.what());
  }
}

}  // namespace

ApiResult run_command(std::string_view command, std::string_view request_json) {
  return guarded([&] {
    limit_request("json", "bytes", request_json.size(), kMaxRequestBytes);
    return dispatch(command, parse_json(request_json, JsonLimits{max_request_values(command), "the request"}));
  });
}

ApiResult run_doctor(std::string_view text, std::string_view options_json) {
  return guarded([&] {
    // The text is bounded by the doctor's own reader (printed_batch.hpp: bytes, numbers, fields,
    // counted while reading); the options are a few small fields.
    limit_request("json", "bytes", options_json.size(), kMaxRequestBytes);
    DoctorRequest r = decode_doctor_options(parse_json(options_json, JsonLimits{kDefaultMaxValues, "the options"}));
    return encode_doctor(diagnose(parse_printed_batch(text), r.options), r.view);
  });
}

}  // namespace masklab
