// api.cpp — see api.hpp.
#include "api.hpp"

#include <new>

#include "chat_requests.hpp"
#include "collate.hpp"
#include "doctor_json.hpp"
#include "input_error.hpp"
#include "requests.hpp"

namespace masklab {

namespace {

constexpr size_t kMaxRequestBytes = 256u << 20;

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

ApiResult failure(std::string field, std::string message) {
  ApiResult r;
  r.field = std::move(field);
  r.message = std::move(message);
  Json error = Json::object();
  error.set("field", Json::string(r.field)).set("message", Json::string(r.message));
  r.json = to_json(Json::object().set("error", std::move(error)));
  return r;
}

// Runs `answer` (which returns the response as Json) and turns every failure into data.
template <class Answer>
ApiResult guarded(Answer answer) {
  try {
    ApiResult r;
    r.ok = true;
    r.json = to_json(answer());
    return r;
  } catch (const InputError& e) {
    return failure(e.field, e.message);
  } catch (const std::bad_alloc&) {
    return failure("json", "the request is too large to process in memory");
  } catch (const std::exception& e) {
    return failure("", std::string("internal error: ") + e.what());
  }
}

}  // namespace

ApiResult error_result(std::string field, std::string message) { return failure(std::move(field), std::move(message)); }

ApiResult run_command(std::string_view command, std::string_view request_json) {
  if (request_json.size() > kMaxRequestBytes) return failure("json", "the request is larger than 256 MiB");
  return guarded([&] { return dispatch(command, parse_json(request_json)); });
}

ApiResult run_doctor(std::string_view text, std::string_view options_json) {
  if (options_json.size() > kMaxRequestBytes) return failure("json", "the options are larger than 256 MiB");
  return guarded([&] {
    DoctorRequest r = decode_doctor_options(parse_json(options_json));
    return encode_doctor(diagnose(parse_printed_batch(text), r.options), r.view);
  });
}

}  // namespace masklab
