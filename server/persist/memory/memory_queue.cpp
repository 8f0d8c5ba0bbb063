#include "persist/memory/memory_queue.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "persist/queue_board_args.hpp"

namespace cod::server::detail {

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

result<std::optional<queue_ticket_row>> memory_queue::add_ticket(queue_ticket_row t, std::int64_t alive_within_ms) {
  if (status st = check_ticket(t); !st) return st;
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  for (auto it = tickets_.begin(); it != tickets_.end(); ++it) {
    const auto& o = it->second;
    if (!o.room_id.empty() || o.account_id != t.account_id || o.pool != t.pool) continue;
    auto seen = seen_.find(o.node_id);
    if (seen != seen_.end() && seen->second >= now - alive_within_ms) return std::optional<queue_ticket_row>{};
    tickets_.erase(it);  // its node is dead
    break;
  }
  t.ticket = next_id_++;
  t.enqueued_ms = now;
  t.last_opponents.clear();
  t.room_id.clear();
  t.seat = -1;
  t.players.clear();
  tickets_[t.ticket] = t;
  return std::optional<queue_ticket_row>{std::move(t)};
}

result<std::vector<std::int64_t>> memory_queue::withdraw_tickets(const std::string& node_id,
                                                                 const std::vector<std::int64_t>& tickets) {
  std::lock_guard lk(mu_);
  std::vector<std::int64_t> gone;
  for (std::int64_t id : tickets) {
    auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.node_id != node_id || !it->second.room_id.empty()) continue;
    tickets_.erase(it);
    gone.push_back(id);
  }
  return gone;
}

result<std::size_t> memory_queue::forget_tickets(const std::string& node_id, const std::vector<std::int64_t>& tickets) {
  std::lock_guard lk(mu_);
  std::size_t n = 0;
  for (std::int64_t id : tickets) {
    auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.node_id != node_id) continue;
    tickets_.erase(it);
    ++n;
  }
  return n;
}

status memory_queue::drop_node_tickets(const std::string& node_id) {
  std::lock_guard lk(mu_);
  std::erase_if(tickets_, [&](const auto& kv) { return kv.second.node_id == node_id; });
  return {};
}

status memory_queue::heartbeat(const std::string& node_id) {
  if (node_id.empty()) return status::invalid("a heartbeat needs a node_id");
  std::lock_guard lk(mu_);
  seen_[node_id] = now_ms();
  return {};
}

result<bool> memory_queue::claim_matcher(const std::string& node_id, std::int64_t lease_ms) {
  if (node_id.empty() || lease_ms <= 0) return status::invalid("a matcher lease needs a node_id and a length");
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  if (matcher_ && matcher_->first != node_id && matcher_->second > now) return false;
  matcher_ = {node_id, now + lease_ms};
  return true;
}

status memory_queue::release_matcher(const std::string& node_id) {
  std::lock_guard lk(mu_);
  if (matcher_ && matcher_->first == node_id) matcher_.reset();
  return {};
}

result<queue_snapshot> memory_queue::waiting_tickets(std::int64_t alive_within_ms, std::int64_t remember_ms) {
  std::lock_guard lk(mu_);
  queue_snapshot out;
  out.now_ms = now_ms();
  for (const auto& [id, t] : tickets_) {
    if (!t.room_id.empty()) continue;
    auto seen = seen_.find(t.node_id);
    if (seen == seen_.end() || seen->second < out.now_ms - alive_within_ms) continue;
    out.tickets.push_back(t);
    if (auto r = recent_.find(t.account_id); r != recent_.end() && r->second.at_ms >= out.now_ms - remember_ms)
      out.tickets.back().last_opponents = r->second.opponents;
  }
  return out;
}

result<bool> memory_queue::match_tickets(const std::string& matcher_node, const std::string& room_id,
                                         const std::vector<queue_seating>& seats, const std::string& players) {
  if (status st = check_seating(matcher_node, room_id, seats); !st) return st;
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  if (!matcher_ || matcher_->first != matcher_node || matcher_->second <= now) return false;
  std::vector<std::int64_t> accounts;
  for (const auto& s : seats) {
    auto it = tickets_.find(s.ticket);
    if (it == tickets_.end() || !it->second.room_id.empty()) return false;
    accounts.push_back(it->second.account_id);
  }
  for (const auto& s : seats) {
    auto& t = tickets_.at(s.ticket);
    t.room_id = room_id;
    t.seat = s.seat;
    t.players = players;
  }
  std::erase_if(tickets_, [&](const auto& kv) {
    return kv.second.room_id.empty() && std::find(accounts.begin(), accounts.end(), kv.second.account_id) != accounts.end();
  });
  for (std::size_t i = 0; i < accounts.size(); ++i) recent_[accounts[i]] = recent{others(accounts, i), now};
  return true;
}

result<std::vector<queue_ticket_row>> memory_queue::matched_tickets(const std::string& node_id) {
  std::lock_guard lk(mu_);
  std::vector<queue_ticket_row> out;
  for (const auto& [id, t] : tickets_)
    if (t.node_id == node_id && !t.room_id.empty()) out.push_back(t);
  return out;
}

result<std::size_t> memory_queue::forget_stale_tickets(std::int64_t stale_for_ms, std::int64_t remember_ms) {
  std::lock_guard lk(mu_);
  const std::int64_t now = now_ms();
  std::size_t n = 0;
  for (auto it = tickets_.begin(); it != tickets_.end();) {
    auto seen = seen_.find(it->second.node_id);
    if (seen == seen_.end() || seen->second < now - stale_for_ms) {
      it = tickets_.erase(it);
      ++n;
    } else {
      ++it;
    }
  }
  std::erase_if(seen_, [&](const auto& kv) { return kv.second < now - stale_for_ms; });
  std::erase_if(recent_, [&](const auto& kv) { return kv.second.at_ms < now - remember_ms; });
  return n;
}

std::unique_ptr<queue_board> make_memory_queue() { return std::make_unique<memory_queue>(); }

}  // namespace cod::server::detail
