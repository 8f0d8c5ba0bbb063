// The one result type of the server's fallible functions (LevelDB's Status
// in spirit): ok, or a code a caller can branch on and a sentence a person
// can act on. `result<T>` is a value or a status (C++20 has no
// std::expected).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace cod::server {

class status {
 public:
  enum class code {
    ok,
    invalid,      // the input is wrong (a bad value, an unknown name)
    not_found,    // what was asked for does not exist
    conflict,     // the state does not allow it now (taken, already done)
    unavailable,  // a resource is missing or full (store down, no capacity)
    io_error,     // the operating system or the database failed
  };

  status() = default;  // ok
  static status ok() { return {}; }
  static status invalid(std::string message) { return {code::invalid, std::move(message)}; }
  static status not_found(std::string message) { return {code::not_found, std::move(message)}; }
  static status conflict(std::string message) { return {code::conflict, std::move(message)}; }
  static status unavailable(std::string message) { return {code::unavailable, std::move(message)}; }
  static status io_error(std::string message) { return {code::io_error, std::move(message)}; }

  bool is_ok() const { return code_ == code::ok; }
  explicit operator bool() const { return is_ok(); }
  code error_code() const { return code_; }
  // Empty when ok.
  const std::string& message() const { return message_; }
  // A stable snake_case name of the refusal, for an API's error answer
  // ("invalid_players", "no_such_league"), when the code alone says too
  // little; and the request field it concerns ("players"). Empty when none.
  // The code still decides (an API maps it to its HTTP status).
  const std::string& reason() const { return reason_; }
  const std::string& field() const { return field_; }
  // This status with that reason and field: status::invalid("...").because("invalid_players", "players").
  status because(std::string reason, std::string field = {}) && {
    reason_ = std::move(reason);
    field_ = std::move(field);
    return std::move(*this);
  }

  friend bool operator==(const status&, const status&) = default;

 private:
  status(code c, std::string message) : code_(c), message_(std::move(message)) {}
  code code_ = code::ok;
  std::string message_;
  std::string reason_;
  std::string field_;
};

const char* status_code_name(status::code c);

// A T, or the status saying why there is none.
template <class T>
class result {
 public:
  result(T value) : v_(std::move(value)) {}  // NOLINT: implicit, as std::expected
  result(status why) : v_(std::move(why)) { assert(!std::get<status>(v_).is_ok()); }  // NOLINT

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() { return std::get<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // ok when there is a value.
  status error() const { return has_value() ? status{} : std::get<status>(v_); }

 private:
  std::variant<T, status> v_;
};

}  // namespace cod::server
