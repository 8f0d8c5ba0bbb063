// The scripted newcomer: plays N solo games against the real cod-server over
// the protocol and prints its win rate. Not a test: a program that prints
// numbers (issue 30: "the scripted newcomer's win rate in the guided game and
// on quick play").
//
//   node --experimental-websocket tests/browser/newcomer.mjs [--games N]
//        [--player careful|naive] [--deck 1..4] [--seed S | --guided]
//        [--seeds FROM..TO] [--verbose]
//
// careful: follows the guided game's advice (server/web/play/js/advice.js,
// what the coach says); naive: plays the first playable card on its first
// option until none is left, then ends the turn. --guided plays the guided
// first game's deal (coach.js's GUIDED_GAME: its deck and seed); --seed a
// chosen deal (options.seed); neither: quick play, a fresh deal each game.
// --seeds A..B plays one game per seed and lists the seeds the player won
// (how the guided deal was chosen). Starts its own server as the browser
// tests do (COD_SERVER, COD_CATALOGUE, COD_WEB_ROOT); NEWCOMER_TRACE=1 prints
// every frame received.
import fs from "node:fs";
import { startServer, env } from "./lib.mjs";
import { advise, naive } from "../../server/web/play/js/advice.js";
import { GUIDED_GAME } from "../../server/web/play/js/guided.js";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const player = opt("player", "careful");
const guided = args.includes("--guided");
const verbose = args.includes("--verbose");
let deck = Number(opt("deck", guided ? GUIDED_GAME.deck : 1));
let seeds = null;
if (opt("seeds")) {
  const [a, b] = opt("seeds").split("..").map(Number);
  seeds = [];
  for (let s = a; s <= b; s++) seeds.push(String(s));
}
const fixedSeed = guided ? GUIDED_GAME.seed : opt("seed", null);
const games = seeds ? seeds.length : Number(opt("games", guided || fixedSeed ? 1 : 20));

const cat = JSON.parse(fs.readFileSync(env.catalogue, "utf8"));
const cards = Object.fromEntries(cat.cards.map((c) => [c.id, c]));
const choose = player === "naive" ? naive : (v, l) => advise(v, l, (id) => cards[id]);

function connect(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const waiting = new Map();
    let nextId = 1;
    const pushes = [];
    let onPush = null;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (process.env.NEWCOMER_TRACE) console.log("<-", ev.data.slice(0, 300));
      if (m.id !== undefined && waiting.has(m.id) && m.type !== "update") {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.type === "error") w.reject(new Error(`${m.code}: ${m.message}`));
        else w.resolve(m);
        return;
      }
      pushes.push(m);
      if (onPush) onPush();
    };
    ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    ws.onopen = () => resolve({
      request(type, fields = {}) {
        const id = nextId++;
        ws.send(JSON.stringify({ type, id, ...fields }));
        return new Promise((res, rej) => waiting.set(id, { resolve: res, reject: rej }));
      },
      send(type, fields) { ws.send(JSON.stringify({ type, ...fields })); },
      async next() {
        while (!pushes.length) await new Promise((r) => { onPush = r; });
        onPush = null;
        return pushes.shift();
      },
      close() { ws.close(); },
    });
  });
}

// One game: resolves with {won, rounds, ideas}.
async function play(url, seed) {
  const c = await connect(url.replace("http", "ws") + "/ws");
  await c.request("hello", { version: 1, client: "newcomer/1", legal_actions: true });
  const options = seed ? { seed } : {};
  const r = await c.request("create_room", { mode: "solo", format: "preconstructed", options });
  await c.request("join", { room: r.room, name: "Newcomer", deck: { preconstructed: deck } });
  const ideas = {};
  let frame = null;
  for (;;) {
    const m = await c.next();
    if (m.type === "match_over") {
      c.close();
      return { won: m.winners.includes(0), rounds: frame ? frame.view.round : 0, ideas };
    }
    if (m.type !== "state" && m.type !== "update") continue;
    frame = m;
    const v = m.view;
    if (v.phase === "game_over" || v.active_seat !== v.viewer) continue;
    const a = choose(v, m.legal_actions);
    if (!a) continue;
    ideas[a.idea] = (ideas[a.idea] || 0) + 1;
    if (verbose) console.log(`round ${v.round} health ${v.seats[0].health} AI ${v.seats[1].deck_size}: ${a.idea} ${JSON.stringify(a.action)}`);
    c.send("act", { seq: m.seq, action: a.action });
  }
}

const server = await startServer();
try {
  let wins = 0;
  const won = [];
  const rounds = [];
  for (let i = 0; i < games; i++) {
    const seed = seeds ? seeds[i] : fixedSeed;
    const g = await play(server.url, seed);
    wins += g.won;
    rounds.push(g.rounds);
    if (g.won && seed) won.push(seed);
    if (verbose || games <= 5) console.log(`game ${i + 1}${seed ? ` (seed ${seed})` : ""}: ${g.won ? "won" : "lost"} in round ${g.rounds}; moves ${JSON.stringify(g.ideas)}`);
  }
  const what = guided ? "the guided game" : fixedSeed ? `seed ${fixedSeed}` : seeds ? `seeds ${opt("seeds")}` : "quick play";
  console.log(`${player} newcomer, deck ${deck}, ${what}: won ${wins} of ${games} (${(100 * wins / games).toFixed(0)}%), rounds ${Math.min(...rounds)}-${Math.max(...rounds)}`);
  if (seeds) console.log(`won with seeds: ${won.join(" ")}`);
} finally {
  await server.stop();
}
