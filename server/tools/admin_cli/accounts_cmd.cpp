#include "admin_cli/accounts_cmd.hpp"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "admin_cli/admin_http.hpp"

namespace cod::admin_tool {

namespace {

using nlohmann::json;

std::string utc(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A name prefix in a query string: unreserved characters as they are, the rest %XX.
std::string query_escape(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// The answer's JSON, or nothing with the reason on stderr (exit status 1).
bool answered(const http_answer& a, json& out) {
  if (a.status == 0) {
    std::fprintf(stderr, "cod-admin: %s\n", a.error.c_str());
    return false;
  }
  out = json::parse(a.body, nullptr, false);
  if (a.status / 100 != 2) {
    if (out.is_object() && out.contains("error"))
      std::fprintf(stderr, "cod-admin: the server answered %d %s: %s\n", a.status,
                   out["error"].get<std::string>().c_str(), out.value("message", "").c_str());
    else
      std::fprintf(stderr, "cod-admin: the server answered %d\n", a.status);
    return false;
  }
  if (out.is_discarded()) {
    std::fprintf(stderr, "cod-admin: the server's answer is not JSON\n");
    return false;
  }
  return true;
}

int usage_error(const char* why) {
  std::fprintf(stderr, "cod-admin: %s (cod-admin --help)\n", why);
  return 2;
}

std::string flags_of(const json& a) {
  std::string f = a.value("guest", false) ? "guest" : "registered";
  if (a.value("disabled", false)) f += ",disabled";
  if (a.value("deleted", false)) f += ",deleted";
  return f;
}

}  // namespace

int run_accounts(const std::vector<std::string>& args, const accounts_options& o) {
  if (args.size() < 2) return usage_error("accounts needs find, disable, enable or revoke-sessions");
  const std::string& sub = args[1];
  if (o.url.empty()) return usage_error("accounts commands go through the admin API: give --url http://HOST:PORT");
  if (o.token.empty()) return usage_error("accounts commands need the admin token: --token or COD_ADMIN_TOKEN");
  if (!o.limit.empty() && sub != "find") return usage_error("--limit goes with 'accounts find'");

  if (sub == "find") {
    if (args.size() > 3) return usage_error("accounts find takes one name prefix");
    std::string target = "/admin/api/accounts?name=" + query_escape(args.size() == 3 ? args[2] : "");
    if (!o.limit.empty()) target += "&limit=" + query_escape(o.limit);
    json j;
    if (!answered(admin_request(o.url, o.token, "GET", target), j)) return 1;
    if (o.json) {
      std::printf("%s\n", j.dump(2).c_str());
      return 0;
    }
    for (const json& a : j["accounts"])
      std::printf("%lld\t%s\t%s\tcreated %s\n", static_cast<long long>(a["id"].get<std::int64_t>()),
                  a["name"].get<std::string>().c_str(), flags_of(a).c_str(),
                  utc(a["created_ms"].get<std::int64_t>()).c_str());
    return 0;
  }
  if (sub != "disable" && sub != "enable" && sub != "revoke-sessions")
    return usage_error("accounts takes find, disable, enable or revoke-sessions");
  if (args.size() != 3) return usage_error("this accounts command takes one account id");
  std::int64_t id = 0;
  const std::string& text = args[2];
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || p != text.data() + text.size() || id < 1)
    return usage_error("an account id is a positive integer (accounts find shows them)");
  // The route's own spelling: revoke_sessions.
  const std::string action = sub == "revoke-sessions" ? "revoke_sessions" : sub;
  json j;
  if (!answered(admin_request(o.url, o.token, "POST", "/admin/api/accounts/" + text + "/" + action), j)) return 1;
  if (o.json) {
    std::printf("%s\n", j.dump(2).c_str());
  } else if (sub == "revoke-sessions") {
    std::printf("account %s: %lld session(s) revoked\n", text.c_str(),
                static_cast<long long>(j["revoked"].get<std::int64_t>()));
  } else {
    const json& a = j["account"];
    std::printf("account %s (%s) %s\n", text.c_str(), a["name"].get<std::string>().c_str(),
                a["disabled"].get<bool>() ? "disabled" : "enabled");
  }
  return 0;
}

}  // namespace cod::admin_tool
