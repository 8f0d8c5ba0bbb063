// Worlds a seat's view could be (docs/ai.md, "Determinization"): the view's
// public state with the hands it cannot see dealt from the cards nobody has
// shown it, consistently with the deck lists and the hands' sizes.
#pragma once

#include <array>
#include <vector>

#include "cod/engine/match.hpp"
#include "cod/engine/rng.hpp"
#include "cod/search/player.hpp"

namespace cod::search::detail {

class world_sampler {
 public:
  // Works out once what is hidden from `v.viewer`: which seats' hands, how
  // many cards each, which uids and which cards (by deck of origin).
  world_sampler(const catalogue& cat, const seat_view& v, const table& t);

  // False when the view cannot be made into a world (a mode without search,
  // a view that is not a seat's): sample() is then not to be called.
  bool ok() const { return ok_; }

  // A fresh world: the unseen cards dealt at random to the hidden hands
  // (each seat's own deck's cards to its own hand first, R1.2), each hidden
  // hand in random order, and a world generator seeded from `r`.
  bool sample(rng& r, match& out);

 private:
  const catalogue* cat_;
  const seat_view* view_;
  bool ok_ = false;
  std::array<std::vector<card_ref>, max_seats> hands_{};  // the known hands; hidden ones refilled per sample
  std::array<int, max_seats> hidden_slots_{};             // cards to deal to each hidden hand
  std::vector<card_uid> hidden_uids_;                      // the uids no view shows, ascending
  std::array<std::vector<card_id>, max_seats> unseen_{};  // each deck's cards nobody has seen, by seat of origin
};

}  // namespace cod::search::detail
