#include "account_service/account_service.hpp"

#include <spdlog/spdlog.h>

#include "account_service/password_rules.hpp"
#include "cod/protocol/client_messages.hpp"
#include "cod/protocol/names.hpp"
#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "common/text_forms.hpp"

namespace cod::server::accounts {

using detail::cat;

namespace {

std::int64_t seconds_up(attempt_window::clock::duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return (ms + 999) / 1000;
}

status not_signed_in() {
  return status::not_found("no session has this token (signed out, revoked, or unused for too long): sign in again")
      .because("not_signed_in");
}

status bad_credentials() {
  return status::not_found("no account has this name and password").because("invalid_credentials");
}

}  // namespace

std::string account_name_problem(std::string_view name) {
  if (auto why = protocol::name_problem(name, protocol::max_name_chars)) return cat("'name' ", *why);
  const std::string lower = ascii_lower(name);
  if (lower.rfind("guest-", 0) == 0 || lower.rfind("deleted player", 0) == 0 || lower == "ai" || lower == "house-bot")
    return "'name' is kept for names the server gives (guest-..., deleted player ..., AI, house-bot)";
  if (name.front() == ' ' || name.back() == ' ') return "'name' starts or ends with a space";
  return {};
}

account_service::account_service(account_store& store, environment& env, limits l)
    : store_(store),
      env_(env),
      limits_(l),
      failed_by_name_(l.failed_logins_per_name, l.failed_login_window),
      failed_by_address_(l.failed_logins_per_address, l.failed_login_window),
      registrations_(l.registrations_per_address, l.registration_window) {}

const std::string& account_service::dummy_hash() {
  std::call_once(dummy_once_, [this] {
    auto h = hash_password(env_.random_hex(32), limits_.hash);
    if (h) dummy_hash_ = std::move(*h);
  });
  return dummy_hash_;
}

// An unknown name costs one hash check too: the answer and its time do not
// say whether the name exists.
bool account_service::verify_or_burn(const account_record* a, const std::string& password) {
  if (a && !a->password_hash.empty()) return verify_password(a->password_hash, password);
  (void)verify_password(dummy_hash(), password);
  return false;
}

status account_service::throttled(const std::string& name, const std::string& address, clock::time_point now,
                                  std::int64_t* retry_after_s) {
  const auto wait = std::max(failed_by_name_.wait(ascii_lower(name), now), failed_by_address_.wait(address, now));
  if (wait <= clock::duration::zero()) return {};
  if (retry_after_s) *retry_after_s = seconds_up(wait);
  return status::unavailable(cat("too many failed sign-ins for this name or from this address: try again in ",
                                 seconds_up(wait), " s"))
      .because("too_many_attempts");
}

void account_service::failed(const std::string& name, const std::string& address, clock::time_point now) {
  failed_by_name_.add(ascii_lower(name), now);
  failed_by_address_.add(address, now);
}

result<signed_in> account_service::open_session(const account_record& a, const std::string& address) {
  signed_in out{a, {}, env_.random_hex(32)};  // 128 bits
  const std::int64_t now = env_.wall_ms();
  out.session = {env_.random_hex(16), sha256_hex(out.token), a.account_id, now, now, address};
  if (status st = store_.add_session(out.session); !st) return st;
  return out;
}

result<signed_in> account_service::register_account(const std::string& name, const std::string& password,
                                                    const std::string& address, clock::time_point now,
                                                    std::int64_t* retry_after_s) {
  if (const std::string why = account_name_problem(name); !why.empty())
    return status::invalid(why).because("invalid_name", "name");
  if (status st = check_new_password(password); !st) return st;
  if (const auto wait = registrations_.wait(address, now); wait > clock::duration::zero()) {
    if (retry_after_s) *retry_after_s = seconds_up(wait);
    return status::unavailable(cat("too many new accounts from this address: try again in ", seconds_up(wait), " s"))
        .because("too_many_attempts");
  }
  auto hash = hash_password(password, limits_.hash);
  if (!hash) return hash.error();
  account_record a;
  a.name = name;
  a.password_hash = std::move(*hash);
  a.created_ms = env_.wall_ms();
  auto made = store_.create_account(a);
  if (!made) {
    if (made.error().error_code() == status::code::conflict)
      return status::conflict(cat("the name ", name, " is taken")).because("name_taken", "name");
    return made.error();
  }
  registrations_.add(address, now);
  spdlog::info("accounts: {} registered (account {}) from {}", made->name, made->account_id, address);
  return open_session(*made, address);
}

result<signed_in> account_service::guest(const std::string& address, clock::time_point now,
                                         std::int64_t* retry_after_s) {
  if (const auto wait = registrations_.wait(address, now); wait > clock::duration::zero()) {
    if (retry_after_s) *retry_after_s = seconds_up(wait);
    return status::unavailable(cat("too many new accounts from this address: try again in ", seconds_up(wait), " s"))
        .because("too_many_attempts");
  }
  // 32 random bits a name: a clash is rare, and retried.
  for (int attempt = 0; attempt < 4; ++attempt) {
    account_record a;
    a.name = "guest-" + env_.random_hex(8);
    a.guest = true;
    a.created_ms = env_.wall_ms();
    auto made = store_.create_account(a);
    if (!made && made.error().error_code() == status::code::conflict) continue;
    if (!made) return made.error();
    registrations_.add(address, now);
    return open_session(*made, address);
  }
  return status::unavailable("no free guest name was found: try again").because("busy");
}

result<signed_in> account_service::login(const std::string& name, const std::string& password,
                                         const std::string& address, clock::time_point now,
                                         std::int64_t* retry_after_s) {
  if (status st = throttled(name, address, now, retry_after_s); !st) return st;
  auto found = store_.account_by_name(name);
  if (!found) return found.error();
  const account_record* a = found->has_value() ? &**found : nullptr;
  if (!verify_or_burn(a, password)) {
    failed(name, address, now);
    return bad_credentials();
  }
  if (a->disabled)
    return status::conflict("this account is disabled: ask the server's admins").because("account_disabled");
  account_record current = *a;
  if (needs_rehash(current.password_hash, limits_.hash)) {
    // Today's parameters from now on (docs/accounts.md, "Passwords").
    if (auto again = hash_password(password, limits_.hash)) {
      current.password_hash = std::move(*again);
      if (status st = store_.update_account(current); !st)
        spdlog::warn("accounts: {}: the password could not be rehashed: {}", current.name, st.message());
    }
  }
  return open_session(current, address);
}

result<session_of> account_service::authenticate(const std::string& token) {
  if (token.empty()) return not_signed_in();
  auto used = store_.use_session(sha256_hex(token), env_.wall_ms(), limits_.session_idle_ms);
  if (!used) return used.error();
  if (!used->has_value()) return not_signed_in();
  auto a = store_.account_by_id((*used)->account_id);
  if (!a) return a.error();
  if (!a->has_value() || (*a)->deleted) return not_signed_in();
  if ((*a)->disabled)
    return status::conflict("this account is disabled: ask the server's admins").because("account_disabled");
  return session_of{std::move(**a), std::move(**used)};
}

result<account_record> account_service::claim(const std::string& token, const std::string& name,
                                              const std::string& password) {
  auto who = authenticate(token);
  if (!who) return who.error();
  if (!who->account.guest)
    return status::conflict("this account has a name and password already (only a guest claims one)")
        .because("not_a_guest");
  if (const std::string why = account_name_problem(name); !why.empty())
    return status::invalid(why).because("invalid_name", "name");
  if (status st = check_new_password(password); !st) return st;
  auto hash = hash_password(password, limits_.hash);
  if (!hash) return hash.error();
  account_record a = who->account;
  a.name = name;
  a.password_hash = std::move(*hash);
  a.guest = false;
  if (status st = store_.update_account(a); !st) {
    if (st.error_code() == status::code::conflict)
      return status::conflict(cat("the name ", name, " is taken")).because("name_taken", "name");
    return st;
  }
  spdlog::info("accounts: guest {} claimed the name {} (account {})", who->account.name, a.name, a.account_id);
  return a;
}

status account_service::logout(const std::string& token) {
  auto who = authenticate(token);
  if (!who) return who.error();
  return store_.revoke_session(who->account.account_id, who->session.session_id);
}

result<std::vector<session_record>> account_service::sessions(const std::string& token) {
  auto who = authenticate(token);
  if (!who) return who.error();
  return sessions_of(who->account);
}

result<std::vector<session_record>> account_service::sessions_of(const account_record& a) {
  return store_.sessions_of(a.account_id);
}

status account_service::revoke(const std::string& token, const std::string& session_id) {
  auto who = authenticate(token);
  if (!who) return who.error();
  status st = store_.revoke_session(who->account.account_id, session_id);
  if (st.error_code() == status::code::not_found)
    return status::not_found(cat("you have no session ", session_id)).because("no_such_session");
  return st;
}

result<signed_in> account_service::change_password(const std::string& token, const std::string& old_password,
                                                   const std::string& new_password, const std::string& address,
                                                   clock::time_point now, std::int64_t* retry_after_s) {
  auto who = authenticate(token);
  if (!who) return who.error();
  if (who->account.guest)
    return status::conflict("a guest has no password: claim the account with a name and password")
        .because("not_registered");
  if (status st = throttled(who->account.name, address, now, retry_after_s); !st) return st;
  if (!verify_password(who->account.password_hash, old_password)) {
    failed(who->account.name, address, now);
    return status::not_found("the current password is wrong").because("invalid_credentials", "old_password");
  }
  if (status st = check_new_password(new_password, "new_password"); !st) return st;
  auto hash = hash_password(new_password, limits_.hash);
  if (!hash) return hash.error();
  account_record a = who->account;
  a.password_hash = std::move(*hash);
  if (status st = store_.update_account(a); !st) return st;
  // Every session ends: whoever knew the old password is signed out.
  if (auto gone = store_.revoke_sessions(a.account_id); !gone) return gone.error();
  spdlog::info("accounts: {} changed the password; every session revoked", a.name);
  return open_session(a, address);
}

status account_service::delete_account(const std::string& token, const std::string& password,
                                       const std::string& address, clock::time_point now,
                                       std::int64_t* retry_after_s) {
  auto who = authenticate(token);
  if (!who) return who.error();
  if (!who->account.guest) {
    if (status st = throttled(who->account.name, address, now, retry_after_s); !st) return st;
    if (!verify_password(who->account.password_hash, password)) {
      failed(who->account.name, address, now);
      return status::not_found("the password is wrong").because("invalid_credentials", "password");
    }
  }
  account_record a = who->account;
  const std::string was = a.name;
  a.name = cat("deleted player ", a.account_id);
  a.password_hash.clear();
  a.guest = false;
  a.deleted = true;
  if (status st = store_.update_account(a); !st) return st;
  if (auto gone = store_.revoke_sessions(a.account_id); !gone) return gone.error();
  spdlog::info("accounts: {} (account {}) deleted: now '{}', its matches kept", was, a.account_id, a.name);
  return {};
}

result<std::vector<account_record>> account_service::find(const std::string& name_prefix, int limit) {
  return store_.find_accounts(name_prefix, limit);
}

result<account_record> account_service::set_disabled(std::int64_t account_id, bool disabled) {
  auto a = store_.account_by_id(account_id);
  if (!a) return a.error();
  if (!a->has_value()) return status::not_found(cat("no account ", account_id)).because("no_such_account");
  account_record r = **a;
  r.disabled = disabled;
  if (status st = store_.update_account(r); !st) return st;
  spdlog::warn("accounts: {} (account {}) {} by an admin", r.name, r.account_id, disabled ? "disabled" : "enabled");
  return r;
}

result<std::int64_t> account_service::revoke_all(std::int64_t account_id) {
  auto a = store_.account_by_id(account_id);
  if (!a) return a.error();
  if (!a->has_value()) return status::not_found(cat("no account ", account_id)).because("no_such_account");
  return store_.revoke_sessions(account_id);
}

}  // namespace cod::server::accounts
