// The account service on a memory store (docs/accounts.md): registration,
// guests and claims, sign-in and its throttles, sessions, password changes,
// deletion and the admins' acts.
#include <doctest/doctest.h>

#include <algorithm>

#include "account_service/password_hash.hpp"
#include "common/sha256.hpp"
#include "helpers.hpp"

using namespace cod::server;
using namespace cod::server::accounts;
using namespace cod::server::accounts::test;
using namespace std::chrono_literals;

TEST_CASE("accounts: register, then sign in with the name in any case; tokens are 128 bits, stored hashed") {
  bench b;
  const signed_in s = b.registered("Ann");
  CHECK(s.account.account_id == 1);
  CHECK(s.account.name == "Ann");
  CHECK_FALSE(s.account.guest);
  CHECK(s.token.size() == 32);
  CHECK(s.session.token_hash == sha256_hex(s.token));
  CHECK(s.session.remote == "198.51.100.7");
  // The store keeps the hash of the token and of the password, never either.
  auto stored = b.store.accounts()->account_by_name("ann");
  REQUIRE(stored);
  REQUIRE(stored->has_value());
  CHECK((*stored)->password_hash.rfind("$argon2id$", 0) == 0);
  CHECK((*stored)->password_hash.find("correct horse battery") == std::string::npos);

  auto in = b.svc->login("ANN", "correct horse battery", "198.51.100.8", b.now);
  REQUIRE(in);
  CHECK(in->account.account_id == 1);
  CHECK(in->token != s.token);
  auto who = b.svc->authenticate(in->token);
  REQUIRE(who);
  CHECK(who->account.name == "Ann");
  CHECK(b.svc->authenticate(s.token));  // both sessions live
}

TEST_CASE("accounts: names follow the join rules, unique ignoring case; the server's own names are kept") {
  bench b;
  b.registered("Ann");
  auto taken = b.svc->register_account("aNN", "another good one", "198.51.100.7", b.now);
  REQUIRE_FALSE(taken);
  CHECK(taken.error().reason() == "name_taken");
  CHECK(taken.error().error_code() == status::code::conflict);
  for (const char* bad : {"", "   ", "a\u202Eb", "guest-12345678", "Deleted Player 4", "AI", "house-bot", " Bob",
                          "0123456789012345678901234567890123"}) {
    auto r = b.svc->register_account(bad, "another good one", "198.51.100.7", b.now);
    REQUIRE_FALSE(r);
    CHECK_MESSAGE(r.error().reason() == "invalid_name", bad);
  }
  auto weak = b.svc->register_account("Bob", "password", "198.51.100.7", b.now);
  REQUIRE_FALSE(weak);
  CHECK(weak.error().reason() == "common_password");
  CHECK(b.registered("Zoë ☕").account.name == "Zoë ☕");
}

TEST_CASE("accounts: a wrong password and an unknown name get the same answer") {
  bench b;
  b.registered("Ann");
  auto wrong = b.svc->login("Ann", "not the password", "198.51.100.7", b.now);
  auto unknown = b.svc->login("Nobody", "not the password", "198.51.100.7", b.now);
  REQUIRE_FALSE(wrong);
  REQUIRE_FALSE(unknown);
  CHECK(wrong.error() == unknown.error());
  CHECK(wrong.error().reason() == "invalid_credentials");
}

TEST_CASE("accounts: the 11th failed sign-in of a name within 10 minutes is refused, even with the right password") {
  limits l = bench::with_cheap_hash();
  l.failed_logins_per_address = 1000;  // the name's limit alone
  bench b(l);
  b.registered("Ann");
  for (int i = 0; i < 10; ++i) {
    auto r = b.svc->login("ann", "guess " + std::to_string(i), "203.0.113." + std::to_string(i), b.now + i * 1s);
    REQUIRE_FALSE(r);
    CHECK(r.error().reason() == "invalid_credentials");
  }
  std::int64_t retry = 0;
  auto refused = b.svc->login("Ann", "correct horse battery", "203.0.113.99", b.now + 20s, &retry);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().reason() == "too_many_attempts");
  CHECK(refused.error().error_code() == status::code::unavailable);
  CHECK(retry == 580);  // the first failure (at 0 s) leaves the window at 600 s
  // Another name from those addresses is not held back.
  b.registered("Bob");
  CHECK(b.svc->login("Bob", "correct horse battery", "203.0.113.1", b.now + 20s));
  // Once the first failure is 10 minutes old, one more try is allowed.
  CHECK(b.svc->login("Ann", "correct horse battery", "203.0.113.99", b.now + 600s));
}

TEST_CASE("accounts: failed sign-ins from one address are limited across names; registrations per address too") {
  limits l = bench::with_cheap_hash();
  l.failed_logins_per_address = 5;
  l.registrations_per_address = 3;
  bench b(l);
  for (int i = 0; i < 5; ++i) CHECK_FALSE(b.svc->login("name" + std::to_string(i), "whatever1", "192.0.2.1", b.now));
  std::int64_t retry = 0;
  auto r = b.svc->login("someone", "whatever1", "192.0.2.1", b.now + 1s, &retry);
  REQUIRE_FALSE(r);
  CHECK(r.error().reason() == "too_many_attempts");
  CHECK(retry == 599);
  CHECK(b.svc->login("someone", "whatever1", "192.0.2.2", b.now + 1s).error().reason() == "invalid_credentials");

  CHECK(b.svc->register_account("A1", "a good password", "192.0.2.9", b.now));
  CHECK(b.svc->guest("192.0.2.9", b.now));
  CHECK(b.svc->register_account("A2", "a good password", "192.0.2.9", b.now));
  auto fourth = b.svc->guest("192.0.2.9", b.now + 10s, &retry);
  REQUIRE_FALSE(fourth);
  CHECK(fourth.error().reason() == "too_many_attempts");
  CHECK(retry == 3590);
  CHECK(b.svc->guest("192.0.2.10", b.now));
  // A refused registration (a taken name) does not count.
  CHECK_FALSE(b.svc->register_account("A1", "a good password", "192.0.2.11", b.now));
  CHECK(b.svc->register_account("A3", "a good password", "192.0.2.11", b.now));
}

TEST_CASE("accounts: a guest plays at once and later claims a name and password; its account stays") {
  bench b;
  auto g = b.svc->guest("198.51.100.7", b.now);
  REQUIRE(g);
  CHECK(g->account.guest);
  CHECK(g->account.name.rfind("guest-", 0) == 0);
  CHECK(g->account.name.size() == 14);
  CHECK(g->account.password_hash.empty());
  // A guest has no password to sign in with.
  CHECK(b.svc->login(g->account.name, "", "198.51.100.7", b.now).error().reason() == "invalid_credentials");
  b.registered("Ann");
  CHECK(b.svc->claim(g->token, "ANN", "a good password").error().reason() == "name_taken");
  CHECK(b.svc->claim(g->token, "Cleo", "short").error().reason() == "invalid_password");
  auto c = b.svc->claim(g->token, "Cleo", "a good password");
  REQUIRE(c);
  CHECK(c->account_id == g->account.account_id);
  CHECK(c->name == "Cleo");
  CHECK_FALSE(c->guest);
  CHECK(b.svc->authenticate(g->token));  // the session stays
  CHECK(b.svc->login("cleo", "a good password", "198.51.100.7", b.now));
  CHECK(b.svc->claim(g->token, "Cleo2", "a good password").error().reason() == "not_a_guest");
}

TEST_CASE("accounts: sessions are listed, revoked one by one, signed out; an idle one ends") {
  bench b;
  const signed_in first = b.registered("Ann");
  b.wall += 1000;
  auto second = b.svc->login("Ann", "correct horse battery", "198.51.100.20", b.now);
  REQUIRE(second);
  auto list = b.svc->sessions(second->token);  // using it makes it the most recent
  REQUIRE(list);
  REQUIRE(list->size() == 2);
  CHECK((*list)[0].session_id == second->session.session_id);
  CHECK((*list)[1].session_id == first.session.session_id);
  CHECK(b.svc->revoke(second->token, "0000000000000000").reason() == "no_such_session");
  CHECK(b.svc->revoke(second->token, first.session.session_id).is_ok());
  CHECK(b.svc->authenticate(first.token).error().reason() == "not_signed_in");
  CHECK(b.svc->logout(second->token).is_ok());
  CHECK(b.svc->authenticate(second->token).error().reason() == "not_signed_in");
  CHECK(b.svc->authenticate("").error().reason() == "not_signed_in");

  // 30 days idle: the session ends; used a day before, it lives on.
  auto third = b.svc->login("Ann", "correct horse battery", "198.51.100.20", b.now);
  REQUIRE(third);
  b.wall += 29LL * 24 * 3600 * 1000;
  CHECK(b.svc->authenticate(third->token));
  b.wall += 30LL * 24 * 3600 * 1000;
  CHECK(b.svc->authenticate(third->token));  // exactly 30 days since its last use
  b.wall += 30LL * 24 * 3600 * 1000 + 1;
  CHECK(b.svc->authenticate(third->token).error().reason() == "not_signed_in");
}

TEST_CASE("accounts: changing the password ends every session and opens a new one") {
  bench b;
  const signed_in a = b.registered("Ann");
  auto other = b.svc->login("Ann", "correct horse battery", "198.51.100.9", b.now);
  REQUIRE(other);
  auto wrong = b.svc->change_password(a.token, "not it", "a new good one", "198.51.100.7", b.now);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().reason() == "invalid_credentials");
  CHECK(wrong.error().field() == "old_password");
  CHECK(b.svc->change_password(a.token, "correct horse battery", "password", "198.51.100.7", b.now)
            .error()
            .reason() == "common_password");
  auto changed = b.svc->change_password(a.token, "correct horse battery", "a new good one", "198.51.100.7", b.now);
  REQUIRE(changed);
  CHECK_FALSE(b.svc->authenticate(a.token));
  CHECK_FALSE(b.svc->authenticate(other->token));
  CHECK(b.svc->authenticate(changed->token));
  CHECK_FALSE(b.svc->login("Ann", "correct horse battery", "198.51.100.7", b.now));
  CHECK(b.svc->login("Ann", "a new good one", "198.51.100.7", b.now));
  auto g = b.svc->guest("198.51.100.7", b.now);
  REQUIRE(g);
  CHECK(b.svc->change_password(g->token, "", "a new good one", "198.51.100.7", b.now).error().reason() ==
        "not_registered");
}

TEST_CASE("accounts: a deleted account keeps its id for its matches, loses its name, password and sessions") {
  bench b;
  const signed_in a = b.registered("Ann");
  CHECK(b.svc->delete_account(a.token, "wrong one", "198.51.100.7", b.now).reason() == "invalid_credentials");
  CHECK(b.svc->delete_account(a.token, "correct horse battery", "198.51.100.7", b.now).is_ok());
  CHECK_FALSE(b.svc->authenticate(a.token));
  CHECK(b.svc->login("Ann", "correct horse battery", "198.51.100.7", b.now).error().reason() ==
        "invalid_credentials");
  auto stored = b.store.accounts()->account_by_id(a.account.account_id);
  REQUIRE(stored);
  REQUIRE(stored->has_value());
  CHECK((*stored)->name == "deleted player 1");
  CHECK((*stored)->deleted);
  CHECK((*stored)->password_hash.empty());
  CHECK(b.registered("ann").account.account_id == 2);  // the name is free again
  // A guest deletes without a password.
  auto g = b.svc->guest("198.51.100.7", b.now);
  REQUIRE(g);
  CHECK(b.svc->delete_account(g->token, "", "198.51.100.7", b.now).is_ok());
}

TEST_CASE("accounts: an admin disables and enables an account, revokes its sessions, finds accounts") {
  bench b;
  const signed_in a = b.registered("Ann");
  b.registered("Annie");
  b.registered("Bob");
  auto found = b.svc->find("an", 10);
  REQUIRE(found);
  REQUIRE(found->size() == 2);
  CHECK((*found)[0].name == "Ann");
  CHECK((*found)[1].name == "Annie");
  auto off = b.svc->set_disabled(1, true);
  REQUIRE(off);
  CHECK(off->disabled);
  CHECK(b.svc->authenticate(a.token).error().reason() == "account_disabled");
  CHECK(b.svc->login("Ann", "wrong one!", "198.51.100.7", b.now).error().reason() == "invalid_credentials");
  CHECK(b.svc->login("Ann", "correct horse battery", "198.51.100.7", b.now).error().reason() == "account_disabled");
  REQUIRE(b.svc->set_disabled(1, false));
  CHECK(b.svc->authenticate(a.token));
  auto gone = b.svc->revoke_all(1);
  REQUIRE(gone);
  CHECK(*gone == 1);
  CHECK_FALSE(b.svc->authenticate(a.token));
  CHECK(b.svc->set_disabled(99, true).error().reason() == "no_such_account");
  CHECK(b.svc->revoke_all(99).error().reason() == "no_such_account");
}

TEST_CASE("accounts: a hash made with other parameters is replaced at the next sign-in") {
  bench b;
  b.registered("Ann");
  const std::string before = (*b.store.accounts()->account_by_name("Ann"))->password_hash;
  limits stronger = bench::with_cheap_hash();
  stronger.hash.passes = 2;
  account_service later(*b.store.accounts(), b.env, stronger);
  REQUIRE(later.login("Ann", "correct horse battery", "198.51.100.7", b.now));
  const std::string after = (*b.store.accounts()->account_by_name("Ann"))->password_hash;
  CHECK(after != before);
  CHECK(needs_rehash(before, stronger.hash));
  CHECK_FALSE(needs_rehash(after, stronger.hash));
  CHECK(later.login("Ann", "correct horse battery", "198.51.100.7", b.now));
}
