#include "room/match_id.hpp"


namespace cod::server {

std::string make_match_id(std::string_view room_id, environment& env) {
  return make_match_id(room_id, env.random_hex(8));
}

std::string make_match_id(std::string_view room_id, std::string_view suffix) {
  std::string id(room_id);
  id += '-';
  id += suffix;
  return id;
}

std::string room_of_match(std::string_view match_id) {
  // The suffix is hex: the last '-' is the separator even if a room id had one.
  const auto dash = match_id.rfind('-');
  return std::string(dash == std::string_view::npos ? match_id : match_id.substr(0, dash));
}

}  // namespace cod::server
