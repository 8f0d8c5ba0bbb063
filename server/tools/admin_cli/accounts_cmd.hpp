// cod-admin accounts ...: the admins' account routes (/admin/api/accounts,
// docs/accounts.md "Admins") from the command line, through a running
// server's admin API (admin_http.hpp): the accounts live in the server's
// store, which it alone writes.
//
//   accounts find [PREFIX] [--limit N] [--json]   names starting with PREFIX (ignoring case)
//   accounts disable ID [--json]                  no sign-in, its sessions refused
//   accounts enable ID [--json]
//   accounts revoke-sessions ID [--json]          every session ends
#pragma once

#include <string>
#include <vector>

namespace cod::admin_tool {

struct accounts_options {
  std::string url{};    // --url http://HOST:PORT
  std::string token{};  // --token, or COD_ADMIN_TOKEN: the server's admin token
  std::string limit{};  // find's --limit ("" : the API's default)
  bool json = false;    // print the API's JSON answer as it is
};

// args: {"accounts", SUBCOMMAND, ARG?}. Exit status: 0 done, 1 refused or
// unreachable (the reason on stderr), 2 usage.
int run_accounts(const std::vector<std::string>& args, const accounts_options& o);

}  // namespace cod::admin_tool
