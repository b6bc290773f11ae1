// api_guard.hpp — how the entry points of api.hpp turn every failure into an answer (internal to
// the core: api.cpp, commands_doctor.cpp and train_api.cpp).
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "api.hpp"
#include "input_error.hpp"
#include "json.hpp"

namespace masklab {

// Runs `run`, which returns its own ApiResult (e.g. a command that streams its answer, like
// train); an InputError, a failed allocation or any other exception comes back as an error answer.
template <class Run>
ApiResult guarded(Run run) {
  try {
    return run();
  } catch (const InputError& e) {
    return error_result(e.field, e.message);
  } catch (const std::bad_alloc&) {
    return error_result("json", "the request is too large to process in memory");
  } catch (const std::exception& e) {
    return error_result("", std::string("internal error: ") + e.what());
  }
}

// Runs `answer` (which returns the response as Json) under guarded().
template <class Answer>
ApiResult answer_guarded(Answer answer) {
  return guarded([&] {
    ApiResult r;
    r.ok = true;
    r.json = to_json(answer());
    return r;
  });
}

}  // namespace masklab
