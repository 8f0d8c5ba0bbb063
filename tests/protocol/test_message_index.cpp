// docs/protocol.md's message index (the table at its top) against what the
// code and the schemas say, both ways: every client message of the list
// (client_messages.hpp) and every schema of protocol/schema/v1/client and
// server has its row, and every row names one of them. Each row's section
// link must lead to a heading of the document. (A message added without its
// row, or a row left behind by a removed one, fails here.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cod/protocol/client_messages.hpp"

namespace proto = cod::protocol;

namespace {

struct index_row {
  std::string name;
  std::string direction;  // "client → server" or "server → client"
  std::string anchor;     // the section link's target, without '#'
};

std::vector<std::string> doc_lines() {
  std::ifstream in(COD_PROTOCOL_DOC);
  REQUIRE(in.good());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "| `hello` | client → server | purpose | [hello](#hello) |": the cells, trimmed.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::size_t at = 1;
  for (std::size_t bar; (bar = row.find(" |", at)) != std::string::npos; at = bar + 2) {
    std::string cell = row.substr(at, bar - at);
    const auto first = cell.find_first_not_of(' ');
    out.push_back(first == std::string::npos ? std::string() : cell.substr(first));
  }
  return out;
}

// The table after the document's first lines, up to the first line that is
// not a row.
std::vector<index_row> index_rows(const std::vector<std::string>& lines) {
  std::size_t i = 0;
  while (i < lines.size() && lines[i].rfind("| message | direction |", 0) != 0) ++i;
  REQUIRE_MESSAGE(i < lines.size(), "docs/protocol.md has no message index (| message | direction | ...)");
  std::vector<index_row> rows;
  for (i += 2; i < lines.size() && lines[i].rfind("| `", 0) == 0; ++i) {
    const auto c = cells(lines[i]);
    CAPTURE(lines[i]);
    REQUIRE(c.size() == 4);
    REQUIRE(c[0].size() > 2);
    const auto link = c[3].find("](#");
    REQUIRE(link != std::string::npos);
    REQUIRE(c[3].back() == ')');
    rows.push_back({c[0].substr(1, c[0].size() - 2), c[1], c[3].substr(link + 3, c[3].size() - link - 4)});
  }
  return rows;
}

// The anchors GitHub gives the document's headings: lowercase, punctuation
// dropped, spaces as '-'; a repeated one gets -1, -2, ... Headings inside
// code blocks are not headings.
std::set<std::string> heading_anchors(const std::vector<std::string>& lines) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  bool in_code = false;
  for (const std::string& line : lines) {
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    if (in_code || line.empty() || line[0] != '#') continue;
    const std::string title = line.substr(line.find_first_not_of('#'));
    std::string anchor;
    for (unsigned char ch : title) {
      if (std::isalnum(ch) || ch == '_' || ch == '-') anchor += static_cast<char>(std::tolower(ch));
      else if (ch == ' ') anchor += '-';
    }
    anchor = anchor.substr(anchor.find_first_not_of('-'));
    const int n = seen[anchor]++;
    anchors.insert(n == 0 ? anchor : anchor + "-" + std::to_string(n));
  }
  return anchors;
}

// The schemas of protocol/schema/v1/<dir>, by name ("hello" for hello.json).
std::set<std::string> schemas(const char* dir) {
  std::set<std::string> names;
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(COD_SCHEMA_DIR) / dir))
    if (f.path().extension() == ".json") names.insert(f.path().stem().string());
  return names;
}

std::set<std::string> rows_of(const std::vector<index_row>& rows, const std::string& direction) {
  std::set<std::string> names;
  for (const auto& r : rows)
    if (r.direction == direction) {
      CHECK_MESSAGE(names.insert(r.name).second, "listed twice: ", r.name);
    }
  return names;
}

// Both ways, naming what is missing where.
void check_same(const std::set<std::string>& index, const std::set<std::string>& other, const std::string& what) {
  for (const auto& name : other) CHECK_MESSAGE(index.count(name), what, " has `", name, "`; the index lacks it");
  for (const auto& name : index) CHECK_MESSAGE(other.count(name), "the index lists `", name, "`; ", what, " lacks it");
}

}  // namespace

TEST_CASE("docs/protocol.md's message index lists exactly the client messages and the schemas") {
  const auto lines = doc_lines();
  const auto rows = index_rows(lines);
  for (const auto& r : rows) {
    CAPTURE(r.name);
    CHECK((r.direction == "client → server" || r.direction == "server → client"));
  }
  const auto client = rows_of(rows, "client → server");
  const auto server = rows_of(rows, "server → client");
  CHECK(client.size() + server.size() == rows.size());

  const std::set<std::string> listed(proto::client_message_types.begin(), proto::client_message_types.end());
  check_same(client, listed, "client_message (client_messages.hpp)");
  check_same(client, schemas("client"), "protocol/schema/v1/client");
  check_same(server, schemas("server"), "protocol/schema/v1/server");
  CHECK(client.size() == std::variant_size_v<proto::client_message>);

  // Each row leads to its section.
  const auto anchors = heading_anchors(lines);
  for (const auto& r : rows) CHECK_MESSAGE(anchors.count(r.anchor), "`", r.name, "` links to #", r.anchor, ", no heading");
}

// The index's own parts, on a small document, so that the check above is
// known to see what it should.
TEST_CASE("the message index reader: rows, and heading anchors as GitHub makes them") {
  const std::vector<std::string> doc = {
      "# Title",
      "| message | direction | purpose | section |",
      "|---|---|---|---|",
      "| `hello` | client → server | open (→ `welcome`) | [hello](#hello) |",
      "| `history` | server → client | reply | [history (reply)](#history-reply) |",
      "",
      "## Spectating",
      "```",
      "# not a heading",
      "```",
      "### spectating",
      "### history (reply)",
  };
  const auto rows = index_rows(doc);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].name == "hello");
  CHECK(rows[0].direction == "client → server");
  CHECK(rows[0].anchor == "hello");
  CHECK(rows[1].name == "history");
  CHECK(rows[1].anchor == "history-reply");
  CHECK(heading_anchors(doc) == std::set<std::string>{"title", "spectating", "spectating-1", "history-reply"});
}

// The list is the variant: its names come from the alternatives, in order,
// and the parser's "known types" follow it, as they did when they were a
// hand-kept array. (New messages come after these fifteen.)
TEST_CASE("the client message list: names in the variant's order, each parsed as its own alternative") {
  const std::vector<std::string_view> first{"hello", "list_rooms", "create_room", "join", "resume",
                                            "spectate", "act", "leave", "ping", "tournament_join",
                                            "draft_pick", "history", "league_join", "league_act", "add_bot"};
  REQUIRE(proto::client_message_types.size() >= first.size());
  CHECK(std::equal(first.begin(), first.end(), proto::client_message_types.begin()));
  const auto r = proto::parse_client_message(R"({"type":"nope"})");
  REQUIRE(r.error);
  CHECK(r.error->message.rfind(
            "unknown message type \"nope\" (hello, list_rooms, create_room, join, resume, spectate, act, leave, "
            "ping, tournament_join, draft_pick, history, league_join, league_act, add_bot",
            0) == 0);
  for (std::size_t i = 0; i < proto::client_message_types.size(); ++i) {
    const std::string type(proto::client_message_types[i]);
    CAPTURE(type);
    // Parsed as its own alternative: a missing field, or (leave, ping) the message itself.
    const auto p = proto::parse_client_message(R"({"type":")" + type + R"(","version":1})");
    if (p.ok()) CHECK(p.message->index() == i);
    else CHECK(p.error->message.find("\"" + type + "\" message") != std::string::npos);
  }
}
