// Join tokens: 32 lowercase hex digits from an injected random source (the
// server passes its CSPRNG; tests pass a seeded one). Only their SHA-256 is kept.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace cod::tournaments {

using random_source = std::function<std::uint64_t()>;

// 32 hex digits; with an event id, "ID." before them, so that the token names
// its tournament or league (protocol::event_of_token reads it back).
std::string make_token(const random_source& random, std::string_view event_id = {});
// SHA-256 hex of the token's text, as match_seats.token_hash.
std::string token_hash(std::string_view token);

}  // namespace cod::tournaments
