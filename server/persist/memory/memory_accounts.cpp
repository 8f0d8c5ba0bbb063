// memory_store's account_store (account_store.hpp): accounts and sessions in
// maps under a mutex of their own, with an index of names (ASCII-lowercased,
// so a name is found, refused and ordered ignoring case) and one of token
// hashes.
#include <algorithm>
#include <utility>

#include <map>
#include <mutex>

#include "common/text_forms.hpp"
#include "persist/account_refusals.hpp"
#include "persist/memory/memory_store.hpp"

namespace cod::server {

namespace {

class memory_accounts final : public account_store {
 public:
  result<account_record> create_account(const account_record& a) override;
  result<std::optional<account_record>> account_by_name(const std::string& name) override;
  result<std::optional<account_record>> account_by_id(std::int64_t account_id) override;
  status update_account(const account_record& a) override;
  result<std::vector<account_record>> find_accounts(const std::string& prefix, int limit) override;
  status add_session(const session_record& s) override;
  result<std::optional<session_record>> use_session(const std::string& token_hash, std::int64_t now_ms,
                                                    std::int64_t idle_ms) override;
  result<std::vector<session_record>> sessions_of(std::int64_t account_id) override;
  status revoke_session(std::int64_t account_id, const std::string& session_id) override;
  result<std::int64_t> revoke_sessions(std::int64_t account_id) override;

 private:
  std::mutex mu_;
  std::map<std::int64_t, account_record> accounts_;    // by account_id
  std::map<std::string, std::int64_t> account_names_;  // ASCII-lowercased name -> account_id
  std::int64_t last_account_id_ = 0;                   // ids are never given twice
  std::map<std::string, session_record> sessions_;     // by session_id
  std::map<std::string, std::string> session_tokens_;  // token_hash -> session_id
};

}  // namespace

result<account_record> memory_accounts::create_account(const account_record& a) {
  std::lock_guard lk(mu_);
  const std::string key = ascii_lower(a.name);
  if (account_names_.count(key)) return detail::name_taken(a.name);
  account_record stored = a;
  stored.account_id = ++last_account_id_;
  account_names_.emplace(key, stored.account_id);
  accounts_.emplace(stored.account_id, stored);
  return stored;
}

result<std::optional<account_record>> memory_accounts::account_by_name(const std::string& name) {
  std::lock_guard lk(mu_);
  const auto it = account_names_.find(ascii_lower(name));
  if (it == account_names_.end()) return std::optional<account_record>{};
  return std::optional<account_record>{accounts_.at(it->second)};
}

result<std::optional<account_record>> memory_accounts::account_by_id(std::int64_t account_id) {
  std::lock_guard lk(mu_);
  const auto it = accounts_.find(account_id);
  if (it == accounts_.end()) return std::optional<account_record>{};
  return std::optional<account_record>{it->second};
}

status memory_accounts::update_account(const account_record& a) {
  std::lock_guard lk(mu_);
  const auto it = accounts_.find(a.account_id);
  if (it == accounts_.end()) return detail::no_account(a.account_id);
  const std::string old_key = ascii_lower(it->second.name);
  const std::string new_key = ascii_lower(a.name);
  if (new_key != old_key) {
    if (account_names_.count(new_key)) return detail::name_taken(a.name);
    account_names_.erase(old_key);
    account_names_.emplace(new_key, a.account_id);
  }
  const std::int64_t created_ms = it->second.created_ms;
  it->second = a;
  it->second.created_ms = created_ms;
  return {};
}

result<std::vector<account_record>> memory_accounts::find_accounts(const std::string& prefix, int limit) {
  std::lock_guard lk(mu_);
  const std::string key = ascii_lower(prefix);
  std::vector<account_record> out;
  for (auto it = account_names_.lower_bound(key);
       it != account_names_.end() && it->first.starts_with(key) && std::cmp_less(out.size(), limit); ++it)
    out.push_back(accounts_.at(it->second));
  return out;
}

status memory_accounts::add_session(const session_record& s) {
  std::lock_guard lk(mu_);
  if (!accounts_.count(s.account_id)) return detail::no_account(s.account_id);
  if (sessions_.count(s.session_id) || session_tokens_.count(s.token_hash)) return detail::session_taken(s.session_id);
  sessions_.emplace(s.session_id, s);
  session_tokens_.emplace(s.token_hash, s.session_id);
  return {};
}

result<std::optional<session_record>> memory_accounts::use_session(const std::string& token_hash, std::int64_t now_ms,
                                                                std::int64_t idle_ms) {
  std::lock_guard lk(mu_);
  const auto t = session_tokens_.find(token_hash);
  if (t == session_tokens_.end()) return std::optional<session_record>{};
  const auto it = sessions_.find(t->second);
  if (now_ms - it->second.last_used_ms > idle_ms) {
    sessions_.erase(it);
    session_tokens_.erase(t);
    return std::optional<session_record>{};
  }
  it->second.last_used_ms = now_ms;
  return std::optional<session_record>{it->second};
}

result<std::vector<session_record>> memory_accounts::sessions_of(std::int64_t account_id) {
  std::lock_guard lk(mu_);
  std::vector<session_record> out;  // by session_id: a std::map
  for (const auto& [id, s] : sessions_)
    if (s.account_id == account_id) out.push_back(s);
  // The most recently used first; the same last use by session_id (stable).
  std::stable_sort(out.begin(), out.end(),
                   [](const session_record& a, const session_record& b) { return a.last_used_ms > b.last_used_ms; });
  return out;
}

status memory_accounts::revoke_session(std::int64_t account_id, const std::string& session_id) {
  std::lock_guard lk(mu_);
  const auto it = sessions_.find(session_id);
  if (it == sessions_.end() || it->second.account_id != account_id) return detail::no_session(account_id, session_id);
  session_tokens_.erase(it->second.token_hash);
  sessions_.erase(it);
  return {};
}

result<std::int64_t> memory_accounts::revoke_sessions(std::int64_t account_id) {
  std::lock_guard lk(mu_);
  std::int64_t gone = 0;
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (it->second.account_id != account_id) {
      ++it;
      continue;
    }
    session_tokens_.erase(it->second.token_hash);
    it = sessions_.erase(it);
    ++gone;
  }
  return gone;
}

namespace detail {
std::unique_ptr<account_store> make_memory_accounts() { return std::make_unique<memory_accounts>(); }
}  // namespace detail

}  // namespace cod::server
