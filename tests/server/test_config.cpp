#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.hpp"

using namespace cod::server;

namespace {

struct fake_env {
  std::map<std::string, std::string> vars;
  env_lookup lookup() const {
    return [this](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

config_load load(std::vector<std::string> args, const fake_env& env = {}) {
  std::vector<const char*> argv{"cod-server"};
  for (auto& a : args) argv.push_back(a.c_str());
  return load_config(static_cast<int>(argv.size()), argv.data(), env.lookup());
}

std::string temp_file(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("config: defaults with no file, environment or flags") {
  auto r = load({});
  REQUIRE(r.error.empty());
  CHECK_FALSE(r.help);
  CHECK(r.cfg.address == "127.0.0.1");
  CHECK(r.cfg.port == 8080);
  CHECK(r.cfg.threads == 2);
  CHECK(r.cfg.db == "./data/cod.db");
  CHECK(r.cfg.max_frame_bytes == 65536);
  CHECK(r.cfg.rate_limit_per_sec == 20);
  CHECK(r.cfg.rate_limit_burst == 40);
  CHECK(r.cfg.max_queued_messages == 256);
}

TEST_CASE("config: config/server.json documents every key with its default") {
  std::ifstream f(COD_SOURCE_DIR "/config/server.json");
  REQUIRE(f);
  nlohmann::json j = nlohmann::json::parse(f);
  const config defaults;
  for (const auto& k : config_keys()) {
    const std::string name(k.name);
    INFO("key " << name);
    REQUIRE(j.contains(name));
    REQUIRE(j.contains("_" + name));  // its description
    const auto& v = j[name];
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    CHECK(text == k.get(defaults));
  }
  // Nothing in the file that is not a key.
  for (const auto& [key, value] : j.items()) {
    if (key[0] == '_') continue;
    INFO("file key " << key);
    CHECK(set_config_key(*std::make_unique<config>(), key, value.is_string() ? value.get<std::string>() : value.dump()) ==
          std::nullopt);
  }
  // And the file loads as a config file giving the defaults.
  auto r = load({"--config=" COD_SOURCE_DIR "/config/server.json"});
  REQUIRE(r.error.empty());
  for (const auto& k : config_keys()) CHECK(k.get(r.cfg) == k.get(defaults));
}

TEST_CASE("config: precedence default < file < environment < flag") {
  const auto file = temp_file("cod_cfg_precedence.json",
                              R"({"port": 9001, "threads": 3, "max_rooms": 7, "db": "/tmp/x.db", "_note": "ignored"})");
  fake_env env;
  env.vars["COD_CONFIG"] = file;
  env.vars["COD_THREADS"] = "5";
  env.vars["COD_MAX_ROOMS"] = "8";
  auto r = load({"--max-rooms=9"}, env);
  REQUIRE(r.error.empty());
  CHECK(r.config_file == file);
  CHECK(r.cfg.port == 9001);       // file over default
  CHECK(r.cfg.db == "/tmp/x.db");  // file
  CHECK(r.cfg.threads == 5);       // environment over file
  CHECK(r.cfg.max_rooms == 9);     // flag over environment
  CHECK(r.cfg.grace_period_sec == 60);  // default

  // --config on the command line wins over COD_CONFIG; "--key value" works too.
  const auto other = temp_file("cod_cfg_other.json", R"({"port": 9002})");
  r = load({"--config", other, "--max-frame-bytes", "1024", "--log-level=debug"}, env);
  REQUIRE(r.error.empty());
  CHECK(r.cfg.port == 9002);
  CHECK(r.cfg.max_frame_bytes == 1024);
  CHECK(r.cfg.log_level == "debug");
  CHECK(r.cfg.threads == 5);
}

TEST_CASE("config: environment and flag names") {
  CHECK(config_env_name("max_frame_bytes") == "COD_MAX_FRAME_BYTES");
  CHECK(config_flag_name("max_frame_bytes") == "--max-frame-bytes");
  fake_env env;
  env.vars["COD_PORT"] = "0";
  env.vars["COD_DB"] = ":memory:";
  auto r = load({}, env);
  REQUIRE(r.error.empty());
  CHECK(r.cfg.port == 0);
  CHECK(r.cfg.db == ":memory:");
}

TEST_CASE("config: errors name the key and the source") {
  auto r = load({"--port=70000"});
  CHECK(r.error.find("--port") != std::string::npos);
  r = load({"--no-such-key=1"});
  CHECK(r.error.find("unknown key") != std::string::npos);
  r = load({"--threads=two"});
  CHECK(r.error.find("threads") != std::string::npos);
  r = load({"--log-level=loud"});
  CHECK(r.error.find("log_level") != std::string::npos);
  r = load({"--port"});
  CHECK(r.error.find("needs a value") != std::string::npos);
  r = load({"stray"});
  CHECK(!r.error.empty());
  fake_env env;
  env.vars["COD_RATE_LIMIT_PER_SEC"] = "-3";
  r = load({}, env);
  CHECK(r.error.find("COD_RATE_LIMIT_PER_SEC") != std::string::npos);
  const auto bad = temp_file("cod_cfg_bad.json", R"({"port": "x"})");
  r = load({"--config=" + bad});
  CHECK(r.error.find("port") != std::string::npos);
  const auto unknown = temp_file("cod_cfg_unknown.json", R"({"prot": 1})");
  r = load({"--config=" + unknown});
  CHECK(r.error.find("unknown key") != std::string::npos);
  r = load({"--config=/nonexistent/cod.json"});
  CHECK(r.error.find("cannot read") != std::string::npos);
  CHECK(apply_config_json("[1]", *std::make_unique<config>()).has_value());
  CHECK(apply_config_json("{", *std::make_unique<config>()).has_value());
}

TEST_CASE("config: --help lists every key with its default, environment variable and flag") {
  CHECK(load({"--help"}).help);
  CHECK(load({"--port=1", "-h"}).help);
  const std::string help = config_help();
  const config defaults;
  for (const auto& k : config_keys()) {
    INFO("key " << k.name);
    CHECK(help.find(config_flag_name(k.name)) != std::string::npos);
    CHECK(help.find(config_env_name(k.name)) != std::string::npos);
    if (k.name != "catalogue") CHECK(help.find("default " + k.get(defaults)) != std::string::npos);
  }
  CHECK(help.find("--config") != std::string::npos);
  CHECK(help.find("COD_CONFIG") != std::string::npos);
}

TEST_CASE("config: store names sqlite:PATH, memory: or a PostgreSQL URI; db keeps meaning sqlite:PATH") {
  using k = store_setting::kind;
  {
    auto r = load({});
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::sqlite);
    CHECK(effective_store(r.cfg).target == "./data/cod.db");
  }
  {
    auto r = load({"--db", "/tmp/a.db"});
    CHECK(effective_store(r.cfg).k == k::sqlite);
    CHECK(effective_store(r.cfg).target == "/tmp/a.db");
  }
  {
    auto r = load({"--db", ":memory:"});
    CHECK(effective_store(r.cfg).k == k::memory);
  }
  {
    auto r = load({"--store", "memory:"});
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::memory);
  }
  {
    auto r = load({"--store=sqlite:/tmp/b.db"});
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::sqlite);
    CHECK(effective_store(r.cfg).target == "/tmp/b.db");
  }
  for (const char* uri : {"postgresql://cod:pw@db.internal:5432/cod", "postgres://cod@/cod?host=/run/postgresql"}) {
    auto r = load({"--store", uri});
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::postgres);
    CHECK(effective_store(r.cfg).target == uri);
  }
  // The shipped file lists db at its default: store still wins without a conflict.
  {
    auto r = load({"--config=" COD_SOURCE_DIR "/config/server.json", "--store", "postgresql://cod@db/cod"});
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::postgres);
  }
  {
    fake_env env;
    env.vars["COD_STORE"] = "postgresql://cod@db/cod";
    auto r = load({}, env);
    REQUIRE(r.error.empty());
    CHECK(effective_store(r.cfg).k == k::postgres);
  }
  // The same store twice is fine.
  CHECK(load({"--db", "/tmp/c.db", "--store", "sqlite:/tmp/c.db"}).error.empty());
}

TEST_CASE("config: a bad store, or store and db naming different stores, is an error that shows no password") {
  auto bad = load({"--store", "mysql://root:hunter2@db/cod"});
  CHECK(bad.error.find("--store") != std::string::npos);
  CHECK(bad.error.find("expected sqlite:PATH, memory: or a PostgreSQL URI") != std::string::npos);
  CHECK(bad.error.find("hunter2") == std::string::npos);
  CHECK(load({"--store", "sqlite:"}).error.find("expected") != std::string::npos);
  auto both = load({"--db", "/tmp/x.db", "--store", "postgresql://cod:hunter2@db/cod"});
  CHECK(both.error.find("store and db name different stores") != std::string::npos);
  CHECK(both.error.find("hunter2") == std::string::npos);
  CHECK(!load({"--db", "/tmp/x.db", "--store", "sqlite:/tmp/y.db"}).error.empty());
}

TEST_CASE("config: account_cpus is a CPU list as taskset writes one") {
  CHECK(parse_cpu_list("") == std::vector<int>{});
  CHECK(parse_cpu_list("1") == std::vector<int>{1});
  CHECK(parse_cpu_list("2-3") == std::vector<int>{2, 3});
  CHECK(parse_cpu_list("0,2-3,2") == std::vector<int>{0, 2, 3});
  for (const char* bad : {"a", "1,", ",1", "3-2", "-1", "1-", "1024", "1 ,2"}) CHECK_FALSE(parse_cpu_list(bad));
  auto ok = load({"--account-cpus", "1"});
  REQUIRE(ok.error.empty());
  CHECK(ok.cfg.account_cpus == "1");
  auto bad = load({"--account-cpus", "one"});
  CHECK(bad.error.find("account_cpus") != std::string::npos);
}
