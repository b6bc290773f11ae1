// api_guard.hpp — how the entry points of api.hpp turn every failure into an answer (internal to
// the core: api.cpp and commands_doctor.cpp).
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "api.hpp"
#include "input_error.hpp"
#include "json.hpp"

namespace masklab {

// Runs `answer` (which returns the response as Json); an InputError, a failed allocation or any
// other exception comes back as an error answer.
template <class Answer>
ApiResult answer_guarded(Answer answer) {
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

}  // namespace masklab
