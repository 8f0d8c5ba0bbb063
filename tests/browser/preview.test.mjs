// The central rule shown (docs/rules.md R3.2.6): a solo game against the AI
// in which choosing, pointing at or focusing a playable card previews what
// playing it costs (from the server's legal_actions plays[].after), the
// seats' health is a track of pips, and the how-to-play dialog opens from
// the lobby and the game screen. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openClient, artifact, gameInfo, playTurnByClicking, waitForGame, waitForOutcome } from "./lib.mjs";

let server;
let browser;
const checked = { plays: 0, incantations: 0, counted: 0 }; // plays whose preview was checked

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// The newest frame's seat, hand and listed plays, as the page keeps them.
function frame(page) {
  return page.evaluate(() => {
    const g = window.codApp.game;
    const v = g.view;
    const me = v.seats[v.viewer];
    const cat = window.codApp.cat;
    return {
      seq: g.seq,
      myTurn: g.isMyTurn(),
      over: v.phase === "game_over",
      mana: me.mana,
      health: me.health,
      side: me.side,
      viewer: v.viewer,
      plays: (g.legal ? g.legal.plays : []).map((p) => {
        const index = v.hand.findIndex((c) => c.uid === p.card);
        const card = index < 0 ? null : v.hand[index];
        return {
          ...p,
          where: index < 0 ? null : index >= me.stronghold_pos ? "right" : "left",
          type: card ? cat.card(card.card_id).type : null,
          name: card ? cat.name(card.card_id) : null,
          ownTarget: (p.targets || []).some((t) => v.lines.some((l) => l.sides.some((s) => s.seat === v.viewer && s.creatures.some((c) => c.uid === t || (c.top && c.top.uid === t))))),
        };
      }),
    };
  });
}

// The own seat's health track: pips (not counting those a play would bring
// back), the ones marked lost, and its number.
function track(page, seat) {
  return page.$eval(`#seats .seat-box[data-seat="${seat}"] .health-track`, (t) => ({
    pips: t.querySelectorAll(".pip:not(.gain)").length,
    lose: t.querySelectorAll(".pip.lose").length,
    gain: t.querySelectorAll(".pip.gain").length,
    num: Number(t.querySelector(".track-num").textContent),
    label: t.getAttribute("aria-label"),
  }));
}

const previewText = (page) => page.textContent("#play-preview");

// Plays the chosen card (selected already) with the option the server's
// `after` counts (after.line, else after.target).
async function playSelected(page, play) {
  if (play.after.line) await page.click(`#prompt [data-play-line="${play.after.line}"]`);
  else await page.click(`.creature.targetable[data-uid="${play.after.target}"]`);
}

// Chooses `play`'s card and checks its preview against `after` from the
// frame; plays it and checks that the health shown is the previewed one.
async function checkPlay(page, f, play, { shot = null } = {}) {
  const m = f.mana - play.after.mana;
  const d = f.health - play.after.health;
  await page.click(`#hand .card[data-uid="${play.card}"]`);
  await page.waitForSelector("#prompt:not([hidden])");
  await page.waitForFunction((uid) => document.querySelector("#play-preview").dataset.uid === String(uid), play.card);
  const text = await previewText(page);
  assert.ok(text.startsWith(`${play.name}: Costs ${m} mana`), `preview: ${text}`);
  assert.ok(text.includes(`leaves ${play.after.mana} mana, health ${play.after.health}`), `preview: ${text}`);
  if (play.where === "right" && play.type === "creature") {
    assert.equal(d, 1, `the server's after: a creature right of the Stronghold costs 1 health (${JSON.stringify(play)})`);
    assert.match(text, /Costs \d+ mana and 1 health \(it stood right of your Stronghold\)/);
    assert.match(await page.textContent(`#hand .card[data-uid="${play.card}"] .hcost`), /1 health/);
  }
  if (play.where === "left" && play.type === "creature") {
    assert.equal(d, 0, `the server's after: a creature left of the Stronghold costs no health (${JSON.stringify(play)})`);
    assert.match(text, /Costs \d+ mana, no health \(left of your Stronghold\)/);
    assert.equal(await page.$(`#hand .card[data-uid="${play.card}"] .hcost`), null);
  }
  // An incantation whose targets include a creature of the player's: the
  // preview says which target it counted.
  checked.plays++;
  if (play.targets) checked.incantations++;
  if (play.targets && play.targets.length > 1 && play.ownTarget) {
    // The server counts the first target that is not the player's own.
    assert.ok(play.after.target !== undefined, JSON.stringify(play));
    assert.match(text, /Counted for /);
    checked.counted++;
  }
  // The track: one pip per health, those the play costs marked.
  const t = await track(page, f.viewer);
  assert.equal(t.pips, f.health);
  assert.equal(t.num, f.health);
  assert.equal(t.lose, Math.max(d, 0));
  assert.equal(t.gain, Math.max(-d, 0));
  if (shot) {
    await page.screenshot({ path: artifact(`${shot}.png`), fullPage: true });
    // The same at a phone's size.
    const size = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok(await page.isVisible("#play-preview"));
    assert.ok(await page.isVisible(`#seats .seat-box[data-seat="${f.viewer}"] .health-track`));
    await page.screenshot({ path: artifact(`${shot}-phone.png`), fullPage: true });
    await page.setViewportSize(size);
  }
  await playSelected(page, play);
  const outcome = await waitForOutcome(page, f.seq);
  assert.equal(outcome, "update", `the play was accepted: ${outcome}`);
  const g = await frame(page);
  // The health the preview said, in the view and on the track.
  if (!g.over) {
    assert.equal(g.health, play.after.health, "the health after the play is the preview's");
    assert.equal(g.mana, play.after.mana, "the mana after the play is the preview's");
    const t2 = await track(page, f.viewer);
    assert.equal(t2.pips, play.after.health);
    assert.equal(t2.num, play.after.health);
    assert.equal(t2.lose + t2.gain, 0);
  }
  return text;
}

test("how to play: opens from the lobby, cites R3.2.6, closes with Escape", async () => {
  const page = await openClient(browser, server, { name: "Hal" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click("#how-to-play");
  await page.waitForSelector("#howto[open]");
  const text = await page.textContent("#howto");
  for (const id of ["R1.5", "R3.1", "R3.2.1", "R3.2.6", "R3.3", "R4.4", "R4.5", "R4.6"]) assert.ok(text.includes(id), `cites ${id}`);
  assert.match(text, /right of your Stronghold costs you 1 health/);
  assert.match(text, /4 leftmost cards/);
  await page.screenshot({ path: artifact("howto-lobby.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: artifact("howto-phone.png") });
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#howto").open);
  assert.equal(await page.evaluate(() => document.activeElement.id), "how-to-play", "the focus is back on the button");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("a solo game: each play previewed from legal_actions after, health as a track", async () => {
  const page = await openClient(browser, server, { name: "Pia", deck: 1 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.selectOption("#create-mode", "solo");
  await page.click("#create-room");
  await waitForGame(page);
  await page.waitForFunction(() => window.codApp.game.isMyTurn());

  // The how-to-play button is on the game screen too.
  await page.click("#how-to-play");
  await page.waitForSelector("#howto[open]");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#howto").open);

  // Both seats have a track with as many pips as health (the AI's: its deck, R12.5).
  const first = await frame(page);
  for (const s of await page.$$eval("#seats .seat-box", (b) => b.map((x) => Number(x.dataset.seat)))) {
    const health = await page.evaluate((k) => window.codApp.game.view.seats[k].health, s);
    const t = await track(page, s);
    assert.equal(t.pips, health);
    assert.equal(t.num, health);
  }
  assert.equal(await page.getAttribute("#play-preview", "aria-live"), "polite");

  // Pointing at a listed card previews it without choosing it; so does the
  // keyboard focus; leaving it clears the preview.
  const p0 = first.plays.find((p) => p.where !== null);
  assert.ok(p0, "a play is listed on the first turn");
  await page.hover(`#hand .card[data-uid="${p0.card}"]`);
  await page.waitForFunction((uid) => document.querySelector("#play-preview").dataset.uid === String(uid), p0.card);
  assert.ok((await previewText(page)).includes(`health ${p0.after.health}`));
  assert.equal((await track(page, first.viewer)).lose, Math.max(first.health - p0.after.health, 0));
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => document.querySelector("#play-preview").textContent === "");
  await page.focus(`#hand .card[data-uid="${p0.card}"]`);
  await page.waitForFunction((uid) => document.querySelector("#play-preview").dataset.uid === String(uid), p0.card);
  await page.evaluate(() => document.activeElement.blur());

  // Turn after turn: a creature right of the Stronghold (health 1 less) and
  // one left of it (none), checked when the hand has one; the other plays by clicking.
  let right = null;
  let left = null;
  let games = 1;
  let playedAt = { seq: -1, n: 0 }; // plays checked this turn (at most 2, then the turn ends)
  const deadline = Date.now() + 150000;
  while ((!right || !left) && Date.now() < deadline) {
    const f = await frame(page);
    if (f.over) {
      // The match ended before both were seen: another game.
      const room = await page.evaluate(() => window.codApp.room.id);
      await page.click("#play-again");
      await page.waitForFunction((r) => window.codApp.room && window.codApp.room.id !== r && document.body.dataset.screen === "game" &&
        window.codApp.game.view && (window.codApp.game.isMyTurn() || window.codApp.game.view.phase === "game_over"), room);
      games++;
      continue;
    }
    if (!f.myTurn) {
      await page.waitForTimeout(50);
      continue;
    }
    const turn = await page.evaluate(() => window.codApp.game.view.turn);
    if (playedAt.seq !== turn) playedAt = { seq: turn, n: 0 };
    const creature = (where) => f.plays.find((p) => p.where === where && p.type === "creature" && p.lines && p.lines.length &&
      !(where === "right" && f.side === "bastion" && f.health === 1));
    let play = null;
    let shot = null;
    if (!left && creature("left")) [play, shot] = [creature("left"), "preview-left"];
    else if (!right && creature("right")) [play, shot] = [creature("right"), "preview-right"];
    else if (playedAt.n < 2) play = f.plays.find((p) => p.where !== null && (p.lines?.length || p.targets?.length));
    if (play) {
      // Every play is checked against its after; the first right and left creatures are kept.
      const text = await checkPlay(page, f, play, { shot });
      if (shot === "preview-left") left = text;
      if (shot === "preview-right") right = text;
      playedAt.n++;
      continue;
    }
    await playTurnByClicking(page, { maxPlays: 0 });
  }
  console.log(`preview: right of the Stronghold: ${right}\n         left of it: ${left}\n         (${games} game${games > 1 ? "s" : ""}; ${checked.plays} plays checked, ${checked.incantations} incantations, ${checked.counted} counted for a target of yours)`);
  assert.ok(right, "a creature right of the Stronghold was previewed and played");
  assert.ok(left, "a creature left of the Stronghold was previewed and played");
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});
