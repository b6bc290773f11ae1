// commands_doctor.cpp — the doctor set (commands.hpp), and run_doctor (api.hpp): kept out of
// api.cpp so that a program without the doctor never links its objects.
#include "commands.hpp"

#include "api.hpp"
#include "api_guard.hpp"
#include "doctor_json.hpp"
#include "limits.hpp"

namespace masklab {

Json answer_doctor(const Json& request) {
  DoctorRequest r = decode_doctor(request);
  return encode_doctor(diagnose(parse_printed_batch(r.text), r.options), r.view);
}

Commands doctor_commands() {
  static constexpr Command kCommands[] = {{"doctor", answer_doctor}};
  return kCommands;
}

ApiResult run_doctor(std::string_view text, std::string_view options_json) {
  return answer_guarded([&] {
    // The text is bounded by the doctor's own reader (printed_batch.hpp: bytes, numbers, fields,
    // counted while reading); the options are a few small fields.
    limit_request("json", "bytes", options_json.size(), kMaxRequestBytes);
    DoctorRequest r = decode_doctor_options(parse_json(options_json, JsonLimits{kDefaultMaxValues, "the options"}));
    return encode_doctor(diagnose(parse_printed_batch(text), r.options), r.view);
  });
}

}  // namespace masklab
