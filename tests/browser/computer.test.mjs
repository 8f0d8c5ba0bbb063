// "Play the computer" (issue 32) in headless Chromium against the real
// cod-server: the lobby's button creates a duel, joins it and gives the other
// seat to the house bot at the level picked next to it (remembered in
// localStorage); the duel starts against "Bot 2 (level N)", whose moves come
// from the server's AI pool; the waiting room's "Add a bot" offers the same
// levels. Screenshots to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openClient, waitForGame, createRoom, gameInfo, artifact } from "./lib.mjs";

let server;
let browser;

before(async () => {
  // A quick bot: the test waits for its moves.
  server = await startServer(["--bot-move-ms", "200", "--bot-think-ms", "20"]);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test("Play the computer: one click to a duel against the bot of the chosen level, which plays", async () => {
  const page = await openClient(browser, server, { name: "Ann" });
  assert.equal(await page.inputValue("#computer-level"), "3", "level 3 unless chosen");
  await page.selectOption("#computer-level", "2");
  await page.click("#play-computer");
  await waitForGame(page);
  const info = await page.evaluate(() => ({ room: window.codApp.room, mode: window.codApp.game.view.mode }));
  assert.equal(info.room.role, "player");
  assert.equal(info.mode, "duel");
  // The opponent's name as the lobby's summary gives it (it may come after the first state).
  await page.waitForFunction(() => document.querySelector("#game").textContent.includes("Bot 2 (level 2)"), null, { timeout: 10000 });
  // The bot moves: the match goes past its first actions without Ann (she ends her turns).
  const seq0 = (await gameInfo(page)).seq;
  for (let i = 0; i < 20 && (await gameInfo(page)).seq < seq0 + 3; i++) {
    if (await page.evaluate(() => document.querySelector("#game").dataset.myTurn === "true")) {
      await page.click("#end-turn");
    }
    await page.waitForTimeout(300);
  }
  assert.ok((await gameInfo(page)).seq >= seq0 + 3, "the bot and Ann have acted");
  await page.screenshot({ path: artifact("computer-duel.png") });
  // Remembered: the next visit's lobby offers level 2 (the page resumes the
  // seat, so the lobby is built but hidden behind the game).
  assert.equal(await page.evaluate(() => window.localStorage.getItem("cod.botLevel")), "2");
  await page.reload();
  await page.waitForSelector("#computer-level", { state: "attached" });
  assert.equal(await page.inputValue("#computer-level"), "2");
  // Play again, kept across that reload (sessionStorage): the end offers it
  // and it makes a new duel against the same bot, at the same level.
  await waitForGame(page);
  const first = await page.evaluate(() => window.codApp.room.id);
  page.once("dialog", (d) => d.accept());
  await page.click("#concede");
  await page.waitForSelector("#result:not([hidden]) #play-again");
  assert.match(await page.textContent("#result-cause"), /^Ann conceded on turn \d+\.$/);
  await page.click("#play-again");
  await page.waitForFunction((r) => window.codApp.room && window.codApp.room.id !== r && document.body.dataset.screen === "game", first, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector("#game").textContent.includes("Bot 2 (level 2)"), null, { timeout: 10000 });
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});

test("the waiting room's Add a bot takes the level picked beside it", async () => {
  const page = await openClient(browser, server, { name: "Bea" });
  await createRoom(page, { mode: "ffa" });
  await page.waitForSelector("#waiting-add-bot:not([hidden])");
  assert.equal(await page.isVisible("#waiting-bot-level"), true);
  await page.selectOption("#waiting-bot-level", "4");
  await page.click("#waiting-add-bot");
  await page.waitForFunction(() => [...document.querySelectorAll("#waiting-seats li")].some((li) => li.textContent.includes("Bot 2 (level 4)")));
  await page.selectOption("#waiting-bot-level", "1");
  await page.click("#waiting-add-bot");
  await page.waitForFunction(() => [...document.querySelectorAll("#waiting-seats li")].some((li) => li.textContent.includes("Bot 3 (level 1)")));
  assert.deepEqual(page.jsErrors || [], []);
  await page.context().close();
});
