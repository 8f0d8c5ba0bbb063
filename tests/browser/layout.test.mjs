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

// Issue 30, item 3: the landing says what the game is and has one big Play;
// the cards are drawn (an SVG frame by type and pack, a mana gem, AV and HP
// badges, an icon per ability) with their words unchanged; a card zooms on
// hover; a duel's table fills the screen (no empty band above the hand).
test("at 1280×800 the landing has one big Play; drawn card faces; a card zooms on hover; the table fills the screen", async () => {
  const page = await openSized(browser, server, DESKTOP, { name: "Lou" });
  const vp = await viewport(page);
  const landing = await page.evaluate(() => {
    const l = document.querySelector("#landing");
    if (!l) return null;
    const area = (b) => { const r = b.getBoundingClientRect(); return r.width * r.height; };
    const shown = [...document.querySelectorAll("button")].filter((b) => b.checkVisibility());
    const biggest = shown.reduce((a, b) => (area(b) > area(a) ? b : a));
    return {
      index: [...l.parentElement.children].indexOf(l), text: l.textContent,
      buttons: [...l.querySelectorAll("button")].map((b) => b.id), biggest: biggest.id,
      box: l.getBoundingClientRect().toJSON(), font: parseFloat(getComputedStyle(l.querySelector("button")).fontSize),
    };
  });
  assert.ok(landing, "a landing");
  assert.equal(landing.index, 0, "the landing comes first");
  assert.match(landing.text, /card/i);
  assert.match(landing.text, /Stronghold/);
  assert.ok(landing.text.length > 150, "it says what the game is");
  assert.deepEqual(landing.buttons, ["play-ai"], "one button on the landing: Play");
  assert.equal(landing.biggest, "play-ai", "Play is the biggest button of the page");
  assert.ok(landing.font >= 20, `a big Play (${landing.font}px)`);
  inside(landing.box, vp, "the landing");
  await page.screenshot({ path: artifact("look-landing.png") });

  await page.click("#play-ai");
  await waitForGame(page);
  await playTurnByClicking(page, { maxPlays: 2 });
  await page.waitForFunction(() => document.querySelector("#game").dataset.myTurn === "true" && document.querySelector("#board .creature.drawn"), null, { timeout: 20000 });
  await settled(page);
  // Every card and creature drawn, the sprite's symbols rendered (a
  // symbol that did not load has an empty box), the words as they were.
  const faces = await page.evaluate(() => {
    const cat = window.codApp.cat;
    const bad = [];
    const drawn = (use) => use && use.getBBox().width > 0;
    const els = [...document.querySelectorAll("#hand .card[data-card-id], #board .creature[data-card-id]")];
    for (const el of els) {
      const def = cat.card(el.dataset.cardId);
      const what = `${el.dataset.cardId}`;
      if (!el.classList.contains("drawn") || el.dataset.pack !== def.pack || el.dataset.type !== def.type) bad.push(`${what}: not drawn`);
      if (!drawn(el.querySelector(":scope > svg.art use[href$='#frame']"))) bad.push(`${what}: no frame`);
      if (el.matches(".card") && !drawn(el.querySelector(".cost svg.gem use"))) bad.push(`${what}: no gem`);
      if (def.type === "creature") {
        const av = el.querySelector(".badge.av"), hp = el.querySelector(".badge.hp");
        if (!av || !hp || !drawn(av.querySelector("use")) || !drawn(hp.querySelector("use"))) bad.push(`${what}: no badges`);
        if (el.matches(".card") && el.querySelector(".cstats").textContent !== `AV ${def.av ?? "X"} · HP ${def.hp}`) bad.push(`${what}: words changed`);
        if (el.matches(".creature") && !/^AV \d+.* · HP \d+\/\d+/.test(el.querySelector(".stats").textContent)) bad.push(`${what}: words changed`);
      }
      for (const b of el.parentElement.querySelectorAll(":scope > .ability-row > button.ability")) {
        const key = b.dataset.abilityKey.replace("+aura", "");
        if (!drawn(b.querySelector(`svg.aicon use[href$='#a-${key}']`))) bad.push(`${what}: no icon for ${key}`);
        if (b.querySelector("svg").getAttribute("aria-hidden") !== "true") bad.push(`${what}: icon not hidden`);
      }
    }
    return { count: els.length, creatures: document.querySelectorAll("#board .creature.drawn").length, bad };
  });
  console.log(`drawn: ${faces.count} cards and creatures (${faces.creatures} in play)`);
  assert.deepEqual(faces.bad, []);
  assert.ok(faces.count >= 6 && faces.creatures >= 1);

  // The table fills the screen: the viewer's seat ends where the dock begins.
  const [table] = await boxes(page, ".table");
  const [board] = await boxes(page, "#board");
  const [mine] = await boxes(page, '#seats .seat-box[data-place="bottom"]');
  const [dock] = await boxes(page, ".dock");
  console.log(`table ${Math.round(table.height)} px, board ${Math.round(board.height)} px, seat to dock ${Math.round(dock.top - mine.bottom)} px`);
  assert.ok(dock.top - mine.bottom < 24, `no empty band between the seat and the hand (${dock.top - mine.bottom} px)`);
  assert.ok(board.height > table.height * 0.55, "the lines take most of the table");

  // Hover: a large copy beside the card, with its abilities' texts; away: gone.
  const card = page.locator("#hand .card.drawn[data-card-id]").first();
  const id = await card.getAttribute("data-card-id");
  await card.hover();
  await page.waitForSelector("#card-zoom:not([hidden])", { timeout: 3000 });
  const zoom = await page.evaluate((cid) => {
    const z = document.querySelector("#card-zoom");
    const c = document.querySelector(`#hand .card[data-card-id="${cid}"]`).getBoundingClientRect();
    const r = z.getBoundingClientRect();
    const def = window.codApp.cat.card(cid);
    return {
      id: z.dataset.cardId, text: z.textContent, hidden: z.getAttribute("aria-hidden"),
      bigger: r.width > c.width * 1.4, overlaps: !(r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom),
      box: r.toJSON(), name: window.codApp.cat.name(cid), texts: def.abilities.map((a) => window.codApp.cat.abilityText(a.ability)),
    };
  }, id);
  assert.equal(zoom.id, id);
  assert.ok(zoom.text.includes(zoom.name));
  for (const t of zoom.texts) assert.ok(zoom.text.includes(t), `the zoom tells ${t}`);
  assert.ok(zoom.bigger, "the zoom is larger than the card");
  assert.equal(zoom.overlaps, false, "the zoom leaves the card pointed at in sight");
  assert.equal(zoom.hidden, "true", "a copy for the eye (the card's words are the text)");
  inside(zoom.box, vp, "the zoom");
  await page.screenshot({ path: artifact("look-zoom.png") });
  await page.mouse.move(5, 5);
  await page.waitForSelector("#card-zoom", { state: "hidden", timeout: 3000 });
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

// Runs in the page: at each damage number motion shows, where it is and
// whether the viewer's seat is in sight (inside the table's box, above the
// dock, in the viewport); whether the number sits on the thing hit.
function recordHits() {
  window.__hits = [];
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (n.nodeType !== 1 || !n.matches(".mo-float.damage")) continue;
      const rect = (s) => document.querySelector(s)?.getBoundingClientRect().toJSON();
      const f = n.getBoundingClientRect();
      const x = f.left + f.width / 2, y = f.top + f.height / 2;
      const seat = rect('#seats .seat-box[data-place="bottom"]');
      // By their boxes: a creature destroyed in the same step is already
      // hidden under its fading copy (motion.js), which takes no pointer.
      const under = (e) => { const r = e.getBoundingClientRect(); return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom; };
      const on = [...document.querySelectorAll("#seats .seat-box, #board .creature, .mo-layer .mo-copy")].find(under);
      const t = document.querySelector(".table");
      window.__hits.push({ text: n.textContent, x, y, seat, table: rect(".table"), dock: rect(".dock"), mine: !!on && on.matches('.seat-box[data-place="bottom"]'),
        onTarget: !!on, overflow: t.scrollHeight > t.clientHeight + 40 });
    }
  }).observe(document.body, { childList: true, subtree: true });
}

// Issue 30, item 5: on a phone the player's seat stays in sight while the
// lines scroll (the AI's hits on it and their numbers too, never over the
// dock), the dock folds to give the board room, a long press zooms a card
// without choosing it, and a free-for-all's line labels leave the names be.
test("on a 390×844 phone the own seat and what is hit stay in sight; the dock folds; a long press zooms; ffa labels clear of names", async () => {
  const page = await openSized(browser, server, PHONE, { name: "Pia", deck: 2 });
  await page.evaluate(recordHits);
  await page.click("#play-ai");
  await waitForGame(page);
  await page.waitForSelector("#dock-fold");
  const vp = await viewport(page);
  // Turns played until the lines are longer than the table's box. Before
  // each end of turn the table is scrolled to its top (a look at the AI's
  // side): the seat at its foot must stay in sight all the same, and what
  // the AI hits be brought into sight, its number on it.
  const enough = (hits) => hits.filter((h) => h.overflow).length >= 2;
  for (let t = 0; t < 10; t++) {
    await page.waitForFunction(() => { const g = document.querySelector("#game"); return g.dataset.myTurn === "true" || g.dataset.phase === "game_over"; }, null, { timeout: 20000 });
    if ((await gameInfo(page)).phase === "game_over" || enough(await page.evaluate(() => window.__hits))) break;
    await page.evaluate(() => { document.querySelector(".table").scrollTop = 0; });
    await playTurnByClicking(page, { maxPlays: 2 });
  }
  await settled(page);
  const hits = await page.evaluate(() => window.__hits);
  console.log(`damage numbers: ${hits.map((h) => `${h.text}${h.mine ? " (your seat)" : ""}${h.overflow ? " (table scrolls)" : ""}`).join(" ")}`);
  assert.ok(enough(hits), "hits while the lines were longer than the table's box");
  for (const h of hits) {
    assert.ok(h.y >= h.table.top && h.y <= h.table.bottom && h.y <= h.dock.top, `a number inside the table, not over the dock: ${JSON.stringify(h)}`);
    assert.ok(h.onTarget, `the number on the thing hit: ${JSON.stringify(h)}`);
    assert.ok(h.seat.top >= h.table.top - 1 && h.seat.bottom <= h.table.bottom + 1 && h.seat.bottom <= vp.height, `the viewer's seat in sight: ${JSON.stringify(h)}`);
  }
  await page.screenshot({ path: artifact("look-phone-hit.png") });

  // The dock folds: the hand hides, the board grows, the buttons stay.
  const tableBefore = (await boxes(page, ".table"))[0].height;
  assert.equal(await page.getAttribute("#dock-fold", "aria-expanded"), "true");
  await page.click("#dock-fold");
  assert.equal(await page.getAttribute("#dock-fold", "aria-expanded"), "false");
  assert.equal(await page.isVisible("#hand"), false, "the hand folded away");
  assert.equal(await page.isVisible("#end-turn"), true, "the buttons stay");
  const tableFolded = (await boxes(page, ".table"))[0].height;
  console.log(`table ${Math.round(tableBefore)} px, folded ${Math.round(tableFolded)} px`);
  assert.ok(tableFolded > tableBefore + 80, "the board takes the room");
  await page.screenshot({ path: artifact("look-phone-folded.png") });
  await page.click("#dock-fold");
  assert.equal(await page.isVisible("#hand"), true);

  // A long press (a touch held 600 ms) zooms the card and chooses nothing.
  const card = page.locator("#hand .card.drawn[data-card-id]").first();
  await card.scrollIntoViewIfNeeded();
  const r = await card.boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const point = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await page.waitForSelector("#card-zoom:not([hidden])", { timeout: 3000 });
  const zoomed = await page.evaluate(() => document.querySelector("#card-zoom").getBoundingClientRect().toJSON());
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await page.waitForSelector("#card-zoom", { state: "hidden", timeout: 3000 });
  inside(zoomed, vp, "the zoom");
  assert.equal(await page.locator("#hand .card[aria-pressed=true]").count(), 0, "a long press chooses nothing");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();

  // A free-for-all on the phone: no line label over a seat's name.
  const ffa = await openSized(browser, server, PHONE, { name: "Fay" });
  await createRoom(ffa, { mode: "ffa" });
  for (let i = 0; i < 3; i++) {
    await ffa.waitForSelector("#waiting-add-bot:not([hidden])");
    await ffa.click("#waiting-add-bot");
    if (i < 2) await ffa.waitForFunction((n) => [...document.querySelectorAll("#waiting-seats li")].filter((li) => li.textContent.includes("(a bot)")).length === n, i + 1);
  }
  await waitForGame(ffa);
  await ffa.waitForFunction(() => document.querySelector("#game").dataset.layout === "cross" && !document.querySelector("#game").dataset.css);
  const overlaps = await ffa.$$eval("#board .line", (lines) => lines.flatMap((line) => {
    const l = line.querySelector(".line-label").getBoundingClientRect();
    return [...line.querySelectorAll(".side-owner")].filter((o) => o.textContent).map((o) => o.getBoundingClientRect())
      .filter((o) => !(o.right <= l.left || o.left >= l.right || o.bottom <= l.top || o.top >= l.bottom))
      .map((o) => `${line.querySelector(".line-label").textContent} over a name at ${Math.round(o.left)},${Math.round(o.top)}`);
  }));
  await ffa.screenshot({ path: artifact("look-phone-ffa.png") });
  assert.deepEqual(overlaps, []);
  assert.deepEqual(ffa.jsErrors || [], []);
  await ffa.context().close();
});
