// The players' pages (loaded on first use, not on the first visit): a
// player's profile (#/players/NAME: ratings per ladder, recent matches with
// their result and rating change, the rating history) and the ladders
// (#/ladder/LADDER?offset=N: ranked, paged). They read the players' API
// (GET /api/players/{name}, GET /api/ladder/{ladder}); a 404 (no such
// player, or a server without those routes yet) is said in words, no error.
import { h, clear } from "./dom.js";
import { api } from "./account.js";
import { PLAYERS_WORDS as P, LADDER_WORDS, MODE_WORDS, ratingWords } from "./words.js";

export const LADDERS = ["duel", "ffa", "2v2"];
const PAGE = 20;

function when(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function signed(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "";
  const d = Math.round(Number(n));
  return d > 0 ? `+${d}` : d < 0 ? `−${Math.abs(d)}` : "±0";
}

function table(caption, cols, rows) {
  return h("div.table-scroll", { tabindex: "0", role: "region", "aria-label": caption },
    h("table.players", {},
      h("caption.visually-hidden", {}, caption),
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows)));
}

function playerLink(name) {
  return h("a", { href: `#/players/${encodeURIComponent(name)}` }, name);
}

export class PlayersScreen {
  // actions: {back()}
  constructor(root, actions) {
    this.root = root;
    this.actions = actions;
    this.route = null;
  }

  // route: {kind: "player", name} | {kind: "ladder", ladder, offset}
  async show(route) {
    this.route = route;
    const body = h("div#players-body", { "aria-live": "polite" }, h("p.note", {}, P.loading));
    clear(this.root).append(
      h("nav.players-nav", { "aria-label": "Players" },
        h("button#players-back", { type: "button", onclick: () => this.actions.back() }, P.back)),
      body);
    try {
      if (route.kind === "player") await this._player(route.name, body);
      else await this._ladder(route.ladder, route.offset, body);
    } catch (e) {
      if (this.route !== route) return;
      clear(body).append(h("p.note#players-missing", {}, e.status === 404
        ? (route.kind === "player" ? P.noPlayer(route.name) : P.noLadder) : P.failed));
    }
    const title = this.root.querySelector("h2");
    if (title && this.route === route) {
      title.tabIndex = -1;
      title.focus();
    }
  }

  async _player(name, body) {
    const r = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    if (this.route === null || this.route.name !== name) return;
    const p = r.player || { name };
    const ratings = r.ratings || [];
    const matches = r.matches || [];
    const history = r.history || [];
    const ratingRows = ratings.map((x) => h("tr", { data: { ladder: x.ladder } },
      h("td", {}, h("a", { href: `#/ladder/${encodeURIComponent(x.ladder)}` }, LADDER_WORDS[x.ladder] || x.ladder)),
      h("td.num", {}, ratingWords(x.rating, null, x.provisional)),
      h("td.num", {}, String(x.games ?? "")),
      h("td.num", {}, `${x.wins ?? 0}–${x.losses ?? 0}`)));
    const matchRows = matches.map((m) => h("tr", { data: { match: m.match_id } },
      h("td", {}, when(m.ended_ms)),
      h("td", {}, MODE_WORDS[m.mode] || m.mode || ""),
      h("td", {}, P.results[m.result] || m.result || ""),
      h("td.num", {}, signed(m.rating_change))));
    const historyRows = history.map((c) => h("tr", { data: { match: c.match_id } },
      h("td", {}, when(c.ended_ms)),
      h("td", {}, LADDER_WORDS[c.ladder] || c.ladder),
      h("td.num", {}, String(Math.round(c.before))),
      h("td.num", {}, String(Math.round(c.after))),
      h("td.num", {}, signed(c.delta)),
      h("td", {}, P.results[c.result] || c.result || "")));
    const C = P.cols;
    clear(body).append(
      h("section.panel#profile", { "aria-labelledby": "profile-title" },
        h("h2#profile-title", {}, P.profileTitle(p.name), p.guest ? ` ${P.guest}` : ""),
        h("h3", {}, P.ratings),
        ratings.length ? table(P.ratings, [C.ladder, C.rating, C.games, C.record], ratingRows) : h("p.note", {}, P.noRatings),
        ratings.some((x) => x.provisional) ? h("p.note", {}, P.provisionalNote) : null,
        h("h3", {}, P.matches),
        matches.length ? table(P.matches, [C.when, C.mode, C.result, C.change], matchRows) : h("p.note", {}, P.noMatches),
        h("h3", {}, P.history),
        history.length ? table(P.history, [C.when, C.ladder, C.before, C.after, C.change, C.result], historyRows) : h("p.note", {}, P.noHistory)));
  }

  async _ladder(ladder, offset, body) {
    const tabs = h("nav.ladder-tabs", { "aria-label": P.ladderTitle },
      LADDERS.map((l) => h("a.tab", { href: `#/ladder/${l}`, "aria-current": l === ladder ? "page" : undefined, data: { ladder: l } }, LADDER_WORDS[l])));
    clear(body).append(h("section.panel#ladder", { "aria-labelledby": "ladder-title" },
      h("h2#ladder-title", {}, `${P.ladderTitle}: ${LADDER_WORDS[ladder] || ladder}`), tabs, h("p.note", {}, P.loading)));
    const r = await api("GET", `/api/ladder/${encodeURIComponent(ladder)}?offset=${offset}&limit=${PAGE}`);
    if (this.route === null || this.route.ladder !== ladder || this.route.offset !== offset) return;
    const players = r.players || [];
    const C = P.cols;
    const rows = players.map((p) => h("tr", { data: { name: p.name } },
      h("td.num", {}, String(p.rank)),
      h("td", {}, playerLink(p.name)),
      h("td.num", {}, String(Math.round(p.rating))),
      h("td.num", {}, String(p.games ?? "")),
      h("td.num", {}, `${p.wins ?? 0}–${p.losses ?? 0}`)));
    const prev = offset > 0 ? Math.max(0, offset - PAGE) : null;
    const next = r.next_offset ?? null;
    const section = body.querySelector("#ladder");
    section.lastChild.remove();
    section.append(
      h("p.note", {}, P.ladderHelp),
      players.length ? table(P.ladderTitle, [C.rank, C.name, C.rating, C.games, C.record], rows) : h("p.note", {}, P.empty),
      h("div.buttons.pager", {},
        prev !== null ? h("a#ladder-prev.button-link", { href: `#/ladder/${ladder}?offset=${prev}` }, P.prev) : null,
        next !== null ? h("a#ladder-next.button-link", { href: `#/ladder/${ladder}?offset=${next}` }, P.next) : null));
  }
}

// The route a location hash names, or null (the lobby).
export function routeOf(hash) {
  const m = /^#\/players\/(.+)$/.exec(hash);
  if (m) {
    let name;
    try {
      name = decodeURIComponent(m[1]);
    } catch {
      name = m[1];
    }
    return { kind: "player", name };
  }
  const l = /^#\/ladder(?:\/([^?]*))?(?:\?offset=(\d+))?$/.exec(hash);
  if (l) return { kind: "ladder", ladder: LADDERS.includes(l[1]) ? l[1] : "duel", offset: Number(l[2] || 0) };
  return null;
}
