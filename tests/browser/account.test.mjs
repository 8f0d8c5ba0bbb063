// Accounts and Play (issue 28, "Players see it") in headless Chromium
// against the real cod-server: a player signs up (name and password), signs
// out, gets a wrong password refused in words and signs in again; another
// plays as a guest from the Play panel in one click, sees the search timer
// count and cancels (unqueued); both press Find a game (Duel, rated) and are
// matched into one room, each ends a turn (a rated match needs every seat to
// have played), one concedes, and the result dialog shows the rating change
// on both pages; the profile and ladder pages; a session ended elsewhere
// (bad_session at hello) is forgotten. Screenshots to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { startServer, launchBrowser, artifact, gameInfo, screen, playTurnByClicking, settled } from "./lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let server;
let browser;

// axe-core (WCAG 2.1 A and AA, as a11y.test.mjs) on the page as it is: a
// serious or critical violation fails.
async function scan(page, where) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const bad = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  assert.deepEqual(bad, [], `no serious or critical violation on ${where}`);
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function open(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on("pageerror", (e) => { page.jsErrors = (page.jsErrors || []).concat(String(e)); });
  await page.goto(`${server.url}/play/`);
  await page.waitForSelector("#room-list");
  await page.waitForFunction(() => /connected/.test(document.querySelector("#conn-state").textContent));
  return page;
}

// Every message the page's connection receives from now on (the connection
// is replaced on sign-in: call again after one).
async function recordReceived(page) {
  await page.evaluate(() => {
    window.__received = [];
    window.codApp.conn.on("received", (m) => window.__received.push(m));
  });
}

const received = (page, type) => page.evaluate((t) => window.__received.filter((m) => m.type === t), type);

test("sign up, a wrong password, sign out; Play as guest, the search timer, cancel; a rated duel from the queue and its rating change", async () => {
  const started = Date.now();
  const annName = `Ann${Date.now() % 100000}`;
  const annPassword = "correct horse battery staple";

  // ---- Ann signs up, signs out, is refused a wrong password, signs in ----
  const ann = await open();
  assert.equal(await screen(ann), "lobby");
  assert.equal(await ann.textContent("#find-game"), "Play as guest");
  await ann.fill("#account-name", annName);
  await ann.fill("#account-password", annPassword);
  await ann.click("#sign-up");
  await ann.waitForSelector("#account-shown");
  assert.equal(await ann.textContent("#account-shown"), annName);
  assert.equal(await ann.textContent("#find-game"), "Find a game");
  // The new hello carried the token: the connection is Ann's account.
  await ann.waitForFunction((n) => window.codApp.conn.welcome && window.codApp.conn.welcome.account && window.codApp.conn.welcome.account.name === n, annName);
  assert.equal(await ann.$eval("#player-name", (i) => [i.value, i.readOnly].join("|")), `${annName}|true`);
  assert.match(await ann.evaluate(() => window.localStorage.getItem("cod.account")), /"token":"[0-9a-f]{32}"/);

  // Sign-up with a taken name and a short password: in words.
  await ann.click("#sign-out");
  await ann.waitForSelector("#signin-form");
  assert.equal(await ann.evaluate(() => window.localStorage.getItem("cod.account")), null);
  await ann.waitForFunction(() => window.codApp.conn.welcome && !window.codApp.conn.welcome.account);
  assert.equal(await ann.$eval("#player-name", (i) => i.readOnly), false);
  await ann.fill("#account-name", annName);
  await ann.fill("#account-password", "another long password");
  await ann.click("#sign-up");
  await ann.waitForFunction(() => document.querySelector("#account-error").textContent !== "");
  assert.equal(await ann.textContent("#account-error"), "That name is taken: choose another.");
  await ann.fill("#account-password", "short");
  await ann.click("#sign-up");
  await ann.waitForFunction(() => /8 to 128/.test(document.querySelector("#account-error").textContent));

  await ann.fill("#account-password", "not the right password");
  await ann.click("#sign-in");
  await ann.waitForFunction(() => /Wrong name or password/.test(document.querySelector("#account-error").textContent));
  assert.equal(await ann.textContent("#account-error"), "Wrong name or password.");
  await ann.screenshot({ path: artifact("account-wrong-password.png"), fullPage: true });
  await scan(ann, "the lobby signed out, a refusal shown");
  await ann.fill("#account-password", annPassword);
  await ann.press("#account-password", "Enter");
  await ann.waitForSelector("#account-shown");
  assert.equal(await ann.textContent("#account-shown"), annName);
  assert.equal(await ann.textContent("#account-error"), "");

  // ---- A guest plays from the Play panel in one click; the timer; cancel ----
  const guest = await open();
  assert.equal(await guest.$eval("#queue-mode-duel", (r) => r.checked), true);
  assert.equal(await guest.$eval("#queue-rated", (r) => r.checked), true);
  await guest.click("#find-game"); // "Play as guest": a guest account, then the search
  await guest.waitForSelector("#searching:not([hidden])");
  const guestName = await guest.textContent("#account-shown");
  assert.match(guestName, /^guest-/);
  assert.match(await guest.textContent("#account-status"), /\(guest\)/);
  assert.match(await guest.textContent("#search-status"), /Searching for a duel… 0:0\d/);
  assert.equal(await guest.isVisible("#find-game"), false);
  await recordReceived(guest);
  await guest.waitForFunction(() => Number(document.querySelector("#search-timer").dataset.seconds) >= 2, null, { timeout: 5000 });
  assert.match(await guest.textContent("#search-timer"), /^0:0[2-9]$/);
  await guest.screenshot({ path: artifact("account-searching.png"), fullPage: true });
  await scan(guest, "the lobby signed in as a guest, searching");
  await guest.click("#cancel-search");
  await guest.waitForSelector("#find-game", { state: "visible" });
  const unq = await received(guest, "unqueued");
  assert.equal(unq.length, 1);
  assert.equal(unq[0].reason, "unqueued");
  assert.equal(await guest.textContent("#queue-note"), "Search cancelled.");
  assert.equal(await guest.textContent("#find-game"), "Find a game");

  // ---- 2v2 asks for an optional friend; its queue names them (then cancelled) ----
  assert.equal(await guest.isVisible("#queue-partner"), false);
  await guest.check("#queue-mode-2v2");
  assert.equal(await guest.isVisible("#queue-partner"), true);
  await guest.fill("#queue-partner", "Ann");
  await guest.evaluate(() => {
    window.__sent = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      window.__sent.push(JSON.parse(data));
      return send.call(this, data);
    };
  });
  await guest.click("#find-game");
  await guest.waitForSelector("#searching:not([hidden])");
  assert.match(await guest.textContent("#search-status"), /Searching for a 2 vs 2/);
  await guest.click("#cancel-search");
  await guest.waitForSelector("#find-game", { state: "visible" });
  const sent2v2 = await guest.evaluate(() => window.__sent.filter((m) => m.type === "queue"));
  assert.equal(sent2v2.length, 1);
  assert.equal(sent2v2[0].mode, "2v2");
  assert.equal(sent2v2[0].partner, "Ann");
  await guest.check("#queue-mode-duel");
  assert.equal(await guest.isVisible("#queue-partner"), false);

  // ---- Both find a rated duel: matched into one room ----
  await ann.check("#queue-mode-duel");
  await ann.click("#find-game");
  await ann.waitForSelector("#searching:not([hidden])");
  await guest.click("#find-game");
  for (const p of [ann, guest]) {
    await p.waitForFunction(() => document.body.dataset.screen === "game" && document.querySelector("#game").dataset.seq !== undefined, null, { timeout: 15000 });
  }
  const rooms = await Promise.all([ann, guest].map((p) => p.evaluate(() => ({ ...window.codApp.room }))));
  assert.equal(rooms[0].id, rooms[1].id, "the same room");
  assert.deepEqual(rooms.map((r) => r.rated), [true, true]);
  assert.deepEqual(rooms.map((r) => r.seat).sort(), [0, 1]);
  for (const p of [ann, guest]) {
    assert.match(await p.textContent("#game-title"), new RegExp(`Room ${rooms[0].id}`));
    assert.equal(await p.isVisible("#searching"), false);
  }
  await ann.waitForFunction((g) => document.querySelector("#seats").textContent.includes(g), guestName);
  assert.match(await ann.textContent("#seats"), new RegExp(annName));
  // The seat is kept for a reload like a lobby join's.
  assert.equal(await ann.evaluate(() => JSON.parse(window.localStorage.getItem("cod.seat")).rated), true);

  // ---- Each ends a turn, then one concedes ----
  const pages = [ann, guest];
  for (let ended = 0; ended < 2;) {
    const infos = await Promise.all(pages.map(gameInfo));
    const i = infos.findIndex((x) => x.myTurn || x.banner);
    if (i < 0) {
      await ann.waitForTimeout(50);
      continue;
    }
    await settled(pages[i]);
    await playTurnByClicking(pages[i], { maxPlays: 0 });
    ended++;
  }
  ann.once("dialog", (d) => d.accept());
  await ann.click("#concede");
  for (const p of pages) {
    await p.waitForSelector("#result:not([hidden])", { timeout: 15000 });
  }
  assert.equal(await ann.$eval("#result", (e) => e.dataset.outcome), "lost");
  assert.equal(await guest.$eval("#result", (e) => e.dataset.outcome), "won");

  // ---- The rating change on the result dialog ----
  for (const p of pages) {
    await p.waitForSelector("#result-rating", { timeout: 8000 });
    assert.match(await p.textContent("#result-rating"), /^Rating \d+\?? \([+−±]\d+\) on the Duel ladder$/);
  }
  assert.match(await ann.textContent("#result-rating"), /\(−\d+\)/, "the loser goes down");
  assert.match(await guest.textContent("#result-rating"), /\(\+\d+\)/, "the winner goes up");
  await ann.screenshot({ path: artifact("account-result-ann.png"), fullPage: true });
  await guest.screenshot({ path: artifact("account-result-guest.png"), fullPage: true });

  // ---- The profile and the ladder ----
  await ann.click("#result-lobby");
  await ann.waitForFunction(() => document.body.dataset.screen === "lobby");
  await ann.click("#my-profile");
  await ann.waitForFunction(() => document.body.dataset.screen === "players" && !/Loading/.test(document.querySelector("#players-body").textContent));
  assert.match(await ann.textContent("#profile-title"), new RegExp(annName));
  assert.equal(await ann.locator('#profile tr[data-ladder="duel"]').count(), 1);
  assert.ok((await ann.locator("#profile tr[data-match]").count()) >= 1);
  await ann.screenshot({ path: artifact("account-profile.png"), fullPage: true });
  await scan(ann, "the profile page");
  const ladderShown = () => ann.waitForFunction(() => !/Loading/.test(document.querySelector("#players-body").textContent) &&
    !!(document.querySelector("#ladder .pager") || document.querySelector("#players-missing")));
  await ann.evaluate(() => { window.location.hash = "#/ladder/duel"; });
  await ladderShown();
  assert.equal(await ann.$("#players-missing"), null, "the ladder route answers");
  assert.equal(await ann.textContent('.ladder-tabs a[aria-current="page"]'), "Duel");
  await ann.click('.ladder-tabs a[data-ladder="ffa"]');
  await ann.waitForFunction(() => /Free-for-all/.test(document.querySelector("#players-body h2").textContent));
  await ladderShown();
  assert.equal(await ann.textContent('.ladder-tabs a[aria-current="page"]'), "Free-for-all");
  await ann.screenshot({ path: artifact("account-ladder.png"), fullPage: true });
  await scan(ann, "the ladder page");
  await ann.click("#players-back");
  await ann.waitForFunction(() => document.body.dataset.screen === "lobby");
  assert.equal(await ann.isVisible("#play-panel"), true);

  // A session ended elsewhere (here: logged out through the API): the next
  // hello is refused with bad_session; the page forgets the token, says so
  // and plays on unsigned.
  const token = await ann.evaluate(() => window.codApp.account.token);
  const out = await fetch(`${server.url}/api/logout`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: "{}" });
  assert.equal(out.status, 200);
  await ann.reload();
  await ann.waitForSelector("#signin-form");
  await ann.waitForFunction(() => /connected/.test(document.querySelector("#conn-state").textContent));
  assert.equal(await ann.textContent("#account-info"), "Your sign-in has ended: you are signed out.");
  assert.equal(await ann.evaluate(() => window.localStorage.getItem("cod.account")), null);
  assert.equal(await ann.evaluate(() => !!window.codApp.conn.welcome && !window.codApp.conn.welcome.account), true);

  assert.deepEqual(ann.jsErrors || [], []);
  assert.deepEqual(guest.jsErrors || [], []);
  console.log(`account test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
