// Accessibility of the web client (issue 17, items 8 and 11): an automated
// WCAG 2.1 AA scan (axe-core, from the npm registry, injected into the page)
// of the lobby, the waiting room, a solo game mid-game with a card chosen,
// the result dialog and the draft screen; the card faces (ability texts by
// click, tap and keyboard, never choosing the card; AV X explained; long
// names not broken inside a word); and a whole solo game played with the
// keyboard alone, a targeted incantation included. Every violation found is
// printed; a serious or critical one fails.
import { createHash } from "node:crypto";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { startServer, launchBrowser, openClient, artifact, gameInfo, playTurnByClicking, waitForGame, createRoom, joinFromLobby, awake } from "./lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let server;
let browser;
const scanned = []; // {where, violations}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (scanned.length) {
    console.log("axe-core, WCAG 2.1 A and AA rules, violations by screen:");
    for (const s of scanned) console.log(`  ${s.where}: ${s.violations.length ? s.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(", ") : "none"}`);
  }
  if (browser) await browser.close();
  if (server) await server.stop();
});

// Runs axe-core on the page as it is; prints every violation; fails on a
// serious or critical one.
async function scan(page, where) {
  // The page at rest: motion's floating numbers fade out within a second
  // (decorative and aria-hidden; the live region says what they show), and
  // a fading text cannot meet any contrast ratio.
  await page.waitForFunction(() => !document.querySelector(".mo-float, .mo-copy") &&
    !(document.querySelector("#game") && document.querySelector("#game").dataset.motion), null, { timeout: 15000 });
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
  });
  scanned.push({ where, violations });
  for (const v of violations) {
    console.log(`axe ${where}: [${v.impact}] ${v.id}: ${v.help}`);
    for (const n of v.nodes.slice(0, 6)) console.log(`    ${n.target}: ${n.summary.replace(/\s+/g, " ").slice(0, 240)}`);
  }
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`), [], `no serious or critical violation on ${where}`);
}

// The keyboard alone: Tab (or Shift+Tab) until the focus is on an element
// matching `selector`; returns whether it got there.
async function tabTo(page, selector, max = 200) {
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < max; i++) {
      if (await page.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), selector)) return true;
      await page.keyboard.press(key);
    }
  }
  return false;
}

function recordActs(page) {
  return page.evaluate(() => {
    window.__acts = [];
    if (window.__actsConn === window.codApp.conn) return;
    window.__actsConn = window.codApp.conn;
    window.codApp.conn.on("sent", (m) => { if (m.type === "act") window.__acts.push(m.action); });
  });
}

const acts = (page) => page.evaluate(() => window.__acts);

test("axe: the lobby, the waiting room, a solo game with a card chosen, the result dialog", async () => {
  const page = await openClient(browser, server, { name: "Ada", deck: 1 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await scan(page, "lobby");

  await createRoom(page, { mode: "duel" });
  await scan(page, "waiting room");
  await page.click("#waiting-leave");
  await page.waitForFunction(() => document.body.dataset.screen === "lobby");

  await page.click("#play-ai");
  await waitForGame(page);
  await page.waitForFunction(() => window.codApp.game.isMyTurn());
  // Mid-game: a few turns played, then a card chosen (an incantation with
  // its targets shown when there is one).
  const deadline = Date.now() + 60000;
  let chosen = null;
  for (let turn = 0; Date.now() < deadline; turn++) {
    const info = await gameInfo(page);
    if (info.phase === "game_over") break;
    if (info.banner) { // a new turn's banner: a key puts it away
      await awake(page);
      continue;
    }
    if (!info.myTurn) {
      await page.waitForTimeout(50);
      continue;
    }
    const plays = await page.evaluate(() => window.codApp.game.legal.plays.map((p) => ({ card: p.card, targets: (p.targets || []).length })));
    const spell = plays.find((p) => p.targets);
    if (spell || (turn >= 2 && plays.length)) {
      chosen = spell || plays[0];
      break;
    }
    await playTurnByClicking(page, { maxPlays: 2 });
  }
  assert.ok(chosen, "a card to choose mid-game");
  await page.click(`#hand .card[data-uid="${chosen.card}"]`);
  await page.waitForSelector("#prompt:not([hidden])");
  assert.equal(await page.getAttribute(`#hand .card[data-uid="${chosen.card}"]`, "aria-pressed"), "true");
  assert.match(await page.textContent(`#hand .card[data-uid="${chosen.card}"] .mark`), /chosen/);
  if (chosen.targets) assert.ok((await page.locator(".creature.targetable .mark").count()) >= 1, "targets say so in words");
  await page.screenshot({ path: artifact("a11y-game.png"), fullPage: true });
  await scan(page, `solo game, ${chosen.targets ? "an incantation" : "a card"} chosen`);
  // An ability's explanation open.
  const ability = page.locator("button.ability").first();
  if (await ability.count()) {
    await ability.click();
    await page.waitForSelector("#ability-tip:not([hidden])");
    await scan(page, "solo game, an ability explained");
    await page.keyboard.press("Escape");
  }
  await page.keyboard.press("Escape");

  // The result dialog (a concession: the game's own end is played to it below).
  page.once("dialog", (d) => d.accept());
  await page.click("#concede");
  await page.waitForSelector("#result:not([hidden])");
  await scan(page, "result dialog");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("card faces: ability texts by tap, click and keyboard never choose the card; AV X explained; the draft screen scanned", async () => {
  // A phone with a touch screen: a tap opens the explanation.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  page.on("pageerror", (e) => { page.jsErrors = (page.jsErrors || []).concat(String(e)); });
  await page.goto(`${server.url}/play/`);
  await page.waitForSelector("#room-list");
  await page.fill("#player-name", "Tia");
  await page.selectOption("#deck-kind", "pre1");
  await page.tap("#play-ai");
  await waitForGame(page);
  await page.waitForFunction(() => window.codApp.game.isMyTurn());
  await recordActs(page);
  const texts = await page.evaluate(() => Object.fromEntries([...window.codApp.cat.abilities.keys()].map((a) => [a, window.codApp.cat.abilityText(a)])));

  // A hand card's ability: tapped, its text under it; the card not chosen.
  const btn = page.locator("#hand button.ability").first();
  const key = await btn.getAttribute("data-ability-key");
  await btn.tap();
  await page.waitForSelector("#ability-tip:not([hidden])");
  assert.ok((await page.textContent("#ability-tip")).includes(texts[key.replace("+aura", "")]), "the tip says the ability's text");
  assert.equal(await btn.getAttribute("aria-expanded"), "true");
  assert.equal(await btn.getAttribute("aria-describedby"), "ability-tip");
  assert.equal(await page.evaluate(() => window.codApp.game.selected), null, "the card is not chosen");
  assert.equal(await page.locator("#prompt:not([hidden])").count(), 0);
  await page.screenshot({ path: artifact("ability-tip-phone.png"), fullPage: false });
  // A second tap closes it.
  await btn.tap();
  await page.waitForSelector("#ability-tip", { state: "hidden" });
  assert.equal(await btn.getAttribute("aria-expanded"), "false");
  // The keyboard: Enter opens, Escape closes and leaves the focus on the label.
  await btn.focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("#ability-tip:not([hidden])");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#ability-tip", { state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.dataset.abilityKey), key);
  // Opened while a card is chosen, Escape closes the explanation only.
  const uid = await page.locator("#hand .card.affordable").first().getAttribute("data-uid");
  await page.tap(`#hand .card[data-uid="${uid}"]`);
  await page.waitForSelector("#prompt:not([hidden])");
  await btn.focus();
  await page.keyboard.press("Space");
  await page.waitForSelector("#ability-tip:not([hidden])");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#ability-tip", { state: "hidden" });
  assert.equal(String(await page.evaluate(() => window.codApp.game.selected)), uid, "the choice stays");

  // On the board: with an incantation chosen, a target's ability label
  // explains and does not cast on it. Turns are played until it is seen.
  let boardChecked = false;
  const deadline = Date.now() + 90000;
  await page.tap("#cancel-play");
  while (!boardChecked && Date.now() < deadline) {
    const info = await gameInfo(page);
    if (info.phase === "game_over") {
      await page.tap("#play-again");
      await page.waitForFunction(() => window.codApp.game.view && window.codApp.game.view.turn <= 2 && window.codApp.game.isMyTurn(), null, { timeout: 15000 });
      await recordActs(page);
      continue;
    }
    if (info.banner) { // a new turn's banner: a key puts it away
      await awake(page);
      continue;
    }
    if (!info.myTurn) {
      await page.waitForTimeout(50);
      continue;
    }
    const spell = await page.evaluate(() => window.codApp.game.legal.plays.find((p) => (p.targets || []).length)?.card);
    if (spell !== undefined) {
      await page.tap(`#hand .card[data-uid="${spell}"]`);
      // (A tap chooses at once: the preview's growth above the hand must not
      // move the card from under the finger before the click.)
      await page.waitForSelector("#prompt:not([hidden])", { timeout: 5000 });
      const label = page.locator(".creature-face:has(.creature.targetable) button.ability").first();
      if (await label.count()) {
        const before = (await acts(page)).length;
        const seq = (await gameInfo(page)).seq;
        await label.tap();
        await page.waitForSelector("#ability-tip:not([hidden])");
        await page.waitForTimeout(300);
        assert.equal((await acts(page)).length, before, "no act sent");
        assert.equal((await gameInfo(page)).seq, seq);
        assert.equal(String(await page.evaluate(() => window.codApp.game.selected)), String(spell), "still chosen");
        boardChecked = true;
        break;
      }
      await page.tap("#cancel-play");
    }
    await playTurnByClicking(page, { maxPlays: 2 });
  }
  assert.ok(boardChecked, "a creature's ability label on the board was tapped with an incantation chosen");
  assert.deepEqual(page.jsErrors || [], []);
  await context.close();

  // The draft screen: an instant-constructed duel shows the whole pool of
  // Deliquescence (six creatures whose AV is X).
  const cyd = await openClient(browser, server, { name: "Cyd" });
  const dee = await openClient(browser, server, { name: "Dee" });
  const room = await createRoom(cyd, { mode: "duel", format: "instant_constructed", packs: ["deliquescence"] });
  await joinFromLobby(dee, room);
  await cyd.waitForFunction(() => document.body.dataset.screen === "draft" && document.querySelectorAll("#draft-offer .draft-card").length > 0);
  await cyd.setViewportSize({ width: 1280, height: 800 });
  await scan(cyd, "draft screen");
  const xCards = await cyd.evaluate(() => [...document.querySelectorAll("#draft-offer .draft-card")]
    .filter((b) => window.codApp.cat.card(b.dataset.cardId).av === null).map((b) => b.dataset.cardId));
  assert.ok(xCards.length >= 1, "cards whose AV is X are on offer");
  for (const id of xCards) {
    const face = cyd.locator(`.draft-face:has(.draft-card[data-card-id="${id}"])`).first();
    assert.match(await face.locator(".draft-card .cstats").textContent(), /AV X/);
    await face.locator('button.ability[data-ability-key="av-x"]').click();
    await cyd.waitForSelector("#ability-tip:not([hidden])");
    assert.match(await cyd.textContent("#ability-tip"), /AV X = the target's remaining health − 1/);
    assert.equal(await cyd.evaluate((i) => window.codApp.draft.selected.includes(i), id), false, "the card is not chosen");
  }
  await cyd.screenshot({ path: artifact("draft-av-x.png"), fullPage: false });
  await cyd.keyboard.press("Escape");

  // No card name of the catalogue breaks inside a word, on a card in hand
  // (or on offer) or on a creature in play: every word on one line.
  const broken = await cyd.evaluate(async () => {
    const { nameSize } = await import("/play/js/abilities.js");
    const out = [];
    const host = document.createElement("div");
    host.style.cssText = "position:absolute;left:0;top:0;display:flex;flex-wrap:wrap;gap:4px";
    document.body.append(host);
    for (const c of window.codApp.cat.cards.values()) {
      const size = nameSize(c.name).replace(".", "");
      const card = document.createElement("button");
      card.className = "card playable";
      card.innerHTML = `<span class="cost">9</span><span class="cname ${size}"></span>`;
      const creature = document.createElement("div");
      creature.className = "creature";
      creature.innerHTML = `<div class="cname ${size}"></div>`;
      for (const el of [card, creature]) {
        el.querySelector(".cname").textContent = c.name;
        host.append(el);
        const text = el.querySelector(".cname").firstChild;
        let at = 0;
        for (const word of c.name.split(" ")) {
          const r = document.createRange();
          r.setStart(text, at);
          r.setEnd(text, at + word.length);
          if (r.getClientRects().length > 1) out.push(`${el.className}: ${c.name} (${word})`);
          at += word.length + 1;
        }
      }
    }
    host.remove();
    return out;
  });
  assert.deepEqual(broken, [], "no name broken inside a word");
  assert.deepEqual(cyd.jsErrors || [], []);
  await cyd.context().close();
  await dee.context().close();
});

test("the keyboard alone: a whole solo game, a targeted incantation cast", async () => {
  const page = await openClient(browser, server, { name: "Kim", deck: 1 }); // deck 1: BOOM and ANNIHILATION, incantations
  // A quick game with the form's deck, not the guided first game (its own deal, deck 2).
  await page.evaluate(() => window.localStorage.setItem("cod.coached", "1"));
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on("dialog", (d) => d.accept());
  assert.ok(await tabTo(page, "#play-ai"), "Play against the AI now by Tab");
  await page.keyboard.press("Enter");
  await waitForGame(page);
  await recordActs(page);

  let cast = 0; // incantations cast on a target by the keyboard
  let plays = 0;
  let ended = null; // how the last game ended
  let games = 1;
  const deadline = Date.now() + 180000;
  while (Date.now() < deadline) {
    const info = await gameInfo(page);
    if (info.phase === "game_over") {
      ended = await page.evaluate(() => {
        const v = window.codApp.game.view;
        return `${v.reason}, ${v.winners.includes(v.viewer) ? "won" : "lost"} on turn ${v.turn}`;
      });
      if (cast) break;
      // No incantation could be cast in this one: another, from the result
      // dialog's Play again, by the keyboard too.
      assert.ok(await tabTo(page, "#play-again"));
      const room = await page.evaluate(() => window.codApp.room.id);
      await page.keyboard.press("Enter");
      await page.waitForFunction((r) => window.codApp.room.id !== r && window.codApp.game.view && window.codApp.game.view.phase !== "game_over", room);
      await recordActs(page);
      games++;
      continue;
    }
    if (info.banner) { // a new turn's banner: a key puts it away
      await awake(page);
      continue;
    }
    if (!info.myTurn) {
      await page.waitForTimeout(50);
      continue;
    }
    // The first listed card, an incantation with a target before others.
    const plan = await page.evaluate(() => {
      const g = window.codApp.game;
      const v = g.view;
      const enemy = (t) => v.lines.some((l) => l.sides.some((s) => s.seat !== v.viewer && s.creatures.some((c) => c.uid === t)));
      if (!g.legal) return { wait: true };
      const plays = g.legal.plays;
      const spell = plays.find((p) => (p.targets || []).some(enemy));
      const p = spell || plays.find((x) => (x.lines || []).length);
      return p ? { card: p.card, target: spell ? p.targets.find(enemy) : null } : null;
    });
    if (plan && plan.wait) {
      await page.waitForTimeout(50);
      continue;
    }
    if (!plan) {
      assert.ok(await tabTo(page, "#end-turn:not(:disabled)"), "End the summoning phase by Tab");
      await page.keyboard.press("Enter");
      await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s, info.seq);
      continue;
    }
    assert.ok(await tabTo(page, `#hand .card[data-uid="${plan.card}"]`), `card ${plan.card} by Tab`);
    await page.keyboard.press("Enter");
    if (plan.target !== null) {
      assert.ok(await tabTo(page, `.creature.targetable[data-uid="${plan.target}"]`), "the target by Tab");
      await page.keyboard.press("Enter");
    } else {
      // The focus is on the first line offered: Enter plays there.
      assert.ok(await page.evaluate(() => document.activeElement.matches("button.play-line")));
      await page.keyboard.press(" ");
    }
    await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s || !document.querySelector("#error").hidden, info.seq);
    if (!(await page.locator("#error").isHidden())) {
      await tabTo(page, "#error button");
      await page.keyboard.press("Enter");
      continue;
    }
    plays++;
    if (plan.target !== null) {
      const last = (await acts(page)).at(-1);
      assert.deepEqual(last, { type: "play", card: plan.card, target: plan.target });
      cast++;
    }
  }
  console.log(`keyboard alone: ${games} game(s), ${plays} plays, ${cast} incantation(s) cast on a target; the last game ended: ${ended}`);
  assert.ok(cast >= 1, "an incantation was cast on a target from the keyboard");
  assert.ok(ended, "the game was played to its end");
  assert.ok((await acts(page)).every((a) => a.type !== "concede"), "no concession");
  await page.screenshot({ path: artifact("keyboard-over.png"), fullPage: true });
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("the guided first game: a newcomer who does what the coach says wins it; shown once, until hidden", async () => {
  const t0 = Date.now();
  const page = await openClient(browser, server, { name: "Gus", deck: 1 });
  // Each update at once (motion.js): the same game, in less test time.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const loaded = [];
  page.on("request", (r) => loaded.push(new URL(r.url()).pathname));
  assert.equal(await page.evaluate(() => window.localStorage.getItem("cod.coached")), null);
  assert.ok(!loaded.includes("/play/js/coach.js"), "not part of the first visit");
  await page.click("#play-ai");
  await waitForGame(page);
  await page.waitForSelector("#coach");
  assert.ok(loaded.includes("/play/js/coach.js"), "loaded by the button");
  // The chosen deal (guided.js): quick play, its seed and its deck.
  // (The server's seed commitment is the SHA-256 of the chosen seed; "Play
  // again" asks for a fresh deal.)
  assert.equal(await page.evaluate(() => window.codApp.seedHash), createHash("sha256").update("136").digest("hex"));
  assert.deepEqual(await page.evaluate(() => window.codApp.lastCreate.req.options), {});
  const hand = await page.evaluate(() => window.codApp.game.view.hand.map((c) => c.card_id).sort());
  assert.deepEqual(hand, ["abomination", "alpha", "combustion", "lieutenant", "microctopus", "ogre", "scribe", "shaman"], "deck 2");
  assert.equal(await page.getAttribute("#coach-text", "role"), "status");
  // The AI's health is its deck: said beside it, and in the coach's first words.
  assert.match(await page.textContent('.seat-box[data-seat="1"] .stronghold'), /health 24 = its deck/);
  await page.waitForFunction(() => window.codApp.game.isMyTurn() && ["card", "end"].includes(document.querySelector("#coach").dataset.step));
  assert.match(await page.textContent("#coach"), /The AI's health is its deck/);
  // A reload in the guided game keeps it: the tips come back.
  await page.reload();
  await waitForGame(page);
  await page.waitForFunction(() => {
    const coach = document.querySelector("#coach");
    return coach && (!!document.querySelector("#game").dataset.banner || ["card", "end"].includes(coach.dataset.step));
  }, null, { timeout: 20000 });

  // Follow the coach, and only the coach: click what it marks (➜), until
  // the end. Every idea it teaches is said at least once.
  const ideas = new Set();
  const deadline = Date.now() + 90000;
  let moves = 0;
  for (;;) {
    assert.ok(Date.now() < deadline, `the guided game ends in time (ideas ${[...ideas]})`);
    await page.waitForFunction(() => {
      const g = window.codApp.game;
      const step = document.querySelector("#coach").dataset.step;
      return g.view.phase === "game_over" || !!document.querySelector("#game").dataset.banner ||
        (g.isMyTurn() && g.legal && ["card", "end"].includes(step) && document.querySelector(".coach-next"));
    }, null, { timeout: 20000 });
    const info = await gameInfo(page);
    if (info.phase === "game_over") break;
    if (info.banner) { // a new turn's "Your turn" banner (turn.js): a key puts it away
      await awake(page);
      continue;
    }
    const idea = await page.getAttribute("#coach", "data-idea");
    if (!ideas.has(idea) && idea === "block") await page.screenshot({ path: artifact("coach-block.png"), fullPage: false });
    ideas.add(idea);
    const text = await page.textContent("#coach-text");
    if (idea === "end") {
      assert.match(text, /End the summoning phase/);
      assert.equal(await page.locator("#end-turn.coach-next").count(), 1);
      await page.click("#end-turn.coach-next");
    } else {
      assert.match(text, { kill: /Destroy the AI's .* costs no health/, block: /Block your (upper|lower) line with/, free: /left of your Stronghold/ }[idea]);
      await page.click("#hand .coach-next");
      await page.waitForFunction(() => ["line", "target"].includes(document.querySelector("#coach").dataset.step) && document.querySelector(".coach-next"));
      assert.match(await page.textContent("#coach-text"), /Now (your (upper|lower) line|the AI's)/);
      await page.click(".coach-next");
    }
    moves++;
    await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s, info.seq);
  }
  const view = await page.evaluate(() => window.codApp.game.view);
  assert.deepEqual(view.winners, [0], "the newcomer wins the guided game");
  await page.waitForFunction(() => document.querySelector("#coach").dataset.step === "over");
  assert.match(await page.textContent("#coach"), /You won/);
  for (const i of ["kill", "block", "end"]) assert.ok(ideas.has(i), `the coach taught ${i}`);
  console.log(`guided game: won in round ${view.round} in ${moves} moves (ideas ${[...ideas].join(", ")}), ${Date.now() - t0} ms`);
  await page.screenshot({ path: artifact("coach.png"), fullPage: false });
  // The game's end sets the flag: the next quick game is an ordinary one.
  assert.equal(await page.evaluate(() => window.localStorage.getItem("cod.coached")), "1");
  await page.click("#result-lobby");
  await page.waitForFunction(() => document.body.dataset.screen === "lobby");
  await page.click("#play-ai");
  await waitForGame(page);
  await page.waitForFunction(() => window.codApp.game.view && window.codApp.game.view.turn >= 1);
  await page.waitForTimeout(300);
  assert.equal(await page.locator("#coach").count(), 0, "the tips are shown once");
  assert.deepEqual(await page.evaluate(() => window.codApp.lastCreate.req.options), {}, "a fresh deal");
  page.once("dialog", (d) => d.accept());
  await page.click("#concede");
  await page.waitForSelector("#result:not([hidden])");

  // Hide the tips: gone for good.
  await page.evaluate(() => window.localStorage.removeItem("cod.coached"));
  await page.click("#result-lobby");
  await page.waitForFunction(() => document.body.dataset.screen === "lobby");
  await page.click("#play-ai");
  await waitForGame(page);
  await page.waitForSelector("#coach");
  await page.click("#coach-hide");
  assert.equal(await page.locator("#coach").count(), 0);
  assert.equal(await page.locator(".coach-next").count(), 0);
  assert.equal(await page.evaluate(() => window.localStorage.getItem("cod.coached")), "1");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

// Issue 30, item 7: Tab goes from card to card (the ability labels are no
// stops: ArrowDown goes to them, ArrowUp back); keys 1-9 choose the cards a
// click can play, E ends the summoning phase; after a play the focus goes to
// the next card that can be played, not to <body>; the key that puts a new
// turn's banner away does nothing else.
test("keys: Tab card to card past the ability labels, 1-9 and E, the focus after a play", async () => {
  const page = await openClient(browser, server, { name: "Kai", deck: 1 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click("#play-ai");
  await waitForGame(page);
  await recordActs(page);
  await page.waitForFunction(() => window.codApp.game.isMyTurn() && window.codApp.game.legal);
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return { tag: e.tagName, id: e.id, uid: e.dataset.uid || null, ability: e.matches("button.ability"), card: e.matches("#hand .card"),
      affordable: e.matches("#hand .card.affordable"), body: e === document.body };
  });
  // Tab through the hand: card after card, never an ability label.
  const uids = await page.$$eval("#hand .card[data-uid]", (els) => els.map((e) => e.dataset.uid));
  assert.ok(uids.length >= 3);
  assert.ok(await page.$$eval("#hand button.ability", (els) => els.length > 0 && els.every((b) => b.tabIndex < 0)), "hand labels are no Tab stops");
  await page.focus(`#hand .card[data-uid="${uids[0]}"]`);
  for (const uid of uids.slice(1)) {
    await page.keyboard.press("Tab");
    const f = await focused();
    assert.equal(f.ability, false, "Tab skips the ability labels");
    assert.equal(f.uid, uid, "Tab goes to the next card");
  }
  // ArrowDown: the card's labels; ArrowRight along them; ArrowUp back.
  const withLabels = await page.$eval("#hand .hand-face", (f) => f.querySelector(".card").dataset.uid);
  await page.focus(`#hand .card[data-uid="${withLabels}"]`);
  await page.keyboard.press("ArrowDown");
  const first = await page.evaluate(() => document.activeElement.dataset.tipKey || null);
  assert.ok(first && first.startsWith(`hand:${withLabels}|`), `ArrowDown went to the card's first label: ${first}`);
  const count = await page.$$eval(`#hand .card[data-uid="${withLabels}"] + .ability-row button`, (els) => els.length);
  if (count > 1) {
    await page.keyboard.press("ArrowRight");
    assert.notEqual(await page.evaluate(() => document.activeElement.dataset.tipKey), first, "ArrowRight: the next label");
  }
  await page.keyboard.press("ArrowUp");
  assert.equal((await focused()).uid, withLabels, "ArrowUp: back on the card");
  // Board creatures: one Tab stop per row of labels.
  assert.ok(await page.$$eval("#board .ability-row", (rows) => rows.every((r) => [...r.children].filter((b) => b.tabIndex >= 0).length === 1)));

  // 1 chooses the first card a click can play; Escape drops it; 1 and the
  // focused option play it; the focus then goes to the next playable card.
  let played = false;
  for (let tries = 0; tries < 6 && !played; tries++) {
    const info = await gameInfo(page);
    if (info.phase === "game_over") break;
    await page.waitForFunction(() => window.codApp.game.isMyTurn() && window.codApp.game.legal && !document.querySelector("#game").dataset.banner);
    const firstUid = await page.$eval("#hand .card.affordable", (e) => e.dataset.uid).catch(() => null);
    if (!firstUid) {
      await page.keyboard.press("e");
      await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s, info.seq);
      continue;
    }
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press("1");
    assert.equal(await page.getAttribute(`#hand .card[data-uid="${firstUid}"]`, "aria-pressed"), "true", "1 chose the first playable card");
    await page.keyboard.press("Escape");
    assert.equal(await page.getAttribute(`#hand .card[data-uid="${firstUid}"]`, "aria-pressed"), "false");
    await page.keyboard.press("1");
    const option = await page.evaluate(() => document.activeElement.matches("button.play-line, .creature.targetable, .creature.host-option"));
    assert.ok(option, "the focus is on the card's first option");
    await page.keyboard.press("Enter");
    const outcome = await page.waitForFunction((s) => {
      if (!document.querySelector("#error").hidden) return "error";
      return Number(document.querySelector("#game").dataset.seq) > s && !document.querySelector("#game").dataset.motion ? "update" : false;
    }, info.seq).then((h) => h.jsonValue());
    if (outcome === "error") {
      await page.click("#error button");
      continue;
    }
    await page.waitForFunction(() => document.activeElement !== document.body);
    const f = await focused();
    console.log(`after a play by keys, the focus: ${JSON.stringify(f)}`);
    assert.ok(f.affordable || f.id === "end-turn", `the focus on the next playable card or End turn: ${JSON.stringify(f)}`);
    played = true;
  }
  assert.ok(played, "a card played by keys");

  // E ends the summoning phase; on the next turn the first key only puts
  // the banner away (no act), the next E ends that turn.
  const info = await gameInfo(page);
  const before = (await acts(page)).length;
  await page.keyboard.press("e");
  await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s, info.seq);
  assert.deepEqual((await acts(page)).slice(before).map((a) => a.type), ["end_turn"], "E ended the summoning phase");
  await page.waitForFunction(() => document.querySelector("#game").dataset.banner || window.codApp.game.view.phase === "game_over", null, { timeout: 20000 });
  if ((await gameInfo(page)).phase !== "game_over") {
    assert.equal(await page.textContent("#turn-banner"), "Your turn");
    await page.keyboard.press("e");
    assert.equal(await page.evaluate(() => !!document.querySelector("#game").dataset.banner), false, "the key put the banner away");
    assert.equal((await acts(page)).length, before + 1, "and did nothing else");
    const seq = (await gameInfo(page)).seq;
    await page.keyboard.press("e");
    await page.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) > s, seq);
    assert.equal((await acts(page)).length, before + 2, "the next E ended the turn");
  }
  // The how-to lists the keys.
  await page.click("#how-to-play");
  await page.waitForSelector("#howto[open]");
  assert.match(await page.textContent("#howto"), /E ends the summoning phase; 1 to 9 choose/);
  await page.keyboard.press("Escape");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});
