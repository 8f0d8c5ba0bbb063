// The admin page: search matches, open one's log, step through its replay
// (the referee view after each action, drawn by the game screen's board),
// and run verify; list the mutation leagues and show one (standings,
// schedule, its duels' rooms and matches, its export). Talks to the admin
// HTTP API through api.js.
import { AdminApi, adminErrorWords } from "./api.js";
import { Catalogue } from "/play/js/catalogue.js";
import { GameScreen } from "/play/js/game.js";
import { h, clear } from "/play/js/dom.js";
import { reasonWords } from "/play/js/words.js";

const $ = (s) => document.querySelector(s);
const TOKEN_KEY = "cod.admin_token";
const state = { api: null, cat: null, match: null, step: 0, steps: 0, board: null, next: null, params: null, texts: null, league: null };

function showError(text, code = "") {
  const el = $("#error");
  el.hidden = false;
  el.dataset.code = code;
  clear(el).append(h("span.text", {}, text), " ", h("button.small", { onclick: () => { el.hidden = true; } }, "Dismiss"));
}

function refused(e) {
  showError(e.code ? adminErrorWords(e) : String(e.message || e), e.code || "");
}

function api() {
  const token = $("#admin-token").value.trim();
  window.sessionStorage.setItem(TOKEN_KEY, token);
  return new AdminApi(token);
}

// A seat as people know it: its player's name, else "seat N" from 1.
function seatName(record, seat) {
  const s = record.seats.find((x) => x.seat === seat);
  return s && s.name ? s.name : `seat ${seat + 1}`;
}

function fmtTime(ms) {
  return ms ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) : "";
}

async function search(more = false) {
  $("#error").hidden = true;
  const params = more ? { ...state.params, before: state.next } : Object.fromEntries(new FormData($("#search-form")));
  if (!more) state.params = params;
  let r;
  try {
    r = await api().search(params);
  } catch (e) {
    return refused(e);
  }
  const body = $("#matches");
  if (!more) clear(body);
  for (const m of r.matches) {
    const players = m.players.map((p) => `${p.seat + 1}: ${p.name}`).join(", ");
    const name = (seat) => (m.players.find((p) => p.seat === seat) || { name: `seat ${seat + 1}` }).name;
    const result = m.result ? `${m.result.winners.map(name).join(" & ") || "nobody"} won (${reasonWords(m.result.reason)})` : "";
    // A row opens its match by click, or by Enter or Space once focused (Tab).
    body.append(h("tr", { data: { match: m.match_id }, tabindex: "0", "aria-label": `Open match ${m.match_id}: ${players}`,
      onclick: () => openMatch(m.match_id), onkeydown: (e) => activate(e, () => openMatch(m.match_id)) },
      h("td", {}, m.match_id), h("td", {}, m.mode), h("td", {}, m.status), h("td", {}, players),
      h("td", {}, String(m.actions)), h("td", {}, result), h("td", {}, fmtTime(m.created_ms))));
  }
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 7 }, "No match found.")));
  state.next = r.next || null;
  $("#more").hidden = !state.next;
}

// Enter or Space on a focused row does what a click does.
function activate(e, f) {
  if (e.key !== "Enter" && e.key !== " ") return;
  e.preventDefault();
  f();
}

async function openMatch(id) {
  $("#error").hidden = true;
  let record, log;
  try {
    [record, log] = await Promise.all([api().match(id), api().log(id)]);
  } catch (e) {
    return refused(e);
  }
  state.match = record;
  state.steps = record.actions;
  $("#match-panel").hidden = false;
  $("#match-id").textContent = id;
  clear($("#verify-result"));
  const rec = $("#match-record");
  clear(rec).append(
    h("div", {}, `${record.mode}, ${record.format}; engine ${record.engine_version}; created ${fmtTime(record.created_ms)}; ${record.status}`),
    h("div", {}, "Seats: ", record.seats.map((s) => `${s.seat + 1}: ${s.name}`).join(", ")),
    h("div", {}, record.result ? `Result: ${record.result.winners.map((w) => seatName(record, w)).join(" & ") || "nobody"} won (${reasonWords(record.result.reason)})` : "No result yet."),
    h("div.note", {}, `Seed ${record.seed ?? "(secret while the match is played)"}; commitment ${record.seed_hash}`));
  const ol = $("#match-log");
  clear(ol);
  state.texts = log.entries.map((e) => e.text);
  for (const e of log.entries) {
    ol.append(h("li", { data: { seq: e.seq }, tabindex: "0", onclick: () => showStep(e.seq),
      onkeydown: (ev) => activate(ev, () => showStep(e.seq)) },
      e.text, e.effects && e.effects.length ? h("ul.effects", {}, e.effects.map((x) => h("li", {}, typeof x === "string" ? x : x.text || JSON.stringify(x)))) : null));
  }
  if (log.complete === false) ol.append(h("li.check-bad", {}, `Replay stopped: ${log.error}`));
  await showStep(0);
}

async function showStep(step) {
  if (!state.match) return;
  step = Math.max(0, Math.min(step, state.steps));
  let r;
  try {
    r = await api().state(state.match.match_id, step);
  } catch (e) {
    return refused(e);
  }
  state.step = step;
  $("#step-label").textContent = `after action ${step} of ${state.steps}`;
  // The action in words, as the log tells it (its JSON is in the raw log).
  const told = state.texts && state.texts[step];
  $("#step-action").textContent = r.action ? `Action ${step}: ${told || `${seatName(state.match, r.seat)}: ${JSON.stringify(r.action)}`}` : "The setup.";
  for (const li of $("#match-log").children) li.classList.toggle("current", Number(li.dataset.seq) === step);
  if (!state.board) {
    state.board = new GameScreen($("#replay-board"), state.cat, { act: () => {}, leave: () => {}, tabTitle: false, motion: false });
  }
  // Names by seat number (the record's seats need not be in order, nor all there).
  const names = [];
  for (const s of state.match.seats) names[s.seat] = s.name;
  state.board.setRoomInfo(state.match.room_id, names, null);
  state.board.setState({ view: r.view, seq: step, room: state.match.room_id });
}

async function verify() {
  if (!state.match) return;
  let r;
  try {
    r = await api().verify(state.match.match_id);
  } catch (e) {
    return refused(e);
  }
  const el = $("#verify-result");
  clear(el).append(
    h("div", { class: r.ok ? "check-ok" : "check-bad" }, r.ok ? `Verified: every check passed (${r.replayed} actions replayed).` : "Verification FAILED."),
    h("ul", {}, r.checks.map((c) => h("li", { class: c.ok ? "check-ok" : "check-bad" }, `${c.ok ? "ok" : "FAILED"} — ${c.name}: ${c.detail}`))));
}

// ---- mutation leagues (R15; docs/league.md) ----

async function listLeagues() {
  $("#error").hidden = true;
  let r;
  try {
    r = await api().leagues();
  } catch (e) {
    return refused(e);
  }
  const body = clear($("#leagues"));
  for (const l of r.leagues) {
    body.append(h("tr", { data: { league: l.league }, tabindex: "0", "aria-label": `Open league ${l.name} (${l.league})`,
      onclick: () => openLeague(l.league), onkeydown: (e) => activate(e, () => openLeague(l.league)) },
      h("td", {}, l.league), h("td", {}, l.name), h("td", {}, l.stage), h("td", {}, l.round ? `${l.round} of 6` : "—"),
      h("td", {}, l.players.join(", ")), h("td", {}, fmtTime(l.created_ms))));
  }
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 6 }, "No league on this server.")));
}

async function openLeague(id) {
  $("#error").hidden = true;
  let v;
  try {
    v = await api().league(id);
  } catch (e) {
    return refused(e);
  }
  state.league = id;
  $("#league-view").hidden = false;
  $("#league-view").dataset.league = id;
  $("#league-view").dataset.stage = v.stage;
  $("#league-view-id").textContent = `${v.name} (${id})`;
  $("#league-export").href = api().leagueExportPath(id);
  const names = [];
  for (const p of v.players) names[p.seat] = p.name;
  clear($("#league-summary")).append(
    h("div", {}, `Stage: ${v.stage}${v.round ? `, round ${v.round} of 6` : ""}; packs ${v.packs.join(" and ")}` +
      `${v.exhaustion ? "; exhaustion rule" : ""}${v.turn_clock ? `; turn clock ${Math.round(v.turn_clock.bank_ms / 60000)} min + ${Math.round(v.turn_clock.increment_ms / 1000)} s` : ""}` +
      `; phase clock ${v.phase_clock_sec ? `${v.phase_clock_sec} s` : "none"}; created ${fmtTime(v.created_ms)}`),
    ...(v.draft ? [h("div", {}, `Draft: pick ${v.draft.pick} of 16; cards kept: ${v.draft.taken_counts.map((n, s) => `${names[s]} ${n}`).join(", ")}`)] : []));
  const st = clear($("#league-view-standings"));
  for (const p of v.players) {
    st.append(h("tr", { data: { seat: p.seat } }, h("td", {}, String(p.place)), h("td", {}, p.name), h("td", {}, String(p.seat + 1)),
      h("td", {}, String(p.played)), h("td", {}, String(p.won)),
      h("td", {}, p.has_deck ? (v.stage === "mutating" ? (p.phase_done ? "chosen; mutated or passed" : "chosen; mutating") : "chosen") : "not yet")));
  }
  const sc = clear($("#league-view-schedule"));
  for (const r of v.schedule) {
    sc.append(h("tr", { data: { round: r.round }, class: r.round === v.round ? "current" : undefined }, h("td", {}, String(r.round)),
      r.tables.map((t) => h("td", { data: { table: t.table } }, `${names[t.seats[0]]} – ${names[t.seats[1]]}` +
        (t.decided ? `: ${t.winner === null ? "nobody won" : `${names[t.winner]} won`}` : "")))));
  }
  const gm = clear($("#league-view-games"));
  for (const g of v.games) {
    gm.append(h("tr", { data: { round: g.round, table: g.table } }, h("td", {}, String(g.round)), h("td", {}, String(g.table + 1)),
      h("td", {}, g.room),
      h("td", {}, g.match ? h("button.small.open-match", { data: { match: g.match }, onclick: () => openMatch(g.match) }, g.match) : "not started")));
  }
  if (!gm.children.length) gm.append(h("tr", {}, h("td", { colspan: 4 }, "No duel room yet.")));
}

// The export needs the bearer token: fetched, then saved as a file.
async function downloadExport(e) {
  e.preventDefault();
  if (!state.league) return;
  let body;
  try {
    body = await api().leagueExport(state.league);
  } catch (err) {
    return refused(err);
  }
  const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }));
  const a = h("a", { href: url, download: `league-${state.league}-export.json` });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function main() {
  $("#admin-token").value = window.sessionStorage.getItem(TOKEN_KEY) || "";
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); search(); });
  $("#more").addEventListener("click", () => search(true));
  $("#verify").addEventListener("click", verify);
  $("#step-first").addEventListener("click", () => showStep(0));
  $("#step-prev").addEventListener("click", () => showStep(state.step - 1));
  $("#step-next").addEventListener("click", () => showStep(state.step + 1));
  $("#step-last").addEventListener("click", () => showStep(state.steps));
  $("#leagues-refresh").addEventListener("click", listLeagues);
  $("#league-export").addEventListener("click", downloadExport);
  try {
    state.cat = await Catalogue.load();
  } catch (e) {
    showError(`The card catalogue could not be loaded: ${e.message}`);
  }
}

main();
