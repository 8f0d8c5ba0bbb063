// A match's id: its room's id, '-', and 8 random hex digits ("r7k2x-3f9a0c1b").
// A room holds one match, but a room id may come back after a restart or for
// another match of a tournament table, so the suffix keeps match ids unique;
// the prefix lets a tournament find a match's room again (room_of_match).
#pragma once

#include <string>
#include <string_view>

#include "common/environment.hpp"

namespace cod::server {

// `room_id` and a fresh random suffix, drawn from `env`.
std::string make_match_id(std::string_view room_id, environment& env);
// `room_id` and a given suffix (8 hex digits; make_match_id draws them).
std::string make_match_id(std::string_view room_id, std::string_view suffix);
// The room id a match id was made from; an id with no '-' is its own room id.
std::string room_of_match(std::string_view match_id);

}  // namespace cod::server
