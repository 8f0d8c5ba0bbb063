// Test doubles for room logic: a manual serial executor (posted tasks run on
// run(), timers on advance()), a peer that records what it is sent, a store
// that can hold its callbacks, and moves chosen from a view, as a client
// would choose them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cod/engine/catalogue.hpp"
#include "persist/match_store.hpp"
#include "room/executor.hpp"
#include "room/peer.hpp"
#include "../shared/store_reads.hpp"

namespace cod::server::test {

using nlohmann::json;

class manual_executor final : public serial_executor {
 public:
  void post(task t) override {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(t));
  }
  timer_id schedule(std::chrono::milliseconds delay, task t) override {
    std::lock_guard lock(mutex_);
    const auto id = ++next_;
    timers_[id] = {now_ + delay.count(), std::move(t)};
    return id;
  }
  void cancel(timer_id id) override {
    std::lock_guard lock(mutex_);
    timers_.erase(id);
  }
  std::int64_t now_ms() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  // Runs posted tasks (and those they post) until none are left.
  int run() {
    int n = 0;
    for (;;) {
      task t;
      {
        std::lock_guard lock(mutex_);
        if (tasks_.empty()) return n;
        t = std::move(tasks_.front());
        tasks_.pop_front();
      }
      t();
      ++n;
    }
  }
  // Moves the clock forward, firing due timers in time order.
  void advance(std::chrono::milliseconds d) {
    run();
    const std::int64_t target = now_ms() + d.count();
    for (;;) {
      task t;
      {
        std::lock_guard lock(mutex_);
        auto best = timers_.end();
        for (auto it = timers_.begin(); it != timers_.end(); ++it)
          if (it->second.due <= target && (best == timers_.end() || it->second.due < best->second.due)) best = it;
        if (best == timers_.end()) {
          now_ = target;
          break;
        }
        now_ = std::max(now_, best->second.due);
        t = std::move(best->second.fn);
        timers_.erase(best);
      }
      t();
      run();
    }
    run();
  }
  std::size_t timers() const {
    std::lock_guard lock(mutex_);
    return timers_.size();
  }

 private:
  struct timer {
    std::int64_t due = 0;
    task fn;
  };
  mutable std::mutex mutex_;
  std::deque<task> tasks_;
  std::map<timer_id, timer> timers_;
  timer_id next_ = 0;
  std::int64_t now_ = 1'000'000;
};

class recording_peer final : public peer {
 public:
  explicit recording_peer(std::uint64_t id) : id_(id) {}
  void send(message_ptr m) override {
    if (on_send) on_send(*m);  // as it is sent, before anything after it runs
    std::lock_guard lock(mutex_);
    raw_.push_back(*m);
  }
  std::function<void(const std::string&)> on_send;
  void close(std::uint16_t code, std::string reason) override {
    std::lock_guard lock(mutex_);
    close_code = code;
    close_reason = std::move(reason);
  }
  std::uint64_t id() const override { return id_; }

  // Everything received since the last take(), parsed.
  std::vector<json> take() {
    std::lock_guard lock(mutex_);
    std::vector<json> out;
    for (auto& s : raw_) out.push_back(json::parse(s));
    raw_.clear();
    return out;
  }
  std::vector<std::string> take_raw() {
    std::lock_guard lock(mutex_);
    return std::exchange(raw_, {});
  }
  std::size_t pending() const {
    std::lock_guard lock(mutex_);
    return raw_.size();
  }

  std::optional<std::uint16_t> close_code;
  std::string close_reason;

 private:
  std::uint64_t id_;
  mutable std::mutex mutex_;
  std::vector<std::string> raw_;
};

// A store that forwards to another and, while held, keeps the callbacks of
// writes back until release(): what a slow disk looks like to a room.
class held_store final : public match_store {
 public:
  explicit held_store(match_store& inner) : inner_(inner) {}
  bool hold = false;

  void create_match(const match_record& m, done_fn done) override { inner_.create_match(m, wrap(std::move(done))); }
  void append_action(const std::string& id, const action_record& a, done_fn done) override {
    inner_.append_action(id, a, wrap(std::move(done)));
  }
  void finish_match(const std::string& id, const match_result& r, done_fn done) override {
    inner_.finish_match(id, r, wrap(std::move(done)));
  }
  void append_note(const std::string& id, std::int64_t at, const std::string& text) override {
    inner_.append_note(id, at, text);
  }
  void append_draft(const std::string& id, const std::vector<draft_event_record>& rows, done_fn done) override {
    inner_.append_draft(id, rows, wrap(std::move(done)));
  }
  void save_tournament(const stored_tournament& t, done_fn done) override {
    inner_.save_tournament(t, wrap(std::move(done)));
  }
  void record_audit(const audit_record& r, done_fn done) override { inner_.record_audit(r, wrap(std::move(done))); }
  void save_league(const stored_league& l, done_fn done) override { inner_.save_league(l, wrap(std::move(done))); }
  match_reader& reader() override { return inner_.reader(); }
  void flush() override { inner_.flush(); }
  std::size_t pending() const override { return held_.size(); }
  std::uint64_t commits() const override { return inner_.commits(); }
  store_health health() const override { return inner_.health(); }

  std::size_t held() const { return held_.size(); }
  void release() {
    auto all = std::exchange(held_, {});
    for (auto& f : all) f();
  }

 private:
  done_fn wrap(done_fn done) {
    return [this, done = std::move(done)](const status& st) {
      if (hold) held_.push_back([done, st] { done(st); });
      else done(st);
    };
  }
  match_store& inner_;
  std::vector<std::function<void()>> held_;
};

// The moves a client could try from its view: end_turn and every play of an
// affordable playable card (creatures on either line, incantations on any
// creature). Empty when it is not the viewer's turn.
inline std::vector<json> moves_from_view(const json& view, const catalogue& cat) {
  std::vector<json> out;
  if (view.at("phase") == "game_over" || view.at("viewer").is_null() || view.at("active_seat") != view.at("viewer"))
    return out;
  const int me = view.at("viewer").get<int>();
  const int mana = view.at("seats").at(me).at("mana").get<int>();
  std::vector<int> creatures;
  for (const auto& line : view.at("lines"))
    for (const auto& side : line.at("sides"))
      for (const auto& c : side.at("creatures")) creatures.push_back(c.at("uid").get<int>());
  const auto& playable = view.at("playable");
  for (const auto& card : view.at("hand")) {
    const int uid = card.at("uid").get<int>();
    if (std::find(playable.begin(), playable.end(), uid) == playable.end()) continue;
    auto id = cat.find(card.at("card_id").get<std::string>());
    if (!id) continue;
    const auto& st = cat.stats(*id);
    if (st.mana > mana) continue;
    if (st.type == card_type::creature) {
      out.push_back({{"type", "play"}, {"card", uid}, {"line", "upper"}});
      out.push_back({{"type", "play"}, {"card", uid}, {"line", "lower"}});
    } else {
      for (int t : creatures) out.push_back({{"type", "play"}, {"card", uid}, {"target", t}});
    }
  }
  out.push_back({{"type", "end_turn"}});
  return out;
}

// A play when there is one (so a short game does not end early), else end_turn.
template <class Rng>
json prefer_play(const std::vector<json>& moves, Rng& rng) {
  std::vector<json> plays;
  for (const auto& m : moves)
    if (m.at("type") == "play") plays.push_back(m);
  if (plays.empty()) return moves.back();
  return plays[rng() % plays.size()];
}

inline std::vector<int> hand_uids(const json& view) {
  std::vector<int> out;
  for (const auto& c : view.at("hand")) out.push_back(c.at("uid").get<int>());
  return out;
}

inline const json* find_type(const std::vector<json>& msgs, const std::string& type) {
  for (const auto& m : msgs)
    if (m.at("type") == type) return &m;
  return nullptr;
}

inline int count_type(const std::vector<json>& msgs, const std::string& type) {
  return static_cast<int>(std::count_if(msgs.begin(), msgs.end(), [&](const json& m) { return m.at("type") == type; }));
}

}  // namespace cod::server::test
