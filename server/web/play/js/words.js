// What the client tells a person: errors in words, and each event of an
// update as a sentence (the event log). Pure functions of their inputs.

const ERROR_WORDS = {
  // Session errors.
  hello_required: "The client has not said hello to the server yet.",
  unsupported_version: "This server speaks another version of the protocol.",
  duplicate_hello: "The client said hello twice.",
  frame_too_large: "That message was too large for the server.",
  rate_limited: "Too many messages at once: slow down a little.",
  room_not_found: "That room does not exist (any more).",
  room_full: "That room has no free seat, or its match is over.",
  seat_taken: "That seat has just been taken by someone else.",
  no_such_seat: "That room has no such seat.",
  bad_token: "Your seat could not be taken back: the room is gone or the token is no longer valid.",
  already_in_room: "You are already in a room: leave it first.",
  not_in_room: "You are not in a room.",
  not_seated: "You have no seat in this match.",
  spectator_cannot_act: "Spectators cannot play.",
  match_not_started: "The match has not started yet: it waits for every seat.",
  bad_champion_choice: "That Champion cannot be chosen.",
  bad_deck: "That deck is refused.",
  server_busy: "The server is busy: try again in a moment.",
  shutting_down: "The server is shutting down.",
  internal_error: "The server hit an internal error; nothing changed.",
  // Mutation league (docs/protocol.md "league_act").
  not_in_league: "Open your league with your league token first.",
  league_refused: "The league refused that.",
  // Rule errors.
  game_over: "The match is over.",
  not_your_turn: "It is not your turn.",
  card_not_in_hand: "That card is not in your hand.",
  card_not_playable: "Only the 4 leftmost cards of your hand can be played (the Stronghold does not count), fewer while your Blackmail creatures block the rightmost ones.",
  insufficient_mana: "You do not have enough mana for that card.",
  bad_line: "That card cannot go there.",
  bad_target: "That is not a valid target: an incantation targets a creature in play.",
  bad_host: "That creature cannot carry this Symbiote.",
  champion_exhausted: "Your Champion is exhausted: a card of its mana cost must be played first.",
  leaves_only_stronghold: "That play would leave your Stronghold as your only card.",
  line_full: "That side of the line is full.",
  bad_action: "The server did not understand that action.",
  // Draft errors (docs/protocol.md "Formats and drafts").
  not_drafting: "This room is not drafting.",
  stale_action: "The game moved on before your move arrived (a double click?): nothing was done. Choose again.",
  wrong_pick: "Another kind of pick is due now.",
  wrong_count: "Choose exactly as many cards as this pick asks.",
  duplicate_card: "A card is chosen twice.",
  unknown_card: "A card is not in the catalogue.",
  card_not_on_offer: "That card is not on offer (not revealed, already taken, or not in the list being banned from).",
  card_not_in_pool: "That card is not in this draft's pool.",
  draft_over: "The draft is over.",
  ai_seat: "That seat is played by the AI: join a human seat.",
  // Protocol errors.
  bad_json: "The server could not read a message.",
  unknown_type: "The server does not know that request.",
  missing_field: "A required field is missing.",
  unknown_field: "The request has a field the server does not know.",
  bad_field_type: "A field has the wrong type.",
  bad_field_value: "A field has an impossible value.",
  // The client's own.
  connection_lost: "The connection to the server was lost.",
};

const DECK_REASONS = {
  wrong_format: "this room takes preconstructed decks only",
  bad_deck_size: "a deck is exactly 8 cards",
  duplicate_card: "a deck has 8 different cards",
  unknown_card: "a card is not in the catalogue",
  not_a_deck_card: "only creatures and incantations go in a deck",
  not_league_deck: "in a league duel you play your league deck",
};

const CHAMPION_REASONS = {
  champion_required: "this room plays with Champions: choose one",
  champions_off: "this room plays without Champions",
  unknown_card: "no such card",
  not_a_creature: "a Champion is a creature",
  in_deck: "a Champion must be a creature outside your deck",
};

// One sentence (or two) for a refused request: our words for the code, then
// the server's own sentence, which is more precise.
export function errorWords(err) {
  const code = err && err.code;
  let words = ERROR_WORDS[code] || "The server refused that.";
  if (code === "bad_deck" && DECK_REASONS[err.reason]) words = `That deck is refused: ${DECK_REASONS[err.reason]}.`;
  if (code === "bad_champion_choice" && CHAMPION_REASONS[err.reason])
    words = `That Champion is refused: ${CHAMPION_REASONS[err.reason]}.`;
  const detail = err && err.message && err.message !== code ? err.message : "";
  return detail && !words.toLowerCase().includes(detail.toLowerCase()) ? `${words} (${detail})` : words;
}

const REASONS = {
  fort_destroyed: "a Fort was destroyed",
  stronghold_alone: "a Stronghold was left alone in its hand",
  concession: "a player conceded",
  none: "",
};

export function reasonWords(reason) {
  return REASONS[reason] ?? reason;
}

// ctx: {seatName(seat), cardName(uid, card_id), lineName(line)}
export function narrate(ev, ctx) {
  const S = (s) => ctx.seatName(s);
  const C = (field) => ctx.cardName(ev[field], ev[`${field}_id`]);
  const L = (l) => ctx.lineName(l);
  switch (ev.type) {
    case "match_started":
      return `The match starts: ${S(ev.first_seat)} plays first.`;
    case "turn_started":
      return `Turn ${ev.turn} (round ${ev.round}): ${S(ev.seat)}.`;
    case "mana_gained":
      return `${S(ev.seat)} has ${ev.mana} mana.`;
    case "card_played":
      if (ev.target !== undefined && ev.target !== null)
        return `${S(ev.seat)} casts ${C("card")} on ${C("target")} (${ev.mana_paid} mana).`;
      return `${S(ev.seat)} plays ${C("card")} on ${L(ev.line)} (${ev.mana_paid} mana).`;
    case "creature_entered":
      return `${C("card")} enters ${L(ev.line)}.`;
    case "creature_moved":
      // Positions count from 1, as the rulebook's (the wire's from 0).
      return `${C("card")} moves from position ${ev.from + 1} to ${ev.to + 1} on ${L(ev.line)}.`;
    case "attack":
      if (ev.stronghold_of !== undefined && ev.stronghold_of !== null)
        return `${C("attacker")} attacks ${S(ev.stronghold_of)}'s Stronghold.`;
      return `${C("attacker")} attacks ${C("target")}.`;
    case "damage_dealt":
      return `${C("source")} deals ${ev.amount} damage to ${C("target")}.`;
    case "damage_prevented":
      return `${ev.amount} damage from ${C("source")} to ${C("target")} is prevented.`;
    case "creature_destroyed":
      return `${C("card")} (${S(ev.seat)}) is destroyed.`;
    case "card_returned":
      return `${C("card")} returns to ${S(ev.seat)}'s hand.`;
    case "card_removed":
      return `${C("card")} of ${S(ev.seat)} is removed from the game (exhaustion).`;
    case "stronghold_damaged":
      return `${S(ev.seat)}'s Stronghold takes ${ev.amount} damage from ${C("source")}.`;
    case "stronghold_moved":
      return `${S(ev.seat)}'s Stronghold moves from position ${ev.from + 1} to ${ev.to + 1}.`;
    case "stronghold_flipped":
      return `${S(ev.seat)}'s Stronghold turns to its ${ev.side === "fort" ? "Fort" : "Bastion"} side.`;
    case "turn_ended":
      return `${S(ev.seat)} ends the summoning phase.`;
    case "conceded":
      return `${S(ev.seat)} concedes.`;
    case "game_over": {
      const who = (ev.winners || []).map(S).join(" and ") || "nobody";
      return `Game over: ${who} ${ev.winners && ev.winners.length > 1 ? "win" : "wins"} (${reasonWords(ev.reason)}).`;
    }
    case "creature_stacked":
      return `${C("card")} goes on top of ${C("host")} (Symbiote).`;
    case "creature_vanished":
      return `${C("card")} vanishes to the back of ${L(ev.line)}.`;
    case "card_chained":
      return `${C("chainer")} takes ${C("card")} from ${S(ev.from_seat)}'s hand (Chain).`;
    case "hand_reordered":
      return ev.card !== undefined
        ? `${C("card")} moves to the right end of ${S(ev.seat)}'s hand.`
        : `A card moves to the right end of ${S(ev.seat)}'s hand.`;
    case "ability_triggered":
      return `${C("card")}'s ${ev.ability.replace(/_/g, " ")} takes effect.`;
    case "champion_exhausted":
      return `${S(ev.seat)}'s Champion ${C("card")} is exhausted.`;
    case "champion_readied":
      return `${S(ev.seat)}'s Champion ${C("card")} is ready again (${C("by_card")} costs ${ev.mana_cost}).`;
    case "ai_revealed":
      return `${S(ev.seat)} reveals ${C("card")} for ${L(ev.line)} (${ev.deck_size} left in its deck).`;
    case "card_milled":
      return `${S(ev.seat)} discards ${C("card")} from its deck (${ev.deck_size} left).`;
    case "card_discarded":
      return `${C("card")} goes to ${S(ev.seat)}'s discard pile.`;
    case "card_to_deck":
      return `${C("card")} goes on top of ${S(ev.seat)}'s deck (${ev.deck_size} cards).`;
    case "deck_reshuffled":
      return `${S(ev.seat)} shuffles its discard pile into a new deck of ${ev.deck_size} cards.`;
    default:
      return `(${ev.type})`;
  }
}
