// The password rules and argon2id (docs/accounts.md, "Passwords").
#include <doctest/doctest.h>

#include <string>

#include "account_service/password_hash.hpp"
#include "account_service/password_rules.hpp"
#include "helpers.hpp"

using namespace cod::server;
using namespace cod::server::accounts;

TEST_CASE("passwords: 8 to 128 characters of UTF-8, counted as characters") {
  CHECK(check_new_password("tr0ub4dor&3x").is_ok());
  CHECK(check_new_password("short7!").reason() == "invalid_password");  // 7
  CHECK(check_new_password("eight8!x").is_ok());
  CHECK(check_new_password(std::string(128, 'z') + "").is_ok());
  CHECK(check_new_password(std::string(129, 'z')).reason() == "invalid_password");
  // Eight characters, sixteen bytes: accepted; four characters in twelve bytes: refused.
  CHECK(check_new_password("éééééééé").is_ok());
  CHECK(check_new_password("日本語!").reason() == "invalid_password");
  CHECK(check_new_password("bad\xff utf-8 here").reason() == "invalid_password");
  CHECK(check_new_password("over\xc0\xaflong!!").reason() == "invalid_password");
  const status st = check_new_password("short", "new_password");
  CHECK(st.error_code() == status::code::invalid);
  CHECK(st.field() == "new_password");
  CHECK(st.message().find("8 to 128") != std::string::npos);
}

TEST_CASE("passwords: the 1,000 most common are refused, ignoring ASCII case") {
  CHECK(common_password_count() == 1000);
  for (const char* p : {"password", "12345678", "baseball", "PassWord", "QWERTYUIOP", "trustno1"}) {
    CHECK_MESSAGE(is_common_password(p), p);
    CHECK(check_new_password(p).reason() == "common_password");
  }
  CHECK_FALSE(is_common_password("correct horse battery"));
  CHECK_FALSE(is_common_password("# The 1,000 most common passwords that the length rule (8 to 128 characters)"));
}

TEST_CASE("passwords: argon2id with OWASP's minimum by default; verify, rehash when the parameters change") {
  REQUIRE(hashing_available());
  const hash_params owasp;
  CHECK(owasp.passes == 2);
  CHECK(owasp.memory_bytes == 19u * 1024 * 1024);
  auto h = hash_password("correct horse battery", owasp);
  REQUIRE(h);
  CHECK(h->rfind("$argon2id$", 0) == 0);
  CHECK(h->find("m=19456,t=2,p=1") != std::string::npos);
  CHECK(verify_password(*h, "correct horse battery"));
  CHECK_FALSE(verify_password(*h, "correct horse batterz"));
  CHECK_FALSE(verify_password("", "anything"));
  CHECK_FALSE(verify_password("not a hash", "anything"));
  CHECK_FALSE(needs_rehash(*h, owasp));
  CHECK(needs_rehash(*h, {3, 19u << 20}));
  // Two hashes of one password differ (a salt each), and both verify.
  auto again = hash_password("correct horse battery", owasp);
  REQUIRE(again);
  CHECK(*again != *h);
  CHECK(verify_password(*again, "correct horse battery"));
}
