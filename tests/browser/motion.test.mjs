// Motion on the game screen (issue 17, items 3 and 11): in a solo game
// against the AI (one click from the lobby), the AI's turn is revealed step
// by step (the log's lines appear over time: their times are printed),
// damage floats up as a number, the live region says the AI's moves and
// "Your turn.", and once shown the board is exactly the view the server
// sent. With the Motion toggle off, and with prefers-reduced-motion, every
// update lands at once with no animation. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, artifact, gameInfo, playTurnByClicking, waitForGame, awake, settled } from "./lib.mjs";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// Runs in the page before its scripts: records when each log line, live
// region line and animation element appears, and the updates received.
function recorder() {
  const rec = { logs: [], said: [], floats: [], anims: 0, playing: 0, updates: [] };
  const ANIM = /\bmo-(?!layer\b)/; // motion.js's animation classes (its layer is always there)
  window.__rec = rec;
  new MutationObserver((muts) => {
    const t = Math.round(performance.now());
    for (const m of muts) {
      if (m.type === "attributes") {
        const el = m.target;
        if (m.attributeName === "data-motion" && el.dataset.motion === "playing") rec.playing++;
        else if (m.attributeName === "class" && ANIM.test(el.className)) rec.anims++;
        continue;
      }
      for (const n of m.addedNodes) {
        if (n.nodeType !== 1) continue;
        const parent = n.parentElement;
        if (parent && parent.id === "log") rec.logs.push({ t, seq: n.dataset.seq === undefined ? null : Number(n.dataset.seq), text: n.textContent });
        if (parent && parent.id === "announce") rec.said.push({ t, text: n.textContent });
        if (n.matches(".mo-float")) rec.floats.push({ t, text: n.textContent, kind: n.className });
        if (ANIM.test(n.className) || n.querySelector("[class*='mo-']:not(.mo-layer)")) rec.anims++;
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "data-motion"] });
}

// Every update the page's connection receives (kept in the page).
async function listenUpdates(page) {
  await page.evaluate(() => {
    const conn = window.codApp.conn;
    if (conn.__recorded) return;
    conn.__recorded = true;
    conn.on("update", (m) => window.__rec.updates.push({
      seq: m.seq, t: Math.round(performance.now()), types: m.events.map((e) => e.type), view: JSON.stringify(m.view),
    }));
  });
}

async function startSolo(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  page.on("pageerror", (e) => { page.jsErrors = (page.jsErrors || []).concat(String(e)); });
  await page.goto(`${server.url}/play/`);
  await page.waitForSelector("#room-list");
  await page.click("#play-ai"); // one click from the lobby to a game against the AI
  await waitForGame(page);
  await page.waitForSelector("#motion-toggle"); // motion.js is loaded
  await listenUpdates(page);
  return page;
}

// Waits until nothing is being shown step by step and the page's seq is the
// newest update's; then the board must be that update's view, exactly.
async function settledOnServerView(page) {
  await page.waitForFunction(() => {
    const r = window.__rec;
    const last = r.updates[r.updates.length - 1];
    return !document.querySelector("#game").dataset.motion && (!last || window.codApp.game.seq === last.seq);
  }, null, { timeout: 15000 });
  const same = await page.evaluate(() => {
    const r = window.__rec;
    const last = r.updates[r.updates.length - 1];
    const g = window.codApp.game;
    return !last || (JSON.stringify(g.view) === last.view && document.querySelector("#game").dataset.seq === String(last.seq));
  });
  assert.ok(same, "once shown, the board is the view the server sent");
}

// The times at which one update's log lines appeared, relative to the first.
function revealTimes(rec, seq) {
  const lines = rec.logs.filter((l) => l.seq === seq);
  if (!lines.length) return [];
  return lines.map((l) => l.t - lines[0].t);
}

// Plays turns until `done(rec)` or the game's end (then Play again).
async function playUntil(page, done, { turns = 12 } = {}) {
  for (let i = 0; i < turns; i++) {
    const rec = await page.evaluate(() => window.__rec);
    if (done(rec)) return rec;
    const info = await gameInfo(page);
    if (info.phase === "game_over") {
      await page.waitForSelector("#result:not([hidden]) #play-again");
      await page.click("#play-again");
      await page.waitForFunction(() => document.body.dataset.screen === "game" && window.codApp.game.view && window.codApp.game.view.phase !== "game_over");
      await page.waitForSelector("#motion-toggle");
      await listenUpdates(page);
      continue;
    }
    if (!info.myTurn && !info.banner) {
      // The turn shown (a banner is put away by playTurnByClicking).
      await page.waitForFunction(() => window.codApp.game.turnIsMine() || window.codApp.game.view.phase === "game_over", null, { timeout: 15000 });
      continue;
    }
    await playTurnByClicking(page, { maxPlays: 2 });
    await settledOnServerView(page);
  }
  return page.evaluate(() => window.__rec);
}

const AI_MOVE = /^AI( \d)? (plays|casts) |attacks /;

test("motion: the AI's turn revealed step by step, damage numbers, the live region", async () => {
  const page = await startSolo();
  assert.equal(await page.getAttribute("#motion-toggle", "aria-pressed"), "true");
  // Seen: an update of the AI's turn shown in several steps, a damage
  // number, the AI's moves and "Your turn." said.
  const paced = (rec) => rec.updates.filter((u) => u.types.includes("ai_revealed"))
    .map((u) => ({ seq: u.seq, times: revealTimes(rec, u.seq) }))
    .filter((u) => new Set(u.times).size >= 3);
  const enough = (rec) => paced(rec).length > 0
    && rec.floats.some((f) => /damage/.test(f.kind))
    && rec.said.some((s) => AI_MOVE.test(s.text))
    && rec.said.some((s) => s.text.includes("Your turn."));
  // A screenshot of the first damage number while it floats.
  const shot = page.waitForSelector(".mo-layer .mo-float.damage", { timeout: 120000 })
    .then(() => page.screenshot({ path: artifact("motion-step.png"), fullPage: true })).catch(() => {});
  const rec = await playUntil(page, enough);
  await shot;
  for (const u of paced(rec)) console.log(`update ${u.seq}: ${u.times.length} log lines at ${u.times.join(", ")} ms`);
  assert.ok(paced(rec).length > 0, "an AI turn's log lines appeared in several steps");
  const first = paced(rec)[0];
  assert.ok(first.times[first.times.length - 1] >= 600, `revealed over time: ${first.times.join(", ")}`);
  const damage = rec.floats.filter((f) => /damage/.test(f.kind));
  console.log(`damage numbers: ${damage.map((f) => f.text).join(" ")}`);
  assert.ok(damage.length > 0, "a damage number appeared");
  assert.ok(damage.every((f) => /^−\d+$/.test(f.text)), damage.map((f) => f.text).join(" "));
  assert.ok(rec.updates.some((u) => u.types.includes("damage_dealt") || u.types.includes("stronghold_damaged")));
  // The live region: the AI's moves one step at a time, not the whole log.
  const said = rec.said.map((s) => s.text);
  console.log(`said (first 8): ${JSON.stringify(said.slice(0, 8))}`);
  assert.ok(said.some((s) => AI_MOVE.test(s)), "the AI's moves were said");
  assert.ok(said.includes("Your turn.") || said.some((s) => s.endsWith("Your turn.")), "Your turn. was said");
  assert.ok(said.length >= 3, "said in several announcements");
  assert.equal(await page.getAttribute("#announce", "aria-live"), "polite");
  await page.screenshot({ path: artifact("motion-marks.png"), fullPage: true });

  // Motion off from the toggle (kept in localStorage): the next AI turn
  // lands at once, without animation.
  await page.click("#motion-toggle");
  assert.equal(await page.getAttribute("#motion-toggle", "aria-pressed"), "false");
  assert.equal(await page.evaluate(() => localStorage.getItem("cod.motion")), "off");
  const before = await page.evaluate(() => ({ anims: window.__rec.anims, updates: window.__rec.updates.length, playing: window.__rec.playing }));
  const off = await playUntil(page, (r) => r.updates.slice(before.updates).some((u) => u.types.includes("ai_revealed")));
  const later = off.updates.slice(before.updates).filter((u) => u.types.includes("ai_revealed"));
  assert.ok(later.length > 0, "an AI turn with motion off");
  for (const u of later) assert.equal(new Set(revealTimes(off, u.seq)).size, 1, `update ${u.seq} landed at once`);
  assert.equal(off.anims, before.anims, "no animation with motion off");
  assert.equal(off.playing, before.playing, "nothing shown step by step");
  await page.click("#motion-toggle");
  assert.equal(await page.evaluate(() => localStorage.getItem("cod.motion")), "on");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("motion: prefers-reduced-motion lands everything at once, with no animation", async () => {
  const page = await startSolo({ reducedMotion: "reduce" });
  assert.equal(await page.isDisabled("#motion-toggle"), true);
  assert.equal(await page.getAttribute("#motion-toggle", "aria-pressed"), "false");
  const rec = await playUntil(page, (r) => r.updates.filter((u) => u.types.includes("ai_revealed")).length >= 2
    && r.said.some((s) => AI_MOVE.test(s.text)));
  const ai = rec.updates.filter((u) => u.types.includes("ai_revealed"));
  assert.ok(ai.length >= 1, "the AI played");
  for (const u of ai) {
    const times = revealTimes(rec, u.seq);
    console.log(`reduced motion, update ${u.seq}: ${times.length} log lines at ${times.join(", ")} ms`);
    assert.equal(new Set(times).size, 1, `update ${u.seq} landed at once`);
  }
  assert.equal(rec.anims, 0, "no animation element or class");
  assert.equal(rec.floats.length, 0, "no damage number");
  assert.equal(rec.playing, 0, "nothing shown step by step");
  // The live region still says the AI's moves (an update's at once) and the turn.
  assert.ok(rec.said.some((s) => AI_MOVE.test(s.text)), JSON.stringify(rec.said.slice(0, 4)));
  assert.ok(rec.said.some((s) => s.text.includes("Your turn.")));
  // Without motion the AI's turn lands at once: End turn clicked again 2 s
  // later meets the banner (up until 2.5 s after the first click) and only
  // puts it away (issue 30, item 1).
  await page.waitForFunction(() => window.codApp.game.view.phase === "game_over" || (window.codApp.game.isMyTurn() && window.codApp.game.legal));
  if ((await gameInfo(page)).phase !== "game_over") {
    await awake(page);
    await page.evaluate(() => {
      window.__ends = 0;
      window.codApp.conn.on("sent", (m) => { if (m.type === "act") window.__ends++; });
    });
    const turn = await page.evaluate(() => window.codApp.game.view.turn);
    const b = await page.locator("#end-turn").boundingBox();
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    await page.waitForTimeout(2000);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({ ends: window.__ends, turn: window.codApp.game.view.turn, phase: window.codApp.game.view.phase }));
    console.log(`reduced motion, End turn twice 2 s apart: turn ${turn} -> ${after.turn}, ${after.ends} act(s)`);
    assert.equal(after.ends, 1, "the second click sent nothing");
    if (after.phase !== "game_over") assert.equal(after.turn, turn + 2, "the player is on their next turn");
  }
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

// Issue 30, item 1: End turn clicked twice against the AI. The reply to the
// first holds the AI's whole turn; the second click, 0.3 to 2 s later, only
// skips the AI's motion or puts the "Your turn" banner away: the player is
// on their next turn, which they have been shown. Then an act names the
// frame on screen when its click began: pressed on End turn, a play lands
// (from the same seat's connection) before the release: the end_turn names
// the old frame and is refused with stale_action, the turn goes on.
test("motion: End turn twice (0.3, 0.6, 1, 2 s apart) ends one turn; the banner shows the next; an act names the frame it was pressed on", async () => {
  const page = await startSolo();
  await page.evaluate(() => {
    window.__acts = [];
    window.__banners = 0;
    // Whose turn the view shows, banner or not (isMyTurn in a client without turn.js).
    window.__shownMine = () => { const g = window.codApp.game; return (g.turnIsMine || g.isMyTurn).call(g); };
    new MutationObserver(() => { if (document.querySelector("#game").dataset.banner) window.__banners++; })
      .observe(document.querySelector("#game"), { attributes: true, attributeFilter: ["data-banner"] });
  });
  // The acts the page sends (its connection may be another after Play again).
  const listenActs = () => page.evaluate(() => {
    const conn = window.codApp.conn;
    if (conn.__acts) return;
    conn.__acts = true;
    conn.on("sent", (m) => { if (m.type === "act") window.__acts.push({ action: m.action, seq: m.seq }); });
  });
  // The player's turn, awake; a new game first if the last one is over.
  const myTurn = async () => {
    const turn = () => page.waitForFunction(() => {
      const g = window.codApp.game;
      return g.view && (g.view.phase === "game_over" || (g.isMyTurn() && g.legal));
    }, null, { timeout: 20000 });
    await listenActs();
    await turn();
    if ((await gameInfo(page)).phase === "game_over") {
      await page.click("#result:not([hidden]) #play-again");
      await page.waitForFunction(() => document.body.dataset.screen === "game" && window.codApp.game.view && window.codApp.game.view.phase !== "game_over");
      await page.waitForSelector("#motion-toggle");
      await listenActs();
      await turn();
    }
    await awake(page);
  };
  page.on("dialog", (d) => d.accept()); // leaving a live match asks first
  // A new game when this one is late (the AI may win on its next turn:
  // the player plays nothing here).
  const early = async () => {
    await myTurn();
    if ((await page.evaluate(() => window.codApp.game.view.turn)) < 5) return;
    await page.click("#leave-room");
    await page.waitForSelector("#play-ai");
    await page.click("#play-ai");
    await waitForGame(page);
    await page.waitForSelector("#motion-toggle");
    await myTurn();
  };
  const gaps = [2000, 1000, 600, 300];
  for (let tries = 0; gaps.length; tries++) {
    assert.ok(tries < 8, "every gap tried on a live turn");
    const gap = gaps[0];
    await early();
    const before = await page.evaluate(() => ({ turn: window.codApp.game.view.turn, acts: window.__acts.length, banners: window.__banners }));
    const b = await page.locator("#end-turn").boundingBox();
    const x = b.x + b.width / 2;
    const y = b.y + b.height / 2;
    await page.mouse.click(x, y);
    await page.waitForTimeout(gap);
    await page.mouse.click(x, y);
    await settled(page);
    await page.waitForFunction(() => window.codApp.game.view.phase === "game_over" || window.__shownMine());
    const after = await page.evaluate(() => ({
      turn: window.codApp.game.view.turn, phase: window.codApp.game.view.phase, mine: window.__shownMine(),
      acts: window.__acts.slice(), banners: window.__banners,
    }));
    const sent = after.acts.slice(before.acts);
    console.log(`End turn twice ${gap} ms apart: turn ${before.turn} -> ${after.turn}, acts ${JSON.stringify(sent)}`);
    assert.deepEqual(sent.map((a) => a.action.type), ["end_turn"], `the second click (${gap} ms) sent nothing`);
    if (after.phase === "game_over") continue; // the AI won on its turn: the same gap again, in a new game
    gaps.shift();
    assert.ok(after.mine, "the player's turn");
    assert.equal(after.turn, before.turn + 2, `the player is on their next turn (${gap} ms)`);
    assert.ok(after.banners > before.banners, "the Your turn banner was shown");
  }
  // Pressed on End turn at frame n; a play lands and is shown; released:
  // the end_turn names n and is refused.
  await myTurn();
  const plan = await page.evaluate(() => {
    const g = window.codApp.game;
    const p = g.legal && g.legal.plays.find((x) => (x.lines || []).length);
    return g.isMyTurn() && p ? { card: p.card, line: p.lines[0], seq: g.seq, turn: g.view.turn } : null;
  });
  if (plan) {
    const b = await page.locator("#end-turn").boundingBox();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.evaluate((p) => window.codApp.conn.request("act", { action: { type: "play", card: p.card, line: p.line }, seq: p.seq }), plan);
    await page.waitForFunction((s) => window.codApp.game.seq === s + 1 && !document.querySelector("#game").dataset.motion, plan.seq);
    const acts = await page.evaluate(() => window.__acts.length);
    await page.mouse.up();
    await page.waitForFunction(() => !document.querySelector("#error").hidden);
    const refused = await page.evaluate(() => ({ code: document.querySelector("#error").dataset.code, act: window.__acts.at(-1), n: window.__acts.length,
      turn: window.codApp.game.view.turn, mine: window.codApp.game.isMyTurn(), enabled: !document.querySelector("#end-turn").disabled }));
    console.log(`pressed at seq ${plan.seq}, released at seq ${plan.seq + 1}: ${JSON.stringify(refused)}`);
    assert.equal(refused.n, acts + 1);
    assert.deepEqual(refused.act, { action: { type: "end_turn" }, seq: plan.seq }, "the act names the frame it was pressed on");
    assert.equal(refused.code, "stale_action");
    assert.equal(refused.turn, plan.turn, "the turn goes on");
    assert.ok(refused.mine && refused.enabled, "the offers come back");
    await page.click("#error button");
  } else {
    assert.fail("no creature to play for the stale-frame check");
  }
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});
