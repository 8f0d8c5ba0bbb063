// The reference web client (server/web/play) in headless Chromium against the
// real cod-server: the lobby and its errors, a whole duel played by clicking
// in two browser contexts (with a page reload mid-game that resumes the seat),
// and a free-for-all's four lines. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startServer, launchBrowser, openClient, artifact, gameInfo, playTurnByClicking, waitForGame, screen,
  createRoom, joinFromLobby, waitForOutcome, startRelay, settled,
} from "./lib.mjs";

let server;
let browser;
let soloFinished = null; // the solo game's room, last seq and view

const ADMIN_TOKEN = "browser-test-admin-token-0123456789";

before(async () => {
  server = await startServer(["--admin-token", ADMIN_TOKEN]);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test("the page, its modules and the catalogue load; the lobby shows errors in words", async () => {
  const page = await openClient(browser, server, {});
  assert.equal(await screen(page), "lobby");
  assert.match(await page.textContent("#conn-state"), /connected to cod-server/);
  // Every mode the server offers can be chosen.
  const modes = await page.$$eval("#create-mode option", (o) => o.map((x) => x.value));
  assert.deepEqual(modes, ["duel", "ffa", "2v2", "solo", "coop"]);
  // Solo and co-op: preconstructed decks and quick play only from the form.
  await page.selectOption("#create-mode", "solo");
  assert.equal(await page.$eval("#create-format", (s) => s.value), "preconstructed");
  assert.equal(await page.$eval('#create-format option[value="constructed"]', (o) => o.disabled), true);
  assert.equal(await page.$eval("#opt-difficulty", (s) => s.disabled), false);
  await page.selectOption("#create-mode", "duel");
  assert.equal(await page.$eval("#opt-difficulty", (s) => s.disabled), true);

  // Ability texts read as the rules the server enforces (docs/rules.md):
  // Protection works each turn, not "during your turn" as the English print
  // says; no text shows the catalogue's *owner* markup.
  const texts = await page.evaluate(() => {
    const cat = window.codApp.cat;
    return Object.fromEntries([...cat.abilities.keys()].map((a) => [a, cat.abilityText(a)]));
  });
  assert.match(texts.protection, /^Each turn \(every player's turn\)/);
  for (const [a, t] of Object.entries(texts)) assert.doesNotMatch(t, /\*/, `${a}: ${t}`);

  // The chosen preconstructed deck, card by card (mana, AV/HP, abilities);
  // the Champions grouped by mana cost.
  const preview = await page.$$eval("#deck-preview li", (li) => li.map((x) => x.textContent));
  const deck1 = await page.evaluate(() => window.codApp.cat.deckCards(1).length);
  assert.equal(preview.length, deck1);
  for (const line of preview) assert.match(line, / \d+ mana, (AV|incantation)/);
  await page.selectOption("#deck-kind", "pre3");
  const deck3 = await page.evaluate(() => window.codApp.cat.deckCards(3).map((id) => window.codApp.cat.name(id)));
  assert.deepEqual((await page.$$eval("#deck-preview li strong", (s) => s.map((x) => x.textContent))), deck3);
  const groups = await page.$$eval("#champion optgroup", (g) => g.map((x) => x.label));
  assert.ok(groups.length >= 5 && groups.every((l) => / mana$/.test(l)), groups.join(", "));

  // The client's own check: no name.
  await page.click("#create-room");
  await page.waitForSelector("#error:not([hidden])");
  assert.match(await page.textContent("#error .text"), /Enter your name first/);

  // The server's refusal, in words: a constructed deck with an unknown card.
  await page.fill("#player-name", "Eve");
  await page.selectOption("#deck-kind", "cards");
  await page.fill("#deck-cards", "baron, brute, carapace, troll, revenant, partisan, annihilation, dragon");
  await page.selectOption("#create-format", "constructed");
  await page.click("#create-room");
  await page.waitForFunction(() => document.querySelector("#error").dataset.code === "bad_deck");
  const text = await page.textContent("#error .text");
  assert.match(text, /That deck is refused: a card is not in the catalogue/);
  assert.match(text, /dragon/); // the server's own sentence follows
  assert.equal(await screen(page), "lobby");
  // The room was created (the refusal was the join): it is listed, waiting.
  await page.click("#refresh-rooms");
  await page.waitForSelector("tr[data-status=waiting]");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("the first visit: under 300 KB of files, sent gzip-compressed; a second visit revalidates", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const files = [];
  page.on("response", (r) => files.push(r));
  await page.goto(`${server.url}/play/`, { waitUntil: "networkidle" });
  await page.waitForSelector("#room-list");
  let decoded = 0, wire = 0;
  const rows = [];
  for (const r of files) {
    if (!r.url().startsWith(server.url) || r.status() !== 200) continue;
    const body = (await r.body()).length;
    const sent = (await r.request().sizes()).responseBodySize;
    decoded += body;
    wire += sent;
    rows.push(`${new URL(r.url()).pathname} ${body} -> ${sent} ${r.headers()["content-encoding"] || "identity"}`);
  }
  console.log(`first visit: ${rows.length} files, ${decoded} bytes, ${wire} on the wire\n  ${rows.join("\n  ")}`);
  const catalogue = files.find((r) => r.url().endsWith("/play/catalogue.json"));
  assert.ok(catalogue, "the catalogue was fetched");
  assert.equal(catalogue.headers()["content-encoding"], "gzip");
  assert.ok(decoded < 300 * 1024, `first visit ${decoded} bytes`);
  assert.ok(wire < decoded / 2, `${wire} bytes on the wire for ${decoded}`);
  // A reload revalidates with the ETags: nothing is sent again.
  const again = [];
  page.on("response", (r) => again.push(r));
  await page.reload({ waitUntil: "networkidle" });
  const resent = again.filter((r) => r.url().startsWith(server.url) && r.status() === 200 && !r.fromServiceWorker());
  let resentBytes = 0;
  for (const r of resent) resentBytes += (await r.request().sizes()).responseBodySize;
  console.log(`reload: ${again.length} responses, ${resentBytes} body bytes sent again`);
  assert.ok(resentBytes < 4096, `a reload sent ${resentBytes} bytes again`);
  await context.close();
});

// The seq of each event line of the page's log, top to bottom.
function logSeqs(page) {
  return page.$$eval("#log li[data-seq]", (lines) => lines.map((l) => Number(l.dataset.seq)));
}

test("a duel played to the end by clicking in two browser contexts; a reload and a dropped connection mid-game resume the seat", async () => {
  const ann = await openClient(browser, server, { name: "Ann", deck: 1 });
  const bob = await openClient(browser, server, { name: "Bob", deck: 3 });
  // The WebSockets each page opens from now on (docs/cluster.md: a proxy
  // routes a room's connections by the room in their URL).
  const sockets = new Map([[ann, []], [bob, []]]);
  for (const [p, urls] of sockets) p.on("websocket", (ws) => urls.push(new URL(ws.url())));
  const roomOf = (url) => (url.pathname === "/ws" ? url.searchParams.get("room") : `not /ws: ${url}`);
  // The lobby's connection names no room.
  for (const p of [ann, bob]) assert.equal(roomOf(new URL(await p.evaluate(() => window.codApp.conn.url))), null);
  const room = await createRoom(ann, { mode: "duel" });
  assert.match(room, /^[A-Za-z0-9_-]+$/);
  await joinFromLobby(bob, room);
  await waitForGame(ann);
  await waitForGame(bob);
  // Joining (after creating it, for Ann) went over a connection for the room: /ws?room=ID.
  for (const p of [ann, bob]) {
    assert.deepEqual(sockets.get(p).map(roomOf), [room]);
    assert.equal(await p.evaluate(() => window.codApp.conn.url), sockets.get(p)[0].href);
  }

  // Both lines with their Bridge; two seats; a hand with the Stronghold in it.
  for (const p of [ann, bob]) {
    assert.equal(await p.locator("#board .line").count(), 2);
    assert.equal(await p.locator("#board .bridge").count(), 2);
    assert.equal(await p.locator("#seats .seat-box").count(), 2);
    assert.equal(await p.locator("#hand .stronghold-card").count(), 1);
    assert.ok((await p.locator("#hand .card.playable").count()) <= 4);
    assert.ok((await p.locator("#hand .card.playable").count()) >= 1);
    assert.match(await p.textContent("#seats"), /Ann/);
    assert.match(await p.textContent("#seats"), /Bob/);
    // The goal is in sight on the game screen (cues.js).
    await p.waitForSelector("#goal");
    assert.match(await p.textContent("#goal"), /Goal: push a Fort to the right end of its hand \(R4\.6\)/);
  }

  // Emotes (a fixed set: docs/protocol.md "emote"): Ann's shows on Bob's
  // screen and in both logs; Bob mutes them (remembered: the screen his
  // reconnection builds later keeps it) and sees no more; a flood is
  // refused by the server, said in words on Ann's screen.
  await ann.waitForSelector("#emote-open");
  await ann.click("#emote-open");
  assert.deepEqual(await ann.$$eval("#emote-menu button", (bs) => bs.map((b) => b.textContent)), ["Well played", "Good game", "Thinking…", "Oops"]);
  await ann.click('#emote-menu [data-emote="well_played"]');
  await bob.waitForFunction(() => !document.querySelector("#emote-toast").hidden && document.querySelector("#emote-toast").textContent === "Ann: Well played");
  await ann.waitForFunction(() => /Ann: “Well played”/.test(document.querySelector("#log").textContent));
  assert.match(await bob.textContent("#log"), /Ann: “Well played”/);
  await bob.click("#emote-open");
  await bob.check("#emote-mute");
  await bob.click("#emote-open");
  assert.equal(await bob.evaluate(() => window.localStorage.getItem("cod.emotes.muted")), "1");
  await ann.evaluate(() => { for (let i = 0; i < 4; i++) document.querySelector('#emote-menu [data-emote="oops"]').click(); });
  await ann.waitForFunction(() => document.querySelector("#emote-toast").textContent === "Easy: one emote a second.");
  await ann.waitForFunction(() => (document.querySelector("#log").textContent.match(/Ann: “Oops”/g) || []).length >= 1);
  await bob.waitForTimeout(300);
  assert.doesNotMatch(await bob.textContent("#log"), /Oops/, "muted: no emote shown");

  // The seat whose turn it is not gets the server's refusal in words.
  const annFirst = (await gameInfo(ann)).myTurn;
  const [first, second] = annFirst ? [ann, bob] : [bob, ann];
  assert.equal((await gameInfo(second)).myTurn, false);
  await second.click("#hand .card.playable >> nth=0");
  await second.waitForSelector("#prompt:not([hidden])");
  if (await second.$("#prompt [data-play-line]")) await second.click('#prompt [data-play-line="upper"]');
  else {
    // An incantation with no creature in play yet: end_turn is refused too.
    await second.click("#cancel-play");
    await second.evaluate(() => { document.querySelector("#end-turn").disabled = false; });
    await second.click("#end-turn");
  }
  await second.waitForFunction(() => document.querySelector("#error").dataset.code === "not_your_turn");
  assert.match(await second.textContent("#error .text"), /It is not your turn/);
  await second.click("#error button");

  const pages = [first, second];
  let turns = 0;
  let reloaded = false;
  let dropped = false;
  let titledTurn = false;
  let idleTurns = 0; // turns in a row in which nobody could play
  let stalled = false;
  const deadline = Date.now() + 150000;
  while (Date.now() < deadline) {
    const infos = await Promise.all(pages.map(gameInfo));
    if (infos.every((i) => i.phase === "game_over")) break;
    const active = pages.find((p, i) => infos[i].myTurn || infos[i].banner);
    if (!active) {
      await pages[0].waitForTimeout(50);
      continue;
    }
    // Without the exhaustion rule a duel can stall for good: hands of
    // incantations only and no creature in play to target (R3.2.4), so
    // the server lists no play for anyone, turn after turn. Only the stall
    // guard ends it (R17.25, exhaustion from the 40th turn), too late for
    // this test's clock; a player concedes.
    if (idleTurns >= 8 && reloaded && dropped) {
      stalled = true;
      active.once("dialog", (d) => d.accept());
      await active.click("#concede");
      await active.waitForFunction(() => document.querySelector("#game").dataset.phase === "game_over");
      continue;
    }
    // Idle only when the server listed no play at all for the seat (a listed
    // play the clicks failed to make is a failure, left to the deadline).
    const listed = await active.evaluate(() => (window.codApp.game.legal ? window.codApp.game.legal.plays.length : -1));
    if (!titledTurn) {
      assert.equal(await active.title(), "Your turn — Clash of Decks");
      titledTurn = true;
    }
    const played = await playTurnByClicking(active);
    idleTurns = listed === 0 && played === 0 ? idleTurns + 1 : 0;
    turns++;
    if (turns === 5) {
      await ann.screenshot({ path: artifact("duel-midgame.png"), fullPage: true });
      assert.ok((await ann.locator("#log li").count()) > 10, "the event log narrates the match");
      assert.match(await ann.textContent("#log"), /plays .* on (your )?(upper|lower|line)/);
    }
    if (turns === 3 && !reloaded) {
      // A reload mid-game: the token is in localStorage; the page resumes.
      await settled(ann); // the log tells no more than the page's seq
      const before = await gameInfo(ann);
      const toldBefore = await logSeqs(ann);
      await ann.reload();
      await waitForGame(ann);
      await ann.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) >= s, before.seq);
      // "What happened" is told again from the server's history: every
      // action from the setup on, in order, as many lines each as before.
      await ann.waitForFunction(() => document.querySelector("#log").dataset.history !== undefined);
      const toldAfter = await logSeqs(ann);
      assert.deepEqual(toldAfter.filter((q) => q <= toldBefore.at(-1)), toldBefore, "the log after the reload");
      assert.deepEqual([...new Set(toldBefore)], [...Array(before.seq + 1).keys()], "every action was told before");
      const afterReload = await gameInfo(ann);
      assert.equal(afterReload.seq, before.seq, "same match position after the reload");
      assert.deepEqual(afterReload.hand, before.hand, "same hand, same order");
      assert.equal(afterReload.viewer, before.viewer, "same seat");
      // The reloaded page resumed over one connection, opened for the room at once.
      assert.deepEqual(sockets.get(ann).map(roomOf), [room, room]);
      reloaded = true;
    }
    if (turns === 4 && !dropped) {
      // A dropped connection (no reload): the client reconnects and resumes by itself.
      await settled(bob); // its hand is the newest update's
      const before = await gameInfo(bob);
      const toldBefore = await logSeqs(bob);
      // The board and its log stay on screen through the reconnection: the
      // same log element, never emptied (watched from before the drop).
      await bob.evaluate((n) => {
        const log = document.querySelector("#log");
        window.codLogKept = { log, shortest: n };
        new MutationObserver(() => {
          const told = log.querySelectorAll("li[data-seq]").length;
          window.codLogKept.shortest = Math.min(window.codLogKept.shortest, told);
        }).observe(log, { childList: true });
      }, toldBefore.length);
      await bob.evaluate(() => window.codApp.conn.ws.close());
      await bob.waitForFunction(() => /reconnecting/.test(document.querySelector("#conn-state").textContent));
      await bob.waitForFunction(() => /connected to cod-server/.test(document.querySelector("#conn-state").textContent));
      await bob.waitForFunction((s) => Number(document.querySelector("#game").dataset.seq) >= s && document.body.dataset.screen === "game", before.seq);
      assert.deepEqual((await gameInfo(bob)).hand, before.hand);
      const kept = await bob.evaluate(() => ({
        same: window.codLogKept.log === document.querySelector("#log"),
        shortest: window.codLogKept.shortest,
      }));
      assert.ok(kept.same, "the log on screen is the one from before the drop");
      assert.equal(kept.shortest, toldBefore.length, "the log never lost a line during the reconnection");
      // Nothing told twice, nothing out of order after the reconnection.
      const toldAfter = await logSeqs(bob);
      assert.deepEqual(toldAfter.slice(0, toldBefore.length), toldBefore);
      assert.deepEqual(toldAfter, [...toldAfter].sort((x, y) => x - y), "the log in seq order");
      // Ann was told, in the log, that Bob left and came back.
      await ann.waitForFunction(() => /Bob is back/.test(document.querySelector("#log").textContent));
      assert.match(await ann.textContent("#log"), /Bob lost the connection/);
      // It came back over a connection for the room.
      assert.deepEqual(sockets.get(bob).map(roomOf), [room, room]);
      // Its game screen keeps emotes muted.
      await bob.waitForSelector("#emote-mute", { state: "attached" });
      assert.equal(await bob.isChecked("#emote-mute"), true);
      dropped = true;
    }
  }
  // A match still going at the deadline: keep both screens for whoever reads the failure.
  for (const [p, who] of [[ann, "ann"], [bob, "bob"]])
    if ((await gameInfo(p)).phase !== "game_over") await p.screenshot({ path: artifact(`duel-timeout-${who}.png`), fullPage: true });
  console.log(`duel: ${turns} turns by clicking${stalled ? ", then a concession (nobody could play)" : ", to the end"}`);
  assert.ok(reloaded, "the match lasted long enough to reload mid-game");
  assert.ok(dropped, "the match lasted long enough to drop a connection mid-game");
  const outcomes = [];
  for (const p of pages) {
    const info = await gameInfo(p);
    assert.equal(info.phase, "game_over", `the match ended within the time limit (after ${turns} turns)`);
    await p.waitForSelector("#match-over:not([hidden])");
    await p.waitForFunction(() => /matches the commitment/.test(document.querySelector("#seed-check").textContent));
    assert.match(await p.textContent("#status"), /You (won|lost)/);
    assert.match(await p.textContent("#log"), /Game over: /);
    // The end in a dialog that says which: won or lost, and the tab too.
    await p.waitForSelector("#result:not([hidden])");
    const outcome = await p.$eval("#result", (e) => e.dataset.outcome);
    outcomes.push(outcome);
    assert.equal(await p.textContent("#result h2"), outcome === "won" ? "You won!" : "You lost.");
    assert.match(await p.textContent("#status"), outcome === "won" ? /^You won/ : /^You lost/);
    assert.equal(await p.title(), `${outcome === "won" ? "You won" : "You lost"} — Clash of Decks`);
    assert.match(await p.textContent("#result .seed"), /matches the commitment/);
    // Why (result.js, from the events received): who did what to whom, the
    // turn it turned, and each seat's damage and cards against the log.
    await p.waitForSelector("#result-cause");
    const cause = await p.textContent("#result-cause");
    if (stalled) assert.match(cause, /^(Ann|Bob) conceded on turn \d+\.$/);
    else assert.match(cause, /^((Ann|Bob)'s .+ hit (Ann|Bob)'s Fort for \d+ on turn \d+: the Fort reached the end of the hand and (Ann|Bob) lost \(R4\.4, R4\.6\)\.|(Ann|Bob)'s Fort reached the end of the hand.*|(Ann|Bob) had no card left in hand.*)$/);
    const table = await p.$$eval("#result-table tbody tr", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(table.map((r) => r[0].replace(" (you)", "")), ["Ann", "Bob"]);
    // Counted here from the server's whole history of the match.
    const history = await p.evaluate(() => window.codApp.conn.request("history", { from_seq: 0 }));
    assert.equal(history.first_seq, 0);
    const events = history.entries.flatMap((e) => e.events);
    // A Fort hit in the last action is named as the cause (not the move the hit made).
    const over = events.find((e) => e.type === "game_over");
    const hit = history.entries.at(-1).events.filter((e) => e.type === "stronghold_damaged" && e.seat === over.loser).at(-1);
    if (over.reason === "fort_destroyed" && hit) assert.match(cause, new RegExp(`hit (Ann|Bob)'s Fort for ${hit.amount} on turn`));
    assert.doesNotMatch(await p.textContent("#result"), /null/);
    table.forEach(([name, , taken, played], seat) => {
      assert.equal(Number(played), events.filter((e) => e.type === "card_played" && e.seat === seat).length, `${name}'s cards played`);
      assert.equal(Number(taken), events.filter((e) => e.type === "stronghold_damaged" && e.seat === seat).reduce((n, e) => n + e.amount, 0),
        `${name}'s Stronghold damage taken`);
    });
  }
  assert.deepEqual([...outcomes].sort(), ["lost", "won"], "one won, one lost");
  // A reload after the end: the same account (the events come back with
  // history), and Play again still offered to Ann, who created the room
  // (sessionStorage); Bob joined it from the lobby: his page cannot make it again.
  const summaryBefore = await ann.textContent("#result-summary");
  await ann.reload();
  await waitForGame(ann);
  await ann.waitForSelector("#result:not([hidden]) #result-cause");
  await ann.waitForFunction((t) => document.querySelector("#result-summary").textContent === t, summaryBefore);
  assert.equal(await ann.locator("#play-again").count(), 1);
  assert.equal(await bob.locator("#play-again").count(), 0);
  assert.ok(titledTurn, "a tab said 'Your turn' while it was");
  await ann.screenshot({ path: artifact("duel-over-ann.png"), fullPage: true });
  await bob.screenshot({ path: artifact("duel-over-bob.png"), fullPage: true });
  assert.deepEqual(ann.jsErrors || [], []);
  assert.deepEqual(bob.jsErrors || [], []);

  // Bob goes back to the lobby from the dialog: Ann's page redraws (he left)
  // and its seed check still says it matches.
  const lostLines = () => [...document.querySelectorAll("#log li")].filter((l) => /^Bob lost the connection/.test(l.textContent)).length;
  const lostBefore = await ann.evaluate(lostLines);
  await bob.click("#result-lobby");
  await ann.waitForFunction((n) => [...document.querySelectorAll("#log li")].filter((l) => /^Bob lost the connection/.test(l.textContent)).length > n, lostBefore);
  await bob.waitForFunction(() => document.body.dataset.screen === "lobby");
  assert.match(await ann.textContent("#seed-check"), /matches the commitment/);
  // The dialog closes to show the board; the strip keeps the result.
  await ann.click("#result-close");
  assert.equal(await ann.$eval("#result", (e) => e.hidden), true);
  assert.equal(await ann.$eval("#match-over", (e) => e.hidden), false);

  // Back to the lobby: the finished room is listed as finished.
  await ann.click("#leave-room");
  await ann.waitForFunction(() => document.body.dataset.screen === "lobby");
  await ann.waitForSelector(`tr[data-room="${room}"][data-status=finished]`);
  await ann.context().close();
  await bob.context().close();
});

test("a constructed duel: when the match starts, both players read both lists in the log (R14.6)", async () => {
  const ann = await openClient(browser, server, { name: "Ann" });
  const bob = await openClient(browser, server, { name: "Bob" });
  await ann.selectOption("#deck-kind", "cards");
  await ann.fill("#deck-cards", "parasite, microctopus, scribe, baron, alpha, brute, carapace, mutant");
  const room = await createRoom(ann, { mode: "duel", format: "constructed" });
  // Bob comes by the invite link the waiting room shows (#/room/ID): the
  // lobby offers that room at the top, joined with his name and deck.
  await ann.waitForSelector("#invite-url");
  const url = await ann.inputValue("#invite-url");
  assert.equal(url, `${server.url}/play/#/room/${room}`);
  await bob.goto(url);
  await bob.waitForSelector("#invite-join");
  assert.match(await bob.textContent("#invite"), new RegExp(`invited to room ${room} \\(duel, constructed\\)`));
  await bob.fill("#player-name", "Bob");
  await bob.selectOption("#deck-kind", "cards");
  await bob.fill("#deck-cards", "assassin, reptile, aberration, carnivore, grrr, vortex, disciple, troll");
  await bob.click("#invite-join");
  await waitForGame(ann);
  await waitForGame(bob);
  for (const p of [ann, bob]) {
    // One line per seat's list ("Ann's list: ...", "Seat 2 (you)'s list: ...").
    await p.waitForFunction(() => (document.querySelector("#log").textContent.match(/'s list: /g) || []).length === 2);
    const log = await p.textContent("#log");
    // Each player reads the other's eight cards by name.
    assert.match(log, /list: .*TROLL/i);
    assert.match(log, /list: .*BRUTE/i);
  }
  assert.deepEqual(ann.jsErrors || [], []);
  await ann.context().close();
  await bob.context().close();
});

// "Why did I lose?" in a free-for-all (result.js on made-up events): Ann,
// whose Fort never fell, reads who destroyed whose Fort and why that ends
// the game for her too (R11.4), the turning point, and each seat's part.
test("the result's account of a free-for-all: who destroyed whose Fort, why a healthy player lost, the turning point", async () => {
  const page = await openClient(browser, server, {});
  const out = await page.evaluate(async () => {
    const { summarize, summaryView } = await import("/play/js/result.js");
    const names = ["Ann", "Bo", "Cy", "Di"];
    const entries = [
      { seq: 0, events: [{ type: "match_started", first_seat: 0 }, { type: "turn_started", seat: 0, turn: 1, round: 1 }] },
      { seq: 5, events: [{ type: "turn_started", seat: 2, turn: 7, round: 2 }, { type: "card_played", seat: 2, card: 40, card_id: "brute", line: 1, mana_paid: 3 },
        { type: "creature_entered", seat: 2, card: 40, card_id: "brute", line: 1, side: 0, position: 0 }] },
      { seq: 6, events: [{ type: "stronghold_damaged", seat: 3, source: 40, source_id: "brute", amount: 4 },
        { type: "stronghold_flipped", seat: 3, side: "fort" }, { type: "card_played", seat: 0, card: 3, card_id: "scribe", line: 0, mana_paid: 2 }] },
      { seq: 9, events: [{ type: "turn_started", seat: 2, turn: 11, round: 3 }, { type: "damage_dealt", source: 40, source_id: "brute", target: 3, amount: 2 },
        { type: "stronghold_damaged", seat: 3, source: 40, source_id: "brute", amount: 3 },
        { type: "stronghold_moved", seat: 3, from: 5, to: 8 },
        { type: "game_over", winners: [2], loser: 3, reason: "fort_destroyed" }] },
    ];
    const sum = summarize(entries, { seatName: (s) => names[s], cardName: (uid, id) => id.toUpperCase(), seats: 4 });
    const view = { role: "player", viewer: 0, winners: [2], seats: [{}, {}, {}, {}] };
    const box = document.createElement("div");
    box.append(...summaryView(sum, view, (s) => names[s]));
    return { sum, text: box.textContent, why: !!box.querySelector("#result-why-you") };
  });
  assert.equal(out.sum.cause, "Cy's BRUTE hit Di's Fort for 3 on turn 11: the Fort reached the end of the hand and Di lost (R4.4, R4.6).");
  assert.equal(out.sum.turning, "The turning point: turn 7, when Di's Bastion fell and the Fort came up (R4.5).");
  assert.equal(out.sum.loser, 3);
  assert.deepEqual(out.sum.seats.map((s) => [s.dealt, s.taken, s.played]), [[0, 0, 1], [0, 0, 0], [9, 0, 1], [0, 7, 0]]);
  assert.ok(out.why, "Ann, who lost without falling, is told why (R11.4)");
  assert.doesNotMatch(out.text, /null/);
  assert.match(out.text, /the game ends the moment one Fort falls.*R11\.4/);
  // A concession says who and when.
  const conceded = await page.evaluate(async () => {
    const { summarize } = await import("/play/js/result.js");
    return summarize([{ seq: 3, events: [{ type: "turn_started", seat: 1, turn: 4, round: 2 }, { type: "conceded", seat: 1 },
      { type: "game_over", winners: [0], loser: 1, reason: "concession" }] }], { seatName: (s) => ["Ann", "Bo"][s], cardName: () => "", seats: 2 });
  });
  assert.equal(conceded.cause, "Bo conceded on turn 4.");
  assert.equal(conceded.turning, "");
  // Season 3's packs have no known English name: the English lobby says them in English all the same.
  const packs = await page.$$eval("#opt-packs label", (ls) => ls.map((l) => l.textContent.trim()));
  for (const french of ["Sournoiserie", "Belligérance", "Enlisement"]) assert.ok(!packs.some((p) => p.startsWith(french)), `${french} in ${packs}`);
  assert.ok(packs.some((p) => p.startsWith("Sneakiness")));
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("a solo game against the AI, created from the lobby and played to the end by clicking", async () => {
  const sol = await openClient(browser, server, { name: "Sol", deck: 2 });
  await sol.selectOption("#create-mode", "solo");
  await sol.click("#create-room");
  // The AI's seat is taken from the start: the match starts at once.
  await waitForGame(sol);
  const room = await sol.evaluate(() => window.codApp.room.id);
  assert.equal(await sol.locator("#board .line").count(), 2);
  assert.equal(await sol.locator("#seats .seat-box").count(), 2);
  // The seats' names come with the room's lobby summary, asked for when the
  // room is entered: they may arrive after the first state is drawn.
  await sol.waitForFunction(() => /Sol/.test(document.querySelector("#seats").textContent), null, { timeout: 5000 });
  const seatsText = await sol.textContent("#seats");
  assert.match(seatsText, /Sol/);
  assert.match(seatsText, /AI deck: \d+ cards?/);
  assert.match(seatsText, /Discard: \d+/);
  assert.equal(await sol.locator("#hand .stronghold-card").count(), 1);
  // The first state's events are narrated (match_started at least).
  assert.ok((await sol.locator("#log li").count()) >= 2, "the first state's events are in the log");

  // The lobby lists the room with its AI seat (from another page).
  const look = await openClient(browser, server, {});
  await look.click("#refresh-rooms");
  const row = look.locator(`tr[data-room="${room}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /solo/);
  assert.match(await row.textContent(), /quick play/);
  assert.match(await row.textContent(), /seat 2: AI/);
  assert.equal(await row.locator("button.join").count(), 0, "no free seat to join");
  await look.context().close();

  // A double click on "end the summoning phase" sends one end_turn: the
  // button goes off with the first click (the list is spent), the second
  // click of a double click is dropped even when the AI's turn came back in
  // between, and the act names its seq (a late second one would be
  // stale_action, not the end of the next turn).
  const first = await gameInfo(sol);
  assert.ok(first.myTurn, "a solo human starts");
  await sol.evaluate(() => {
    window.__acts = [];
    window.codApp.conn.on("sent", (m) => { if (m.type === "act") window.__acts.push(m); });
  });
  await sol.dblclick("#end-turn");
  await waitForOutcome(sol, first.seq);
  const acts = await sol.evaluate(() => window.__acts);
  assert.equal(acts.length, 1, `one act for a double click: ${JSON.stringify(acts)}`);
  assert.deepEqual(acts[0].action, { type: "end_turn" });
  assert.equal(acts[0].seq, first.seq);
  assert.equal((await gameInfo(sol)).seq, first.seq + 1);

  // The keyboard alone: Tab to a card and Enter choose it and move the
  // focus to its first option; Escape puts the focus back on the card, the
  // choice dropped; a target (an incantation's creature) takes Enter too.
  let keyboardChecked = false;
  const keyboardTurn = async () => {
    const card = sol.locator("#hand .card.playable.affordable").first();
    if (!(await card.count())) return;
    const uid = await card.getAttribute("data-uid");
    await card.focus();
    await sol.keyboard.press("Enter");
    const focused = await sol.evaluate(() => {
      const e = document.activeElement;
      return { cls: e.className, tag: e.tagName, line: e.dataset.playLine || null, tabbable: e.tabIndex >= 0 };
    });
    assert.ok(/play-line|targetable|host-option/.test(focused.cls), `the focus went to an option: ${JSON.stringify(focused)}`);
    assert.ok(focused.tabbable);
    await sol.keyboard.press("Escape");
    assert.equal(await sol.locator("#cancel-play").count(), 0, "Escape dropped the choice");
    assert.equal(await sol.evaluate(() => document.activeElement.dataset.uid), uid, "the focus is back on the card");
    // Choose it again and play it from the keyboard: the option takes Enter.
    const before = (await gameInfo(sol)).seq;
    await sol.keyboard.press("Enter");
    await sol.keyboard.press("Enter");
    const outcome = await waitForOutcome(sol, before);
    if (outcome !== "update") await sol.click("#error button");
    else assert.equal((await gameInfo(sol)).seq, before + 1, "played from the keyboard");
    keyboardChecked = true;
  };

  let turns = 0;
  let aiSeen = false;
  const deadline = Date.now() + 120000;
  while (Date.now() < deadline) {
    const info = await gameInfo(sol);
    if (info.phase === "game_over") break;
    if (!info.myTurn) {
      await sol.waitForTimeout(50);
      continue;
    }
    if (!keyboardChecked) await keyboardTurn();
    await playTurnByClicking(sol);
    turns++;
    if (!aiSeen && /AI( \d)? reveals .* for/.test(await sol.textContent("#log"))) {
      aiSeen = true;
      await sol.screenshot({ path: artifact("solo-game.png"), fullPage: true });
    }
  }
  const info = await gameInfo(sol);
  assert.equal(info.phase, "game_over", `the solo game ended within the time limit (after ${turns} turns)`);
  assert.ok(turns >= 1, "the person played at least one turn by clicking");
  assert.ok(keyboardChecked, "a card was chosen, dropped and played from the keyboard");
  // The AI's turns arrived in updates and were told in words.
  assert.match(await sol.textContent("#log"), /AI( \d)? reveals .* for .*\(\d+ left in its deck\)/);
  await sol.waitForSelector("#match-over:not([hidden])");
  await sol.waitForFunction(() => /matches the commitment/.test(document.querySelector("#seed-check").textContent));
  assert.match(await sol.textContent("#status"), /You (won|lost)/);
  // The AI's deck and discard pile are still drawn at the end.
  assert.match(await sol.textContent("#seats"), /AI deck: \d+ cards?/);
  if (!aiSeen) await sol.screenshot({ path: artifact("solo-game.png"), fullPage: true });
  await sol.screenshot({ path: artifact("solo-over.png"), fullPage: true });
  soloFinished = { room, seq: (await gameInfo(sol)).seq, view: await sol.evaluate(() => window.codApp.game.view) };
  // The result dialog offers another game like this one: one click.
  await sol.waitForSelector("#result:not([hidden]) #play-again");
  await sol.click("#play-again");
  await sol.waitForFunction((old) => window.codApp.room && window.codApp.room.id !== old &&
    document.body.dataset.screen === "game", room);
  const again = await sol.evaluate(() => ({ mode: window.codApp.game.view.mode, role: window.codApp.game.view.role }));
  assert.deepEqual(again, { mode: "solo", role: "player" });
  assert.equal(await sol.$eval("#result", (e) => e.hidden), true, "a new game, no result");
  assert.deepEqual(sol.jsErrors || [], []);
  await sol.context().close();
});

test("one click from the lobby to a game against the AI", async () => {
  const page = await openClient(browser, server, {});
  await page.fill("#player-name", "");
  await page.selectOption("#deck-kind", "cards");
  await page.click("#play-ai");
  await waitForGame(page);
  const v = await page.evaluate(() => window.codApp.game.view);
  assert.equal(v.mode, "solo");
  assert.equal(v.role, "player");
  assert.equal(await page.inputValue("#player-name"), "Player");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("a free-for-all against three bots, added from the waiting room: the bots play, the game goes on", async () => {
  const page = await openClient(browser, server, { name: "Ann" });
  await createRoom(page, { mode: "ffa" });
  // A full room offers no bot; this one does, until full.
  for (let i = 0; i < 3; i++) {
    await page.waitForSelector("#waiting-add-bot:not([hidden])");
    await page.click("#waiting-add-bot");
    if (i < 2) await page.waitForFunction((n) => [...document.querySelectorAll("#waiting-seats li")].filter((li) => li.textContent.includes("(a bot)")).length === n, i + 1);
  }
  await waitForGame(page);
  // The bots' names in the game, and their moves in the log as they come
  // (one every bot_move_ms): play through two of Ann's turns.
  const v = await page.evaluate(() => window.codApp.game.view);
  assert.equal(v.seats.length, 4);
  for (let turn = 0; turn < 2; turn++) {
    await page.waitForFunction(() => document.querySelector("#game").dataset.myTurn === "true", null, { timeout: 60000 });
    await playTurnByClicking(page, { maxPlays: 2 });
  }
  const log = await page.textContent("#log");
  assert.match(log, /Bot [234]/);
  assert.ok((await gameInfo(page)).seq >= 4, "the bots and Ann have acted");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("a network that goes silent is noticed within seconds; the seat comes back as soon as it returns", async () => {
  const relay = await startRelay(server);
  try {
    const page = await openClient(browser, { url: relay.url }, { name: "Net" });
    await page.selectOption("#create-mode", "solo");
    await page.click("#create-room");
    await waitForGame(page);
    const room = await page.evaluate(() => window.codApp.room.id);
    assert.match(await page.textContent("#conn-state"), /^connected to /);

    // Silence: no close, no reset; only the heartbeat can tell.
    const cutAt = Date.now();
    relay.cut();
    await page.waitForFunction(() => !document.querySelector("#conn-state").textContent.startsWith("connected"),
      null, { timeout: 15000 });
    const noticedMs = Date.now() - cutAt;
    const said = await page.textContent("#conn-state");
    assert.match(said, /no answer from the server|reconnecting/);
    assert.equal(await page.$eval("#conn-state", (e) => e.className), "bad");
    assert.ok(noticedMs < 8000, `the silence was noticed after ${noticedMs} ms`);
    // Still down a few seconds on: never "connected" while nothing answers.
    await page.waitForTimeout(3000);
    assert.doesNotMatch(await page.textContent("#conn-state"), /^connected/);

    // The network is back: the seat is taken back, play goes on.
    const backAt = Date.now();
    relay.restore();
    await page.waitForFunction(() => document.querySelector("#conn-state").textContent.startsWith("connected to"),
      null, { timeout: 15000 });
    const backMs = Date.now() - backAt;
    assert.equal(await page.evaluate(() => window.codApp.room && window.codApp.room.id), room);
    assert.equal(await screen(page), "game");
    assert.equal(await page.$eval("#error", (e) => e.hidden || e.dataset.code !== "connection_lost"), true);
    console.log(`silent network noticed after ${noticedMs} ms; seat back ${backMs} ms after the network returned`);
    assert.deepEqual(page.jsErrors || [], []);
    await page.context().close();
  } finally {
    await relay.close();
  }
});

test("a free-for-all with Champions and a clock shows four lines to each of four players; a spectator sees no hand; a concession ends it", async () => {
  const names = ["Ada", "Bea", "Cid", "Dot"];
  const champions = ["rapscallion", "gladiator", "veteran", "naga"]; // in no preconstructed deck
  const pages = [];
  for (let i = 0; i < 4; i++) {
    const p = await openClient(browser, server, { name: names[i], deck: (i % 4) + 1 });
    await p.selectOption("#champion", champions[i]);
    pages.push(p);
  }
  const room = await createRoom(pages[0], { mode: "ffa", champions: true, clockMin: 20 });
  for (let i = 1; i < 4; i++) await joinFromLobby(pages[i], room);
  for (const p of pages) await waitForGame(p);
  // Every seat's Champion is revealed to all; each player's own is ready beside the hand.
  for (let i = 0; i < 4; i++) {
    const seats = await pages[i].textContent("#seats");
    for (const c of ["RAPSCALLION", "GLADIATOR", "VETERAN", "NAGA"]) assert.match(seats, new RegExp(`Champion: ${c} \\(ready\\)`));
    assert.equal(await pages[i].locator(`#hand .card.champion[data-card-id="${champions[i]}"]`).count(), 1);
  }
  // The clock: four banks of 20 minutes, the running one counting down.
  const clock0 = await pages[0].textContent("#clock");
  assert.match(clock0, /^Clock: Ada (19|20):\d\d.*Dot (19|20):\d\d/);
  assert.match(clock0, /\(running\)/);

  const watcher = await openClient(browser, server, {});
  await watcher.click("#refresh-rooms");
  await watcher.click(`tr[data-room="${room}"] button.watch`);
  await waitForGame(watcher);
  assert.match(await watcher.textContent("#hand"), /Spectators see no hand/);
  assert.equal(await watcher.locator("#board .line").count(), 4);

  for (const p of pages) {
    assert.equal(await p.locator("#board .line").count(), 4);
    assert.equal(await p.locator("#seats .seat-box").count(), 4);
    // Two of the four lines are this seat's own (upper and lower).
    assert.equal(await p.locator('#board .line[data-rel="upper"]').count(), 1);
    assert.equal(await p.locator('#board .line[data-rel="lower"]').count(), 1);
  }
  // One full round by clicking.
  for (let t = 0; t < 4; t++) {
    await Promise.all(pages.map((p) => settled(p))); // the last turn shown everywhere
    const infos = await Promise.all(pages.map(gameInfo));
    const i = infos.findIndex((x) => x.myTurn || x.banner); // behind its banner: playTurnByClicking puts it away
    assert.ok(i >= 0, "someone is to play");
    await playTurnByClicking(pages[i], { maxPlays: 2 });
  }
  await Promise.all(pages.map((p) => settled(p)));
  const active = (await Promise.all(pages.map(gameInfo))).findIndex((x) => x.myTurn || x.banner);
  await pages[active].screenshot({ path: artifact("ffa-four-lines.png"), fullPage: true });
  await watcher.screenshot({ path: artifact("ffa-spectator.png"), fullPage: true });

  // A concession (confirmed in the dialog) ends a free-for-all: every other seat wins.
  const loser = pages[(active + 1) % 4];
  loser.once("dialog", (d) => d.accept());
  await loser.click("#concede");
  for (const p of [...pages, watcher]) {
    await p.waitForSelector("#match-over:not([hidden])");
    assert.equal((await gameInfo(p)).phase, "game_over");
  }
  assert.match(await loser.textContent("#status"), /You lost/);
  assert.match(await watcher.textContent("#log"), /concedes/);
  for (const p of [...pages, watcher]) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});

// The admin page against the real admin HTTP API of the server the games
// above were played on (started with an admin token): a missing token and a
// bad search field refused in words, the solo game found by its player's
// name, its record and log opened, the replay stepped (the referee view drawn,
// its last step the very position the player saw at the end), and verify.
test("the admin page against the real admin API: token, search, the solo game's log, replay, verify", async () => {
  assert.ok(soloFinished, "the solo test ran first and finished its game");
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const jsErrors = [];
  page.on("pageerror", (e) => jsErrors.push(String(e)));
  const requests = [];
  page.on("response", (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith("/admin/api/")) requests.push({ path: u.pathname + u.search, status: r.status() });
  });
  await page.goto(`${server.url}/admin/`);
  await page.waitForSelector("#search-form");

  // No token: the API's 401, in words.
  await page.click("#search");
  await page.waitForFunction(() => document.querySelector("#error").dataset.code === "unauthorized");
  assert.match(await page.textContent("#error .text"), /admin token is missing or wrong/);
  assert.equal(requests.at(-1).status, 401);

  // A wrong search (a winner among playing matches): the API's 400, in words.
  await page.fill("#admin-token", ADMIN_TOKEN);
  await page.selectOption('#search-form [name="status"]', "playing");
  await page.selectOption('#search-form [name="winner"]', "0");
  await page.click("#search");
  await page.waitForFunction(() => document.querySelector("#error").dataset.code === "bad_parameter");
  assert.match(await page.textContent("#error .text"), /A search field has a wrong value.*winner/);

  // The solo game, found by its player's name.
  await page.selectOption('#search-form [name="winner"]', "");
  await page.fill('#search-form [name="player"]', "Sol");
  await page.selectOption('#search-form [name="status"]', "finished");
  await page.click("#search");
  await page.waitForSelector("#matches tr[data-match]");
  const rows = await page.$$eval("#matches tr[data-match]", (els) => els.map((e) => ({ id: e.dataset.match, text: e.textContent })));
  assert.equal(rows.length, 1, "one finished match played by Sol");
  const id = rows[0].id;
  assert.match(rows[0].text, /solo/);
  assert.match(rows[0].text, /finished/);
  assert.ok(id.startsWith(`${soloFinished.room}-`), `the solo room's match (${id})`);
  assert.ok(requests.some((r) => r.status === 200 && r.path.startsWith("/admin/api/matches?") && r.path.includes("player=Sol") && r.path.includes("status=finished")));

  // Open it from the keyboard (a row takes the focus; Enter opens it): its
  // record, its log (the setup and every action), the replay at step 0.
  await page.focus(`#matches tr[data-match="${id}"]`);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#match-panel:not([hidden])");
  await page.waitForFunction(() => /after action 0 of \d+/.test(document.querySelector("#step-label").textContent));
  const steps = Number((await page.textContent("#step-label")).match(/of (\d+)/)[1]);
  assert.equal(steps, soloFinished.seq, "the record's action count is the game's last seq");
  assert.equal(await page.locator("#match-log > li").count(), steps + 1);
  assert.match(await page.textContent("#match-record"), /solo, preconstructed/);
  // People's terms: the winner by name, the seats counted from 1.
  assert.match(await page.textContent("#match-record"), /Result: (Sol|AI.*) won \(/);
  assert.match(await page.textContent("#match-record"), /Seats: 1: Sol/);
  // The end's reason in words, in the record, the list and the log (never its code).
  for (const sel of ["#match-record", "#matches", "#match-log"]) {
    assert.doesNotMatch(await page.textContent(sel), /fort_destroyed|stronghold_alone|\(concession\)/, sel);
  }
  assert.match(await page.textContent("#match-log"), /Game over: .* wins? \((.+'s Fort was destroyed|.+'s Stronghold was left alone in hand|.+ conceded)\)/);
  assert.match(await page.textContent("#match-log"), /Sol (goes first|has \d+ mana)/);
  assert.match(await page.textContent("#match-log"), /Setup/);
  assert.equal(await page.locator("#replay-board #board .line").count(), 2);
  assert.match(await page.textContent("#replay-board #seats"), /AI deck: \d+ cards?/);

  await page.click("#step-next");
  await page.waitForFunction(() => /after action 1 of/.test(document.querySelector("#step-label").textContent));
  assert.ok(requests.some((r) => r.status === 200 && r.path === `/admin/api/matches/${encodeURIComponent(id)}/state?step=1`));
  assert.equal(await page.locator("#match-log > li.current").getAttribute("data-seq"), "1");
  // The current action in words, as the log tells it (not its JSON).
  const told = await page.textContent("#step-action");
  assert.match(told, /^Action 1: /);
  assert.doesNotMatch(told, /[{}]/);
  // A log entry opens its step from the keyboard too.
  await page.focus('#match-log > li[data-seq="2"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /after action 2 of/.test(document.querySelector("#step-label").textContent));
  assert.equal(await page.title(), "Clash of Decks — admin", "the replay board leaves the tab's title alone");

  // The last step is the position the player saw at the end: the same hand,
  // card for card, drawn from the referee view's all_hands.
  await page.click("#step-last");
  await page.waitForFunction((n) => document.querySelector("#step-label").textContent === `after action ${n} of ${n}`, steps);
  const viewer = soloFinished.view.viewer;
  await page.waitForSelector(`#replay-board .referee-hand[data-seat="${viewer}"]`);
  const shown = await page.$$eval(`#replay-board .referee-hand[data-seat="${viewer}"] [data-uid]`, (els) => els.map((e) => Number(e.dataset.uid)));
  assert.deepEqual(shown, soloFinished.view.hand.map((c) => c.uid));
  assert.equal(await page.$eval("#replay-board", (e) => e.dataset.phase), "game_over");

  await page.click("#verify");
  await page.waitForSelector("#verify-result .check-ok, #verify-result .check-bad");
  assert.match(await page.textContent("#verify-result"), /Verified: every check passed/);
  assert.match(await page.textContent("#verify-result"), /seed commitment/);
  await page.screenshot({ path: artifact("admin-replay.png"), fullPage: true });
  assert.deepEqual(jsErrors, []);
  await context.close();
});
