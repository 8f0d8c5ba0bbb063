// The reference web client: lobby, waiting room, draft screen, game screen,
// league screen (a mutation league followed with its token); reconnects
// (and resumes its seat with the token kept in localStorage) after a lost
// connection or a page reload. Every refusal from the server is shown in words.
// Accounts and Play (the queue) sit on top of the lobby (account.js); the
// players' pages (profile, ladder) are players.js, loaded on first use.
import { Connection, socketUrl, seatStore, watchStore, leagueStore } from "./protocol.js";
import { AccountPanel, PlayPanel, accountStore, api } from "./account.js";
import { Catalogue } from "./catalogue.js";
import { Lobby, seatLabel, botLevelSelect, saveBotLevel } from "./lobby.js";
import { GameScreen } from "./game.js";
import { errorWords, accountErrorWords, LEAGUE_WORDS, HOW_TO_PLAY_OPEN, ACCOUNT_WORDS, RATING_WORDS, ratingWords } from "./words.js";
import { h, clear } from "./dom.js";

const $ = (sel) => document.querySelector(sel);

const app = {
  conn: null,
  cat: null,
  lobby: null,
  game: null,
  draft: null,
  room: null, // {id, role: "player" | "spectator", seat, league, mode, rated (a rated queue game)}
  // The signed-in account ({token, name, guest}, accountStore), or null.
  account: accountStore.get(),
  accountPanel: null,
  play: null,
  search: null, // queued: {mode, rated, ticket}
  players: null, // the players' pages (players.js), once opened
  // The mutation league this page follows: {token, id, screen}; its pushes
  // keep coming while the player sits in a duel room.
  league: null,
  seedHash: null,
  lastDraft: null,
  lobbyTimer: null,
  waitTimer: null,
  reconnectDelay: 500,
  reconnectTimer: null,
  closing: false,
};
window.codApp = app; // for debugging in the console

// Play again's recipe ({room, create: {req, bot}} or {room, queue}), across a reload.
try { app.rematch = JSON.parse(sessionStorage["cod.rematch"]); } catch { /* none */ }
const keepRematch = (r) => { app.rematch = r; sessionStorage["cod.rematch"] = JSON.stringify(r); };

function showError(text, code = "") {
  const el = $("#error");
  el.hidden = false;
  el.dataset.code = code;
  clear(el).append(h("span.text", {}, text), " ", h("button.small", { onclick: () => hideError() }, "Dismiss"));
}

function hideError() {
  $("#error").hidden = true;
  $("#error").dataset.code = "";
}

function showRefusal(err) {
  showError(errorWords(err), err && err.code ? err.code : "");
}

function setConnState(text, ok) {
  const el = $("#conn-state");
  el.textContent = text;
  el.className = ok ? "ok" : "bad";
}

// ---- screens ----

function dropDraft() {
  app.draft = null;
  clear($("#draft"));
  $("#draft").hidden = true;
}

// Out of any room: the game and waiting screens go.
function dropRoom() {
  app.room = null;
  if (app.game) {
    app.game.destroy();
    app.game = null;
  }
  stopWaiting();
  dropDraft();
  clear($("#game"));
  $("#game").hidden = true;
  $("#waiting").hidden = true;
}

function showLobby() {
  dropRoom();
  hidePlayers();
  $("#league").hidden = true;
  $("#lobby").hidden = false;
  document.body.dataset.screen = "lobby";
  refreshRooms();
  window.clearInterval(app.lobbyTimer);
  app.lobbyTimer = window.setInterval(refreshRooms, 3000);
}

// The league screen (a followed league), after its duel or instead of the lobby.
function showLeague() {
  dropRoom();
  hidePlayers();
  window.clearInterval(app.lobbyTimer);
  $("#lobby").hidden = true;
  $("#league").hidden = false;
  document.body.dataset.screen = "league";
}

// Where a player goes out of a room: their league if the page follows one.
function showHome() {
  if (app.league && app.league.screen && app.league.screen.view) showLeague();
  else showLobby();
}

function enterRoom(room) {
  // Back in the room on screen after a dropped connection, in the same seat
  // (or watching again): its board and log stay; the state that follows
  // brings them up to date, and history tells what the cut missed.
  const again = !!(app.game && app.game.view && app.room && app.room.id === room.id &&
    app.room.role === room.role && app.room.seat === room.seat);
  app.room = room;
  window.clearInterval(app.lobbyTimer);
  // Entering a room ends a search (the server withdraws it too).
  if (app.search) stopSearch("entered_room");
  hidePlayers();
  if (routeOf(window.location.hash)) window.history.replaceState(null, "", window.location.pathname + window.location.search);
  if (again) {
    refreshRoomInfo();
    return;
  }
  $("#lobby").hidden = true;
  $("#league").hidden = true;
  const gameRoot = $("#game");
  if (app.game) app.game.destroy();
  clear(gameRoot);
  // The last screen's seq, phase and turn must not pass for this one's.
  for (const key of Object.keys(gameRoot.dataset)) delete gameRoot.dataset[key];
  gameRoot.hidden = true;
  app.game = new GameScreen(gameRoot, app.cat, {
    act: (action, seq) => act(action, seq),
    leave: () => leave(),
    backLabel: room.league ? LEAGUE_WORDS.backToLeague : undefined,
    afterRender: (g) => { if (app.coach && app.coach.room === room.id) app.coach.update(g); },
    emote: room.role === "player" ? (id) => app.conn.request("emote", { emote: id }) : undefined,
    // A room this page made (its bot too), or the same search.
    playAgain: {
      available: () => app.rematch?.room === room.id && (!!app.rematch.create || !!app.account),
      run: async () => {
        const r = app.rematch;
        await leave();
        if (r.queue) await findGame(r.queue);
        else await createRoom(r.create.req, { bot: r.create.bot });
      },
    },
  });
  app.game.room = room.id;
  dropDraft();
  document.body.dataset.screen = "waiting";
  $("#waiting").hidden = false;
  startWaiting();
  refreshRoomInfo();
}

function startWaiting() {
  stopWaiting();
  app.waitTimer = window.setInterval(refreshRoomInfo, 2000);
}

function stopWaiting() {
  window.clearInterval(app.waitTimer);
  app.waitTimer = null;
}

function renderWaiting(summary) {
  const el = $("#waiting-seats");
  clear(el);
  if (!summary) return;
  $("#waiting-room").textContent = summary.room;
  $("#waiting-mode").textContent = `${summary.mode}, ${summary.format}`;
  for (const s of summary.seats) {
    el.append(h("li", {}, `${seatLabel(s.seat)}: ${s.ai ? "AI" : s.taken ? s.name + (s.seat === app.room.seat ? " (you)" : s.bot ? " (a bot)" : "") : "free"}`));
  }
  // add_bot (docs/protocol.md): a player of a waiting room may fill a free
  // seat with the server's bot; a league duel's or a tournament's seats are
  // its players' (the server refuses them too).
  const button = $("#waiting-add-bot");
  const free = summary.seats.some((s) => !s.taken && !s.ai);
  button.hidden = !(typeof app.room.seat === "number" && !app.room.league && summary.status === "waiting" && free);
  import("./invite.js").then((m) => m.renderInvite(summary, free));
  // The level it plays at; a co-op room's bot plays random legal actions
  // whatever the level (docs/ai-server.md), so none is offered there.
  $("#waiting-bot-level-label").hidden = button.hidden || summary.mode === "coop";
}

// An invite link (#/room/ID) opened with no seat.
const showInvite = (hash) => /^#\/room\/[\w-]+$/.test(hash) && import("./invite.js").then((m) => m.showInvite(hash.slice(7), app.conn, join));

async function addBot(button) {
  if (!app.room || button.disabled) return;
  hideError();
  button.disabled = true;
  try {
    const label = $("#waiting-bot-level-label");
    const level = Number($("#waiting-bot-level").value);
    if (!label.hidden) saveBotLevel(level);
    await app.conn.request("add_bot", label.hidden ? {} : { level });
  } catch (e) {
    showRefusal(e);
  } finally {
    button.disabled = false;
  }
  refreshRoomInfo();
}

// ---- server requests ----

async function refreshRooms() {
  if (!app.conn || app.conn.closed) return;
  try {
    // One page: the server lists at most 100 rooms a reply (r.total counts them all).
    const r = await app.conn.request("list_rooms", { limit: 100 });
    if (app.lobby && !app.room) app.lobby.setRooms(r.rooms);
    return r.rooms;
  } catch (e) {
    if (e.code !== "connection_lost") showRefusal(e);
  }
  return null;
}

async function refreshRoomInfo() {
  if (!app.room || !app.conn || app.conn.closed) return;
  let r;
  try {
    r = await app.conn.request("list_rooms", { room: app.room.id });
  } catch {
    return;
  }
  if (!app.room) return;
  const summary = r.rooms.find((x) => x.room === app.room.id);
  if (!summary) return;
  renderWaiting(summary);
  if (app.game) {
    app.game.setRoomInfo(summary.room, summary.seats.map((s) => s.name), summary.seats.map((s) => s.connected));
  }
  if (app.draft) app.draft.setRoomInfo(summary.seats.map((s) => s.name), summary.seats.map((s) => s.connected));
}

// `seq`: the frame the action was chosen on (game.js: the one on screen when
// its click or key began); a stale one (a click decided on a picture the
// match has moved on from) is refused with stale_action.
async function act(action, seq) {
  hideError();
  try {
    if (seq === undefined) seq = app.game ? app.game.seq : undefined;
    await app.conn.request("act", { action, seq });
  } catch (e) {
    showRefusal(e);
  }
}

// A draft_pick; the refusal is shown in words and rethrown (the draft screen
// keeps the choice for another try).
async function draftPick(fields) {
  hideError();
  try {
    return await app.conn.request("draft_pick", fields);
  } catch (e) {
    showRefusal(e);
    throw e;
  }
}

async function join(room) {
  hideError();
  let fields;
  try {
    fields = app.lobby.playerFields(room);
    if (room.deck) fields.deck = room.deck; // the guided game's chosen deal
  } catch (e) {
    showError(e.message, "form");
    return;
  }
  try {
    await connectFor(room.room);
    const j = await app.conn.request("join", { room: room.room, ...fields });
    seatStore.set({ room: j.room, seat: j.seat, token: j.token, name: fields.name || (app.account && app.account.name) });
    watchStore.clear();
    enterRoom({ id: j.room, role: "player", seat: j.seat });
  } catch (e) {
    showRefusal(e);
    refreshRooms();
  }
}

async function createRoom(req, how = {}) {
  hideError();
  try {
    app.lobby.playerFields({ format: req.format, options: req.options }); // check the form before creating anything
  } catch (e) {
    showError(e.message, "form");
    return;
  }
  try {
    const coach = how.quick ? await startCoach() : null; // the guided game: a chosen deal
    const r = await app.conn.request("create_room", coach ? { ...req, options: { ...req.options, seed: coach.deal.seed } } : req);
    app.seedHash = r.seed_hash;
    app.lastCreate = { req, room: r.room };
    keepRematch({ room: r.room, create: { req, bot: how.bot } });
    if (coach) keepCoach(coach, r.room);
    await join({ room: r.room, format: req.format, options: req.options, deck: coach && { preconstructed: coach.deal.deck } });
    // "Play the computer": the other seat to the house bot at its level.
    if (how.bot && app.room && app.room.id === r.room && app.room.role === "player") {
      await app.conn.request("add_bot", { level: how.bot });
      refreshRoomInfo();
    }
  } catch (e) {
    showRefusal(e);
  }
}

async function spectate(room) {
  hideError();
  try {
    await connectFor(room.room);
    await app.conn.request("spectate", { room: room.room });
    watchStore.set({ room: room.room });
    enterRoom({ id: room.room, role: "spectator", seat: null });
    return true;
  } catch (e) {
    if (e.code === "room_not_found") watchStore.clear();
    showRefusal(e);
    return false;
  }
}

async function leave() {
  hideError();
  const wasPlayer = app.room && app.room.role === "player";
  const live = wasPlayer && app.game && app.game.view && app.game.view.phase !== "game_over";
  const drafting = wasPlayer && !live && app.draft && app.draft.draft && !app.draft.draft.finished;
  if (live && !window.confirm("Leave the match? Your seat concedes when the server's grace period ends.")) return;
  if (drafting && !window.confirm("Leave the draft? Your seat stays in the room and the draft cannot go on without its picks; this page will forget the seat.")) return;
  try {
    await app.conn.request("leave");
  } catch (e) {
    if (e.code !== "not_in_room" && e.code !== "connection_lost") showRefusal(e);
  }
  if (wasPlayer) seatStore.clear();
  else watchStore.clear();
  showHome();
}

async function resume(saved) {
  try {
    await connectFor(saved.room);
    const j = await app.conn.request("resume", { room: saved.room, token: saved.token });
    enterRoom({ id: j.room, role: "player", seat: j.seat, league: saved.league, mode: saved.mode, rated: saved.rated });
    if (!app.coach && localStorage["cod.coach_room"] === j.room) startCoach(j.room);
    return true;
  } catch (e) {
    if (e.code === "bad_token" || e.code === "room_not_found") {
      seatStore.clear();
      showError(`Your seat in room ${saved.room} could not be taken back: ${errorWords(e)}`, e.code);
    } else {
      showRefusal(e);
    }
    return false;
  }
}

// ---- pushed messages ----

// A drafted room (docs/protocol.md "Formats and drafts"): every `draft`
// message redraws the draft screen, until the match's first state. The
// screen (draft.js) is loaded with the first one, not on the first visit;
// the messages that come meanwhile wait for it in order.
let draftJs = null;
async function onDraft(msg) {
  if (!app.room || msg.room !== app.room.id) return;
  draftJs = draftJs || import("./draft.js");
  let DraftScreen;
  try {
    ({ DraftScreen } = await draftJs);
  } catch (e) {
    draftJs = null; // the next draft message tries again
    return showError(`The draft screen could not be loaded: ${e.message}`, "draft");
  }
  if (!app.room || msg.room !== app.room.id) return;
  if (app.game && app.game.view) return; // the match has started
  if (!app.draft) {
    const root = clear($("#draft"));
    app.draft = new DraftScreen(root, app.cat, { pick: (f) => draftPick(f), leave: () => leave() });
    app.draft.room = app.room.id;
    app.draft.seat = app.room.role === "player" ? app.room.seat : null;
    refreshRoomInfo();
  }
  $("#waiting").hidden = true;
  $("#draft").hidden = false;
  document.body.dataset.screen = "draft";
  app.draft.setDraft(msg);
  app.lastDraft = msg.draft; // kept after the match starts (the drafted decks), for debugging
}

function onState(msg) {
  if (!app.game || !app.room || msg.room !== app.room.id) return;
  stopWaiting();
  app.seedHash = msg.seed_hash;
  app.cat.setMatchCards(msg.cards);
  dropDraft();
  $("#waiting").hidden = true;
  $("#game").hidden = false;
  document.body.dataset.screen = "game";
  app.game.setState(msg);
  refreshRoomInfo();
  // What the log lacks before this state (the whole match after a reload,
  // what a cut missed after a reconnection) comes from history.
  if (app.game.historyFrom <= msg.seq) loadHistory(msg.room, app.game.historyFrom);
}

async function loadHistory(room, from) {
  const game = app.game;
  try {
    const r = await app.conn.request("history", { from_seq: from });
    if (app.game === game && app.room && app.room.id === room) game.fillHistory(r);
  } catch {
    // The connection went (the next state asks again), or a server without
    // history: the log starts at the state.
  }
}

function onUpdate(msg) {
  if (!app.game || !app.room || msg.room !== app.room.id) return;
  if (!app.game.view) return onState(msg); // an update before any state cannot happen, but a view is a view
  app.game.applyUpdate(msg);
}

async function onMatchOver(msg) {
  if (!app.game || !app.room || msg.room !== app.room.id) return;
  app.game.matchOver(msg);
  if (app.room.rated && app.room.role === "player") showRatingChange(app.room);
  // The seed commitment (docs/protocol.md): sha256(seed) must be the seed_hash
  // published before the match.
  if (!app.seedHash) return app.game.setSeedCheck(`Seed ${msg.seed}.`);
  if (!(window.crypto && window.crypto.subtle)) {
    return app.game.setSeedCheck(`Seed ${msg.seed} (this page cannot hash it here: check that its SHA-256 is ${app.seedHash}).`);
  }
  const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(msg.seed));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  app.game.setSeedCheck(hex === app.seedHash
    ? `Seed ${msg.seed}: matches the commitment published before the match.`
    : `Seed ${msg.seed} does NOT match the commitment ${app.seedHash}!`);
}

function onSeatStatus(msg) {
  if (!app.game || !app.room || msg.room !== app.room.id) return;
  if (app.game.view) app.game.setSeatConnected(msg.seat, msg.connected);
  else if (app.draft) app.draft.setSeatConnected(msg.seat, msg.connected);
  refreshRoomInfo();
}

// The room's store write is waiting (another process holds the database):
// the move is kept and will be played; said where the connection's state is.
function onNotice(msg) {
  if (msg.code === "store_waiting") setConnState("the server is saving slowly: the last move waits, nothing is lost...", false);
  else if (msg.code === "store_resumed") setConnState(`connected to ${app.serverName}`, true);
}

function onLeft(msg) {
  if (!app.room || msg.room !== app.room.id) return;
  if (app.room.role === "spectator") watchStore.clear();
  showError(`You are no longer in room ${msg.room}: the room closed, or your seat was taken back from another window.`, "left");
  showHome();
}

// ---- the mutation league ----

// league.js is loaded when a league is first opened: a first visit that
// opens none does not pay for it (the first-visit budget, docs/web-client.md).
let LeagueScreen = null;
async function loadLeagueScreen() {
  if (!LeagueScreen) ({ LeagueScreen } = await import("./league.js"));
}

// A `league` message (league_join's or league_act's reply, or a push): the
// league screen redraws, shown or not (a push during the duel is kept for
// the way back).
function onLeague(msg) {
  if (!app.league || !LeagueScreen || (app.league.id && msg.league !== app.league.id)) return;
  app.league.id = msg.league;
  if (!app.league.screen) {
    app.league.screen = new LeagueScreen(clear($("#league")), app.cat, {
      act: (op) => leagueAct(op),
      // What the mutation list allows next (league_mutations): the reply, or a rejection.
      mutations: (list) => app.conn.request("league_mutations", { mutations: list }),
      playDuel: () => playLeagueDuel(),
      leave: () => leaveLeague(),
    });
  }
  app.league.screen.setView(msg);
}

// Follows the league of `token` on the connection in use (following is
// independent of rooms: the same connection later sits in the duel).
// `show`: the league screen comes up (not while a duel room is on).
async function followLeague(token, show = true) {
  try {
    await loadLeagueScreen();
    if (!app.conn || app.conn.closed) await connect(false, null);
    if (!app.league || app.league.token !== token) {
      if (app.league && app.league.screen) app.league.screen.destroy();
      app.league = { token, id: null, screen: null };
    }
    const r = await app.conn.request("league_join", { token });
    leagueStore.set({ token, league: r.league });
    onLeague(r);
    if (show) showLeague();
    return true;
  } catch (e) {
    if (e.code === "bad_token") {
      leagueStore.clear();
      app.league = null;
      clear($("#league"));
    }
    showRefusal(e);
    return false;
  }
}

async function openLeague() {
  hideError();
  let token;
  try {
    token = app.lobby.leagueToken();
  } catch (e) {
    showError(e.message, "form");
    return;
  }
  await followLeague(token);
}

// A league_act: the reply redraws the league screen; a refusal rejects
// (the screen tells it next to its form).
async function leagueAct(op) {
  hideError();
  const r = await app.conn.request("league_act", { op });
  onLeague(r);
  return r;
}

// The round's duel (docs/protocol.md "league_join"): tournament_join with
// the league token and the league deck's 8 cards seats the player in its
// room, on the connection that follows the league.
async function playLeagueDuel() {
  hideError();
  const view = app.league.screen.view;
  const cards = view.you.deck.map((d) => d.card.id);
  const me = view.players.find((p) => p.seat === view.you.seat);
  const j = await app.conn.request("tournament_join", { token: app.league.token, deck: { cards } });
  seatStore.set({ room: j.room, seat: j.seat, token: j.token, name: me ? me.name : "", league: app.league.id });
  watchStore.clear();
  enterRoom({ id: j.room, role: "player", seat: j.seat, league: app.league.id });
}

// Back to the lobby from the league screen: this page forgets the league
// (its token opens it again).
function leaveLeague() {
  if (app.league && app.league.screen) app.league.screen.destroy();
  app.league = null;
  leagueStore.clear();
  clear($("#league"));
  showLobby();
}

// ---- how to play ----

// The how-to-play dialog (js/howto.js), loaded on the first click.
async function howToPlay() {
  try {
    const { openHowToPlay } = await import("./howto.js");
    openHowToPlay();
  } catch (e) {
    showError(`The how-to-play page could not be loaded: ${e.message}`, "howto");
  }
}

// ---- the guided first game ----

// js/coach.js, loaded by "Play against the AI now": in the first such game
// (no flag in localStorage) a panel says the next step, in its chosen deal.
// A failed load only loses the tips. With `room` (a reload in the guided
// game's room) it coaches that room at once.
async function startCoach(room = null) {
  try {
    const { Coach, coachWanted } = await import("./coach.js");
    if (!coachWanted()) return null;
    const coach = new Coach();
    if (room) keepCoach(coach, room);
    return coach;
  } catch (e) {
    console.warn("the first game's tips could not be loaded", e);
    return null;
  }
}

// The guided game's room is kept, so that a reload in it keeps the tips.
function keepCoach(coach, room) {
  app.coach = coach;
  coach.room = room;
  localStorage["cod.coach_room"] = room;
  if (app.game?.room === room && app.game.view) coach.update(app.game);
}

// ---- accounts (docs/accounts.md) ----

// The account the connection signed in as, or why it could not: a session
// that ended (bad_session) or a disabled account is forgotten; a busy
// server keeps it for the next hello.
function signedInAs(conn) {
  const refused = conn.accountRefused;
  if (refused && (refused.code === "bad_session" || refused.code === "account_disabled")) {
    accountStore.clear();
    setAccount(null);
    if (app.accountPanel) app.accountPanel.setInfo(refused.code === "bad_session" ? ACCOUNT_WORDS.sessionEnded : ACCOUNT_WORDS.disabled);
    return;
  }
  const a = conn.welcome && conn.welcome.account;
  if (a && app.account && conn.accountToken === app.account.token) {
    // The server's word for the name (a guest claimed elsewhere keeps its id).
    if (a.name !== app.account.name || !!a.guest !== !!app.account.guest) {
      const next = { token: app.account.token, name: a.name, guest: !!a.guest };
      accountStore.set(next);
      setAccount(next);
    }
  }
}

function setAccount(account) {
  app.account = account;
  if (app.accountPanel) app.accountPanel.setAccount(account);
  if (app.play) app.play.setAccount(account);
  if (app.lobby) app.lobby.setAccount(account);
}

// A new lobby connection, to say hello as the account now held (a
// connection keeps the account it said hello with).
async function renewConnection() {
  const old = app.conn;
  try {
    await connect(false, null);
  } finally {
    if (old && old !== app.conn) old.close();
  }
}

async function signedIn(r) {
  const account = { token: r.session.token, name: r.account.name, guest: !!r.account.guest };
  accountStore.set(account);
  setAccount(account);
  await renewConnection();
}

const accountActions = {
  signIn: async (name, password) => signedIn(await api("POST", "/api/login", { body: { name, password } })),
  signUp: async (name, password) => signedIn(await api("POST", "/api/register", { body: { name, password } })),
  guest: async () => signedIn(await api("POST", "/api/guest")),
  claim: async (name, password) => {
    const r = await api("POST", "/api/claim", { token: app.account.token, body: { name, password } });
    const account = { token: app.account.token, name: r.account.name, guest: !!r.account.guest };
    accountStore.set(account);
    setAccount(account);
    app.accountPanel.setInfo(ACCOUNT_WORDS.claimed(account.name));
    await renewConnection();
  },
  signOut: async () => {
    const token = app.account && app.account.token;
    if (app.search) await cancelSearch();
    try {
      if (token) await api("POST", "/api/logout", { token });
    } catch (e) {
      // Ended already (not_signed_in), or the server is away: this browser forgets it anyway.
      if (e.code !== "not_signed_in" && e.status !== 0) console.warn("logout:", e.message);
    }
    accountStore.clear();
    setAccount(null);
    await renewConnection();
  },
};

// ---- Play: the queue (docs/protocol.md "The queue") ----

async function findGame({ mode, rated, deck, partner }) {
  hideError();
  app.play.setNote("");
  try {
    // Not signed in: Play makes a guest first (one click to a search).
    if (!app.account) await accountActions.guest();
  } catch (e) {
    app.accountPanel.setError(accountErrorWordsOf(e));
    app.play.setNote(accountErrorWordsOf(e));
    return;
  }
  try {
    if (!app.conn || app.conn.closed) await renewConnection();
    const q = { mode, format: "preconstructed", rated, deck: { preconstructed: deck } };
    if (partner) q.partner = partner;
    const r = await app.conn.request("queue", q);
    app.search = { mode: r.mode, rated: r.rated, ticket: r.ticket, req: { mode, rated, deck, partner } };
    app.play.searching({ mode: r.mode, searching: r.searching });
  } catch (e) {
    app.play.setNote(errorWords(e));
  }
}

async function cancelSearch() {
  if (!app.search) return;
  try {
    await app.conn.request("unqueue", {});
    stopSearch("unqueued");
  } catch (e) {
    // not_queued: matched or withdrawn meanwhile (its push says so).
    if (e.code === "not_queued" || e.code === "connection_lost") stopSearch(null);
    else app.play.setNote(errorWords(e));
  }
}

function stopSearch(reason) {
  app.search = null;
  if (app.play) app.play.stopped(reason);
}

// Pushed: the server withdrew tickets (another pool matched, this
// connection entered a room, the server is stopping).
function onUnqueued(msg) {
  if (!app.search) return;
  if (msg.reason === "matched") return; // matched follows (or came first)
  if (msg.tickets && app.search.ticket !== undefined && !msg.tickets.includes(app.search.ticket)) return;
  stopSearch(msg.reason);
}

// Pushed: a table was found and the seat taken for us; joined and state follow.
function onMatched(msg) {
  if (app.search) keepRematch({ room: msg.room, queue: app.search.req });
  stopSearch(null);
  hideError();
  const saved = { room: msg.room, seat: msg.seat, token: msg.token, name: app.account ? app.account.name : "", mode: msg.mode, rated: !!msg.rated };
  seatStore.set(saved);
  watchStore.clear();
  // A cluster, the room on another node: the seat is taken there, on a
  // connection named after the room (docs/protocol.md "matched").
  if (msg.connect) return void resume(saved);
  enterRoom({ id: msg.room, role: "player", seat: msg.seat, mode: msg.mode, rated: !!msg.rated });
}

function accountErrorWordsOf(e) {
  return e && e.name === "ApiError" ? accountErrorWords(e) : errorWords(e);
}

// The rating change of a rated game, on the result dialog: the player's
// page (GET /api/players/{name}) has the change once the match's end is
// stored; the entry whose match id is this room's ("ROOM-xxxxxxxx"). A
// server without that route (404) shows nothing.
async function showRatingChange(room) {
  const name = app.account && app.account.name;
  const game = app.game;
  if (!name || !game) return;
  for (let attempt = 0; attempt < 6; attempt++) {
    if (attempt) await new Promise((r) => window.setTimeout(r, 300 * attempt));
    if (app.game !== game) return;
    let r;
    try {
      r = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      if (e.status === 404) return;
      continue;
    }
    const entry = ratingEntry(r, room);
    if (!entry) continue;
    const ladder = entry.ladder || room.mode;
    const rating = (r.ratings || []).find((x) => x.ladder === ladder);
    const text = RATING_WORDS.change(ladder, ratingWords(entry.after, entry.delta, !!(rating && rating.provisional)));
    if (app.game === game) game.setRating(text);
    return;
  }
}

function roomOfMatch(id) {
  const dash = id.lastIndexOf("-");
  return dash < 0 ? id : id.slice(0, dash);
}

function ratingEntry(r, room) {
  const history = Array.isArray(r.history) ? r.history : [];
  const mine = history.find((e) => typeof e.match_id === "string" && roomOfMatch(e.match_id) === room.id);
  if (mine) return mine;
  // No match ids to go by: the newest change on the game's ladder.
  if (history.length && history.every((e) => typeof e.match_id !== "string")) {
    return history.filter((e) => !e.ladder || e.ladder === room.mode).sort((a, b) => (b.ended_ms || 0) - (a.ended_ms || 0))[0] || null;
  }
  return null;
}

// ---- the players' pages: #/players/NAME, #/ladder/LADDER ----

function routeOf(hash) {
  return /^#\/(players\/.|ladder)/.test(hash || "") ? hash : null;
}

function hidePlayers() {
  const el = $("#players");
  if (el) el.hidden = true;
}

async function showPlayers(hash) {
  let mod;
  try {
    mod = await import("./players.js");
  } catch (e) {
    showError(`The players' pages could not be loaded: ${e.message}`, "players");
    return;
  }
  if (app.room || window.location.hash !== hash) return;
  const route = mod.routeOf(hash);
  if (!route) return;
  window.clearInterval(app.lobbyTimer);
  $("#lobby").hidden = true;
  $("#league").hidden = true;
  $("#players").hidden = false;
  document.body.dataset.screen = "players";
  if (!app.players) app.players = new mod.PlayersScreen($("#players"), { back: () => { window.location.hash = "#/"; } });
  await app.players.show(route);
}

function onHashChange() {
  if (app.room) return; // a room's screen stays; the pages open from the lobby
  const hash = window.location.hash;
  showInvite(hash);
  if (routeOf(hash)) showPlayers(hash);
  else if (document.body.dataset.screen === "players") showHome();
}

// ---- the connection ----

// `quiet`: a reconnect says "connected" only once the seat or room is back.
// `room`: the room the connection is for (/ws?room=ID), or null for the
// lobby (/ws); see connectFor.
async function connect(quiet = false, room = null) {
  const conn = new Connection(socketUrl(window.location, room), room);
  conn.accountToken = app.account ? app.account.token : null;
  app.conn = conn;
  conn.on("state", onState);
  conn.on("draft", onDraft);
  conn.on("update", onUpdate);
  conn.on("match_over", onMatchOver);
  conn.on("seat_status", onSeatStatus);
  conn.on("clock", (m) => app.game && app.game.clockMessage(m));
  conn.on("left", onLeft);
  conn.on("league", onLeague);
  conn.on("error", (m) => showRefusal(m));
  conn.on("notice", onNotice);
  conn.on("matched", onMatched);
  conn.on("unqueued", onUnqueued);
  conn.on("emote", (m) => app.game?.emotes?.show(m));
  conn.on("close", (ev) => {
    if (app.closing || conn !== app.conn) return;
    // The server drops a closed connection's tickets.
    if (app.search) stopSearch("connection_lost");
    setConnState(!navigator.onLine ? "offline: reconnecting when the network is back..."
      : ev.silent ? "no answer from the server: reconnecting..." : "disconnected: reconnecting...", false);
    scheduleReconnect();
  });
  const welcome = await conn.open();
  signedInAs(conn);
  app.reconnectDelay = 500;
  app.serverName = welcome.server;
  setConnState(quiet ? "reconnected: taking your place back..." : `connected to ${welcome.server}`, true);
  return conn;
}

// One reconnection attempt at a time: after 0.5 s, then twice as long each
// failure, at most 2 s (an attempt that gets no answer takes 3 s more:
// HEARTBEAT.connectMs); at once when the browser says the network is back.
function scheduleReconnect(delay = app.reconnectDelay) {
  window.clearTimeout(app.reconnectTimer);
  app.reconnectTimer = window.setTimeout(() => {
    app.reconnectTimer = null;
    reconnect();
  }, delay);
  app.reconnectDelay = Math.min(app.reconnectDelay * 2, 2000);
}

window.addEventListener("online", () => {
  if (app.reconnectTimer !== null && app.reconnectTimer !== undefined) scheduleReconnect(0);
});
window.addEventListener("offline", () => {
  if (app.conn && app.conn.closed) setConnState("offline: reconnecting when the network is back...", false);
});

// A connection for one room, before joining, resuming or watching it: its
// URL names the room (/ws?room=ID), so that a proxy in front of several
// nodes sends it to the node that runs the room (docs/cluster.md). The
// connection in use is kept when it was opened for that room; otherwise a
// new one replaces it (the lobby's, or another room's). After leaving a
// room its connection serves the lobby until the next room.
async function connectFor(room) {
  if (app.conn && !app.conn.closed && app.conn.room === room) return;
  const old = app.conn;
  try {
    await connect(false, room);
  } finally {
    // Its close handler does nothing now that it is not app.conn.
    if (old) old.close();
  }
}

// The room the page is about at load: the seat it holds, else the room it watches.
function savedRoom() {
  const saved = seatStore.get() || watchStore.get();
  return saved ? saved.room : null;
}

async function reconnect() {
  const room = app.room;
  try {
    await connect(true, room ? room.id : null);
  } catch {
    return; // the close handler schedules the next try
  }
  // What failed while the connection was down is not worth a banner now.
  if ($("#error").dataset.code === "connection_lost") hideError();
  // Back where we were: the seat (resume), or the room we watched.
  const saved = seatStore.get();
  const league = app.league;
  let inRoom = false;
  if (room && room.role === "player" && saved && saved.room === room.id) {
    inRoom = await resume(saved);
  } else if (room && room.role === "spectator") {
    inRoom = await spectate({ room: room.id });
  }
  // A followed league is followed again on the new connection.
  if (league) {
    if (!(await followLeague(league.token, !inRoom)) && !inRoom) showLobby();
  } else if (!inRoom) {
    showLobby();
  }
  setConnState(`connected to ${app.serverName}`, true);
}

async function main() {
  $("header.top").append(h("button#how-to-play.small", { type: "button", onclick: () => howToPlay() }, HOW_TO_PLAY_OPEN));
  try {
    app.cat = await Catalogue.load();
  } catch (e) {
    showError(`The card catalogue could not be loaded: ${e.message}`, "catalogue");
    return;
  }
  $("#waiting-leave").addEventListener("click", () => leave());
  $("#waiting-add-bot").addEventListener("click", (e) => addBot(e.currentTarget));
  $("#waiting-bot-level-label").append(botLevelSelect("waiting-bot-level"));
  app.lobby = new Lobby($("#lobby"), app.cat, {
    create: (req, how) => createRoom(req, how),
    join: (room) => join(room),
    spectate: (room) => spectate(room),
    refresh: () => refreshRooms(),
    league: () => openLeague(),
  });
  // Play and the account on top of the lobby.
  app.play = new PlayPanel(app.cat, { find: (q) => findGame(q), cancel: () => cancelSearch() });
  app.accountPanel = new AccountPanel(accountActions);
  $("#lobby").prepend(app.lobby.landing, app.play.el, app.accountPanel.el);
  setAccount(app.account);
  window.addEventListener("hashchange", onHashChange);
  try {
    await connect(false, savedRoom());
  } catch {
    setConnState("cannot reach the server: retrying...", false);
    window.setTimeout(async () => {
      try { await connect(false, savedRoom()); } catch { /* the close handler retries */ }
      start();
    }, 1000);
    return;
  }
  start();
  window.addEventListener("beforeunload", () => {
    app.closing = true;
  });
}

async function start() {
  const saved = seatStore.get();
  const league = leagueStore.get();
  // A reload in a league duel: the seat, and the league followed behind it.
  if (saved && (await resume(saved))) {
    if (league) await followLeague(league.token, false);
    return;
  }
  if (league && (await followLeague(league.token))) return;
  // A reload while watching: watch the same room again.
  const watched = watchStore.get();
  if (watched && (await spectate({ room: watched.room }))) return;
  showLobby();
  if (routeOf(window.location.hash)) showPlayers(window.location.hash);
  showInvite(window.location.hash);
}

main();
