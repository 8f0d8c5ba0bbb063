// cod-server: the Clash of Decks game server. `cod-server --help` lists every
// setting; config/server.json documents them with their defaults.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <spdlog/spdlog.h>

#include "app/server.hpp"
#include "common/config.hpp"
#include "common/logging.hpp"

#ifndef COD_DEFAULT_CATALOGUE
#define COD_DEFAULT_CATALOGUE "config/cards/catalogue.json"
#endif

namespace {

// The shipped catalogue: the path baked in at build time, else next to the
// executable (an installed or moved build tree).
std::string default_catalogue(const char* argv0) {
  std::error_code ec;
  if (std::filesystem::exists(COD_DEFAULT_CATALOGUE, ec)) return COD_DEFAULT_CATALOGUE;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) exe = std::filesystem::absolute(argv0, ec);
  const auto dir = exe.parent_path();
  for (const auto& rel : {"config/cards/catalogue.json", "../config/cards/catalogue.json",
                          "../../config/cards/catalogue.json", "../share/cod/catalogue.json"}) {
    auto p = dir / rel;
    if (std::filesystem::exists(p, ec)) return p.lexically_normal().string();
  }
  return COD_DEFAULT_CATALOGUE;
}

#ifndef COD_DEFAULT_WEB_ROOT
#define COD_DEFAULT_WEB_ROOT "server/web"
#endif

// The shipped browser clients (server/web): the path baked in at build time,
// else next to the executable.
std::string default_web_root(const char* argv0) {
  std::error_code ec;
  if (std::filesystem::is_directory(COD_DEFAULT_WEB_ROOT, ec)) return COD_DEFAULT_WEB_ROOT;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) exe = std::filesystem::absolute(argv0, ec);
  const auto dir = exe.parent_path();
  for (const auto& rel : {"web", "../web", "../../server/web", "../share/cod/web"}) {
    auto p = dir / rel;
    if (std::filesystem::is_directory(p / "play", ec)) return p.lexically_normal().string();
  }
  return COD_DEFAULT_WEB_ROOT;
}

}  // namespace

int main(int argc, char** argv) {
  auto loaded = cod::server::load_config(argc, argv, [](const char* name) { return std::getenv(name); });
  if (loaded.help) {
    std::fputs(cod::server::config_help().c_str(), stdout);
    return 0;
  }
  if (!loaded.error.empty()) {
    std::fprintf(stderr, "cod-server: %s\n", loaded.error.c_str());
    return 2;
  }
  auto cfg = std::move(loaded.cfg);
  if (cfg.catalogue.empty()) cfg.catalogue = default_catalogue(argv[0]);
  if (cfg.web_root.empty()) cfg.web_root = default_web_root(argv[0]);

  cod::server::setup_logging(cfg.log_level);
  if (!loaded.config_file.empty()) spdlog::info("config: {}", loaded.config_file);
  spdlog::info("catalogue: {}", cfg.catalogue);

  cod::server::server srv(cfg);
  // Before start(): a SIGTERM during recovery must stop gracefully too.
  srv.catch_signals();
  if (const cod::server::status started = srv.start(); !started) {
    spdlog::critical("cannot start: {}", started.message());
    return 1;
  }
  return srv.run_until_signal();
}
