// Shared by the account tests: a service on a memory store with a
// deterministic environment, cheap hash parameters (the real ones are
// checked once, in test_passwords.cpp), and a clock the test moves.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>

#include "account_service/account_service.hpp"
#include "persist/memory/memory_store.hpp"
#include "shared/test_environment.hpp"

namespace cod::server::accounts::test {

// libsodium's smallest argon2id: the tests hash hundreds of times.
inline hash_params cheap_hash() { return {1, 8192}; }

struct bench {
  memory_store store;
  cod::test::test_environment env;
  std::int64_t wall = 1'700'000'000'000;
  std::uint64_t seed = 7;
  account_service::clock::time_point now{};
  std::unique_ptr<account_service> svc;

  explicit bench(limits l = with_cheap_hash()) {
    env.wall = [this] { return wall; };
    env.random = [this] { return cod::test::lcg_next(seed); };
    REQUIRE(store.accounts() != nullptr);
    svc = std::make_unique<account_service>(*store.accounts(), env, l);
  }
  static limits with_cheap_hash() {
    limits l;
    l.hash = cheap_hash();
    return l;
  }
  signed_in registered(const std::string& name, const std::string& password = "correct horse battery") {
    auto r = svc->register_account(name, password, "198.51.100.7", now);
    REQUIRE_MESSAGE(r, r.error().message());
    return *r;
  }
};

}  // namespace cod::server::accounts::test
