// The lobby: the rooms on the server, a form to create one (any mode, format
// and options), and the player's name, deck and Champion used to join.
import { h, clear } from "./dom.js";
import { abilityLabel } from "./catalogue.js";
import { LEAGUE_WORDS } from "./words.js";

// The room modes the server offers (docs/protocol.md create_room), with the
// formats each one takes ("Formats and drafts"); `ai`: the mode has AI seats
// (solo, co-op), preconstructed decks only, a difficulty.
export const MODES = [
  { id: "duel", label: "Duel (2 players)", seats: 2, formats: ["preconstructed", "constructed", "draft", "instant_constructed"] },
  { id: "ffa", label: "Free-for-all (4 players)", seats: 4, formats: ["preconstructed", "constructed", "draft"] },
  { id: "2v2", label: "2 vs 2 (teams 1+3 against 2+4)", seats: 4, formats: ["preconstructed", "constructed", "draft"] },
  { id: "solo", label: "Solo (you against the AI)", seats: 2, ai: true, formats: ["preconstructed", "draft"] },
  { id: "coop", label: "Co-op (2 players against 2 AIs)", seats: 4, ai: true, formats: ["preconstructed", "draft"] },
];

export const FORMATS = {
  preconstructed: "Preconstructed decks",
  constructed: "Constructed decks",
  draft: "Draft (decks drafted in the room)",
  instant_constructed: "Instant constructed (secret lists of 10, then bans)",
};

export function drafted(format) {
  return format === "draft" || format === "instant_constructed";
}

// Custom difficulty (R12.8): the AI's settings and their points.
const AI_ABILITIES = ["sharpening", "aquatic", "berserk", "catalyst", "vanish", "instinct", "perforation", "protection", "rage", "splash", "sprint"];

export function aiPoints(ai, champions = 0) {
  let p = (ai.fixed_mana || 6) - 6;
  if (ai.double_variable) p += 2;
  if (ai.ai_first) p += 1;
  if (ai.resistance) p += 2;
  p += (ai.abilities || []).length;
  return p - 2 * champions;
}

const NAME_KEY = "cod.name";

// The house bot's level (add_bot's level, docs/protocol.md; 1 weakest to 5),
// remembered for the next visit: the lobby's "Play the computer" and the
// waiting room's "Add a bot" pick from the same list.
const BOT_LEVEL_KEY = "cod.botLevel";
export const BOT_LEVELS = [1, 2, 3, 4, 5];
export const DEFAULT_BOT_LEVEL = 3;
export function savedBotLevel() {
  const n = Number(window.localStorage.getItem(BOT_LEVEL_KEY));
  return BOT_LEVELS.includes(n) ? n : DEFAULT_BOT_LEVEL;
}
export function saveBotLevel(level) {
  if (BOT_LEVELS.includes(Number(level))) window.localStorage.setItem(BOT_LEVEL_KEY, String(level));
}
// A <select> of the levels showing the remembered one; a change is remembered
// and shown by every other such list.
export function botLevelSelect(id) {
  const el = h(`select#${id}`, { onchange: () => {
    saveBotLevel(el.value);
    for (const other of document.querySelectorAll("select[data-bot-level]")) other.value = el.value;
  } }, BOT_LEVELS.map((n) => h("option", { value: String(n) }, `Level ${n}${n === 1 ? " (easiest)" : n === 5 ? " (hardest)" : ""}`)));
  el.dataset.botLevel = "";
  el.value = String(savedBotLevel());
  return el;
}

export function seatLabel(seat) {
  return `seat ${seat + 1}`;
}

function optionsText(room, cat) {
  const o = room.options || {};
  const parts = [room.format];
  if (o.exhaustion) parts.push("exhaustion");
  // R17.25 the stall guard, when the room changed its default (40).
  else if (typeof o.stall_exhaustion_turn === "number" && o.stall_exhaustion_turn !== 40)
    parts.push(o.stall_exhaustion_turn ? `exhaustion from turn ${o.stall_exhaustion_turn}` : "no stall guard");
  if (o.turn_clock) {
    const min = Math.round(o.turn_clock.bank_ms / 60000);
    parts.push(`clock ${min} min + ${Math.round((o.turn_clock.increment_ms || 0) / 1000)} s`);
  }
  if (o.champions) parts.push("Champions");
  if (o.share_team_hands) parts.push("shared team hands");
  if (o.packs && o.packs.length) parts.push(`packs: ${o.packs.map((p) => cat.packName(p)).join(", ")}`);
  if (room.mode === "solo" || room.mode === "coop") parts.push(o.difficulty ? `difficulty ${o.difficulty}` : "quick play");
  return parts.join(", ");
}

export class Lobby {
  // actions: {create(req), join(room, seat), spectate(room), refresh(), league()}
  constructor(root, catalogue, actions) {
    this.root = root;
    this.cat = catalogue;
    this.actions = actions;
    this.rooms = [];
    this.account = null;
    this._build();
    this._renderDeckPreview();
  }

  _renderDeckPreview() {
    clear(this.deckPreview);
    const pre = this.deckKind.value.startsWith("pre") ? Number(this.deckKind.value.slice(3)) : 0;
    this.deckPreview.hidden = !pre;
    if (!pre) return;
    for (const id of this.cat.deckCards(pre)) {
      const c = this.cat.card(id);
      if (!c) continue;
      const values = c.type === "incantation" ? `incantation, ${c.av ?? "X"} damage` : `AV ${c.av ?? "X"}, HP ${c.hp}`;
      const abilities = (c.abilities || []).map((a) => abilityLabel(a.ability)).join(", ");
      this.deckPreview.append(h("li", {}, h("strong", {}, c.name || id), ` ${c.mana} mana, ${values}${abilities ? `: ${abilities}` : ""}`));
    }
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
    // 300 creatures: grouped by mana cost, so the list reads in steps.
    const byMana = new Map();
    for (const c of creatures) byMana.set(c.mana, (byMana.get(c.mana) || []).concat([c]));
    this.champion = h("select#champion", {}, h("option", { value: "" }, "(no Champion)"),
      [...byMana.keys()].sort((a, b) => a - b).map((mana) => h("optgroup", { label: `${mana} mana` },
        byMana.get(mana).map((c) => h("option", { value: c.id }, `${c.name || c.id} (${c.av ?? "X"}/${c.hp})`)))));
    // The chosen deck's cards as they play, not only their names.
    this.deckPreview = h("ul#deck-preview.deck-preview", { "aria-live": "polite" });
    this.deckKind.addEventListener("change", () => this._renderDeckPreview());

    this.computerLevel = botLevelSelect("computer-level");

    this.mode = h("select#create-mode", {}, MODES.map((m) => h("option", { value: m.id }, m.label)));
    this.format = h("select#create-format", {},
      Object.entries(FORMATS).map(([id, label]) => h("option", { value: id }, label)));
    // Drafted formats: the packs the pool is made of (none checked: every card).
    this.packs = h("span#opt-packs", {}, this.cat.packs.map((p) =>
      h("label.check", {}, h("input", { type: "checkbox", value: p.id, data: { pack: p.id } }), ` ${this.cat.packName(p.id)} (${this.cat.packSize(p.id)})`)));
    this.exhaustion = h("input#opt-exhaustion", { type: "checkbox" });
    this.champions = h("input#opt-champions", { type: "checkbox" });
    this.shareHands = h("input#opt-share-hands", { type: "checkbox" });
    this.clockOn = h("input#opt-clock", { type: "checkbox" });
    this.clockMin = h("input#opt-clock-min", { type: "number", min: 1, max: 1440, value: 10, size: 4 });
    this.clockInc = h("input#opt-clock-inc", { type: "number", min: 0, max: 3600, value: 5, size: 4 });
    this.packsRow = h("div#packs-row", {}, "Packs of the draft pool (none checked: every card) ", this.packs);
    // Solo and co-op (R12.8): quick play (0) or custom play (1..10), whose
    // AI settings must spend exactly the level's points.
    this.difficulty = h("select#opt-difficulty", {},
      h("option", { value: "0" }, "Quick play (difficulty 0)"),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h("option", { value: String(n) }, `Custom play: difficulty ${n}`)));
    this.aiMana = h("select#opt-ai-mana", {}, [6, 7, 8, 9, 10].map((n) => h("option", { value: String(n) }, `${n} fixed mana (${n - 6} points)`)));
    this.aiDouble = h("input#opt-ai-double", { type: "checkbox" });
    this.aiFirst = h("input#opt-ai-first", { type: "checkbox" });
    this.aiResistance = h("input#opt-ai-resistance", { type: "checkbox" });
    this.aiAbilities = h("span#opt-ai-abilities", {}, AI_ABILITIES.map((a) =>
      h("label.check", {}, h("input", { type: "checkbox", value: a, data: { ability: a } }), ` ${abilityLabel(a)}`)));
    this.aiPointsEl = h("span#opt-ai-points.note");
    this.aiPanel = h("fieldset#ai-settings", {},
      h("legend", {}, "The AI's settings (custom play: spend exactly the difficulty's points)"),
      h("label", {}, "Mana ", this.aiMana),
      h("label.check", {}, this.aiDouble, " +2 mana per human creature instead of +1 (2 points)"),
      h("label.check", {}, this.aiFirst, " The AI plays first (1 point)"),
      h("label.check", {}, this.aiResistance, " Resistance: each attack on the AI deck inflicts only 1 (2 points)"),
      h("div", {}, "Abilities of every AI creature (1 point each): ", this.aiAbilities),
      h("div", {}, this.aiPointsEl));
    const update = () => {
      const mode = MODES.find((m) => m.id === this.mode.value);
      this.shareHands.disabled = mode.id !== "2v2";
      if (this.shareHands.disabled) this.shareHands.checked = false;
      const ai = !!mode.ai;
      this.difficulty.disabled = !ai;
      // The formats this mode takes (R2.1; AI rooms: preconstructed, or the
      // solo and co-op drafts of R14.4 and R14.5).
      for (const o of this.format.options) o.disabled = !mode.formats.includes(o.value);
      if (!mode.formats.includes(this.format.value)) this.format.value = mode.formats[0];
      const isDraft = drafted(this.format.value);
      for (const box of this.packs.querySelectorAll("input")) box.disabled = !isDraft;
      this.packsRow.hidden = !isDraft;
      // No Champions in quick play (R13.1; drafted decks take them, RULING E67).
      const custom = ai && this.difficulty.value !== "0";
      this.champions.disabled = ai && !custom;
      if (this.champions.disabled) this.champions.checked = false;
      this.aiPanel.hidden = !custom;
      const champions = this.champions.checked ? (mode.id === "coop" ? 2 : 1) : 0;
      const spent = aiPoints(this._aiSettings(), champions);
      this.aiPointsEl.textContent = custom
        ? `These settings spend ${spent} point${spent === 1 ? "" : "s"}${champions ? ` (${champions} Champion${champions > 1 ? "s" : ""} give${champions > 1 ? "" : "s"} ${2 * champions} back)` : ""}; difficulty ${this.difficulty.value} needs ${this.difficulty.value}.`
        : "";
      this.aiPointsEl.className = custom && spent !== Number(this.difficulty.value) ? "note bad" : "note";
    };
    for (const el of [this.mode, this.format, this.difficulty, this.champions, this.aiPanel]) el.addEventListener("change", update);
    update();

    this.list = h("tbody#room-list");
    // A mutation league (R15): the organiser's token opens the league screen.
    this.leagueTokenInput = h("input#league-token", { type: "password", autocomplete: "off", spellcheck: "false", size: 36, maxlength: 64 });
    // The landing (app.js puts it first): what the game is, and one big
    // Play, the common path in one click (a solo game, quick play, the
    // deck chosen below; the first one guided).
    this.landing = h("section#landing", { "aria-labelledby": "landing-title" },
      h("h2#landing-title", {}, "Eight cards, two lines, one Stronghold"),
      h("p", {}, "Clash of Decks is a card duel where your hand is your life: each card right of your Stronghold is one health, and playing it costs that health. Summon creatures on two lines; they strike across the Bridge. Bring the other Stronghold down to win."),
      h("button#play-ai.play-big", { onclick: () => this._playAi() }, "Play", h("span", {}, " against the AI now")),
      h("p.landing-note", {}, "Your first game shows each step. Other ways to play are below."));
    this.root.append(
      this.landing,
      h("section.panel#player-panel", {},
        h("h2", {}, "You"),
        h("label", {}, "Name ", this.nameInput),
        h("label", {}, "Deck ", this.deckKind),
        this.deckPreview,
        h("label", {}, "Your 8 cards (a constructed deck) ", this.deckCards),
        // A duel against the server's searching bot (add_bot) at a level.
        h("div.play-computer", {},
          h("button#play-computer", { onclick: () => this._playComputer() }, "Play the computer"), " ",
          h("label", {}, "Computer's level ", this.computerLevel)),
        h("label", {}, "Champion (rooms with Champions) ", this.champion)),
      h("section.panel#league-panel", {},
        h("h2", {}, LEAGUE_WORDS.lobbyTitle),
        h("p.note", {}, LEAGUE_WORDS.lobbyHelp),
        h("form#league-form", { onsubmit: (e) => { e.preventDefault(); this.actions.league(); } },
          h("label", {}, LEAGUE_WORDS.tokenLabel, this.leagueTokenInput), " ",
          h("button#league-open", { type: "submit" }, LEAGUE_WORDS.open))),
      h("section.panel#create-panel", {},
        h("h2", {}, "New room"),
        h("label", {}, "Mode ", this.mode),
        h("label", {}, "Format ", this.format),
        this.packsRow,
        h("label.check", {}, this.exhaustion, " Exhaustion rule"),
        h("label.check", {}, this.champions, " Champions"),
        h("label.check", {}, this.shareHands, " Teammates share their hands (2v2)"),
        h("label", {}, "Against the AI (solo, co-op) ", this.difficulty),
        this.aiPanel,
        h("label.check", {}, this.clockOn, " Turn clock: ", this.clockMin, " min bank + ", this.clockInc, " s a turn"),
        h("button#create-room", { onclick: () => this._create() }, "Create the room and join it")),
      h("section.panel#rooms-panel", {},
        h("h2", {}, "Rooms ", h("button#refresh-rooms.small", { onclick: () => this.actions.refresh() }, "Refresh")),
        h("table.rooms", {},
          h("thead", {}, h("tr", {}, ["Room", "Mode", "Options", "Status", "Seats", "Watching"].map((t) => h("th", {}, t)),
            h("th", {}, h("span.visually-hidden", {}, "Join or watch")))),
          this.list)));
  }

  // The league token typed in; throws an Error with words when it cannot be one.
  leagueToken() {
    const token = this.leagueTokenInput.value.trim().toLowerCase();
    // "ID.HEX" (a token that names its league) or, from older leagues, HEX alone.
    if (!/^([a-z0-9_-]{1,32}\.)?[0-9a-f]{32}$/.test(token)) throw new Error(LEAGUE_WORDS.badToken);
    return token;
  }

  // Signed in (docs/protocol.md "Playing signed in"): a join takes the
  // account's name, so the name field shows it and cannot be changed.
  setAccount(account) {
    this.account = account;
    this.nameInput.readOnly = !!account;
    this.nameInput.value = account ? account.name : window.localStorage.getItem(NAME_KEY) || "";
    this.nameInput.title = account ? "Your account's name (sign out to play under another)" : "";
  }

  // The join request's player fields; throws an Error with words when
  // incomplete. Signed in, no name: the server takes the account's.
  playerFields(room) {
    const name = this.account ? this.account.name : this.nameInput.value.trim();
    if (!name) throw new Error("Enter your name first.");
    if (!this.account) window.localStorage.setItem(NAME_KEY, name);
    const fields = this.account ? {} : { name };
    if (room && drafted(room.format)) {
      // no deck: the draft deals it
    } else if (this.deckKind.value === "cards") {
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

  // One click to a game: a name if none was given, a preconstructed deck
  // (solo plays those), quick play.
  _playAi() {
    if (!this.nameInput.value.trim()) this.nameInput.value = "Player";
    if (this.deckKind.value === "cards") this.deckKind.value = "pre1";
    this.actions.create({ mode: "solo", format: "preconstructed", options: {} }, { quick: true });
  }

  // One click to a duel against the house bot at the chosen level: a room
  // created, joined, its other seat given to the bot (the match starts).
  _playComputer() {
    if (!this.nameInput.value.trim()) this.nameInput.value = "Player";
    if (this.deckKind.value === "cards") this.deckKind.value = "pre1";
    const level = Number(this.computerLevel.value);
    saveBotLevel(level);
    this.actions.create({ mode: "duel", format: "preconstructed", options: {} }, { bot: level });
  }

  _create() {
    const options = {};
    if (this.exhaustion.checked) options.exhaustion = true;
    if (this.champions.checked) options.champions = true;
    if (this.shareHands.checked) options.share_team_hands = true;
    if (!this.difficulty.disabled) options.difficulty = Number(this.difficulty.value);
    if (options.difficulty) options.ai = this._aiSettings();
    const packs = [...this.packs.querySelectorAll("input:checked")].map((b) => b.value);
    if (drafted(this.format.value) && packs.length) options.packs = packs;
    if (this.clockOn.checked) {
      options.turn_clock = {
        bank_ms: Math.round(Number(this.clockMin.value) * 60000),
        increment_ms: Math.round(Number(this.clockInc.value) * 1000),
      };
    }
    this.actions.create({ mode: this.mode.value, format: this.format.value, options });
  }

  // The AI's settings as create_room's options.ai, defaults left out.
  _aiSettings() {
    const ai = {};
    if (this.aiMana.value !== "6") ai.fixed_mana = Number(this.aiMana.value);
    if (this.aiDouble.checked) ai.double_variable = true;
    if (this.aiFirst.checked) ai.ai_first = true;
    if (this.aiResistance.checked) ai.resistance = true;
    const abilities = [...this.aiAbilities.querySelectorAll("input:checked")].map((b) => b.value);
    if (abilities.length) ai.abilities = abilities;
    return ai;
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
        h("td.room-id", {}, r.room), h("td", {}, r.mode), h("td", {}, optionsText(r, this.cat)), h("td", {}, r.status),
        h("td.seats", {}, seats), h("td", {}, String(r.spectators)), h("td", {}, buttons)));
    }
  }
}
