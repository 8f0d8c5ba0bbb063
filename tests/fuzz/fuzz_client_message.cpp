// Fuzz target: the client message decoder, what a WebSocket frame from any
// client goes through (protocol/client_messages.hpp). Checks: parse_client_message
// never throws, never crashes, and answers every frame; an error reply can be
// built and serialised for any frame (it echoes the id); an accepted message
// round-trips (client_message_to_json, then parse_client_json, gives the same
// message); its deck resolves against the catalogue, its room options pass or
// fail check_room_config, without throwing. The same bytes also go through
// parse_action_text, the reader of stored actions.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/messages.hpp"
#include "fuzz_common.hpp"

namespace proto = cod::protocol;

namespace {

// What a room does next with a parsed message's client-chosen parts.
void use(const proto::client_message& m) {
  const auto& cat = cod::fuzz::shipped();
  if (const auto* j = std::get_if<proto::join_msg>(&m)) {
    for (auto f : {proto::deck_format::preconstructed, proto::deck_format::constructed})
      (void)proto::resolve_deck(j->deck, f, cat);
  } else if (const auto* t = std::get_if<proto::tournament_join_msg>(&m)) {
    (void)proto::resolve_deck(t->deck, proto::deck_format::constructed, cat);
  } else if (const auto* c = std::get_if<proto::create_room_msg>(&m)) {
    (void)proto::check_room_config(c->mode, c->format, c->options);
    (void)proto::room_options_to_json(c->options, c->mode).dump();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto r = proto::parse_client_message(text);
  if (!r.ok()) {
    cod::fuzz::check(r.error.has_value(), "a refused frame has no error");
    (void)proto::make_error(r.id, *r.error).dump();
  } else {
    const auto j = proto::client_message_to_json(*r.message);
    const auto back = proto::parse_client_json(j);
    cod::fuzz::check(back.ok() && *back.message == *r.message, "an accepted message does not round-trip");
    (void)j.dump();
    use(*r.message);
  }
  const auto a = proto::parse_action_text(text, 0);
  if (a.ok()) {
    const auto again = proto::parse_action(proto::action_to_json(a.value), 0);
    cod::fuzz::check(again.ok() && again.value == a.value, "a parsed action does not round-trip");
  }
  return 0;
}
