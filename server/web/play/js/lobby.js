// The lobby: the rooms on the server, a form to create one (any mode, format
// and options), and the player's name, deck and Champion used to join.
import { h, clear } from "./dom.js";

// The room modes the server offers (docs/protocol.md create_room); `ai`: the
// mode has AI seats (solo, co-op), preconstructed decks only, a difficulty.
export const MODES = [
  { id: "duel", label: "Duel (2 players)", seats: 2 },
  { id: "ffa", label: "Free-for-all (4 players)", seats: 4 },
  { id: "2v2", label: "2 vs 2 (teams 1+3 against 2+4)", seats: 4 },
  { id: "solo", label: "Solo (you against the AI)", seats: 2, ai: true },
  { id: "coop", label: "Co-op (2 players against 2 AIs)", seats: 4, ai: true },
];

const NAME_KEY = "cod.name";

export function seatLabel(seat) {
  return `seat ${seat + 1}`;
}

function optionsText(room) {
  const o = room.options || {};
  const parts = [room.format];
  if (o.exhaustion) parts.push("exhaustion");
  if (o.turn_clock) {
    const min = Math.round(o.turn_clock.bank_ms / 60000);
    parts.push(`clock ${min} min + ${Math.round((o.turn_clock.increment_ms || 0) / 1000)} s`);
  }
  if (o.champions) parts.push("Champions");
  if (o.share_team_hands) parts.push("shared team hands");
  if (room.mode === "solo" || room.mode === "coop") parts.push(o.difficulty ? `difficulty ${o.difficulty}` : "quick play");
  return parts.join(", ");
}

export class Lobby {
  // actions: {create(req), join(room, seat), spectate(room), refresh()}
  constructor(root, catalogue, actions) {
    this.root = root;
    this.cat = catalogue;
    this.actions = actions;
    this.rooms = [];
    this._build();
  }

  _build() {
    const creatures = this.cat.creatures().sort((a, b) => (a.name || a.id).localeCompare(b.name || b.id));
    this.nameInput = h("input#player-name", {
      type: "text", maxlength: 32, placeholder: "your name",
      value: window.localStorage.getItem(NAME_KEY) || "",
    });
    this.deckKind = h("select#deck-kind", {},
      [1, 2, 3, 4].map((n) => h("option", { value: `pre${n}` }, `Preconstructed deck ${n}: ${this.cat.deckCards(n).map((id) => this.cat.name(id)).join(", ")}`)),
      h("option", { value: "cards" }, "Constructed: my own 8 cards"));
    this.deckCards = h("input#deck-cards", {
      type: "text", placeholder: "8 card ids, comma separated (e.g. baron, brute, carapace, ...)",
    });
    this.champion = h("select#champion", {}, h("option", { value: "" }, "(no Champion)"),
      creatures.map((c) => h("option", { value: c.id }, `${c.name || c.id} (${c.mana} mana, ${c.av}/${c.hp})`)));

    this.mode = h("select#create-mode", {}, MODES.map((m) => h("option", { value: m.id }, m.label)));
    this.format = h("select#create-format", {},
      h("option", { value: "preconstructed" }, "Preconstructed decks"),
      h("option", { value: "constructed" }, "Constructed decks"));
    this.exhaustion = h("input#opt-exhaustion", { type: "checkbox" });
    this.champions = h("input#opt-champions", { type: "checkbox" });
    this.shareHands = h("input#opt-share-hands", { type: "checkbox" });
    this.clockOn = h("input#opt-clock", { type: "checkbox" });
    this.clockMin = h("input#opt-clock-min", { type: "number", min: 1, max: 1440, value: 10, size: 4 });
    this.clockInc = h("input#opt-clock-inc", { type: "number", min: 0, max: 3600, value: 5, size: 4 });
    // Solo and co-op: quick play (difficulty 0) only from this form; custom
    // play (1..10) needs the AI's settings, which this form does not offer.
    this.difficulty = h("select#opt-difficulty", {}, h("option", { value: "0" }, "Quick play (difficulty 0)"));
    const updateShare = () => {
      this.shareHands.disabled = this.mode.value !== "2v2";
      if (this.shareHands.disabled) this.shareHands.checked = false;
      const ai = MODES.find((m) => m.id === this.mode.value).ai;
      this.difficulty.disabled = !ai;
      // AI rooms: preconstructed decks, and no Champions in quick play (R2.1, R13.1).
      for (const o of this.format.options) if (o.value === "constructed") o.disabled = !!ai;
      if (ai) this.format.value = "preconstructed";
      this.champions.disabled = !!ai;
      if (ai) this.champions.checked = false;
    };
    this.mode.addEventListener("change", updateShare);
    updateShare();

    this.list = h("tbody#room-list");
    this.root.append(
      h("section.panel#player-panel", {},
        h("h2", {}, "You"),
        h("label", {}, "Name ", this.nameInput),
        h("label", {}, "Deck ", this.deckKind),
        h("label", {}, this.deckCards),
        h("label", {}, "Champion (rooms with Champions) ", this.champion)),
      h("section.panel#create-panel", {},
        h("h2", {}, "New room"),
        h("label", {}, "Mode ", this.mode),
        h("label", {}, "Format ", this.format),
        h("label.check", {}, this.exhaustion, " Exhaustion rule"),
        h("label.check", {}, this.champions, " Champions"),
        h("label.check", {}, this.shareHands, " Teammates share their hands (2v2)"),
        h("label", {}, "Against the AI (solo, co-op) ", this.difficulty),
        h("label.check", {}, this.clockOn, " Turn clock: ", this.clockMin, " min bank + ", this.clockInc, " s a turn"),
        h("button#create-room", { onclick: () => this._create() }, "Create the room and join it")),
      h("section.panel#rooms-panel", {},
        h("h2", {}, "Rooms ", h("button#refresh-rooms.small", { onclick: () => this.actions.refresh() }, "Refresh")),
        h("table.rooms", {},
          h("thead", {}, h("tr", {}, ["Room", "Mode", "Options", "Status", "Seats", "Watching", ""].map((t) => h("th", {}, t)))),
          this.list)));
  }

  // The join request's player fields; throws an Error with words when incomplete.
  playerFields(room) {
    const name = this.nameInput.value.trim();
    if (!name) throw new Error("Enter your name first.");
    window.localStorage.setItem(NAME_KEY, name);
    const fields = { name };
    if (this.deckKind.value === "cards") {
      const cards = this.deckCards.value.split(/[\s,]+/).filter(Boolean);
      fields.deck = { cards };
    } else {
      fields.deck = { preconstructed: Number(this.deckKind.value.slice(3)) };
    }
    if (room && room.options && room.options.champions) {
      if (!this.champion.value) throw new Error("This room plays with Champions: choose yours first.");
      fields.champion = this.champion.value;
    }
    return fields;
  }

  _create() {
    const options = {};
    if (this.exhaustion.checked) options.exhaustion = true;
    if (this.champions.checked) options.champions = true;
    if (this.shareHands.checked) options.share_team_hands = true;
    if (!this.difficulty.disabled) options.difficulty = Number(this.difficulty.value);
    if (this.clockOn.checked) {
      options.turn_clock = {
        bank_ms: Math.round(Number(this.clockMin.value) * 60000),
        increment_ms: Math.round(Number(this.clockInc.value) * 1000),
      };
    }
    this.actions.create({ mode: this.mode.value, format: this.format.value, options });
  }

  setRooms(rooms) {
    this.rooms = rooms;
    clear(this.list);
    if (!rooms.length) {
      this.list.append(h("tr", {}, h("td.empty", { colspan: 7 }, "No rooms yet: create one.")));
      return;
    }
    for (const r of rooms) {
      const free = r.seats.filter((s) => !s.taken);
      const seats = r.seats.map((s) =>
        h("span.seat" + (s.ai ? ".ai" : s.taken ? ".taken" : ".free") + (s.taken && !s.connected ? ".away" : ""), {},
          s.ai ? `${seatLabel(s.seat)}: AI` : s.taken ? s.name : `${seatLabel(s.seat)} free`));
      const buttons = [];
      if (r.status === "waiting" && free.length) {
        buttons.push(h("button.join", { data: { room: r.room }, onclick: () => this.actions.join(r) }, "Join"));
      }
      buttons.push(h("button.watch", { data: { room: r.room }, onclick: () => this.actions.spectate(r) }, "Watch"));
      this.list.append(h("tr", { data: { room: r.room, status: r.status } },
        h("td.room-id", {}, r.room), h("td", {}, r.mode), h("td", {}, optionsText(r)), h("td", {}, r.status),
        h("td.seats", {}, seats), h("td", {}, String(r.spectators)), h("td", {}, buttons)));
    }
  }
}
