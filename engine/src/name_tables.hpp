// The engine's wire-name tables (names.cpp, draft_names.cpp,
// mutation_names.cpp, league_names.cpp): an enum's value is its index into
// a constexpr table; anything past the table reads "?".
#pragma once

#include <cstddef>
#include <string_view>

namespace cod::detail {

struct error_text {
  std::string_view name;
  std::string_view message;
};

template <class E, std::size_t N>
constexpr std::string_view name_in(const std::string_view (&table)[N], E e) {
  const auto i = static_cast<std::size_t>(e);
  return i < N ? table[i] : std::string_view{"?"};
}

template <class E, std::size_t N>
constexpr std::string_view error_name_in(const error_text (&table)[N], E e) {
  const auto i = static_cast<std::size_t>(e);
  return i < N ? table[i].name : std::string_view{"?"};
}

template <class E, std::size_t N>
constexpr std::string_view error_message_in(const error_text (&table)[N], E e) {
  const auto i = static_cast<std::size_t>(e);
  return i < N ? table[i].message : std::string_view{"?"};
}

}  // namespace cod::detail
