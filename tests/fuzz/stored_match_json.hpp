// A stored match (persist/match_store.hpp) as one JSON document, field for
// field as the store keeps it: the texts the store holds (options_json,
// deck_json, action_json, cards_json) stay texts, digests are 16 hex digits
// as in SQLite. The input format of the stored-log and admin fuzz targets:
// their seeds are real recorded matches written this way by
// fuzz_seed_matches (tests/fuzz/seed_matches.cpp).
//
// Not a product format: admin's export_match (for people and tools) renders
// fields instead (options and actions as JSON, the seed hidden while playing).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/text_forms.hpp"
#include "persist/match_store.hpp"

namespace cod::fuzz {

inline nlohmann::json stored_match_to_json(const server::stored_match& sm) {
  using nlohmann::json;
  const server::match_record& m = sm.match;
  json seats = json::array();
  for (const auto& s : m.seats) {
    seats.push_back({{"seat", s.seat}, {"name", s.name}, {"token_hash", s.token_hash}, {"deck_json", s.deck_json},
                     {"team", s.team ? json(*s.team) : json()}, {"champion", s.champion}, {"ai", s.ai},
                     {"account_id", s.account_id}});
  }
  json actions = json::array();
  for (const auto& a : sm.actions) {
    actions.push_back({{"seq", a.seq}, {"seat", a.seat}, {"action_json", a.action_json},
                       {"digest", server::digest_hex(a.digest)}, {"at_ms", a.at_ms}});
  }
  json draft = json::array();
  for (const auto& d : sm.draft)
    draft.push_back({{"seq", d.seq}, {"seat", d.seat}, {"kind", d.kind}, {"cards_json", d.cards_json}, {"at_ms", d.at_ms}});
  json notes = json::array();
  for (const auto& n : sm.notes) notes.push_back({{"at_ms", n.at_ms}, {"text", n.text}});
  json result;
  if (sm.result) result = {{"winners", sm.result->winners}, {"reason", sm.result->reason}, {"ended_ms", sm.result->ended_ms}};
  return {{"match_id", m.match_id}, {"room_id", m.room_id}, {"mode", m.mode}, {"format", m.format},
          {"options_json", m.options_json}, {"rules_version", m.rules_version},
          {"engine_version", m.engine_version}, {"seed", m.seed}, {"seed_hash", m.seed_hash},
          {"created_ms", m.created_ms}, {"seats", seats}, {"actions", actions}, {"draft", draft},
          {"notes", notes}, {"result", result}};
}

// An integer column: a JSON integer. A float is refused here
// (std::invalid_argument): the store's integer columns never hold one, and
// nlohmann's conversion of an out-of-range float is undefined.
template <class T>
T as_integer(const nlohmann::json& v, const char* what) {
  if (!v.is_number_integer()) throw std::invalid_argument(std::string(what) + " is not an integer");
  return v.get<T>();
}

// The integer at `key`, or `fallback` when absent.
template <class T>
T integer(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : as_integer<T>(*it, key);
}

// The inverse. Missing keys keep the defaults; a value of the wrong type
// throws (nlohmann::json::exception, std::invalid_argument): the fuzz targets
// skip such inputs, they are not something a store can hold. A digest that
// is not 16 hex digits reads as 0 (a stored digest that does not match).
inline server::stored_match stored_match_from_json(const nlohmann::json& j) {
  server::stored_match sm;
  server::match_record& m = sm.match;
  m.match_id = j.value("match_id", std::string());
  m.room_id = j.value("room_id", std::string());
  m.mode = j.value("mode", std::string());
  m.format = j.value("format", std::string());
  m.options_json = j.value("options_json", std::string());
  m.rules_version = j.value("rules_version", std::string());
  m.engine_version = integer(j, "engine_version", 0);
  m.seed = integer(j, "seed", std::uint64_t{0});
  m.seed_hash = j.value("seed_hash", std::string());
  m.created_ms = integer(j, "created_ms", std::int64_t{0});
  for (const auto& s : j.value("seats", nlohmann::json::array())) {
    server::seat_record r;
    r.seat = integer(s, "seat", 0);
    r.name = s.value("name", std::string());
    r.token_hash = s.value("token_hash", std::string());
    r.deck_json = s.value("deck_json", std::string());
    if (s.contains("team") && !s["team"].is_null()) r.team = integer(s, "team", 0);
    r.champion = s.value("champion", std::string());
    r.ai = s.value("ai", false);
    r.account_id = s.value("account_id", std::int64_t{0});
    m.seats.push_back(std::move(r));
  }
  for (const auto& a : j.value("actions", nlohmann::json::array())) {
    server::action_record r;
    r.seq = integer(a, "seq", std::int64_t{0});
    r.seat = integer(a, "seat", 0);
    r.action_json = a.value("action_json", std::string());
    r.digest = server::parse_digest_hex(a.value("digest", std::string())).value_or(0);
    r.at_ms = integer(a, "at_ms", std::int64_t{0});
    sm.actions.push_back(std::move(r));
  }
  for (const auto& d : j.value("draft", nlohmann::json::array())) {
    server::draft_event_record r;
    r.seq = integer(d, "seq", std::int64_t{0});
    r.seat = integer(d, "seat", 0);
    r.kind = d.value("kind", std::string());
    r.cards_json = d.value("cards_json", std::string());
    r.at_ms = integer(d, "at_ms", std::int64_t{0});
    sm.draft.push_back(std::move(r));
  }
  for (const auto& n : j.value("notes", nlohmann::json::array()))
    sm.notes.push_back({integer(n, "at_ms", std::int64_t{0}), n.value("text", std::string())});
  if (j.contains("result") && !j["result"].is_null()) {
    const auto& r = j["result"];
    std::vector<int> winners;
    for (const auto& w : r.value("winners", nlohmann::json::array())) winners.push_back(as_integer<int>(w, "winners"));
    sm.result = server::match_result{winners, r.value("reason", std::string()), integer(r, "ended_ms", std::int64_t{0})};
  }
  return sm;
}

}  // namespace cod::fuzz
