// The web client's layout (issue 17, items 6 and 10) in headless Chromium
// against the real cod-server: at 1280×800 a four-player game fits one screen
// (the four lines as a cross, the viewer's at the bottom, the hand and
// End-turn in sight without scrolling), a duel's lines never wrap and an error
// does not move the board; on a 390×844 phone no page scrolls sideways, the
// lobby's Join button is on screen, the hand is a swipe strip and the log a
// drawer. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openClient, artifact, gameInfo, waitForGame, createRoom, joinFromLobby, playTurnByClicking, settled } from "./lib.mjs";
import { DESKTOP, PHONE, openSized, duel, fourPlayers, activePage, growLine, turnIndex } from "./layout-flows.mjs";

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

// The page's box of `selector` ({top, bottom, left, right}) and the viewport.
function boxes(page, selector) {
  return page.$$eval(selector, (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
  }));
}

async function viewport(page) {
  return page.evaluate(() => ({
    width: window.innerWidth, height: window.innerHeight,
    scrollX: window.scrollX, scrollY: window.scrollY,
    scrollWidth: document.documentElement.scrollWidth,
  }));
}

function inside(box, vp, what) {
  assert.ok(box.top >= 0 && box.left >= 0 && box.bottom <= vp.height + 0.5 && box.right <= vp.width + 0.5,
    `${what} is in the viewport: ${JSON.stringify(box)} in ${vp.width}x${vp.height}`);
}

// Every side's creatures share one row (same top), and position 0 (the
// first in the DOM) is next to the Bridge and in sight inside its box.
async function assertRowsUnwrapped(page) {
  const sides = await page.$$eval("#board .side", (els) => els.map((side) => {
    const box = side.querySelector(".creatures");
    const b = box.getBoundingClientRect();
    const cs = [...box.querySelectorAll(":scope > .creature, :scope > .card-face > .creature")].map((c) => c.getBoundingClientRect());
    const bridge = side.parentElement.querySelector(".bridge").getBoundingClientRect();
    return {
      left: side.classList.contains("left"), tops: cs.map((r) => Math.round(r.top)),
      first: cs[0] ? { left: cs[0].left, right: cs[0].right } : null,
      box: { left: b.left, right: b.right }, bridge: { left: bridge.left, right: bridge.right },
      scrollable: box.scrollWidth > box.clientWidth, overflow: getComputedStyle(box).overflowX,
    };
  }));
  let most = 0;
  for (const s of sides) {
    most = Math.max(most, s.tops.length);
    assert.equal(new Set(s.tops).size <= 1, true, `a line's creatures on one row: ${JSON.stringify(s)}`);
    assert.equal(s.overflow, "auto", "a long line scrolls inside its box");
    if (!s.first) continue;
    // Position 0 is the one nearest the Bridge, and fully inside the box.
    assert.ok(s.first.left >= s.box.left - 1 && s.first.right <= s.box.right + 1, `position 0 in sight: ${JSON.stringify(s)}`);
    if (s.left) assert.ok(s.bridge.left - s.first.right < 30, `position 0 next to the Bridge (left side): ${JSON.stringify(s)}`);
    else assert.ok(s.first.left - s.bridge.right < 30, `position 0 next to the Bridge (right side): ${JSON.stringify(s)}`);
  }
  return { most, sides };
}

test("at 1280×800 a four-player game is one screen: four lines as a cross, the viewer's at the bottom, the hand and End-turn in sight; the fullest board too", async () => {
  const { pages } = await fourPlayers(browser, server, { turns: 4 });
  for (const p of pages) {
    // The game's layout (layout.css) came with the game screen, which shows once it is there.
    assert.equal(await p.evaluate(() => [...document.styleSheets].some((s) => /\/play\/layout\.css$/.test(s.href || ""))), true);
    assert.equal(await p.$eval("#game", (g) => g.dataset.css === undefined && getComputedStyle(g).visibility), "visible");
    const vp = await viewport(p);
    assert.equal(vp.scrollY, 0);
    assert.ok(vp.scrollWidth <= vp.width, `no sideways scroll: ${JSON.stringify(vp)}`);
    // Nothing outside the screen: the page itself cannot scroll.
    assert.ok(await p.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), "the page does not scroll");
    inside((await boxes(p, "#hand"))[0], vp, "the hand");
    inside((await boxes(p, "#end-turn"))[0], vp, "End the summoning phase");
    inside((await boxes(p, "#concede"))[0], vp, "Concede");
    // The cards a click can play and the Champion: whole, in sight (a long
    // hand scrolls sideways in its strip, the Champion pinned at its end).
    // The strip and its cards in one frame, once no update is being drawn
    // (a redraw between two reads could replace the cards measured); each
    // card says what it is when it fails.
    await settled(p);
    const { hand, shown } = await p.evaluate(() => {
      const box = (e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
      };
      const cards = [...document.querySelectorAll("#hand .card.playable, #hand .champion-slot, #hand .stronghold-card")];
      return {
        hand: box(document.querySelector("#hand")),
        shown: cards.map((e) => ({ ...box(e), html: e.outerHTML.slice(0, 300), display: getComputedStyle(e).display })),
      };
    });
    assert.ok(shown.length >= 3, "playable cards, the Stronghold and the Champion");
    for (const c of shown) {
      inside(c, vp, `a playable card, the Stronghold or the Champion (${c.html})`);
      assert.ok(c.left >= hand.left - 1 && c.right <= hand.right + 1, `whole inside the hand's strip: ${JSON.stringify(c)} in ${JSON.stringify(hand)}`);
    }
    // The four lines, all in sight (inside the table's box too, not scrolled away).
    // The lines and the seats in one frame: an update arriving between two
    // reads could move one and not the other.
    const snap = await p.evaluate(() => {
      const box = (e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
      };
      const lines = [...document.querySelectorAll("#board .line")].map((e) => ({ quad: e.dataset.quad, rel: e.dataset.rel, ...box(e) }));
      const seats = {};
      for (const place of ["bottom", "top", "left", "right"]) {
        const e = document.querySelector(`#seats .seat-box[data-place="${place}"]`);
        seats[place] = e ? box(e) : null;
      }
      return { lines, seats };
    });
    const lines = snap.lines;
    assert.equal(lines.length, 4);
    const table = (await boxes(p, "#game .table"))[0];
    for (const l of lines) {
      inside(l, vp, `line ${l.quad}`);
      assert.ok(l.top >= table.top - 1 && l.bottom <= table.bottom + 1, `line ${l.quad} not scrolled out of the table`);
    }
    // The cross: two rows of two; the viewer's two lines the lower row.
    const at = Object.fromEntries(lines.map((l) => [l.quad, l]));
    assert.deepEqual(Object.keys(at).sort(), ["bl", "br", "tl", "tr"]);
    assert.equal(Math.round(at.tl.top), Math.round(at.tr.top));
    assert.equal(Math.round(at.bl.top), Math.round(at.br.top));
    assert.ok(at.tl.bottom <= at.bl.top && at.tl.right <= at.tr.left + 1);
    assert.deepEqual([at.bl.rel, at.br.rel].sort(), ["lower", "upper"], "the viewer's lines at the bottom");
    // The seats around it: the viewer below the lines, the seat across above them.
    const { bottom, top, left, right } = snap.seats;
    assert.ok(bottom.top >= at.bl.bottom - 1 && top.bottom <= at.tl.top + 1,
              `the viewer's seat below the lines, the seat across above them: ${JSON.stringify({ bottom, top, bl: at.bl, tl: at.tl })}`);
    assert.ok(left.right <= right.left && left.top >= at.tl.bottom - 1 && left.bottom <= at.bl.top + 1);
    const viewer = (await gameInfo(p)).viewer;
    assert.equal(await p.$eval('#seats .seat-box[data-place="bottom"]', (e) => e.dataset.seat), viewer);
    // Each seat's side toward its own place: in the lower row the viewer's
    // side is the one next to the other lower-row line.
    assert.equal(await p.$eval('.line[data-quad="bl"] .side.right', (e) => e.dataset.seat), viewer);
    assert.equal(await p.$eval('.line[data-quad="br"] .side.left', (e) => e.dataset.seat), viewer);
  }
  await (await activePage(pages)).screenshot({ path: artifact("layout-four-player.png") });
  // The worst case on purpose: every line full (issue 30, item 8).
  await checkFullestBoard(pages[0]);
  for (const p of pages) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});

// Issue 30, item 8: the fullest board, on purpose (not as a random game
// happens to leave it): the viewer's page draws, with its own render code, a
// view whose every side of every line holds RULING E2's 16 creatures, each
// the tallest a creature gets (the most abilities, a long name, a Symbiote on
// top, chained cards, damage, a bonus, protection used, entered this turn,
// an incantation's target), and a hand of the widest cards.
async function drawFullestBoard(page) {
  await settled(page);
  return page.evaluate(() => {
    const g = window.codApp.game;
    const cards = [...window.codApp.cat.cards.values()];
    const weight = (c) => c.abilities.length * 100 + c.abilities.reduce((n, a) => n + a.ability.length, 0) + c.name.length;
    const creatures = cards.filter((c) => c.type === "creature").sort((a, b) => weight(b) - weight(a));
    const spell = cards.find((c) => c.type === "incantation");
    let uid = 100000;
    const v = structuredClone(g.view);
    const targets = [];
    for (const line of v.lines) for (const side of line.sides) {
      side.creatures = [];
      for (let i = 0; i < 16; i++) {
        const c = creatures[i % 4];
        const top = creatures[(i + 1) % 4];
        const one = {
          uid: uid++, card_id: c.id, av: 9, bonus_av: 2, hp: 9, damage: 3,
          abilities: c.abilities.map((a) => a.ability), entered_this_turn: true, attacked: true, protection_used: true,
          top: { uid: uid++, card_id: top.id }, chained: [{ uid: uid++, card_id: creatures[5].id }, { uid: uid++, card_id: creatures[6].id }],
        };
        targets.push(one.uid);
        side.creatures.push(one);
      }
    }
    v.hand = v.hand.slice(0, 1).concat(creatures.slice(0, 9).map((c) => ({ uid: uid++, card_id: c.id })));
    v.hand[0] = { uid: uid++, card_id: spell.id };
    v.playable = v.hand.slice(0, 4).map((c) => c.uid);
    v.phase = "summoning";
    v.active_seat = v.viewer;
    if (g.turn) g.turn.reset(); // no banner over the drawing
    g.view = v;
    g.legal = { plays: [{ card: v.hand[0].uid, targets }].concat(v.hand.slice(1, 4).map((c) => ({ card: c.uid, lines: ["upper", "lower"] }))), end_turn: true };
    g.selected = v.hand[0].uid;
    g.render();
    return document.querySelectorAll("#board .creature.targetable").length;
  });
}

// The fullest board drawn on `p` is laid out: every line in the table, rows unwrapped.
async function checkFullestBoard(p) {
  const drawn = await drawFullestBoard(p);
  assert.equal(drawn, 4 * 2 * 16, "every side of every line full");
  const vp = await viewport(p);
  assert.ok(await p.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), "the page does not scroll");
  assert.ok(vp.scrollWidth <= vp.width, `no sideways scroll: ${JSON.stringify(vp)}`);
  inside((await boxes(p, "#hand"))[0], vp, "the hand");
  inside((await boxes(p, "#end-turn"))[0], vp, "End the summoning phase");
  const table = (await boxes(p, "#game .table"))[0];
  const lines = await p.$$eval("#board .line", (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { quad: e.dataset.quad, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  }));
  assert.equal(lines.length, 4);
  await p.screenshot({ path: artifact("layout-fullest-board.png") });
  for (const l of lines) {
    inside(l, vp, `line ${l.quad}`);
    assert.ok(l.top >= table.top - 1 && l.bottom <= table.bottom + 1, `line ${l.quad} not scrolled out of the table: ${JSON.stringify({ l, table })}`);
  }
  await assertRowsUnwrapped(p);
}

test("at 1280×800 a duel's lines never wrap (one row a line, position 0 in sight) and an error does not move the board", async () => {
  const { pages } = await duel(browser, server, { turns: 2 });
  // A line with several creatures (both seats put theirs on their upper line).
  await growLine(pages, 3);
  let most = 0;
  for (const p of pages) {
    const vp = await viewport(p);
    assert.ok(vp.scrollWidth <= vp.width);
    inside((await boxes(p, "#hand"))[0], vp, "the hand");
    inside((await boxes(p, "#end-turn"))[0], vp, "End the summoning phase");
    most = Math.max(most, (await assertRowsUnwrapped(p)).most);
    // The viewer's seat below the lines, the other above.
    const [board] = await boxes(p, "#board");
    const [mine] = await boxes(p, '#seats .seat-box[data-place="bottom"]');
    const [theirs] = await boxes(p, '#seats .seat-box[data-place="top"]');
    assert.ok(theirs.bottom <= board.top + 1 && mine.top >= board.bottom - 1);
  }
  // Checked on lines with more than one creature (else a row cannot wrap).
  assert.ok(most >= 2, `a line with at least two creatures (${most})`);
  // A long line (more creatures than its box holds; made here by narrowing
  // the window) still keeps one row and scrolls inside its box.
  const [p] = pages;
  await p.setViewportSize({ width: 700, height: 800 });
  const narrow = await assertRowsUnwrapped(p);
  assert.ok(narrow.sides.some((s) => s.scrollable), "a line too long for its box scrolls in it");
  await p.setViewportSize(DESKTOP.viewport);

  // The goal in sight, and a hand wider than its strip says so ("N more
  // cards →", cues.js), one that fits does not; made wider than its strip
  // here by narrowing the strip. The cue scrolls it.
  for (const q of pages) {
    await q.waitForSelector("#goal");
    inside((await boxes(q, "#goal"))[0], await viewport(q), "the goal");
    const over = await q.$eval("#hand", (e) => e.scrollWidth > e.clientWidth + 2);
    assert.equal(await q.isVisible("#hand-more"), over);
  }
  await p.$eval("#hand", (e) => { e.style.maxWidth = "240px"; window.dispatchEvent(new Event("resize")); });
  await p.waitForSelector("#hand-more:not([hidden])");
  assert.match(await p.textContent("#hand-more"), /^\d+ more cards? →$/);
  inside((await boxes(p, "#hand-more"))[0], await viewport(p), "the more-cards cue");
  await p.click("#hand-more");
  await p.waitForFunction(() => document.querySelector("#hand").scrollLeft > 0);
  await p.$eval("#hand", (e) => { e.style.maxWidth = ""; e.scrollLeft = 0; window.dispatchEvent(new Event("resize")); });

  // An error floats over the page: the board stays where it was.
  const waiting = (await gameInfo(pages[0])).myTurn ? pages[1] : pages[0];
  const before = (await boxes(waiting, "#board"))[0];
  await waiting.evaluate(() => { document.querySelector("#end-turn").disabled = false; });
  await waiting.click("#end-turn");
  await waiting.waitForFunction(() => !document.querySelector("#error").hidden);
  const afterError = (await boxes(waiting, "#board"))[0];
  assert.equal(afterError.top, before.top, "the board does not move when an error shows");
  await waiting.screenshot({ path: artifact("layout-duel-error.png") });
  await waiting.click("#error button");
  for (const q of pages) {
    assert.deepEqual(q.jsErrors || [], []);
    await q.context().close();
  }
});

test("on a 390×844 phone: no sideways scroll in the lobby, waiting room and game; Join on screen; the hand a strip; the log a drawer", async () => {
  // A room in the list, made by someone at a computer.
  const host = await openClient(browser, server, { name: "Hal" });
  const listed = await createRoom(host, { mode: "duel" });
  const phone = await openSized(browser, server, PHONE, { name: "Pia", deck: 2 });
  await phone.click("#refresh-rooms");
  await phone.locator(`tr[data-room="${listed}"] button.join`).waitFor();
  let vp = await viewport(phone);
  assert.ok(vp.scrollWidth <= vp.width, `lobby: no sideways scroll (${vp.scrollWidth} > ${vp.width})`);
  const [join] = await boxes(phone, "#room-list button.join");
  assert.ok(join.left >= 0 && join.right <= vp.width, `the first Join button within the width: ${JSON.stringify(join)}`);
  const [watch] = await boxes(phone, "#room-list button.watch");
  assert.ok(watch.left >= 0 && watch.right <= vp.width, "the first Watch button within the width");
  await phone.screenshot({ path: artifact("layout-phone-lobby.png"), fullPage: true });

  // Its own room: the waiting room; then a game against a player at a computer.
  const room = await createRoom(phone, { mode: "duel" });
  vp = await viewport(phone);
  assert.ok(vp.scrollWidth <= vp.width, "waiting room: no sideways scroll");
  const other = await openClient(browser, server, { name: "Oli", deck: 3 });
  await joinFromLobby(other, room);
  await waitForGame(phone);
  await waitForGame(other);
  const pages = [phone, other];
  for (let t = 0; t < 4; t++) {
    const i = await turnIndex(pages);
    assert.ok(i >= 0, "a seat to play");
    await playTurnByClicking(pages[i], { maxPlays: 2 });
  }
  // Measured at rest: motion's entrances move creatures for a moment.
  await settled(phone);
  await phone.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  vp = await viewport(phone);
  assert.ok(vp.scrollWidth <= vp.width, `game: no sideways scroll (${vp.scrollWidth} > ${vp.width})`);
  inside((await boxes(phone, "#hand"))[0], vp, "the hand");
  inside((await boxes(phone, "#end-turn"))[0], vp, "End the summoning phase");
  const [board] = await boxes(phone, "#board");
  assert.ok(board.left >= 0 && board.right <= vp.width, "the board fits the width");
  await assertRowsUnwrapped(phone);
  // The hand: one row that scrolls sideways, snapping to the cards.
  const hand = await phone.$eval("#hand", (e) => ({
    snap: getComputedStyle(e).scrollSnapType, overflow: getComputedStyle(e).overflowX,
    tops: [...e.children].map((c) => Math.round(c.getBoundingClientRect().top)),
    scrollable: e.scrollWidth > e.clientWidth,
  }));
  assert.match(hand.snap, /x/);
  assert.equal(hand.overflow, "auto");
  assert.equal(new Set(hand.tops).size, 1, "the hand is one row");
  assert.ok(hand.scrollable, "the hand is wider than the phone: it scrolls");

  // Every name of the catalogue on a phone's hand card and creature (a copy
  // of one in this game, in its place): each word on one line and whole
  // (never broken inside a word, nor clipped).
  const badNames = await phone.evaluate(async () => {
    const { nameSize } = await import("/play/js/abilities.js");
    const card = document.querySelector("#hand .card[data-uid]");
    const creature = document.querySelector("#board .creature");
    if (!card || !creature) return ["no card or creature to copy"];
    const out = [];
    for (const c of window.codApp.cat.cards.values()) {
      const size = nameSize(c.name).replace(".", "");
      for (const model of [card, creature]) {
        const copy = model.cloneNode(true);
        model.parentElement.append(copy);
        const name = copy.querySelector(".cname");
        name.className = "cname" + (size ? " " + size : "");
        name.textContent = c.name;
        let at = 0;
        for (const word of c.name.split(/[ -]/)) {
          const r = document.createRange();
          r.setStart(name.firstChild, at);
          r.setEnd(name.firstChild, at + word.length);
          if (r.getClientRects().length > 1) out.push(`${model.className}: ${c.name} (${word} broken)`);
          at += word.length + 1;
        }
        if (name.scrollWidth > name.clientWidth + 1) out.push(`${model.className}: ${c.name} clipped`);
        copy.remove();
      }
    }
    return out;
  });
  assert.deepEqual(badNames, [], "every name whole on a phone's cards");

  // The log drawer: closed, opened by its button, Escape closes it, the keyboard opens it.
  const drawer = () => phone.evaluate(() => ({
    shown: document.querySelector("#log-area").checkVisibility(),
    expanded: document.querySelector("#log-toggle").getAttribute("aria-expanded"),
    focus: document.activeElement.id,
  }));
  const closed = await drawer();
  assert.equal(closed.shown, false, "the log drawer starts closed");
  assert.equal(closed.expanded, "false");
  assert.equal(await phone.getAttribute("#log-toggle", "aria-controls"), "log-area");
  await phone.click("#log-toggle");
  assert.deepEqual(await drawer(), { shown: true, expanded: "true", focus: "log-close" });
  assert.match(await phone.textContent("#log"), /plays|Playing room/);
  inside((await boxes(phone, "#log-area"))[0], vp, "the open drawer");
  await phone.screenshot({ path: artifact("layout-phone-drawer.png") });
  await phone.keyboard.press("Escape");
  assert.deepEqual(await drawer(), { shown: false, expanded: "false", focus: "log-toggle" });
  await phone.keyboard.press("Enter");
  assert.deepEqual(await drawer(), { shown: true, expanded: "true", focus: "log-close" });
  await phone.keyboard.press("Enter");
  assert.deepEqual(await drawer(), { shown: false, expanded: "false", focus: "log-toggle" });
  await phone.screenshot({ path: artifact("layout-phone-game.png") });
  for (const p of [host, phone, other]) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});

test("on a 390×844 phone the draft screen does not scroll sideways either", async () => {
  const phone = await openSized(browser, server, PHONE, { name: "Pia", deck: 2 });
  const room = await createRoom(phone, { mode: "duel", format: "draft", packs: ["initiation"] });
  const other = await openClient(browser, server, { name: "Oli" });
  await joinFromLobby(other, room);
  await phone.waitForFunction(() => document.body.dataset.screen === "draft" && document.querySelector("#draft-offer .draft-card"));
  const vp = await viewport(phone);
  assert.ok(vp.scrollWidth <= vp.width, `draft: no sideways scroll (${vp.scrollWidth} > ${vp.width})`);
  const cards = await boxes(phone, "#draft-offer .draft-card");
  assert.ok(cards.length >= 1);
  for (const c of cards) assert.ok(c.left >= 0 && c.right <= vp.width, `a card on offer within the width: ${JSON.stringify(c)}`);
  await phone.screenshot({ path: artifact("layout-phone-draft.png"), fullPage: true });
  for (const p of [phone, other]) {
    assert.deepEqual(p.jsErrors || [], []);
    await p.context().close();
  }
});
