// The accounts' HTTP routes (account_api.hpp), called as http_session calls
// them: status codes, bodies, headers, and bad input refused clearly.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "account_service/account_api.hpp"
#include "helpers.hpp"

using namespace cod::server;
using namespace cod::server::accounts;
using namespace cod::server::accounts::test;
using nlohmann::json;

namespace {

admin::response call(const account_api& api, const std::string& method, const std::string& target,
                     const std::string& body = {}, const std::string& token = {}) {
  admin::request r;
  r.method = method;
  r.target = target;
  r.body = body;
  r.remote = "198.51.100.7:50312";
  if (!token.empty()) r.authorization = "Bearer " + token;
  return api.handle(r);
}

std::string header(const admin::response& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

}  // namespace

TEST_CASE("account api: register, me, sessions, logout") {
  bench b;
  account_api api(*b.svc);
  auto r = call(api, "POST", "/api/register", R"({"name":"Ann","password":"correct horse battery"})");
  REQUIRE(r.status == 201);
  const json j = json::parse(r.body);
  CHECK(j["account"]["name"] == "Ann");
  CHECK(j["account"]["id"] == 1);
  CHECK(j["account"]["guest"] == false);
  const std::string token = j["session"]["token"];
  CHECK(token.size() == 32);
  CHECK(j["session"]["current"] == true);
  CHECK(j["session"]["remote"] == "198.51.100.7");

  auto me = call(api, "GET", "/api/me", "", token);
  REQUIRE(me.status == 200);
  CHECK(json::parse(me.body)["account"]["name"] == "Ann");
  CHECK_FALSE(json::parse(me.body)["session"].contains("token"));  // shown once, at sign-in

  auto login = call(api, "POST", "/api/login", R"({"name":"ann","password":"correct horse battery"})");
  REQUIRE(login.status == 200);
  auto list = call(api, "GET", "/api/sessions", "", token);
  REQUIRE(list.status == 200);
  const json sessions = json::parse(list.body)["sessions"];
  REQUIRE(sessions.size() == 2);
  const std::string other = json::parse(login.body)["session"]["id"];
  CHECK(call(api, "DELETE", "/api/sessions/" + other, "", token).status == 200);
  CHECK(call(api, "DELETE", "/api/sessions/" + other, "", token).status == 404);
  CHECK(call(api, "POST", "/api/logout", "", token).status == 200);
  auto after = call(api, "GET", "/api/me", "", token);
  CHECK(after.status == 401);
  CHECK(json::parse(after.body)["error"] == "not_signed_in");
  CHECK(header(after, "WWW-Authenticate") == "Bearer");
}

TEST_CASE("account api: bad input gets a clear error and changes nothing") {
  bench b;
  account_api api(*b.svc);
  const auto code = [](const admin::response& r) { return json::parse(r.body)["error"].get<std::string>(); };
  auto r = call(api, "POST", "/api/register", "{not json");
  CHECK(r.status == 400);
  CHECK(code(r) == "bad_json");
  r = call(api, "POST", "/api/register", R"({"name":"Ann","password":"correct horse battery","admin":true})");
  CHECK(r.status == 400);
  CHECK(code(r) == "unknown_field");
  r = call(api, "POST", "/api/register", R"({"name":"Ann"})");
  CHECK(r.status == 400);
  CHECK(code(r) == "missing_field");
  r = call(api, "POST", "/api/register", R"({"name":"Ann","password":12345678})");
  CHECK(code(r) == "missing_field");
  r = call(api, "POST", "/api/register", R"({"name":"Ann","password":"password"})");
  CHECK(r.status == 400);
  CHECK(code(r) == "common_password");
  CHECK(json::parse(r.body)["param"] == "password");
  r = call(api, "GET", "/api/register");
  CHECK(r.status == 405);
  CHECK(header(r, "Allow") == "POST");
  CHECK(call(api, "GET", "/api/nothing").status == 404);
  CHECK(call(api, "POST", "/api/guest", R"({"x":1})").status == 400);
  // Nothing was created by any of them.
  auto none = b.store.accounts()->find_accounts("", 10);
  REQUIRE(none);
  CHECK(none->empty());
  r = call(api, "POST", "/api/register", R"({"name":"Ann","password":"correct horse battery"})");
  REQUIRE(r.status == 201);
  r = call(api, "POST", "/api/register", R"({"name":"ANN","password":"correct horse battery"})");
  CHECK(r.status == 409);
  CHECK(code(r) == "name_taken");
  r = call(api, "POST", "/api/login", R"({"name":"Ann","password":"wrong password"})");
  CHECK(r.status == 401);
  CHECK(code(r) == "invalid_credentials");
}

TEST_CASE("account api: a throttled sign-in is 429 with Retry-After and retry_after") {
  limits l = bench::with_cheap_hash();
  l.failed_logins_per_name = 2;
  bench b(l);
  account_api api(*b.svc);
  for (int i = 0; i < 2; ++i)
    CHECK(call(api, "POST", "/api/login", R"({"name":"Ann","password":"wrong password"})").status == 401);
  auto r = call(api, "POST", "/api/login", R"({"name":"Ann","password":"wrong password"})");
  REQUIRE(r.status == 429);
  const json j = json::parse(r.body);
  CHECK(j["error"] == "too_many_attempts");
  CHECK(j["retry_after"].get<int>() > 0);
  CHECK(header(r, "Retry-After") == std::to_string(j["retry_after"].get<int>()));
}

TEST_CASE("account api: guest, claim, password change, account deletion") {
  bench b;
  account_api api(*b.svc);
  auto g = call(api, "POST", "/api/guest");
  REQUIRE(g.status == 201);
  const std::string token = json::parse(g.body)["session"]["token"];
  CHECK(json::parse(g.body)["account"]["guest"] == true);
  auto c = call(api, "POST", "/api/claim", R"({"name":"Cleo","password":"a good password"})", token);
  REQUIRE(c.status == 200);
  CHECK(json::parse(c.body)["account"]["name"] == "Cleo");
  CHECK(json::parse(c.body)["account"]["guest"] == false);
  auto p = call(api, "POST", "/api/password", R"({"old_password":"a good password","new_password":"a better password"})",
                token);
  REQUIRE(p.status == 200);
  const std::string fresh = json::parse(p.body)["session"]["token"];
  CHECK(call(api, "GET", "/api/me", "", token).status == 401);
  CHECK(call(api, "DELETE", "/api/account", R"({"password":"a good password"})", fresh).status == 401);
  CHECK(call(api, "DELETE", "/api/account", R"({"password":"a better password"})", fresh).status == 200);
  CHECK(call(api, "GET", "/api/me", "", fresh).status == 401);
}

TEST_CASE("account api: the admins' routes find, disable, enable and revoke") {
  bench b;
  account_api api(*b.svc);
  account_admin_routes admin_routes(*b.svc);
  const std::string token = b.registered("Ann").token;
  b.registered("Bob");
  admin::request q;
  q.method = "GET";
  auto r = admin_routes.handle(q, "admin", {"accounts"}, {{"name", "a"}});
  REQUIRE(r.status == 200);
  const json found = json::parse(r.body)["accounts"];
  REQUIRE(found.size() == 1);
  CHECK(found[0]["name"] == "Ann");
  CHECK(found[0]["disabled"] == false);
  CHECK(admin_routes.handle(q, "admin", {"accounts"}, {{"limit", "0"}}).status == 400);
  CHECK(admin_routes.handle(q, "admin", {"accounts"}, {{"nme", "a"}}).status == 400);
  q.method = "POST";
  CHECK(admin_routes.handle(q, "admin", {"accounts", "1", "disable"}, {}).status == 200);
  CHECK(call(api, "GET", "/api/me", "", token).status == 403);
  CHECK(admin_routes.handle(q, "admin", {"accounts", "1", "enable"}, {}).status == 200);
  CHECK(call(api, "GET", "/api/me", "", token).status == 200);
  r = admin_routes.handle(q, "admin", {"accounts", "1", "revoke_sessions"}, {});
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body)["revoked"] == 1);
  CHECK(call(api, "GET", "/api/me", "", token).status == 401);
  CHECK(admin_routes.handle(q, "admin", {"accounts", "x", "disable"}, {}).status == 400);
  CHECK(admin_routes.handle(q, "admin", {"accounts", "42", "disable"}, {}).status == 404);
  CHECK(admin_routes.handle(q, "admin", {"accounts", "1", "explode"}, {}).status == 404);
}
