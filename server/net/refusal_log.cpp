#include "net/refusal_log.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include "common/strcat.hpp"

namespace cod::server {

using detail::cat;

namespace {
// Distinct addresses counted for a summary (beyond: "at least").
constexpr std::size_t max_addresses = 1024;
}  // namespace

refusal_log::refusal_log(std::string what, std::chrono::seconds interval, sink write)
    : what_(std::move(what)),
      interval_(interval),
      write_(write ? std::move(write) : sink([](const std::string& line) { spdlog::warn("{}", line); })) {}

refusal_log::~refusal_log() { flush(); }

void refusal_log::refused(const std::string& address, std::string_view reason, clock::time_point now) {
  std::lock_guard lock(mutex_);
  ++total_;
  if (open_ && now - interval_start_ >= interval_) {
    summarise();
    open_ = false;
  }
  if (!open_) {
    open_ = true;
    interval_start_ = now;
    write_(cat(what_, ": refused from ", address, ": ", reason, " (further refusals are summarised every ",
               interval_.count(), " s)"));
    return;
  }
  ++counted_;
  if (addresses_.size() < max_addresses) addresses_.emplace(address);
  else if (!addresses_.count(address)) addresses_capped_ = true;
  latest_ = cat(address, ": ", reason);
}

void refusal_log::flush() {
  std::lock_guard lock(mutex_);
  summarise();
  open_ = false;
}

void refusal_log::summarise() {
  if (counted_ == 0) return;
  write_(cat(what_, ": ", counted_, " more refused in ", interval_.count(), " s from ",
             addresses_capped_ ? "at least " : "", addresses_.size(), addresses_.size() == 1 ? " address" : " addresses",
             "; latest from ", latest_));
  counted_ = 0;
  addresses_.clear();
  addresses_capped_ = false;
  latest_.clear();
}

std::uint64_t refusal_log::total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

}  // namespace cod::server
