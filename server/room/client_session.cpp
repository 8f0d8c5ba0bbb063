#include "room/client_session.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <variant>

#include <spdlog/spdlog.h>

#include "cod/protocol/messages.hpp"
#include "common/metrics.hpp"
#include "common/text_forms.hpp"
#include "room/room.hpp"
#include "room/room_registry.hpp"

namespace cod::server {

namespace pr = cod::protocol;
using nlohmann::json;

client_session::client_session(lobby_services& svc, std::weak_ptr<peer> p, std::uint64_t conn_id,
                               std::string address, strand_post post)
    : svc_(svc),
      peer_(std::move(p)),
      conn_id_(conn_id),
      address_(std::move(address)),
      session_(svc.env->random_hex(16)),
      // Never a flood verdict here: the connection's own limiter judges floods.
      list_budget_(svc.cfg.list_rooms_per_sec, svc.cfg.list_rooms_burst, std::numeric_limits<int>::max()),
      emote_budget_(pr::emotes_per_sec, pr::emote_burst, std::numeric_limits<int>::max()),
      post_(std::move(post)) {}

void client_session::send(const json& j) {
  if (auto it = j.find("type"); it != j.end() && *it == "error") {
    if (auto code = j.find("code"); code != j.end() && code->is_string())
      svc_.stats->error(code->get_ref<const std::string&>());
  }
  send(std::make_shared<const std::string>(j.dump()));
}

void client_session::send(message_ptr m) {
  if (auto p = peer_.lock()) p->send(std::move(m));
}

void client_session::close(std::uint16_t code, std::string reason) {
  if (auto p = peer_.lock()) p->close(code, std::move(reason));
}

void client_session::send_error(const json& id, pr::session_errc code, std::string_view message) {
  send(pr::make_error(id, code, message));
}

std::shared_ptr<room> client_session::attached() const {
  std::lock_guard lock(mutex_);
  return room_;
}

void client_session::attach(std::shared_ptr<room> r) {
  std::lock_guard lock(mutex_);
  room_ = std::move(r);
}

bool client_session::try_attach(std::shared_ptr<room> r) {
  std::lock_guard lock(mutex_);
  if (room_) return false;
  room_ = std::move(r);
  return true;
}

void client_session::detach(const room* r) {
  std::lock_guard lock(mutex_);
  if (room_.get() == r) room_.reset();
}

void client_session::on_oversized() {
  send_error(json(), pr::session_errc::frame_too_large);
  close(pr::close_code::message_too_big, "frame too large");
}

void client_session::on_rate_limited() { send_error(json(), pr::session_errc::rate_limited); }

void client_session::on_binary() {
  send(pr::make_error(json(), pr::protocol_error{pr::protocol_errc::bad_json, "",
                                                 "binary frames are not accepted: send JSON as text frames"}));
}

void client_session::on_closed() {
  closed_.store(true);
  std::shared_ptr<room> r;
  {
    std::lock_guard lock(mutex_);
    r = std::move(room_);
  }
  // The creator's departure first: a room sees it before its seat's, so
  // that the summary published when the seat disconnects is already vacant
  // (room::vacant) when nobody else is in it.
  for (const auto& w : created_)
    if (auto made = w.lock()) made->creator_left();
  created_.clear();
  if (svc_.leave_queue) svc_.leave_queue(conn_id_, "");
  if (r) r->disconnected(shared_from_this());
}

void client_session::on_hello_timeout() {
  if (checking_account_) return;  // the hello came; its account check answers it
  send_error(json(), pr::session_errc::hello_required,
             "no hello within " + std::to_string(svc_.cfg.hello_timeout_sec) + " s of connecting");
  close(pr::close_code::policy_violation, "no hello");
}

template <class M>
void client_session::enter(const std::shared_ptr<room>& r, const M& m) {
  {
    std::lock_guard lock(mutex_);
    if (room_) {
      // Resuming the seat this connection already holds is allowed.
      if constexpr (std::is_same_v<M, pr::resume_msg>) {
        if (room_ != r) return send_error(m.id, pr::session_errc::already_in_room);
      } else {
        return send_error(m.id, pr::session_errc::already_in_room);
      }
    }
    room_ = r;
  }
  auto self = shared_from_this();
  // A connection in a room searches no more.
  if (svc_.leave_queue) svc_.leave_queue(conn_id_, "entered_room");
  if constexpr (std::is_same_v<M, pr::join_msg>) r->join(self, m);
  else if constexpr (std::is_same_v<M, pr::resume_msg>) r->resume(self, m);
  else r->spectate(self, m);
}

// join, resume, spectate: the room they name, here or (a cluster) on another node.
template <class M>
void client_session::enter_named(const M& m) {
  if (auto r = svc_.rooms->find(m.room)) return enter(r, m);
  if (!svc_.fetch_room) return send_error(m.id, pr::session_errc::room_not_found);
  // A cluster: the room may be another node's, dead or handing it over.
  svc_.fetch_room(m.room, m.room == routed_room_, [weak = weak_from_this(), m](std::shared_ptr<room> r, bool elsewhere) {
    auto self = weak.lock();
    if (!self) return;
    if (r) return self->enter(r, m);
    if (elsewhere)
      return self->send_error(m.id, pr::session_errc::room_not_found,
                              "room " + m.room + " runs on another node: connect with /ws?room=" + m.room +
                                  " (docs/cluster.md)");
    self->send_error(m.id, pr::session_errc::room_not_found);
  });
}

void client_session::create_room(const pr::create_room_msg& m) {
  // R14.8: a drafted room's packs must hold enough cards for its format.
  if (auto e = svc_.rooms->check_pool(m.mode, m.format, m.options)) return send(pr::make_error(m.id, *e));
  room_registry::refusal why{};
  auto r = svc_.rooms->create(m.mode, m.format, m.options, {}, address_, &why);
  if (why == room_registry::refusal::address_busy) {
    // Counted in /metrics (errors by code); a line each would let a flood fill the log.
    spdlog::debug("connection {} ({}): create_room refused: max_waiting_rooms_per_address ({}) reached",
                 conn_id_, address_, svc_.cfg.max_waiting_rooms_per_address);
    return send_error(m.id, pr::session_errc::too_many_rooms);
  }
  if (why == room_registry::refusal::unavailable)
    return send_error(m.id, pr::session_errc::server_busy, "the store cannot take a new room now: try again");
  if (!r) return send_error(m.id, pr::session_errc::server_busy, "too many rooms are open");
  created_.erase(std::remove_if(created_.begin(), created_.end(), [](const auto& w) { return w.expired(); }),
                 created_.end());
  created_.push_back(r);
  if (m.options.clock)
    spdlog::info(
        "room {}: created by connection {} ({}, {}, exhaustion {}, stall exhaustion turn {}, champions {}, "
        "turn clock {}+{} ms)",
        r->id(), conn_id_, game_mode_name(m.mode), pr::deck_format_name(m.format),
        m.options.exhaustion ? "on" : "off", m.options.stall_exhaustion_turn,
        m.options.champions ? "on" : "off", m.options.clock->bank_ms, m.options.clock->increment_ms);
  else
    spdlog::info("room {}: created by connection {} ({}, {}, exhaustion {}, stall exhaustion turn {}, champions {})",
                 r->id(), conn_id_, game_mode_name(m.mode), pr::deck_format_name(m.format),
                 m.options.exhaustion ? "on" : "off", m.options.stall_exhaustion_turn,
                 m.options.champions ? "on" : "off");
  if (m.mode == game_mode::solo || m.mode == game_mode::coop)
    spdlog::info("room {}: AI difficulty {} ({})", r->id(), m.options.difficulty,
                 pr::room_options_to_json(m.options, m.mode).at("ai").dump());  // R12.8
  send(pr::make_room_created(m.id, r->id(), r->seed_hash()));
}

// ---------------------------------------------------------------------------
// hello, and the account it may sign in (docs/accounts.md, "Playing signed in").

namespace {
// Messages a client sends before its signed-in hello is answered wait; a
// client that floods them meanwhile loses the excess (rate_limited).
constexpr std::size_t max_waiting_on_hello = 32;
}  // namespace

void client_session::hello(const pr::hello_msg& m) {
  if (hello_) return send_error(m.id, pr::session_errc::duplicate_hello);
  if (m.version != pr::protocol_version) {
    send_error(m.id, pr::session_errc::unsupported_version);
    close(pr::close_code::protocol_error, "unsupported protocol version");
    return;
  }
  if (!m.account_token) return hello_checked(m, account_check{account_check::kind::signed_in, 0, {}, false});
  if (!svc_.authenticate)
    return send_error(m.id, pr::session_errc::bad_session,
                      "this server keeps no accounts: say hello without account_token");
  // The session lookup reads the store: the account workers do it, and the
  // answer comes back to this connection's strand.
  checking_account_ = true;
  auto back = [weak = weak_from_this(), post = post_, m](account_check a) {
    auto run = [weak, m, a = std::move(a)] {
      if (auto self = weak.lock()) self->hello_checked(m, a);
    };
    if (post) post(std::move(run));
    else run();
  };
  if (!svc_.authenticate(*m.account_token, std::move(back))) {
    checking_account_ = false;
    send_error(m.id, pr::session_errc::server_busy, "the account service is busy: say hello again in a moment");
  }
}

void client_session::hello_checked(const pr::hello_msg& m, const account_check& a) {
  checking_account_ = false;
  using k = account_check::kind;
  if (a.what != k::signed_in) {
    if (a.what == k::bad_session) send_error(m.id, pr::session_errc::bad_session);
    else if (a.what == k::disabled) send_error(m.id, pr::session_errc::account_disabled);
    else send_error(m.id, pr::session_errc::server_busy, "the account store cannot be read now: say hello again");
    spdlog::info("connection {} ({}): hello with an account_token refused ({})", conn_id_, address_,
                 a.what == k::bad_session ? "no such session" : a.what == k::disabled ? "account disabled"
                                                                                       : "store unavailable");
  } else {
    hello_ = true;
    acks_in_update_ = m.acks == pr::ack_style::in_update;
    legal_actions_ = m.legal_actions;
    spdlog::debug("connection {}: hello from '{}'", conn_id_, m.client.value_or(""));
    if (m.account_token) {
      account_id_ = a.account_id;
      account_name_ = a.name;
      spdlog::info("connection {} ({}): signed in as account {} '{}'", conn_id_, address_, a.account_id, a.name);
      const pr::welcome_account who{a.account_id, a.name, a.guest};
      send(pr::make_welcome(m.id, session_, svc_.cfg.max_frame_bytes, svc_.cfg.rate_limit_per_sec,
                            pr::server_software, &who));
    } else {
      send(pr::make_welcome(m.id, session_, svc_.cfg.max_frame_bytes, svc_.cfg.rate_limit_per_sec));
    }
  }
  read_waiting();
}

// The messages that came during an account check, in order; one of them may
// be a hello that checks an account again, and the rest waits for that one.
void client_session::read_waiting() {
  while (!checking_account_ && !waiting_on_hello_.empty()) {
    std::string text = std::move(waiting_on_hello_.front());
    waiting_on_hello_.pop_front();
    on_text(text);
  }
}

bool client_session::fill_from_account(pr::join_msg& m) {
  if (m.name.empty()) {
    if (account_id_ == 0) {
      send_error(m.id, pr::session_errc::not_signed_in, "a \"join\" needs a \"name\" on a connection not signed in");
      return false;
    }
    m.name = account_name_;
    return true;
  }
  if (account_id_ != 0 && ascii_lower(m.name) != ascii_lower(account_name_)) {
    send(pr::make_error(m.id, pr::protocol_error{pr::protocol_errc::bad_field_value, "name",
                                                 "signed in as " + account_name_ +
                                                     ": a join takes the account's name (leave \"name\" out)"}));
    return false;
  }
  if (account_id_ != 0) m.name = account_name_;
  return true;
}

bool client_session::fill_from_account(const pr::resume_msg& m) {
  if (!m.token.empty() || account_id_ != 0) return true;
  send_error(m.id, pr::session_errc::not_signed_in, "a \"resume\" needs a \"token\" on a connection not signed in");
  return false;
}

void client_session::on_text(std::string_view text) {
  if (checking_account_) {
    if (waiting_on_hello_.size() >= max_waiting_on_hello) return on_rate_limited();
    waiting_on_hello_.emplace_back(text);
    return;
  }
  auto parsed = pr::parse_client_message(text, svc_.cfg.max_frame_bytes);
  if (!parsed.ok()) {
    if (parsed.oversized) return on_oversized();
    send(pr::make_error(parsed.id, *parsed.error));
    return;
  }
  const auto& msg = *parsed.message;
  const json& id = pr::message_id(msg);
  if (svc_.shutting_down && svc_.shutting_down->load()) {
    send_error(id, pr::session_errc::shutting_down);
    return;
  }
  if (!hello_ && !std::holds_alternative<pr::hello_msg>(msg)) {
    send_error(id, pr::session_errc::hello_required);
    return;
  }
  auto self = shared_from_this();
  // One handler per client message, no catch-all: a new message does not
  // compile until it has its handler here (pr::visit_client_message).
  pr::visit_client_message(
      msg,
      pr::overloaded{
          [&](const pr::hello_msg& m) { hello(m); },
          [&](const pr::ping_msg& m) { send(pr::make_pong(m.id)); },
          [&](const pr::list_rooms_msg& m) {
            if (list_budget_.on_message() != rate_limiter::verdict::allow)
              return send_error(m.id, pr::session_errc::rate_limited,
                                "list_rooms at most " + std::to_string(svc_.cfg.list_rooms_per_sec) +
                                    " a second: this one was dropped");
            if (svc_.list_rooms) return send(svc_.list_rooms(m));
            const auto page = svc_.rooms->list(m);
            send(pr::make_rooms(m.id, page.rooms, page.total, page.next));
          },
          [&](const pr::create_room_msg& m) { create_room(m); },
          [&](const pr::join_msg& m) {
            auto named = m;
            if (fill_from_account(named)) enter_named(named);
          },
          [&](const pr::resume_msg& m) {
            if (fill_from_account(m)) enter_named(m);
          },
          [&](const pr::spectate_msg& m) { enter_named(m); },
          [&](const pr::tournament_join_msg& m) {
            if (!svc_.find_event_seat) return send_error(m.id, pr::session_errc::bad_token);
            auto found = svc_.find_event_seat(m.token, routed_room_);
            using k = event_seat::kind;
            if (found.what == k::bad_token) {
              spdlog::info("connection {}: tournament_join with an unknown token refused", conn_id_);
              return send_error(m.id, pr::session_errc::bad_token,
                                found.detail.empty() ? std::string("that token belongs to no tournament player")
                                                     : found.detail);
            }
            if (found.what == k::waiting) return send_error(m.id, pr::session_errc::tournament_waiting, found.detail);
            if (found.what == k::over) return send_error(m.id, pr::session_errc::tournament_over, found.detail);
            {
              std::lock_guard lock(mutex_);
              // Already in this very room (a second tournament_join): the room
              // resumes the seat; any other room must be left first.
              if (room_ && room_ != found.r) return send_error(m.id, pr::session_errc::already_in_room);
              room_ = found.r;
            }
            if (svc_.leave_queue) svc_.leave_queue(conn_id_, "entered_room");
            pr::join_msg j;
            j.id = m.id;
            j.room = found.r->id();
            j.name = found.name;
            j.seat = found.seat;
            j.deck = m.deck;
            j.champion = m.champion;
            found.r->join_reserved(self, std::move(j), m.token);
          },
          [&](const pr::league_join_msg& m) {
            if (!svc_.follow_league)
              return send_error(m.id, pr::session_errc::bad_token, "this server runs no leagues");
            auto reply = svc_.follow_league(m.token, m.id, weak_from_this(), routed_room_);
            if (!reply) {
              spdlog::info("connection {}: league_join with an unknown token refused", conn_id_);
              return send_error(m.id, pr::session_errc::bad_token, "that token belongs to no league player");
            }
            // (A cluster node the league is moving to answers tournament_waiting.)
            if (reply->value("type", "") != "error") league_token_ = m.token;
            send(*reply);
          },
          [&](const pr::league_act_msg& m) {
            if (!svc_.league_act || league_token_.empty()) return send_error(m.id, pr::session_errc::not_in_league);
            send(svc_.league_act(league_token_, m.id, m.op));
          },
          [&](const pr::league_mutations_msg& m) {
            if (!svc_.league_mutations || league_token_.empty())
              return send_error(m.id, pr::session_errc::not_in_league);
            send(svc_.league_mutations(league_token_, m.id, m.mutations));
          },
          [&](const pr::act_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_seated);
            r->act(self, m);
          },
          [&](const pr::draft_pick_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_seated);
            r->draft_pick(self, m);
          },
          [&](const pr::leave_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_in_room);
            r->leave(self, m);
          },
          [&](const pr::add_bot_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_seated, "add_bot: join a waiting room's seat first");
            r->add_bot(self, m);
          },
          [&](const pr::emote_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_in_room, "emote: join a room's seat first");
            if (emote_budget_.on_message() != rate_limiter::verdict::allow)
              return send_error(m.id, pr::session_errc::rate_limited,
                                "at most " + std::to_string(pr::emote_burst) + " emotes at once, then " +
                                    std::to_string(pr::emotes_per_sec) + " a second: this one was dropped");
            r->emote(self, m);
          },
          [&](const pr::queue_msg& m) {
            if (!svc_.queue) return send_error(m.id, pr::session_errc::server_busy, "this server runs no queue");
            if (account_id_ == 0)
              return send_error(m.id, pr::session_errc::not_signed_in,
                                "the queue is for signed-in players: say hello with an account_token (a guest "
                                "account is one POST /api/guest away)");
            if (attached())
              return send_error(m.id, pr::session_errc::already_in_room, "leave your room before you queue");
            svc_.queue(self, m);
          },
          [&](const pr::unqueue_msg& m) {
            if (!svc_.unqueue) return send_error(m.id, pr::session_errc::not_queued);
            svc_.unqueue(self, m);
          },
          [&](const pr::history_msg& m) {
            auto r = attached();
            if (!r) return send_error(m.id, pr::session_errc::not_in_room);
            r->history(self, m);
          },
      });
}

}  // namespace cod::server
