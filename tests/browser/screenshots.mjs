// The README's screenshots, taken by hand (not a test, not run by ctest):
//   cd tests/browser && COD_SERVER=... COD_CATALOGUE=../../config/cards/catalogue.json \
//     COD_WEB_ROOT=../../server/web node screenshots.mjs ../../docs/screenshots
// Opens the landing, plays into a duel and a four-player game at 1280×800
// and a solo game on a 390×844 phone, and writes landing.png, duel.png,
// four-player.png and phone.png (one screen each, device scale 1: a few
// hundred KB at most).
import fs from "node:fs";
import path from "node:path";
import { startServer, launchBrowser, awake } from "./lib.mjs";
import { duel, fourPlayers, solo, activePage, openSized, DESKTOP } from "./layout-flows.mjs";

const out = process.argv[2];
if (!out) {
  console.error("usage: node screenshots.mjs OUTDIR");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// The pointer off the cards and no focus ring: a screen as a player leaves it.
async function shoot(page, name) {
  if (await page.evaluate(() => document.body.dataset.screen === "game")) await awake(page); // the "Your turn" banner put away
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  // At rest: the last update shown, no number still floating.
  await page.waitForFunction(() => !document.querySelector("#game").dataset.motion && !document.querySelector(".mo-float, .mo-copy") &&
    document.getAnimations().every((a) => a.playState !== "running"), null, { timeout: 15000 });
  await page.waitForTimeout(300);
  const file = path.join(out, name);
  await page.screenshot({ path: file });
  console.log(`${file}: ${fs.statSync(file).size} bytes`);
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const l = await openSized(browser, server, DESKTOP, { name: "Ann" });
  await shoot(l, "landing.png");
  await l.context().close();

  const d = await duel(browser, server, { turns: 6 });
  await shoot(await activePage(d.pages), "duel.png");
  for (const p of d.pages) await p.context().close();

  const f = await fourPlayers(browser, server, { turns: 8 });
  await shoot(await activePage(f.pages), "four-player.png");
  for (const p of f.pages) await p.context().close();

  const s = await solo(browser, server, { turns: 3 });
  await shoot(s.page, "phone.png");
  await s.page.context().close();
} finally {
  await browser.close();
  await server.stop();
}
