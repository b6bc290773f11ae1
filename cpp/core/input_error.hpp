// input_error.hpp — the one error type the core throws for bad input.
//
// Every validation failure names the field it is about, in the request's own spelling
// ("features[1].input_ids[3]"), and says what was expected, so a learner pasting a batch
// or an engineer piping JSON into the CLI can fix it without reading our code.
// Not for programming errors: those are bugs, and tests should catch them.
#pragma once

#include <stdexcept>
#include <string>

namespace masklab {

struct InputError : std::runtime_error {
  std::string field;    // e.g. "features[0].labels"; empty when the whole request is at fault
  std::string message;  // one sentence, no trailing newline
  InputError(std::string field_, std::string message_)
      : std::runtime_error(field_.empty() ? message_ : field_ + ": " + message_),
        field(std::move(field_)),
        message(std::move(message_)) {}
};

}  // namespace masklab
