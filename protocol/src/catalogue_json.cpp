#include "cod/protocol/catalogue_json.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cod/protocol/card_json.hpp"
#include "json_util.hpp"

namespace cod::protocol {
namespace {

using json = nlohmann::json;

catalogue_error document_error(std::string field, std::string message) {
  return catalogue_error{"", std::move(field), std::move(message)};
}

// The catalogue lists each preconstructed deck twice: in "preconstructed_decks"
// and in the cards' "deck" fields (which the engine reads, R14.1). They must
// agree, or a deck would silently differ from the printed list.
std::optional<catalogue_error> check_preconstructed(const json& decks, const catalogue& cat) {
  const std::string field = "preconstructed_decks";
  if (!decks.is_object()) return document_error(field, "must be an object {\"1\": [ids], ...}");
  for (auto it = decks.begin(); it != decks.end(); ++it) {
    const std::string& key = it.key();
    if (key.size() != 1 || key[0] < '1' || key[0] > '4')
      return document_error(field + "." + key, "deck numbers are \"1\" to \"4\"");
    const int deck = key[0] - '0';
    if (!it->is_array()) return document_error(field + "." + key, "must be an array of card ids");
    std::set<std::string> listed;
    for (const json& id : *it) {
      if (!id.is_string()) return document_error(field + "." + key, "must be an array of card ids");
      const auto& name = id.get_ref<const std::string&>();
      const auto found = cat.find(name);
      if (!found)
        return catalogue_error{name, field,
                               "is listed in deck " + key + " but not in the catalogue"};
      if (cat.def(*found).deck != deck)
        return catalogue_error{name, "deck",
                               "is listed in preconstructed deck " + key + " but its deck is " +
                                   std::to_string(cat.def(*found).deck)};
      listed.insert(name);
    }
    for (std::size_t i = 0; i < cat.size(); ++i) {
      const card_def& d = cat.def(static_cast<card_id>(i));
      if (d.deck == deck && !listed.count(d.id))
        return catalogue_error{
            d.id, "deck",
            "is " + key + " but the card is not listed in preconstructed_decks." + key};
    }
  }
  return std::nullopt;
}

std::optional<catalogue_error> load_document(const json& doc, catalogue& into) {
  const json* cards = nullptr;
  if (doc.is_array()) {
    cards = &doc;
  } else if (doc.is_object()) {
    auto it = doc.find("cards");
    if (it == doc.end()) return document_error("cards", "is missing");
    cards = &*it;
    if (!cards->is_array()) return document_error("cards", "must be an array of cards");
  } else {
    return document_error("cards", "a catalogue is an array of cards or an object with \"cards\"");
  }

  // Build on a copy so a bad card leaves `into` untouched (all or nothing).
  catalogue next = into;
  for (std::size_t i = 0; i < cards->size(); ++i) {
    card_result r = card_from_json((*cards)[i], i);
    if (!r.ok()) return r.error;
    if (auto e = next.add(std::move(r.def))) {
      if (e->card.empty() || e->card == "?") e->card = detail::index_name(i);
      return e;
    }
  }
  if (doc.is_object()) {
    if (auto it = doc.find("preconstructed_decks"); it != doc.end())
      if (auto e = check_preconstructed(*it, next)) return e;
  }
  into = std::move(next);
  return std::nullopt;
}

}  // namespace

std::optional<catalogue_error> load_catalogue_json(std::string_view text, catalogue& into) {
  try {
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::parse_error& e) {
      return document_error("json", e.what());
    }
    return load_document(doc, into);
  } catch (const std::exception& e) {
    // A last guard (bad_alloc, a missed type check): nothing escapes the API.
    return document_error("json", e.what());
  }
}

std::optional<catalogue_error> load_catalogue_file(const std::string& path, catalogue& into) {
  try {
    std::ifstream in(path, std::ios::binary);
    if (!in) return document_error("file", "cannot open " + path + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return document_error("file", "cannot read " + path);
    auto e = load_catalogue_json(text.str(), into);
    if (e && e->card.empty() && e->field == "json") e->message = path + ": " + e->message;
    return e;
  } catch (const std::exception& e) {
    return document_error("file", "cannot read " + path + ": " + e.what());
  }
}

}  // namespace cod::protocol
