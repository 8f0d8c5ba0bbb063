// Accounts and their sessions (account_store.hpp) on every store: ids from
// 1, names unique and found ignoring ASCII case, updates that keep
// created_ms, the admin's prefix search, sessions added, used (and deleted
// when idle too long), listed, revoked. Every case is named "store: ..." so
// that persist_tests_pg runs it on PostgreSQL too.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "persist/account_store.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

account_store& accounts_of(match_store& s) {
  account_store* a = s.accounts();
  REQUIRE(a != nullptr);
  return *a;
}

account_record account(const std::string& name, std::int64_t created_ms = 1'700'000'000'000) {
  account_record a;
  a.name = name;
  a.password_hash = "$argon2id$v=19$m=65536,t=2,p=1$" + name;
  a.created_ms = created_ms;
  return a;
}

account_record created(account_store& st, const account_record& a) {
  const result<account_record> r = st.create_account(a);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::optional<account_record> by_name(account_store& st, const std::string& name) {
  const auto r = st.account_by_name(name);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::optional<account_record> by_id(account_store& st, std::int64_t id) {
  const auto r = st.account_by_id(id);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::vector<std::string> found(account_store& st, const std::string& prefix, int limit = 100) {
  const auto r = st.find_accounts(prefix, limit);
  REQUIRE_MESSAGE(r, r.error().message());
  std::vector<std::string> names;
  for (const account_record& a : *r) names.push_back(a.name);
  return names;
}

session_record session(const std::string& id, std::int64_t account_id, std::int64_t last_used_ms) {
  return {id, sha256_hex("token of " + id), account_id, last_used_ms - 5, last_used_ms, "203.0.113.9"};
}

void added(account_store& st, const session_record& s) {
  const status added = st.add_session(s);
  REQUIRE_MESSAGE(added, added.message());
}

std::optional<session_record> used(account_store& st, const std::string& token_hash, std::int64_t now_ms,
                                   std::int64_t idle_ms) {
  const auto r = st.use_session(token_hash, now_ms, idle_ms);
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}

std::vector<std::string> sessions(account_store& st, std::int64_t account_id) {
  const auto r = st.sessions_of(account_id);
  REQUIRE_MESSAGE(r, r.error().message());
  std::vector<std::string> ids;
  for (const session_record& s : *r) ids.push_back(s.session_id);
  return ids;
}

void check_refused(const status& st, status::code code, const std::string& message) {
  CHECK(st.error_code() == code);
  CHECK(st.message() == message);
}

}  // namespace

TEST_CASE("store: accounts: ids 1, 2, 3...; a name taken ignoring case is refused and uses no id") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const account_record alice = created(st, account("Alice", 1000));
    CHECK(alice.account_id == 1);
    account_record want = account("Alice", 1000);
    want.account_id = 1;
    CHECK(alice == want);  // everything else as given

    account_record guest = account("guest-7f3a", 2000);
    guest.password_hash = "";
    guest.guest = true;
    guest.account_id = 42;  // the store assigns the id
    const account_record g = created(st, guest);
    CHECK(g.account_id == 2);
    CHECK(g.guest);
    CHECK(g.password_hash.empty());

    for (const char* taken : {"Alice", "ALICE", "alice", "aLiCe"}) {
      const result<account_record> again = st.create_account(account(taken));
      REQUIRE(!again);
      check_refused(again.error(), status::code::conflict, std::string("the name ") + taken + " is taken");
    }
    CHECK(created(st, account("Bob")).account_id == 3);
    CHECK(by_id(st, 1) == alice);  // the refused creates changed nothing
  });
}

TEST_CASE("store: accounts: found by name ignoring case and by id; none for an unknown one") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const account_record alice = created(st, account("Alice"));
    const account_record bob = created(st, account("bob"));
    CHECK(by_name(st, "Alice") == alice);
    CHECK(by_name(st, "aLIce") == alice);
    CHECK(by_name(st, "BOB") == bob);
    CHECK(by_id(st, alice.account_id) == alice);
    CHECK(by_id(st, bob.account_id) == bob);
    CHECK(by_name(st, "Alic") == std::nullopt);  // a name, not a prefix
    CHECK(by_name(st, "nobody") == std::nullopt);
    CHECK(by_name(st, "") == std::nullopt);
    CHECK(by_id(st, 99) == std::nullopt);
    CHECK(by_id(st, 0) == std::nullopt);
  });
}

TEST_CASE("store: accounts: only ASCII letters fold; other letters are names of their own, on every store") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const account_record zoe = created(st, account("Zoë"));
    CHECK(by_name(st, "ZOë") == zoe);                 // Z and O fold
    CHECK(by_name(st, "ZOË") == std::nullopt);        // Ë is not ë: another name
    const account_record other = created(st, account("ZOË"));
    CHECK(other.account_id != zoe.account_id);
    CHECK(st.create_account(account("zoë")).error().error_code() == status::code::conflict);
    // Ordered bytewise on the folded names: "zoË" (c3 8b) before "zoë" (c3 ab).
    CHECK(found(st, "zo") == std::vector<std::string>{"ZOË", "Zoë"});
  });
}

TEST_CASE("store: accounts: an update replaces every field but created_ms; refused for an unknown id or a taken name") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const account_record alice = created(st, account("Alice", 1000));
    const account_record bob = created(st, account("Bob", 2000));

    account_record changed = alice;
    changed.name = "deleted player 1";
    changed.password_hash = "";
    changed.guest = true;
    changed.disabled = true;
    changed.deleted = true;
    changed.created_ms = 5;  // ignored: created_ms is kept
    const status updated = st.update_account(changed);
    REQUIRE_MESSAGE(updated, updated.message());
    account_record want = changed;
    want.created_ms = 1000;
    CHECK(by_id(st, alice.account_id) == want);
    CHECK(by_name(st, "DELETED PLAYER 1") == want);
    // The old name is free again.
    CHECK(by_name(st, "alice") == std::nullopt);
    CHECK(created(st, account("alice")).account_id == 3);

    // A name another account has, in any case: refused, nothing changed.
    account_record steal = bob;
    steal.name = "ALICE";
    check_refused(st.update_account(steal), status::code::conflict, "the name ALICE is taken");
    CHECK(by_id(st, bob.account_id) == bob);

    // The account's own name in another case is no conflict; a field alone changes.
    account_record recased = bob;
    recased.name = "BOB";
    recased.disabled = true;
    const status recased_ok = st.update_account(recased);
    REQUIRE_MESSAGE(recased_ok, recased_ok.message());
    CHECK(by_name(st, "bob") == recased);

    account_record ghost = account("Ghost");
    ghost.account_id = 99;
    check_refused(st.update_account(ghost), status::code::not_found, "no account 99");
    CHECK(by_name(st, "ghost") == std::nullopt);
    CHECK(by_id(st, 99) == std::nullopt);
  });
}

TEST_CASE("store: accounts: find_accounts by prefix ignoring case, ordered by name ignoring case, at most limit") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    for (const char* name : {"zed", "Bob", "alice", "ALBERT", "al_x", "Carol", "bobby", "a%b"})
      created(st, account(name));
    // Bytewise on the lowercased names: '%' and '_' before the letters.
    CHECK(found(st, "") == std::vector<std::string>{"a%b", "al_x", "ALBERT", "alice", "Bob", "bobby", "Carol", "zed"});
    CHECK(found(st, "AL") == std::vector<std::string>{"al_x", "ALBERT", "alice"});
    CHECK(found(st, "al") == found(st, "aL"));
    CHECK(found(st, "bob") == std::vector<std::string>{"Bob", "bobby"});
    CHECK(found(st, "BOBBY") == std::vector<std::string>{"bobby"});
    // A prefix is text, never a pattern.
    CHECK(found(st, "al_") == std::vector<std::string>{"al_x"});
    CHECK(found(st, "a%") == std::vector<std::string>{"a%b"});
    CHECK(found(st, "%").empty());
    CHECK(found(st, "_").empty());
    CHECK(found(st, "x").empty());
    CHECK(found(st, "zedd").empty());
    // At most `limit`, the first by name.
    CHECK(found(st, "", 3) == std::vector<std::string>{"a%b", "al_x", "ALBERT"});
    CHECK(found(st, "b", 1) == std::vector<std::string>{"Bob"});
    CHECK(found(st, "", 0).empty());
    const auto whole = st.find_accounts("carol", 10);
    REQUIRE(whole);
    REQUIRE(whole->size() == 1);
    CHECK(whole->front() == by_name(st, "Carol"));
  });
}

TEST_CASE("store: accounts: add_session refuses an unknown account (not_found) and a taken id or token hash (conflict)") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const std::int64_t ann = created(st, account("Ann")).account_id;
    const std::int64_t ben = created(st, account("Ben")).account_id;
    const session_record first = session("0123456789abcdef", ann, 1000);
    added(st, first);
    {
      const auto r = st.sessions_of(ann);
      REQUIRE(r);
      CHECK(*r == std::vector<session_record>{first});  // every field as given
    }
    check_refused(st.add_session(session("1111111111111111", 99, 1000)), status::code::not_found, "no account 99");

    session_record same_id = session("0123456789abcdef", ben, 2000);
    same_id.token_hash = sha256_hex("another token");  // the same id alone
    check_refused(st.add_session(same_id), status::code::conflict,
                  "session 0123456789abcdef exists already (its id or its token's hash)");
    session_record same_token = session("fedcba9876543210", ben, 2000);
    same_token.token_hash = first.token_hash;
    check_refused(st.add_session(same_token), status::code::conflict,
                  "session fedcba9876543210 exists already (its id or its token's hash)");
    CHECK(sessions(st, ann) == std::vector<std::string>{"0123456789abcdef"});
    CHECK(sessions(st, ben).empty());
    CHECK(sessions(st, 99).empty());
  });
}

TEST_CASE("store: accounts: use_session marks a session used; one idle too long is deleted, none given; unknown: none") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const std::int64_t ann = created(st, account("Ann")).account_id;
    session_record a = session("aaaaaaaaaaaaaaaa", ann, 1000);
    added(st, a);

    // Idle exactly idle_ms: still good (only longer is too long).
    const auto first = used(st, a.token_hash, 1100, 100);
    REQUIRE(first);
    a.last_used_ms = 1100;
    CHECK(*first == a);  // created_ms kept, last_used_ms now
    CHECK(st.sessions_of(ann)->front().last_used_ms == 1100);
    const auto second = used(st, a.token_hash, 1200, 100);
    REQUIRE(second);
    CHECK(second->last_used_ms == 1200);

    // 101 ms idle with 100 allowed: deleted, and none.
    CHECK(used(st, a.token_hash, 1301, 100) == std::nullopt);
    CHECK(sessions(st, ann).empty());
    CHECK(used(st, a.token_hash, 1302, 1'000'000) == std::nullopt);  // gone for good
    // The same id can be added again once it is gone.
    added(st, session("aaaaaaaaaaaaaaaa", ann, 5000));

    CHECK(used(st, sha256_hex("no such token"), 1000, 100) == std::nullopt);
    CHECK(used(st, "", 1000, 100) == std::nullopt);
  });
}

TEST_CASE("store: accounts: sessions_of gives the account's sessions, the most recently used first") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const std::int64_t ann = created(st, account("Ann")).account_id;
    const std::int64_t ben = created(st, account("Ben")).account_id;
    added(st, session("1000000000000000", ann, 10));
    added(st, session("3000000000000000", ann, 30));
    added(st, session("2000000000000000", ann, 20));
    added(st, session("4000000000000000", ben, 40));
    CHECK(sessions(st, ann) == std::vector<std::string>{"3000000000000000", "2000000000000000", "1000000000000000"});
    REQUIRE(used(st, sha256_hex("token of 1000000000000000"), 50, 1000));
    CHECK(sessions(st, ann) == std::vector<std::string>{"1000000000000000", "3000000000000000", "2000000000000000"});
    CHECK(sessions(st, ben) == std::vector<std::string>{"4000000000000000"});
    CHECK(sessions(st, 99).empty());
  });
}

TEST_CASE("store: accounts: revoke_session deletes one session of the account; revoke_sessions all, saying how many") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    const std::int64_t ann = created(st, account("Ann")).account_id;
    const std::int64_t ben = created(st, account("Ben")).account_id;
    for (const char* id : {"a000000000000001", "a000000000000002", "a000000000000003"}) added(st, session(id, ann, 100));
    added(st, session("b000000000000001", ben, 100));

    // Another account's session, or none: not_found, nothing deleted.
    check_refused(st.revoke_session(ann, "b000000000000001"), status::code::not_found,
                  "account 1 has no session b000000000000001");
    check_refused(st.revoke_session(ann, "0000000000000000"), status::code::not_found,
                  "account 1 has no session 0000000000000000");
    CHECK(sessions(st, ben) == std::vector<std::string>{"b000000000000001"});

    const status revoked = st.revoke_session(ann, "a000000000000002");
    REQUIRE_MESSAGE(revoked, revoked.message());
    CHECK(sessions(st, ann) == std::vector<std::string>{"a000000000000001", "a000000000000003"});
    CHECK(used(st, sha256_hex("token of a000000000000002"), 100, 1000) == std::nullopt);
    check_refused(st.revoke_session(ann, "a000000000000002"), status::code::not_found,
                  "account 1 has no session a000000000000002");

    const auto all = st.revoke_sessions(ann);
    REQUIRE_MESSAGE(all, all.error().message());
    CHECK(*all == 2);
    CHECK(sessions(st, ann).empty());
    CHECK(used(st, sha256_hex("token of a000000000000001"), 100, 1000) == std::nullopt);
    CHECK(*st.revoke_sessions(ann) == 0);
    CHECK(*st.revoke_sessions(99) == 0);
    CHECK(sessions(st, ben) == std::vector<std::string>{"b000000000000001"});  // another account's kept
  });
}

TEST_CASE("store: accounts: threads creating accounts at once; one name, one winner; ids 1..n, none twice") {
  for_each_store([](match_store& s) {
    account_store& st = accounts_of(s);
    constexpr int threads = 4;
    constexpr int each = 10;
    std::vector<std::vector<std::int64_t>> ids(threads);
    std::vector<int> won(threads, 0), refused(threads, 0), failed(threads, 0);
    {
      std::vector<std::jthread> pool;
      for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          for (int i = 0; i < each; ++i) {
            const auto own = st.create_account(account("player-" + std::to_string(t) + "-" + std::to_string(i)));
            if (own) ids[t].push_back(own->account_id);
            else ++failed[t];
            const auto shared = st.create_account(account(i % 2 ? "Shared" : "SHARED"));
            if (shared) {
              ++won[t];
              ids[t].push_back(shared->account_id);
            } else if (shared.error().error_code() == status::code::conflict) {
              ++refused[t];
            } else {
              ++failed[t];
            }
          }
        });
    }
    std::set<std::int64_t> all;
    int wins = 0, refusals = 0, failures = 0;
    for (int t = 0; t < threads; ++t) {
      all.insert(ids[t].begin(), ids[t].end());
      wins += won[t];
      refusals += refused[t];
      failures += failed[t];
    }
    CHECK(failures == 0);
    CHECK(wins == 1);
    CHECK(refusals == threads * each - 1);
    REQUIRE(all.size() == static_cast<std::size_t>(threads * each + 1));
    CHECK(*all.begin() == 1);
    CHECK(*all.rbegin() == threads * each + 1);
    CHECK(found(st, "player-", 1000).size() == static_cast<std::size_t>(threads * each));
  });
}
