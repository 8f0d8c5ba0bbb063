#include "account_service/account_api.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

#include "admin/request_body.hpp"
#include "common/strcat.hpp"

namespace cod::server::accounts {

using admin::error_response;
using admin::method_not_allowed;
using admin::ok_json;
using admin::only_keys;
using admin::response;
using detail::cat;
using nlohmann::json;

namespace {

constexpr std::string_view api_prefix = "/api/";

json account_json(const account_record& a) {
  return {{"id", a.account_id}, {"name", a.name}, {"guest", a.guest}, {"created_ms", a.created_ms}};
}

json session_json(const session_record& s, bool current) {
  return {{"id", s.session_id},
          {"created_ms", s.created_ms},
          {"last_used_ms", s.last_used_ms},
          {"remote", s.remote},
          {"current", current}};
}

json signed_in_json(const signed_in& s) {
  json j = session_json(s.session, true);
  j["token"] = s.token;
  return {{"account", account_json(s.account)}, {"session", j}};
}

// A refusal of the service as the players' API answers it: the sign-in
// errors are 401, a disabled account 403, throttles 429 with Retry-After.
response refusal(const status& st, std::int64_t retry_after_s = 0) {
  const std::string& why = st.reason();
  if (why == "invalid_credentials" || why == "not_signed_in") {
    response r = error_response(401, why, st.message(), st.field());
    if (why == "not_signed_in") r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  if (why == "account_disabled") return error_response(403, why, st.message());
  if (why == "too_many_attempts") {
    response r = ok_json({{"error", why}, {"message", st.message()}, {"retry_after", retry_after_s}}, 429);
    r.code = why;
    r.headers.emplace_back("Retry-After", std::to_string(retry_after_s));
    return r;
  }
  return admin::refusal_response(st);
}

std::string bearer_of(const admin::request& req) {
  constexpr std::string_view scheme = "Bearer ";
  if (req.authorization.size() > scheme.size() && req.authorization.compare(0, scheme.size(), scheme) == 0)
    return req.authorization.substr(scheme.size());
  return {};
}

// "203.0.113.9:50312" -> "203.0.113.9"; "[2001:db8::1]:443" -> "2001:db8::1".
std::string address_of(const std::string& remote) {
  if (!remote.empty() && remote.front() == '[') {
    const auto end = remote.find(']');
    return end == std::string::npos ? remote : remote.substr(1, end - 1);
  }
  const auto colon = remote.rfind(':');
  if (colon == std::string::npos || remote.find(':') != colon) return remote;  // no port, or a bare IPv6
  return remote.substr(0, colon);
}

// The body's string fields, each required.
bool strings_of(const json& body, std::initializer_list<std::pair<const char*, std::string*>> fields, response& err) {
  for (const auto& [key, out] : fields) {
    auto it = body.find(key);
    if (it == body.end() || !it->is_string()) {
      err = error_response(400, "missing_field", cat("'", key, "' is required (a string)"), key);
      return false;
    }
    *out = it->get<std::string>();
  }
  return true;
}

std::vector<std::string> segments_of(std::string_view path) {
  std::vector<std::string> seg;
  while (!path.empty()) {
    const auto slash = path.find('/');
    seg.emplace_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  while (!seg.empty() && seg.back().empty()) seg.pop_back();
  return seg;
}

}  // namespace

bool is_account_target(std::string_view target) {
  return target.substr(0, api_prefix.size()) == api_prefix || target == "/api";
}

response account_api::handle(const admin::request& req) const {
  std::string_view target = req.target;
  std::string query;
  if (auto q = target.find('?'); q != std::string_view::npos) {
    query = target.substr(q + 1);
    target = target.substr(0, q);
  }
  if (target.substr(0, api_prefix.size()) != api_prefix)
    return error_response(404, "not_found", "the accounts API is under /api/ (docs/accounts.md)");
  const std::vector<std::string> seg = segments_of(target.substr(api_prefix.size()));
  // Public reads, with a query string and no body: before anything below.
  if (pages_ && !seg.empty() && (seg[0] == "ladder" || seg[0] == "players")) return pages_->handle(req, seg, query);
  const std::string& m = req.method;
  const std::string token = bearer_of(req);
  const std::string address = address_of(req.remote);
  const auto now = account_service::clock::now();
  std::int64_t retry = 0;
  json body;
  response err;
  const bool post_or_delete = m == "POST" || m == "DELETE";
  if (post_or_delete && !admin::parse_body(req.body, body, err)) return err;

  if (seg.size() == 1 && (seg[0] == "register" || seg[0] == "login")) {
    if (m != "POST") return method_not_allowed("POST");
    std::string name, password;
    if (!only_keys(body, {"name", "password"}, err) || !strings_of(body, {{"name", &name}, {"password", &password}}, err))
      return err;
    auto done = seg[0] == "register" ? svc_.register_account(name, password, address, now, &retry)
                                     : svc_.login(name, password, address, now, &retry);
    if (!done) return refusal(done.error(), retry);
    return ok_json(signed_in_json(*done), seg[0] == "register" ? 201 : 200);
  }
  if (seg.size() == 1 && seg[0] == "guest") {
    if (m != "POST") return method_not_allowed("POST");
    if (!only_keys(body, {}, err)) return err;
    auto done = svc_.guest(address, now, &retry);
    if (!done) return refusal(done.error(), retry);
    return ok_json(signed_in_json(*done), 201);
  }
  if (seg.size() == 1 && seg[0] == "claim") {
    if (m != "POST") return method_not_allowed("POST");
    std::string name, password;
    if (!only_keys(body, {"name", "password"}, err) || !strings_of(body, {{"name", &name}, {"password", &password}}, err))
      return err;
    auto done = svc_.claim(token, name, password);
    if (!done) return refusal(done.error());
    return ok_json({{"account", account_json(*done)}});
  }
  if (seg.size() == 1 && seg[0] == "logout") {
    if (m != "POST") return method_not_allowed("POST");
    if (!only_keys(body, {}, err)) return err;
    if (status st = svc_.logout(token); !st) return refusal(st);
    return ok_json(json::object());
  }
  if (seg.size() == 1 && seg[0] == "me") {
    if (m != "GET" && m != "HEAD") return method_not_allowed("GET");
    auto who = svc_.authenticate(token);
    if (!who) return refusal(who.error());
    return ok_json({{"account", account_json(who->account)}, {"session", session_json(who->session, true)}});
  }
  if (!seg.empty() && seg[0] == "sessions" && seg.size() <= 2) {
    if (seg.size() == 1) {
      if (m != "GET" && m != "HEAD") return method_not_allowed("GET");
      auto who = svc_.authenticate(token);
      if (!who) return refusal(who.error());
      auto list = svc_.sessions_of(who->account);
      if (!list) return refusal(list.error());
      json out = json::array();
      for (const auto& s : *list) out.push_back(session_json(s, s.session_id == who->session.session_id));
      return ok_json({{"sessions", out}});
    }
    if (m != "DELETE") return method_not_allowed("DELETE");
    if (!only_keys(body, {}, err)) return err;
    if (status st = svc_.revoke(token, seg[1]); !st) return refusal(st);
    return ok_json(json::object());
  }
  if (seg.size() == 1 && seg[0] == "password") {
    if (m != "POST") return method_not_allowed("POST");
    std::string old_password, new_password;
    if (!only_keys(body, {"old_password", "new_password"}, err) ||
        !strings_of(body, {{"old_password", &old_password}, {"new_password", &new_password}}, err))
      return err;
    auto done = svc_.change_password(token, old_password, new_password, address, now, &retry);
    if (!done) return refusal(done.error(), retry);
    return ok_json(signed_in_json(*done));
  }
  if (seg.size() == 1 && seg[0] == "account") {
    if (m != "DELETE") return method_not_allowed("DELETE");
    std::string password;
    if (!only_keys(body, {"password"}, err)) return err;
    if (auto it = body.find("password"); it != body.end()) {
      if (!it->is_string()) return error_response(400, "bad_field_type", "'password' is a string", "password");
      password = it->get<std::string>();
    }
    if (status st = svc_.delete_account(token, password, address, now, &retry); !st) return refusal(st, retry);
    return ok_json(json::object());
  }
  return error_response(404, "not_found", cat("no route ", m, " ", target, " (docs/accounts.md)"));
}

admin::response account_admin_routes::handle(const admin::request& req, std::string_view,
                                             const std::vector<std::string>& seg,
                                             const std::vector<std::pair<std::string, std::string>>& query) {
  // seg[0] == "accounts"
  if (seg.size() == 1) {
    if (req.method != "GET" && req.method != "HEAD") return method_not_allowed("GET");
    std::string prefix;
    int limit = 50;
    for (const auto& [k, v] : query) {
      if (k == "name") {
        prefix = v;
      } else if (k == "limit") {
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), limit);
        if (ec != std::errc{} || p != v.data() + v.size() || limit < 1 || limit > 1000)
          return error_response(400, "bad_param", "'limit' is 1 to 1000", "limit");
      } else {
        return error_response(400, "unknown_param", cat("unknown parameter '", k, "'"), k);
      }
    }
    auto found = svc_.find(prefix, limit);
    if (!found) return admin::refusal_response(found.error());
    json out = json::array();
    for (const auto& a : *found) {
      json j = account_json(a);
      j["disabled"] = a.disabled;
      j["deleted"] = a.deleted;
      out.push_back(std::move(j));
    }
    return ok_json({{"accounts", out}});
  }
  std::int64_t id = 0;
  if (seg.size() == 3) {
    auto [p, ec] = std::from_chars(seg[1].data(), seg[1].data() + seg[1].size(), id);
    if (ec != std::errc{} || p != seg[1].data() + seg[1].size() || id < 1)
      return error_response(400, "bad_path", "an account id is a positive integer");
    if (req.method != "POST") return method_not_allowed("POST");
    if (seg[2] == "disable" || seg[2] == "enable") {
      auto done = svc_.set_disabled(id, seg[2] == "disable");
      if (!done) return admin::refusal_response(done.error());
      json j = account_json(*done);
      j["disabled"] = done->disabled;
      return ok_json({{"account", j}});
    }
    if (seg[2] == "revoke_sessions") {
      auto done = svc_.revoke_all(id);
      if (!done) return admin::refusal_response(done.error());
      return ok_json({{"revoked", *done}});
    }
  }
  return error_response(404, "not_found", "no such accounts route (docs/accounts.md, \"Admins\")");
}

}  // namespace cod::server::accounts
