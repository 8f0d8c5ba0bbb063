#include "common/status.hpp"

namespace cod::server {

const char* status_code_name(status::code c) {
  switch (c) {
    case status::code::ok: return "ok";
    case status::code::invalid: return "invalid";
    case status::code::not_found: return "not_found";
    case status::code::conflict: return "conflict";
    case status::code::unavailable: return "unavailable";
    case status::code::io_error: return "io_error";
  }
  return "unknown";
}

}  // namespace cod::server
