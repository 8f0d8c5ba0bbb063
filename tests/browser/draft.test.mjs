// The web client's draft screen and AI-room options in headless Chromium
// against the real cod-server: a 2-player draft clicked through to the match
// (with a reload mid-draft that resumes, and a spectator), a 2v2 draft in four
// contexts, an instant-constructed draft (secret
// lists and bans), and a co-op game at a custom difficulty played by two
// people in two browser contexts. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startServer, launchBrowser, openClient, artifact, gameInfo, playTurnByClicking, waitForGame, screen,
  createRoom, joinFromLobby, settled,
} from "./lib.mjs";

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

// A drafted room from the lobby: the initiation pack unless told otherwise.
function createDraftRoom(page, { mode = "duel", format = "draft", packs = ["initiation"] } = {}) {
  return createRoom(page, { mode, format, packs });
}

async function draftInfo(page) {
  return page.evaluate(() => {
    const d = document.querySelector("#draft");
    return {
      screen: document.body.dataset.screen,
      seq: Number(d.dataset.seq || -1),
      pick: d.dataset.myPick || "",
      count: Number(d.dataset.myCount || 0),
    };
  });
}

// One pick by clicking: the first cards that can be chosen, then confirm;
// waits for the next draft message (or the match).
async function pickByClicking(page, info, { skip = 0 } = {}) {
  const ids = await page.$$eval("#draft-offer .draft-card.playable", (els) => els.map((e) => e.dataset.cardId));
  assert.ok(ids.length >= info.count + skip, `enough cards to ${info.pick} (${ids.length})`);
  if (info.pick !== "submit") {
    // What a click may choose is what the server's legal_picks name, no more.
    const listed = await page.evaluate((kind) => [...new Set(window.codApp.draft.legalPicks
      .filter((p) => p.pick === kind).flatMap((p) => p.cards || []))], info.pick);
    assert.deepEqual([...ids].sort(), [...listed].sort(), "the choosable cards are the server's legal picks");
  }
  for (const id of ids.slice(skip, skip + info.count)) await page.click(`#draft-offer .draft-card[data-card-id="${id}"]`);
  assert.match(await page.textContent("#draft-choice"), new RegExp(`Chosen ${info.count} of ${info.count}`));
  await page.click("#draft-confirm");
  await page.waitForFunction((s) => document.body.dataset.screen !== "draft" || Number(document.querySelector("#draft").dataset.seq) > s, info.seq);
  return ids.slice(skip, skip + info.count);
}

// Clicks through the draft in every page until each shows the game screen.
async function draftByClicking(pages, { onPick = async () => {}, timeout = 60000 } = {}) {
  let picks = 0;
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const infos = await Promise.all(pages.map(draftInfo));
    if (infos.every((i) => i.screen === "game")) return picks;
    const i = infos.findIndex((x) => x.screen === "draft" && x.pick);
    if (i < 0) {
      await pages[0].waitForTimeout(50);
      continue;
    }
    await pickByClicking(pages[i], infos[i]);
    picks++;
    await onPick(picks, pages[i]);
  }
  throw new Error(`the draft did not finish in time (${picks} picks)`);
}

test("a 2-player draft clicked through to the match in two browser contexts; a reload mid-draft resumes", async () => {
  const ann = await openClient(browser, server, { name: "Ann" });
  const bob = await openClient(browser, server, { name: "Bob" });
  // The formats offered per mode.
  const duelFormats = await ann.$$eval("#create-format option:not([disabled])", (o) => o.map((x) => x.value));
  assert.deepEqual(duelFormats, ["preconstructed", "constructed", "draft", "instant_constructed"]);
  await ann.selectOption("#create-mode", "ffa");
  assert.deepEqual(await ann.$$eval("#create-format option:not([disabled])", (o) => o.map((x) => x.value)),
    ["preconstructed", "constructed", "draft"]);
  await ann.selectOption("#create-mode", "solo");
  assert.deepEqual(await ann.$$eval("#create-format option:not([disabled])", (o) => o.map((x) => x.value)),
    ["preconstructed", "draft"]);

  const room = await createDraftRoom(ann, { mode: "duel", format: "draft", packs: ["initiation"] });
  await bob.click("#refresh-rooms");
  assert.match(await bob.textContent(`tr[data-room="${room}"]`), /draft, packs: Initiation Pack/);
  await joinFromLobby(bob, room);
  for (const p of [ann, bob]) await p.waitForFunction(() => document.body.dataset.screen === "draft");
  // A spectator of the drafting room sees the same public draft, without a pick.
  const eve = await openClient(browser, server, {});
  await eve.click("#refresh-rooms");
  await eve.click(`tr[data-room="${room}"][data-status=drafting] button.watch`);
  await eve.waitForFunction(() => document.body.dataset.screen === "draft");
  assert.equal(await eve.locator("#draft-offer .draft-card").count(), 4);
  assert.equal(await eve.locator("#draft-offer .draft-card.playable").count(), 0);
  assert.match(await eve.textContent("#draft-choice"), /You are watching/);

  // The public draft: 4 revealed cards, both seats, whose turn in words.
  for (const p of [ann, bob]) {
    assert.equal(await p.locator("#draft-offer .draft-card").count(), 4);
    assert.equal(await p.locator("#draft-seats .draft-seat").count(), 2);
    assert.match(await p.textContent("#draft-status"), /takes? 1 card of the revealed cards/);
    assert.match(await p.textContent("#draft-log"), /The draft starts: \d+ cards in the pile/);
  }
  const [a0, b0] = await Promise.all([draftInfo(ann), draftInfo(bob)]);
  const first = a0.pick ? ann : bob;
  const second = first === ann ? bob : ann;
  assert.equal((a0.pick ? b0 : a0).pick, "", "one seat picks at a time");
  assert.match(await first.textContent("#draft-status"), /^Your turn\. You take 1 card/);

  // The seat that waits cannot choose: its cards are disabled.
  assert.equal(await second.locator("#draft-offer .draft-card.playable").count(), 0);
  assert.equal(await second.locator("#draft-confirm").isHidden(), true);

  let reloaded = false;
  await draftByClicking([ann, bob], {
    onPick: async (n) => {
      if (n === 1) {
        // The pick is public: both pages show it in the seat's picks.
        const taken = await first.evaluate((s) => window.codApp.draft.draft.seats[s].taken, await first.evaluate(() => window.codApp.room.seat));
        assert.equal(taken.length, 1);
        await second.waitForFunction((id) => /Taken \(1\)/.test(document.querySelector("#draft-seats").textContent) && document.querySelector(`#draft-seats .card[data-card-id="${id}"]`), taken[0]);
        await ann.screenshot({ path: artifact("draft-ann.png"), fullPage: true });
      }
      if (n === 3 && !reloaded) {
        // A reload mid-draft: the seat comes back with the token, at the same step.
        const before = await ann.evaluate(() => ({ seq: window.codApp.draft.seq, seat: window.codApp.room.seat, taken: window.codApp.draft.draft.seats.map((s) => s.taken) }));
        await ann.reload();
        await ann.waitForFunction((s) => document.body.dataset.screen === "draft" && Number(document.querySelector("#draft").dataset.seq) >= s, before.seq);
        const after = await ann.evaluate(() => ({ seq: window.codApp.draft.seq, seat: window.codApp.room.seat, taken: window.codApp.draft.draft.seats.map((s) => s.taken) }));
        assert.deepEqual(after, before, "the same draft position after the reload");
        await ann.waitForFunction(() => /Bob/.test(document.querySelector("#draft-seats").textContent));
        // The spectator's reload watches the same room again.
        const watched = await eve.evaluate(() => window.codApp.draft.seq);
        await eve.reload();
        await eve.waitForFunction((s) => document.body.dataset.screen === "draft" && Number(document.querySelector("#draft").dataset.seq) >= s, watched);
        assert.equal(await eve.evaluate(() => window.codApp.room.role), "spectator");
        reloaded = true;
      }
    },
  });
  assert.ok(reloaded, "reloaded mid-draft");

  // The match, with the drafted decks: every card in hand is one of the seat's 8.
  for (const p of [ann, bob]) {
    await waitForGame(p);
    const { deck, hand } = await p.evaluate(() => ({
      deck: window.codApp.lastDraft.own_deck,
      hand: window.codApp.game.view.hand.map((c) => c.card_id),
    }));
    assert.equal(deck.length, 8);
    for (const id of hand) assert.ok(deck.includes(id), `${id} in the drafted deck`);
    assert.equal(await p.locator("#board .line").count(), 2);
    assert.equal(await p.locator("#draft").isHidden(), true);
  }
  // The spectator follows into the match.
  await waitForGame(eve);
  assert.match(await eve.textContent("#hand"), /Spectators see no hand/);
  // The match by clicking, to its end (a concession if it lasts too long).
  let turns = 0;
  const deadline = Date.now() + 40000;
  while (Date.now() < deadline) {
    // Each page shows the newest update first (motion shows turns step by step).
    await Promise.all([ann, bob].map((p) => settled(p)));
    const infos = await Promise.all([ann, bob].map(gameInfo));
    if (infos.some((i) => i.phase === "game_over")) break;
    const active = infos[0].myTurn || infos[0].banner ? ann : infos[1].myTurn || infos[1].banner ? bob : null;
    if (!active) {
      await ann.waitForTimeout(50);
      continue;
    }
    await playTurnByClicking(active);
    turns++;
    if (turns === 3) await bob.screenshot({ path: artifact("draft-match-bob.png"), fullPage: true });
  }
  assert.ok(turns >= 3, `turns played (${turns})`);
  let conceded = false;
  await settled(ann);
  if ((await gameInfo(ann)).phase !== "game_over") {
    ann.once("dialog", (d) => d.accept());
    await ann.click("#concede");
    conceded = true;
  }
  console.log(`drafted duel: ${turns} turns by clicking, ${conceded ? "then a concession" : "to the end"}`);
  for (const p of [ann, bob, eve]) await p.waitForSelector("#match-over:not([hidden])");
  const winner = (await bob.textContent("#status")).match(/You won/) ? "Bob" : "Ann";
  if (conceded) assert.equal(winner, "Bob");
  // Watching a finished match: a reload still shows it.
  await eve.reload();
  await waitForGame(eve);
  await eve.waitForFunction(() => document.querySelector("#game").dataset.phase === "game_over");
  assert.match(await eve.textContent("#status"), new RegExp(`${winner} won`));
  // Back to the lobby: no room is watched any more, a reload stays in the lobby.
  await eve.click("#leave-room");
  await eve.waitForFunction(() => document.body.dataset.screen === "lobby");
  await eve.reload();
  await eve.waitForSelector("#room-list");
  await eve.waitForTimeout(300);
  assert.equal(await screen(eve), "lobby");
  assert.deepEqual(eve.jsErrors || [], []);
  await eve.context().close();
  assert.deepEqual(ann.jsErrors || [], []);
  assert.deepEqual(bob.jsErrors || [], []);
  await ann.context().close();
  await bob.context().close();
});

// A drafted room takes a bot too (docs/protocol.md "add_bot"): it drafts at
// random within the rules, then plays its match like any house bot.
test("a draft duel against a bot added from the waiting room: the bot drafts, the match starts", async () => {
  const page = await openClient(browser, server, { name: "Ann" });
  await createDraftRoom(page);
  await page.waitForSelector("#waiting-add-bot:not([hidden])");
  await page.click("#waiting-add-bot");
  await page.waitForFunction(() => document.body.dataset.screen === "draft");
  const picks = await draftByClicking([page]);
  assert.ok(picks > 0, "Ann picked");
  await waitForGame(page);
  const draft = await page.evaluate(() => window.codApp.lastDraft);
  assert.equal(draft.finished, true);
  assert.ok(draft.seats[1].taken.length > 0, "the bot took cards");
  await page.waitForFunction(() => document.querySelector("#game").textContent.includes("Bot 2"), null, { timeout: 10000 });
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("a 2v2 draft: four browser contexts pick in the order of R14.3 (a take of 2 included) and reach the match", async () => {
  const names = ["Ari", "Ben", "Cem", "Dia"];
  const pages = [];
  for (const name of names) pages.push(await openClient(browser, server, { name }));
  const room = await createDraftRoom(pages[0], { mode: "2v2", format: "draft", packs: ["initiation"] });
  for (const p of pages.slice(1)) await joinFromLobby(p, room);
  for (const p of pages) await p.waitForFunction(() => document.body.dataset.screen === "draft");
  assert.equal(await pages[0].locator("#draft-offer .draft-card").count(), 8);
  assert.equal(await pages[0].locator("#draft-seats .draft-seat").count(), 4);
  let sawTwo = false;
  await draftByClicking(pages, {
    onPick: async (n, page) => {
      if (!sawTwo && (await page.evaluate(() => window.codApp.draft.draft.waiting.some((w) => w.count === 2)))) {
        const waiting = await page.evaluate(() => window.codApp.draft.draft.waiting[0].seat);
        const picker = pages[waiting];
        await picker.waitForFunction(() => document.querySelector("#draft").dataset.myCount === "2");
        assert.match(await picker.textContent("#draft-status"), /You take 2 cards/);
        await picker.screenshot({ path: artifact("draft-2v2-take-two.png"), fullPage: true });
        sawTwo = true;
      }
    },
  });
  assert.ok(sawTwo, "a seat took 2 cards at once");
  for (const p of pages) {
    await waitForGame(p);
    assert.equal(await p.locator("#board .line").count(), 4);
    assert.equal((await p.evaluate(() => window.codApp.lastDraft.own_deck)).length, 8);
    assert.deepEqual(p.jsErrors || [], []);
  }
  for (const p of pages) await p.context().close();
});

test("a solo draft (R14.4): the player takes 1 of every 4 revealed by clicking, the AI gets the rest, the match starts", async () => {
  const sol = await openClient(browser, server, { name: "Sol" });
  // Alone with the AI: the draft starts as the creator takes the seat.
  await sol.selectOption("#create-mode", "solo");
  await sol.selectOption("#create-format", "draft");
  await sol.check('#opt-packs input[data-pack="initiation"]');
  await sol.click("#create-room");
  await sol.waitForFunction(() => document.body.dataset.screen === "draft");
  const picks = await draftByClicking([sol]);
  assert.equal(picks, 8); // 8 takes of 1; the AI's 3 of each 4 are dealt by the engine
  await sol.waitForSelector("#hand .card");
  assert.equal(await sol.locator("#board .line").count(), 2);
  assert.match(await sol.textContent("#seats"), /AI/);
  assert.deepEqual(sol.jsErrors || [], []);
  await sol.screenshot({ path: artifact("solo-draft-game.png"), fullPage: true });
  await sol.context().close();
});

test("an instant-constructed duel: secret lists of 10 from the pool, then the bans; a wrong ban refused in words", async () => {
  const cyd = await openClient(browser, server, { name: "Cyd" });
  const dee = await openClient(browser, server, { name: "Dee" });
  const room = await createDraftRoom(cyd, { mode: "duel", format: "instant_constructed", packs: ["initiation"] });
  await joinFromLobby(dee, room);
  const pages = [cyd, dee];
  for (const p of pages) await p.waitForFunction(() => document.body.dataset.screen === "draft");

  // Both submit at once: the pool (32 cards) is on offer to both.
  for (const p of pages) {
    assert.equal((await draftInfo(p)).pick, "submit");
    assert.equal(await p.locator("#draft-offer .draft-card.playable").count(), 32);
    assert.match(await p.textContent("#draft-status"), /You choose a secret list of 10 cards from the pool/);
  }
  // Cyd submits; Dee sees only that a list was submitted, not its cards.
  const cydList = await pickByClicking(cyd, await draftInfo(cyd));
  await dee.waitForFunction(() => /Secret list submitted/.test(document.querySelector("#draft-seats").textContent));
  const cydSeat = await cyd.evaluate(() => window.codApp.room.seat);
  assert.equal(await dee.evaluate((s) => window.codApp.draft.draft.seats[s].list, cydSeat), null, "the other seat's list is secret");
  assert.equal((await cyd.evaluate((s) => window.codApp.draft.draft.seats[s].list, cydSeat)).length, 10);
  assert.match(await cyd.textContent("#draft-seats"), /Your secret list \(10\)/);
  // Dee picks other cards than Cyd's first ones (lists may overlap; either way).
  await pickByClicking(dee, await draftInfo(dee), { skip: 5 });

  // The bans, in turn, each from the revealed list of the other seat.
  let bans = 0;
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const infos = await Promise.all(pages.map(draftInfo));
    if (infos.every((i) => i.screen === "game")) break;
    const i = infos.findIndex((x) => x.screen === "draft" && x.pick);
    if (i < 0) {
      await cyd.waitForTimeout(50);
      continue;
    }
    assert.equal(infos[i].pick, "ban");
    if (bans === 0) {
      // The screen only lets a seat choose what the step allows; a wrong pick
      // sent through its path anyway is refused, in words.
      const p = pages[i];
      await p.screenshot({ path: artifact("instant-ban.png"), fullPage: true });
      await p.evaluate(() => window.codApp.draft.actions.pick({ pick: "take", cards: ["brute"] }).catch(() => {}));
      await p.waitForFunction(() => document.querySelector("#error").dataset.code === "wrong_pick");
      assert.match(await p.textContent("#error .text"), /Another kind of pick is due now/);
      await p.click("#error button");
    }
    await pickByClicking(pages[i], infos[i]);
    bans++;
  }
  assert.equal(bans, 3, "bans 1, 2 and 1 (R14.7) as three picks");
  for (const p of pages) await waitForGame(p);
  const deck = await cyd.evaluate(() => window.codApp.lastDraft.own_deck);
  assert.equal(deck.length, 8);
  for (const id of deck) assert.ok(cydList.includes(id), `${id} from Cyd's list`);
  for (const p of pages) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});

test("a co-op game at a custom difficulty, created and played by clicking in two browser contexts", async () => {
  const amy = await openClient(browser, server, { name: "Amy", deck: 1 });
  const cal = await openClient(browser, server, { name: "Cal", deck: 2 });
  await amy.selectOption("#create-mode", "coop");
  await amy.selectOption("#opt-difficulty", "3");
  assert.equal(await amy.locator("#ai-settings").isVisible(), true);
  // Settings that spend 1 + 2 = 3 points for level 3 would pass; first a wrong
  // sum (2 points): the server's refusal, in words, with its sentence.
  await amy.check("#opt-ai-resistance");
  assert.match(await amy.textContent("#opt-ai-points"), /spend 2 points; difficulty 3 needs 3/);
  await amy.click("#create-room");
  await amy.waitForFunction(() => document.querySelector("#error").dataset.code === "bad_field_value");
  assert.match(await amy.textContent("#error .text"), /custom difficulty 3 needs 3 points; these options spend 2/);
  assert.equal(await screen(amy), "lobby");
  await amy.check('#opt-ai-abilities input[data-ability="sprint"]');
  assert.match(await amy.textContent("#opt-ai-points"), /spend 3 points; difficulty 3 needs 3/);
  await amy.click("#create-room");
  await amy.waitForFunction(() => document.body.dataset.screen === "waiting" && document.querySelector("#waiting-room").textContent !== "");
  const room = await amy.textContent("#waiting-room");
  await cal.click("#refresh-rooms");
  const row = cal.locator(`tr[data-room="${room}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /difficulty 3/);
  await joinFromLobby(cal, room);
  const pages = [amy, cal];
  for (const p of pages) await waitForGame(p);
  for (const p of pages) {
    assert.equal(await p.locator("#board .line").count(), 4);
    assert.equal(await p.locator("#seats .seat-box").count(), 4);
    assert.match(await p.textContent("#seats"), /AI deck: \d+ cards?/);
  }
  // Two turns each, by clicking; the AIs' turns come in between.
  let turns = 0;
  const deadline = Date.now() + 40000;
  while (turns < 4 && Date.now() < deadline) {
    const infos = await Promise.all(pages.map(gameInfo));
    if (infos.some((i) => i.phase === "game_over")) break;
    const i = infos.findIndex((x) => x.myTurn || x.banner);
    if (i < 0) {
      await amy.waitForTimeout(50);
      continue;
    }
    await playTurnByClicking(pages[i], { maxPlays: 2 });
    turns++;
  }
  assert.ok(turns >= 2, `the humans played turns (${turns})`);
  assert.match(await amy.textContent("#log"), /AI( \d)? reveals .* for/);
  await amy.screenshot({ path: artifact("coop-custom.png"), fullPage: true });
  for (const p of pages) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});
