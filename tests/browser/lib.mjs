// Shared by the browser tests: the real cod-server on a free loopback port
// with a temporary database, headless Chromium (Debian's /usr/bin/chromium)
// driven by playwright-core, and a player that clicks through the web client.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const env = {
  server: process.env.COD_SERVER || "build/server/cod-server",
  catalogue: process.env.COD_CATALOGUE || "config/cards/catalogue.json",
  webRoot: process.env.COD_WEB_ROOT || "server/web",
  chromium: process.env.COD_CHROMIUM || "/usr/bin/chromium",
  artifacts: process.env.COD_ARTIFACTS || path.join(os.tmpdir(), "cod-browser-artifacts"),
};

// Starts cod-server; resolves with {url, port, db, stop(), output()}.
export async function startServer(extraArgs = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-browser-"));
  const db = path.join(dir, "cod.db");
  const args = ["--port", "0", "--address", "127.0.0.1", "--db", db, "--catalogue", env.catalogue,
    "--web-root", env.webRoot, "--log-level", "info", "--grace-period-sec", "120",
    // Every browser context of a test is another player on 127.0.0.1 (each
    // holds up to 7 connections): no per-address limits, as behind a proxy.
    "--max-connections-per-address", "0", "--max-waiting-rooms-per-address", "0", ...extraArgs];
  const proc = spawn(env.server, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cod-server did not start in time:\n${out}`)), 15000);
    const onData = (chunk) => {
      out += chunk.toString();
      const m = out.match(/listening on 127\.0\.0\.1:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`cod-server exited (${code}):\n${out}`));
    });
  });
  proc.removeAllListeners("exit");
  return {
    port,
    db,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(t);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  if (!fs.existsSync(env.chromium)) throw new Error(`no Chromium at ${env.chromium} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: env.chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

export function artifact(name) {
  fs.mkdirSync(env.artifacts, { recursive: true });
  return path.join(env.artifacts, name);
}

// A person at the web client: opens /play/, types a name, picks a deck.
// `context`: the browser context's options (its size, a phone's touch).
export async function openClient(browser, server, { name, deck = 1, context: options = { viewport: { width: 1400, height: 1000 } } } = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on("pageerror", (e) => { page.jsErrors = (page.jsErrors || []).concat(String(e)); });
  await page.goto(`${server.url}/play/`);
  await page.waitForSelector("#room-list");
  if (name) await page.fill("#player-name", name);
  await page.selectOption("#deck-kind", `pre${deck}`);
  return page;
}

export async function screen(page) {
  return page.evaluate(() => document.body.dataset.screen);
}

export async function gameInfo(page) {
  return page.evaluate(() => {
    const g = document.querySelector("#game");
    return {
      seq: Number(g.dataset.seq || -1),
      phase: g.dataset.phase || "",
      myTurn: g.dataset.myTurn === "true", // and awake: not behind the "Your turn" banner
      banner: !!g.dataset.banner,
      viewer: g.dataset.viewer,
      hand: [...document.querySelectorAll("#hand .card[data-uid]")].map((e) => Number(e.dataset.uid)),
    };
  });
}

// Waits until the game screen shows no update step by step (motion.js):
// its seq, board and log are then the newest update's.
export async function settled(page, timeout = 15000) {
  await page.waitForFunction(() => !document.querySelector("#game").dataset.motion, null, { timeout });
}

// A new turn's "Your turn" banner (turn.js) holds its controls for a moment:
// a key puts it away (and does nothing else), as a player in a hurry would.
export async function awake(page) {
  if (await page.evaluate(() => !!document.querySelector("#game").dataset.banner)) await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#game").dataset.banner);
}

// Waits until the page's seq passes `seq` or an error is shown; returns which.
export async function waitForOutcome(page, seq, timeout = 10000) {
  const handle = await page.waitForFunction((s) => {
    const g = document.querySelector("#game");
    if (Number(g.dataset.seq) > s) return "update";
    const e = document.querySelector("#error");
    if (e && !e.hidden) return "error:" + (e.dataset.code || "");
    return false;
  }, seq, { timeout });
  return handle.jsonValue();
}

// One turn by clicking: plays highlighted affordable cards (a line for a
// creature, an enemy creature for an incantation) until none is left or
// `maxPlays` is reached, then ends the summoning phase. Returns the plays made.
export async function playTurnByClicking(page, { maxPlays = 4 } = {}) {
  await awake(page);
  const tried = new Set();
  let plays = 0;
  while (plays < maxPlays) {
    const uids = await page.$$eval("#hand .card.playable.affordable", (els) => els.map((e) => Number(e.dataset.uid)));
    const uid = uids.find((u) => !tried.has(u));
    if (uid === undefined) break;
    tried.add(uid);
    const { seq, phase } = await gameInfo(page);
    if (phase !== "summoning") return plays;
    await page.click(`#hand .card[data-uid="${uid}"]`);
    await page.waitForSelector("#prompt:not([hidden])");
    const lines = await page.$$("#prompt [data-play-line]");
    if (lines.length) {
      // The line where this seat has fewer creatures.
      const rel = await page.evaluate(() => {
        const n = (r) => document.querySelectorAll(`.line[data-rel="${r}"] .side.own .creature`).length;
        return n("upper") <= n("lower") ? "upper" : "lower";
      });
      await page.click(`#prompt [data-play-line="${rel}"]`);
    } else {
      // An enemy creature if there is one, else any (by uid: a re-render
      // between finding and clicking must not leave a stale element).
      const viewer = (await gameInfo(page)).viewer;
      const targets = await page.$$eval(".creature.targetable", (els) => els.map((e) => ({ uid: e.dataset.uid, seat: e.dataset.seat })));
      const target = targets.find((t) => t.seat !== viewer) || targets[0];
      if (!target) {
        await page.click("#cancel-play");
        continue;
      }
      await page.click(`.creature.targetable[data-uid="${target.uid}"]`);
    }
    const outcome = await waitForOutcome(page, seq);
    if (outcome === "update") plays++;
    else await page.click("#error button"); // refused (a full line, ...): try another card
  }
  const { seq, phase } = await gameInfo(page);
  if (phase !== "summoning") return plays;
  await page.click("#end-turn");
  const outcome = await waitForOutcome(page, seq);
  if (outcome !== "update") throw new Error(`end_turn refused: ${outcome}: ${await page.textContent("#error")}`);
  return plays;
}

export async function waitForGame(page, timeout = 15000) {
  await page.waitForFunction(() => document.body.dataset.screen === "game" && document.querySelector("#game").dataset.seq !== undefined, null, { timeout });
}

// Creates a room from the lobby form and waits in it; returns the room id.
// `packs` (drafted formats): the packs to check; none means every card.
export async function createRoom(page, { mode = "duel", format = "preconstructed", champions = false, clockMin = 0, packs = [] } = {}) {
  await page.selectOption("#create-mode", mode);
  await page.selectOption("#create-format", format);
  for (const p of packs) await page.check(`#opt-packs input[data-pack="${p}"]`);
  if (champions) await page.check("#opt-champions");
  if (clockMin) {
    await page.check("#opt-clock");
    await page.fill("#opt-clock-min", String(clockMin));
  }
  await page.click("#create-room");
  await page.waitForFunction(() => document.body.dataset.screen === "waiting" && document.querySelector("#waiting-room").textContent !== "");
  return page.textContent("#waiting-room");
}

// Joins `room` from the lobby's list.
export async function joinFromLobby(page, room) {
  await page.click("#refresh-rooms");
  const btn = page.locator(`tr[data-room="${room}"] button.join`);
  await btn.waitFor({ timeout: 10000 });
  await btn.click();
}

// A TCP relay in front of the server whose network can go silent: cut(),
// every connection open now stays open and passes nothing more, either way,
// for good (as a dead Wi-Fi: no reset, no close); new connections are
// accepted and get no answer. restore(): new connections pass again.
export async function startRelay(target) {
  let cut = false;
  const open = new Set();
  const relay = net.createServer((client) => {
    open.add(client);
    client.on("error", () => {});
    client.on("close", () => open.delete(client));
    if (cut) return; // accepted, never answered
    const upstream = net.connect(target.port, "127.0.0.1");
    upstream.on("error", () => client.destroy());
    open.add(upstream);
    upstream.on("close", () => { open.delete(upstream); if (!client.dead) client.destroy(); });
    client.on("close", () => { if (!client.dead) upstream.destroy(); });
    client.on("data", (d) => { if (!client.dead) upstream.write(d); });
    upstream.on("data", (d) => { if (!client.dead) client.write(d); });
    client.pair = upstream;
  });
  await new Promise((r) => relay.listen(0, "127.0.0.1", r));
  const port = relay.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const s of open) s.dead = true;
      for (const s of open) if (s.pair) s.pair.dead = true;
    },
    restore() { cut = false; },
    async close() {
      for (const s of open) s.destroy();
      await new Promise((r) => relay.close(r));
    },
  };
}
