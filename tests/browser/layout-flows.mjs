// Games to look at, for the layout test (layout.test.mjs) and the README's
// screenshots (screenshots.mjs): a duel, a four-player game and a phone game,
// each played a little by clicking, in browser contexts of a given size.
import { awake, gameInfo, playTurnByClicking, waitForGame, waitForOutcome, createRoom, joinFromLobby, settled, openClient } from "./lib.mjs";

export const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

// openClient (lib.mjs) with the context's size and kind given.
export function openSized(browser, server, contextOptions, { name, deck = 1 } = {}) {
  return openClient(browser, server, { name, deck, context: contextOptions });
}

// The index of the page whose turn it is, once every page shows the newest
// update (motion shows the others' turns step by step: until then no page
// may say it is its turn); -1 at the match's end, or after `timeout` ms.
export async function turnIndex(pages, timeout = 20000) {
  const until = Date.now() + timeout;
  for (;;) {
    await Promise.all(pages.map((p) => settled(p)));
    const infos = await Promise.all(pages.map(gameInfo));
    if (infos.some((x) => x.phase === "game_over")) return -1;
    // A page behind its new turn's banner is the one to play (playTurnByClicking puts it away).
    const i = infos.findIndex((x) => x.myTurn || x.banner);
    if (i >= 0 || Date.now() > until) return i;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Plays `turns` turns by clicking (at most `maxPlays` cards each) among
// `pages`, whoever is to play; stops early at the match's end.
export async function playTurns(pages, turns, maxPlays = 2) {
  for (let t = 0; t < turns; t++) {
    const i = await turnIndex(pages);
    if (i < 0) return;
    await playTurnByClicking(pages[i], { maxPlays });
  }
}

// The page whose turn it is, else the first.
export async function activePage(pages) {
  const i = await turnIndex(pages);
  return pages[i < 0 ? 0 : i];
}

// A duel between Ann (deck 1) and Bob (deck 3), `turns` turns into it.
export async function duel(browser, server, { turns = 4, context = DESKTOP } = {}) {
  const ann = await openSized(browser, server, context, { name: "Ann", deck: 1 });
  const bob = await openSized(browser, server, context, { name: "Bob", deck: 3 });
  const room = await createRoom(ann, { mode: "duel" });
  await joinFromLobby(bob, room);
  await waitForGame(ann);
  await waitForGame(bob);
  await playTurns([ann, bob], turns, 3);
  return { pages: [ann, bob], room };
}

// A four-player room (free-for-all with Champions and a clock, as in
// play.test.mjs; or 2v2), one round into it.
export async function fourPlayers(browser, server, { mode = "ffa", turns = 4, context = DESKTOP } = {}) {
  const names = ["Ada", "Bea", "Cid", "Dot"];
  const champions = ["rapscallion", "gladiator", "veteran", "naga"];
  const pages = [];
  for (let i = 0; i < 4; i++) {
    const p = await openSized(browser, server, context, { name: names[i], deck: i + 1 });
    await p.selectOption("#champion", champions[i]);
    pages.push(p);
  }
  const room = await createRoom(pages[0], { mode, champions: true, clockMin: 20 });
  for (let i = 1; i < 4; i++) await joinFromLobby(pages[i], room);
  for (const p of pages) await waitForGame(p);
  await playTurns(pages, turns, 2);
  return { pages, room };
}

// A solo game against the AI from the lobby's one button, `turns` of the
// player's turns into it.
export async function solo(browser, server, { turns = 2, context = PHONE, name = "Pia" } = {}) {
  const page = await openSized(browser, server, context, { name, deck: 2 });
  await page.click("#play-ai");
  await waitForGame(page);
  for (let t = 0; t < turns; t++) {
    await page.waitForFunction(() => {
      const g = document.querySelector("#game");
      return g.dataset.myTurn === "true" || g.dataset.phase === "game_over";
    }, null, { timeout: 20000 });
    if ((await gameInfo(page)).phase === "game_over") break;
    await playTurnByClicking(page, { maxPlays: 2 });
  }
  await page.waitForFunction(() => {
    const g = document.querySelector("#game");
    return g.dataset.myTurn === "true" || g.dataset.phase === "game_over";
  }, null, { timeout: 20000 });
  return { page };
}

// One turn that puts creatures on the seat's `rel` line only (incantations
// are left in hand), to grow a long line; then ends the summoning phase.
export async function playTurnOnLine(page, rel = "upper", maxPlays = 4) {
  await awake(page);
  const tried = new Set();
  for (let plays = 0; plays < maxPlays;) {
    const uids = await page.$$eval("#hand .card.playable.affordable", (els) => els.map((e) => Number(e.dataset.uid)));
    const uid = uids.find((u) => !tried.has(u));
    if (uid === undefined) break;
    tried.add(uid);
    const { seq } = await gameInfo(page);
    await page.click(`#hand .card[data-uid="${uid}"]`);
    await page.waitForSelector("#prompt:not([hidden])");
    if (!(await page.$(`#prompt [data-play-line="${rel}"]`))) {
      await page.click("#cancel-play");
      continue;
    }
    await page.click(`#prompt [data-play-line="${rel}"]`);
    if ((await waitForOutcome(page, seq)) === "update") plays++;
    else await page.click("#error button");
  }
  const { seq, phase } = await gameInfo(page);
  if (phase !== "summoning") return;
  await page.click("#end-turn");
  await waitForOutcome(page, seq);
}

// Turns on one line each until a side holds `count` creatures (or `turns`
// turns have passed); returns the most creatures seen on one side.
export async function growLine(pages, count = 2, turns = 12) {
  const most = () => pages[0].evaluate(() => Math.max(0, ...[...document.querySelectorAll("#board .creatures")].map((c) => c.children.length)));
  for (let t = 0; t < turns && (await most()) < count; t++) {
    const i = await turnIndex(pages);
    if (i < 0) break;
    await playTurnOnLine(pages[i]);
  }
  await Promise.all(pages.map((p) => settled(p)));
  // At rest: an entering creature moves for a moment.
  await Promise.all(pages.map((p) => p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"))));
  return most();
}
