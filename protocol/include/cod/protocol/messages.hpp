// The WebSocket protocol's messages, all of them (docs/protocol.md is the
// client's reference; docs/protocol-design.md the design notes), for code that
// both reads and answers them, such as the server's sessions:
//
//   room_config.hpp      deck formats, room options and status, the offered
//                        modes, seats and teams, a join's deck and Champion
//   client_messages.hpp  what clients send: the structs, the strict parser
//   server_messages.hpp  what the server sends: the builders, close codes
//
// The payloads inside (actions, events, views) are json_codec.hpp's.
//
//   auto r = protocol::parse_client_message(frame_text, cfg.max_frame_bytes);
//   if (!r.ok()) {
//     send(protocol::make_error(r.id, *r.error));       // echoes the id when readable
//     if (r.oversized) close(protocol::close_code::message_too_big);
//     return;
//   }
//   // One handler per client message; one missing (or a catch-all) does not compile.
//   protocol::visit_client_message(*r.message, protocol::overloaded{
//       [&](const protocol::join_msg& m) { ... send(protocol::make_joined(m.id, room, seat, token)); },
//       [&](const protocol::act_msg& m) { cod::action a = m.for_seat(my_seat); ... },
//       ...});
#pragma once

#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/json_codec.hpp"
#include "cod/protocol/room_config.hpp"
#include "cod/protocol/server_messages.hpp"
