// The web client's league screen and the admin page's league view in headless
// Chromium against the real cod-server: a mutation league (R15) created
// through the organiser API, one player (Ann) clicking through its draft,
// deck, mutation phase and first duel in the browser, the three others
// scripted clients (the client's own protocol.js over raw WebSockets, in a
// page of their own) that keep the first card of every packet, choose their
// first 8 cards and pass. Screenshots go to COD_ARTIFACTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startServer, launchBrowser, openClient, artifact, waitForGame } from "./lib.mjs";

const ADMIN_TOKEN = "browser-test-admin-token-0123456789";

let server;
let browser;
let league; // {league, players: [{seat, name, token}]}
let bots; // the page the scripted players run in

before(async () => {
  server = await startServer(["--admin-token", ADMIN_TOKEN]);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// The organiser API (docs/league.md); the admin token opens it too.
async function organiser(method, path, body) {
  const res = await fetch(`${server.url}/admin/api/leagues${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

// The scripted players: each follows the league on a WebSocket of its own
// and acts on every view it gets (a pick, a deck, a pass).
// `passing`: the seats that pass their mutation phases (all by default).
async function startBots(players, passing = null) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("pageerror", (e) => { page.jsErrors = (page.jsErrors || []).concat(String(e)); });
  // Any page of the server's origin: the client's modules load from it.
  await page.goto(`${server.url}/play/icon.svg`);
  await page.evaluate(async ([list, passing]) => {
    const { Connection } = await import("/play/js/protocol.js");
    window.bots = {};
    for (const p of list) {
      const conn = new Connection(`ws://${location.host}/ws`);
      await conn.open();
      const bot = { conn, token: p.token, seat: p.seat, view: null, errors: [], busy: false, state: null, over: null };
      window.bots[p.seat] = bot;
      const step = async () => {
        if (bot.busy) return;
        const v = bot.view;
        const me = v.players.find((x) => x.seat === v.you.seat);
        let op = null;
        if (v.stage === "drafting" && v.draft.waiting.includes(v.you.seat) && v.you.packet.length) op = { type: "pick", card: v.you.packet[0] };
        else if (v.stage === "building" && !me.has_deck) op = { type: "choose_deck", cards: v.you.drafted.slice(0, 8) };
        else if (v.stage === "mutating" && !me.phase_done && (!passing || passing.includes(bot.seat))) op = { type: "pass" };
        if (!op) return;
        bot.busy = true;
        try {
          const r = await conn.request("league_act", { op });
          bot.view = r.view;
        } catch (e) {
          bot.errors.push(`${op.type}: ${e.code}: ${e.message}`);
        } finally {
          bot.busy = false;
        }
        if (bot.view !== v) step(); // a newer view came meanwhile
      };
      bot.onView = (v) => { bot.view = v; step(); };
      conn.on("league", (m) => bot.onView(m.view));
      conn.on("state", (m) => { bot.state = m; });
      conn.on("match_over", (m) => { bot.over = m; });
      const r = await conn.request("league_join", { token: p.token });
      bot.onView(r.view);
    }
  }, [players, passing]);
  return page;
}

async function leagueInfo(page) {
  return page.evaluate(() => {
    const l = document.querySelector("#league");
    return { screen: document.body.dataset.screen, stage: l.dataset.stage || "", round: Number(l.dataset.round || 0), views: Number(l.dataset.views || 0) };
  });
}

function waitForStage(page, stage, round = null, timeout = 15000) {
  return page.waitForFunction(([s, r]) => {
    const l = document.querySelector("#league");
    return document.body.dataset.screen === "league" && l.dataset.stage === s && (r === null || Number(l.dataset.round) === r);
  }, [stage, round], { timeout });
}

const view = (page) => page.evaluate(() => window.codApp.league.screen.view);

test("the league screen: a draft, a deck and a mutation phase by clicking, then the first duel and the standings", async () => {
  const created = await organiser("POST", "", {
    name: "Test league", players: ["Ann", "Bob", "Cy", "Di"], packs: ["initiation", "treachery"], seed: "7", phase_clock_sec: 0,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  league = created.body;
  assert.equal(league.players.length, 4);
  const ann = await openClient(browser, server, { name: "Ann" });
  bots = await startBots(league.players.slice(1));

  // The lobby's way in: a token that cannot be one is refused by the page
  // itself; the real one opens the league screen at its draft.
  await ann.fill("#league-token", "not-a-token");
  await ann.click("#league-open");
  await ann.waitForFunction(() => document.querySelector("#error").dataset.code === "form");
  assert.match(await ann.textContent("#error .text"), /32 hexadecimal digits/);
  await ann.fill("#league-token", league.players[0].token);
  await ann.click("#league-open");
  await waitForStage(ann, "drafting");
  assert.equal(await ann.isHidden("#error"), true);
  assert.match(await ann.textContent("#league-title"), /League: Test league/);
  assert.match(await ann.textContent("#league-status"), /Pick \d+ of 16/);
  const first = await view(ann);
  assert.equal(first.you.seat, 0);
  assert.equal(await ann.locator("#league-packet .league-card").count(), first.you.packet.length);
  assert.equal(first.you.packet.length, 16, "a packet of 16 (the others' keeping theirs does not pass it on)");
  assert.equal(await ann.locator("#league-others li").count(), 3);
  await ann.screenshot({ path: artifact("league-draft.png"), fullPage: true });

  // 1. The draft by clicking: choose a card of the packet, keep it; the
  // packets pass on once all four have kept one (E77).
  let clicked = 0;
  for (;;) {
    await ann.waitForFunction(() => document.querySelector("#league").dataset.stage !== "drafting" ||
      document.querySelectorAll("#league-packet .league-card.playable").length > 0, null, { timeout: 15000 });
    if ((await leagueInfo(ann)).stage !== "drafting") break;
    const taken = (await view(ann)).you.taken.length;
    const id = await ann.$eval("#league-packet .league-card.playable", (e) => e.dataset.cardId);
    if (clicked === 0) {
      // The first pick from the keyboard: the card keeps the focus through
      // the redraw, and once the packets pass on the focus is on the next
      // packet's first card.
      await ann.focus(`#league-packet .league-card[data-card-id="${id}"]`);
      await ann.keyboard.press("Enter");
      assert.equal(await ann.evaluate(() => document.activeElement.dataset.cardId), id);
      assert.equal(await ann.getAttribute(`#league-packet .league-card[data-card-id="${id}"]`, "aria-pressed"), "true");
      await ann.focus("#league-keep");
      await ann.keyboard.press("Enter");
      await ann.waitForFunction(() => window.codApp.league.screen.view.you.taken.length === 1 &&
        document.querySelectorAll("#league-packet .league-card.playable").length === 15);
      await ann.waitForFunction(() => document.activeElement.matches("#league-packet .league-card.playable"));
      clicked++;
      continue;
    }
    await ann.click(`#league-packet .league-card[data-card-id="${id}"]`);
    assert.match(await ann.textContent("#league-keep"), /^Keep /);
    await ann.click("#league-keep");
    await ann.waitForFunction((n) => {
      const v = window.codApp.league.screen.view;
      return v.stage !== "drafting" || v.you.taken.length > n;
    }, taken);
    const after = await view(ann);
    if (after.stage === "drafting") {
      assert.ok(after.you.taken.includes(id), `${id} kept`);
      assert.match(await ann.textContent("#league-taken"), new RegExp(`^${after.you.taken.length} of 16`));
    }
    clicked++;
  }
  await waitForStage(ann, "building");
  const drafted = (await view(ann)).you.drafted;
  assert.equal(drafted.length, 16, "16 cards drafted");
  // The last card of each packet is kept without a choice (E77).
  assert.equal(clicked, 15, "15 picks by clicking (the first by keys), the 16th automatic");

  // A reload on the league screen follows the league again (the token is kept).
  await ann.reload();
  await waitForStage(ann, "building");

  // 2. The deck: 8 of the 16 by clicking, creatures first (they mutate).
  assert.equal(await ann.locator("#league-drafted .league-card").count(), 16);
  const cards = await ann.$$eval("#league-drafted .league-card", (els) => els.map((e) => ({ id: e.dataset.cardId, type: e.dataset.type })));
  const order = [...cards.filter((c) => c.type === "creature"), ...cards.filter((c) => c.type !== "creature")].map((c) => c.id);
  for (const id of order.slice(0, 7)) await ann.click(`#league-drafted .league-card[data-card-id="${id}"]`);
  assert.match(await ann.textContent("#league-deck-count"), /Chosen 7 of 8/);
  assert.equal(await ann.isDisabled("#league-choose-deck"), true, "7 cards cannot be sent");
  // Sent anyway through the screen's path: the server's refusal, in words.
  await ann.evaluate(() => window.codApp.league.screen.sendDeck([...window.codApp.league.screen.deckChoice]));
  await ann.waitForFunction(() => /8 of your 16 drafted cards/.test(document.querySelector("#league-deck-note").textContent));
  assert.match(await ann.textContent("#league-deck-note"), /That deck is refused\. A deck is 8 of your 16 drafted cards; the other 8 are your lab \(R15\.2\)/);
  await ann.click(`#league-drafted .league-card[data-card-id="${order[7]}"]`);
  assert.equal(await ann.isDisabled("#league-choose-deck"), false);
  // A 9th is not taken.
  await ann.click(`#league-drafted .league-card[data-card-id="${order[8]}"]`);
  assert.match(await ann.textContent("#league-deck-note"), /8 cards already/);
  assert.match(await ann.textContent("#league-deck-count"), /Chosen 8 of 8/);
  assert.equal(await ann.getAttribute(`#league-drafted .league-card[data-card-id="${order[8]}"]`, "aria-pressed"), "false");
  assert.match(await ann.textContent("#league-lab-preview"), /Your lab would be \(8\)/);
  await ann.screenshot({ path: artifact("league-build.png"), fullPage: true });
  await ann.click("#league-choose-deck");
  await waitForStage(ann, "mutating", 1);
  const v1 = await view(ann);
  assert.deepEqual(v1.you.deck.map((d) => d.card.id).sort(), order.slice(0, 8).sort());
  assert.equal(v1.you.lab.length, 8);
  assert.equal(await ann.locator("#league-deck .league-deck-card").count(), 8);
  assert.equal(await ann.locator("#league-lab .league-lab-card").count(), 8);
  assert.match(await ann.textContent("#league-status"), /up to 2\.5 points/);
  assert.match(await ann.textContent("#league-deadline"), /No phase clock/);

  // 3. The mutation phase. The form offers exactly the mutations the
  // server lists (view.you.legal_mutations, then its league_mutations
  // replies), never its own reading of R15.4–R15.5. A legal mutation: the
  // mana cost of a lab card (another cost than the target's) onto a deck
  // creature; one the rules refuse, an AV or HP lower than the creature's
  // (R15.5), is not offered.
  const plan = await ann.evaluate(() => {
    const cat = window.codApp.cat;
    const v = window.codApp.league.screen.view;
    const creatures = v.you.deck.map((d) => d.card).filter((c) => c.type === "creature");
    const lab = v.you.lab.map((l) => cat.printed(l.card));
    const a = creatures[0];
    const l = lab.find((c) => c.mana !== a.mana);
    let bad = null;
    for (const c of creatures) {
      for (const m of lab) {
        if (!bad && c.av !== null && m.av !== null && m.av < c.av) bad = { target: c.id, source: m.id, element: "av", was: c.av, value: m.av };
        if (!bad && m.type === "creature" && m.hp < c.hp) bad = { target: c.id, source: m.id, element: "hp", was: c.hp, value: m.hp };
      }
    }
    return { target: a.id, targetName: a.name, source: l.id, sourceName: l.name, mana: a.mana, newMana: l.mana, bad, listed: v.you.legal_mutations };
  });
  assert.ok(plan.bad, "a lower AV or HP among the lab cards");
  assert.ok(plan.listed.length > 20, `the server lists Ann's mutations (${plan.listed.length})`);
  const sameMutation = (a, b) => a.target === b.target && a.source === b.source && a.element === b.element;
  assert.ok(plan.listed.some((m) => sameMutation(m, { ...plan, element: "mana" })), "the mana cost is listed");
  assert.ok(!plan.listed.some((m) => sameMutation(m, plan.bad)), "the lower AV or HP is not listed");
  // What the form offers, read from the page: the enabled options.
  const enabled = (sel) => ann.$$eval(`${sel} option`, (os) => os.filter((o) => !o.disabled && o.value).map((o) => o.value).sort());
  const only = (list, key, f) => [...new Set(list.filter(f).map((m) => m[key]))].sort();
  // Exactly the list: the targets it names, then the sources it names for
  // the chosen target, then the elements for the chosen pair.
  assert.deepEqual(await enabled("#mut-target"), only(plan.listed, "target", () => true));
  await ann.selectOption("#mut-target", plan.bad.target);
  assert.deepEqual(await enabled("#mut-source"), only(plan.listed, "source", (m) => m.target === plan.bad.target));
  await ann.selectOption("#mut-source", plan.bad.source);
  assert.deepEqual(await enabled("#mut-element"), only(plan.listed, "element", (m) => m.target === plan.bad.target && m.source === plan.bad.source));
  assert.equal(await ann.getAttribute(`#mut-element option[value="${plan.bad.element}"]`, "disabled"), "", "the lower value cannot be chosen");

  // From here on the page's league_mutations replies also list the lower
  // AV or HP, as a server that got R15.5 wrong would: the page offers what
  // it is told (it has no rules of its own), and the real server, asked
  // about the list, refuses it.
  await ann.evaluate((bad) => {
    const actions = window.codApp.league.screen.actions;
    actions.realMutations = actions.mutations;
    actions.mutations = async (list) => {
      const r = await actions.realMutations(list);
      return { ...r, legal_mutations: [...r.legal_mutations, { target: bad.target, source: bad.source, element: bad.element }] };
    };
  }, plan.bad);
  await ann.selectOption("#mut-target", plan.target);
  await ann.selectOption("#mut-source", plan.source);
  await ann.selectOption("#mut-element", "mana");
  // The card as it will be, before anything is sent.
  await ann.waitForFunction((m) => document.querySelector("#mut-after") && document.querySelector("#mut-after").dataset.mana === String(m), plan.newMana);
  assert.match(await ann.textContent("#mut-changes"), new RegExp(`Mana cost ${plan.mana} → ${plan.newMana}`));
  assert.equal(await ann.locator("#mut-after .cost.changed").count(), 1, "the changed element is marked");
  assert.match(await ann.textContent("#mut-cost"), /costs 1\.5 points; 1 point would be left/);
  assert.match(await ann.textContent("#mut-points"), /Points left: 2\.5 of 2\.5/);
  assert.equal(await ann.isDisabled("#mut-add"), false);
  await ann.click("#mut-add");
  assert.match(await ann.textContent("#mut-points"), /Points left: 1 of 2\.5/);
  assert.equal(await ann.locator("#mut-list li[data-index]").count(), 1);
  assert.match(await ann.textContent("#mut-send"), /Send this mutation \(1\.5 points\)/);
  // The menu after the mana cost is the server's reply for that list.
  await ann.waitForSelector('#mutation-form[data-menu="ready"]');
  const afterMana = await ann.evaluate(() => window.codApp.league.screen._menu().list);
  const real = await ann.evaluate((plan) => window.codApp.conn.request("league_mutations",
    { mutations: [{ target: plan.target, source: plan.source, element: "mana" }] }), plan);
  assert.equal(real.points_left, 1);
  assert.deepEqual(afterMana.slice(0, -1), real.legal_mutations, "the reply's list, in its order (and the stub's one)");
  assert.ok(!real.legal_mutations.some((m) => sameMutation(m, plan.bad)));

  await ann.selectOption("#mut-target", plan.bad.target);
  await ann.selectOption("#mut-source", plan.bad.source);
  assert.deepEqual(await enabled("#mut-element"), only(afterMana, "element", (m) => m.target === plan.bad.target && m.source === plan.bad.source));
  await ann.selectOption("#mut-element", plan.bad.element);
  const label = plan.bad.element === "av" ? "AV" : "HP";
  assert.match(await ann.textContent("#mut-changes"), new RegExp(`${label} ${plan.bad.was} → ${plan.bad.value}`));
  assert.equal(await ann.textContent("#mut-check"), "", "listed: nothing to say");
  await ann.click("#mut-add");
  const cost2 = plan.bad.element === "av" ? 1 : 0.5;
  assert.match(await ann.textContent("#mut-points"), new RegExp(`Points left: ${1 - cost2} of 2\\.5`));
  // The server, asked what may follow the list, refuses it: said next to
  // the form, the mutation at fault marked, the list not sendable.
  await ann.waitForFunction(() => document.querySelector("#mut-refusal").textContent !== "");
  const refusal = await ann.textContent("#mut-refusal");
  assert.match(refusal, /^Mutation 2 \(.+\) would be refused after the ones before it; remove it, or change the list\. AV and HP are never lowered \(R15\.5\)\.$/);
  assert.equal(await ann.getAttribute("#mut-refusal", "role"), "alert");
  assert.equal(await ann.locator("#mut-list li.refused[data-index='1']").count(), 1, "the mutation at fault is marked");
  assert.equal(await ann.isDisabled("#mut-send"), true, "a list the server refuses is not sent");
  const stillMutating = await view(ann);
  assert.equal(stillMutating.stage, "mutating");
  assert.equal(stillMutating.you.mutations.length, 0, "a refused list changes nothing");
  await ann.screenshot({ path: artifact("league-mutation-refused.png"), fullPage: true });
  await ann.evaluate(() => {
    const actions = window.codApp.league.screen.actions;
    actions.mutations = actions.realMutations;
  });

  // Without it the list is accepted; the others passed already, so the
  // round's duels start.
  await ann.click("#mut-list li[data-index='1'] .mut-remove");
  assert.match(await ann.textContent("#mut-points"), /Points left: 1 of 2\.5/);
  assert.equal(await ann.textContent("#mut-refusal"), "");
  assert.equal(await ann.isDisabled("#mut-send"), false);
  await ann.click("#mut-send");
  await waitForStage(ann, "playing", 1);
  const v2 = await view(ann);
  const mutated = v2.you.deck.find((d) => d.card.id === plan.target);
  assert.equal(mutated.card.mana, plan.newMana);
  assert.equal(mutated.mutated.mana, true);
  assert.equal(v2.you.mutations.length, 1);
  assert.equal(v2.you.mutations[0].points, 1.5);
  assert.match(await ann.textContent("#league-mutations"), new RegExp(`Round 1: mana cost of ${plan.sourceName} onto ${plan.targetName} \\(1\\.5 points\\)`));

  // 4. The duel: its opponent, then "Play your duel" seats Ann in its room.
  assert.match(await ann.textContent("#league-duel"), /Round 1: your duel against Bob \(table 1; you are seat 1\)/);
  assert.equal(await ann.locator("#league-standings tr").count(), 4);
  assert.match(await ann.textContent("#league-schedule tr[data-round='1']"), /Ann – Bob.*Cy – Di/);
  assert.equal(await ann.getAttribute("#league-schedule tr[data-round='1']", "aria-current"), "true");
  await ann.screenshot({ path: artifact("league-playing.png"), fullPage: true });
  await ann.click("#league-play-duel");
  await ann.waitForFunction(() => document.body.dataset.screen === "waiting");
  const room = v2.you.duel.room;
  assert.equal(await ann.evaluate(() => window.codApp.room.id), room);
  // Bob (scripted) takes his seat with his league deck: the match starts.
  const bob = await bots.evaluate(async () => {
    const b = window.bots[1];
    const j = await b.conn.request("tournament_join", { token: b.token, deck: { cards: b.view.you.deck.map((d) => d.card.id) } });
    return { room: j.room, seat: j.seat };
  });
  assert.deepEqual(bob, { room, seat: 1 });
  await waitForGame(ann);
  // The match plays with the mutated card (state.cards), not the catalogue's.
  assert.equal(await ann.evaluate((id) => window.codApp.cat.card(id).mana, plan.target), plan.newMana);
  assert.equal(await ann.locator("#board .line").count(), 2);
  assert.equal(await ann.textContent("#leave-room"), "Back to the league");
  await ann.screenshot({ path: artifact("league-duel.png"), fullPage: true });

  // The organiser records the other table; Bob concedes his duel.
  const other = await organiser("POST", `/${league.league}/result`, { table: 1, winner: 2, reason: "browser test" });
  assert.equal(other.status, 200, JSON.stringify(other.body));
  await bots.waitForFunction(() => window.bots[1].state !== null);
  await bots.evaluate(() => window.bots[1].conn.request("act", { action: { type: "concede" } }));
  await ann.waitForSelector("#result:not([hidden])");
  assert.match(await ann.textContent("#result h2"), /You won!/);
  assert.equal(await ann.textContent("#result-lobby"), "Back to the league");
  await ann.click("#result-lobby");

  // Back on the league screen: the results in the standings and the
  // schedule; round 2's mutation phase is on.
  await waitForStage(ann, "mutating", 2);
  const standings = await ann.$$eval("#league-standings tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.deepEqual(standings.find((r) => r[1] === "Ann (you)").slice(0, 4), ["1", "Ann (you)", "1", "1"]);
  assert.deepEqual(standings.find((r) => r[1] === "Cy").slice(0, 4), ["1", "Cy", "1", "1"]);
  assert.deepEqual(standings.find((r) => r[1] === "Bob").slice(0, 4), ["3", "Bob", "1", "0"]);
  assert.equal(await ann.textContent("#league-schedule tr[data-round='1'] td[data-table='0']"), "Ann – Bob: Ann won");
  assert.equal(await ann.textContent("#league-schedule tr[data-round='1'] td[data-table='1']"), "Cy – Di: Cy won");
  assert.equal(await ann.evaluate(() => window.codApp.room), null, "out of the duel's room");
  // The earlier mutation stays marked on the deck (green), the lab's mana
  // element spent.
  assert.equal(await ann.locator(`#league-deck .league-deck-card[data-card-id="${plan.target}"] .cost.mutated`).count(), 1);
  assert.equal(await ann.locator(`#league-lab .league-lab-card[data-card-id="${plan.source}"] .cost.used`).count(), 1);
  await ann.screenshot({ path: artifact("league-standings.png"), fullPage: true });

  // Round 2: an ability pasted over one of the creature's own (E73), one
  // the server lists: the preview, the cost with any covering surcharge,
  // the coverings offered being exactly the listed ones; then a pass, which
  // drops the list (asked first), and the next duel.
  const ab = await ann.evaluate(async () => {
    const { abilityLabel } = await import("/play/js/catalogue.js");
    const v = window.codApp.league.screen.view;
    const m = v.you.legal_mutations.find((x) => x.element === "ability" && !x.aura && !x.covers_aura && x.covers.length === 1);
    if (!m) return null;
    const covers = v.you.legal_mutations.filter((x) => x.element === "ability" && x.target === m.target && x.source === m.source &&
      x.ability === m.ability && !x.aura).map((x) => `${x.covers.join(",")}|${x.covers_aura ? 1 : 0}`);
    return {
      target: m.target, source: m.source, ability: m.ability, cover: m.covers[0], label: abilityLabel(m.ability),
      coverLabel: abilityLabel(m.covers[0]), covers: [...new Set(covers)].sort(),
      cost: v.costs.abilities[m.ability] + (v.costs.cover[m.covers[0]] || 0),
    };
  });
  assert.ok(ab, "a listed ability pasted over one of the creature's");
  assert.equal(await ann.isVisible("#mut-ability"), false, "no ability to choose for a mana cost");
  await ann.selectOption("#mut-target", ab.target);
  await ann.selectOption("#mut-source", ab.source);
  await ann.selectOption("#mut-element", "ability");
  assert.equal(await ann.isVisible("#mut-ability"), true);
  await ann.selectOption("#mut-ability", `${ab.ability}|0`);
  // Nothing covered yet: the page names the coverings the server lists,
  // and only those can be ticked.
  assert.match(await ann.textContent("#mut-check"), new RegExp(`^Choose what it goes over: .*${ab.coverLabel}`));
  assert.equal(await ann.isDisabled("#mut-add"), true);
  assert.deepEqual(await ann.$$eval("#mut-covers input:not([disabled])", (is) => is.map((i) => i.dataset.cover).sort()), ab.covers);
  await ann.click(`#mut-covers input[data-cover="${ab.cover}|0"]`);
  assert.equal(await ann.isChecked(`#mut-covers input[data-cover="${ab.cover}|0"]`), true);
  assert.equal(await ann.textContent("#mut-check"), "");
  assert.equal(await ann.isDisabled("#mut-add"), false);
  assert.match(await ann.textContent("#mut-changes"), new RegExp(`Abilities .+ → .*${ab.label}`));
  assert.equal(await ann.textContent("#mut-after .ability.changed"), ab.label);
  assert.match(await ann.textContent("#mut-cost"), new RegExp(`^This mutation costs ${String(ab.cost).replace(".", "\\.")} points?`));
  await ann.screenshot({ path: artifact("league-mutation-ability.png"), fullPage: true });
  await ann.click("#mut-add");
  assert.equal(await ann.getAttribute("#mut-points", "data-left"), String(2.5 - ab.cost));
  let asked = "";
  ann.once("dialog", (d) => { asked = d.message(); d.accept(); });
  await ann.click("#mut-pass");
  await waitForStage(ann, "playing", 2);
  assert.match(asked, /Pass\? Your list of 1 mutation will not be sent/);
  assert.equal((await view(ann)).you.mutations.length, 1, "the pass dropped the list");
  assert.match(await ann.textContent("#league-duel"), /Round 2: your duel against Cy/);

  assert.deepEqual(await bots.evaluate(() => Object.values(window.bots).flatMap((b) => b.errors)), []);
  assert.deepEqual(ann.jsErrors || [], []);
  assert.deepEqual(bots.jsErrors || [], []);
  await ann.context().close();
});

test("the admin page's league view: the list, one league's standings, schedule and duels, its export", async () => {
  assert.ok(league, "the first test created the league");
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const jsErrors = [];
  page.on("pageerror", (e) => jsErrors.push(String(e)));
  await page.goto(`${server.url}/admin/`);
  await page.waitForSelector("#leagues-refresh");
  // No token: the API's 401, in words.
  await page.click("#leagues-refresh");
  await page.waitForFunction(() => document.querySelector("#error").dataset.code === "unauthorized");
  await page.fill("#admin-token", ADMIN_TOKEN);
  await page.click("#leagues-refresh");
  const row = page.locator(`#leagues tr[data-league="${league.league}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Test league.*playing.*2 of 6.*Ann, Bob, Cy, Di/);
  await row.click();
  await page.waitForFunction((id) => document.querySelector("#league-view").dataset.league === id, league.league);
  assert.match(await page.textContent("#league-summary"), /Stage: playing, round 2 of 6; packs initiation and treachery/);
  assert.equal(await page.locator("#league-view-standings tr").count(), 4);
  assert.match(await page.textContent("#league-view-standings tr:first-child"), /1Ann/);
  assert.equal(await page.textContent("#league-view-schedule tr[data-round='1'] td[data-table='0']"), "Ann – Bob: Ann won");
  assert.equal(await page.textContent("#league-view-schedule tr[data-round='1'] td[data-table='1']"), "Cy – Di: Cy won");
  // Round 1's duel at table 1 was played: its match opens in the replay panel.
  const match = await page.getAttribute("#league-view-games tr[data-round='1'][data-table='0'] .open-match", "data-match");
  assert.ok(match, "the first duel's match");
  assert.equal(await page.getAttribute("#league-export", "href"), `/admin/api/leagues/${league.league}/export`);
  await page.screenshot({ path: artifact("admin-league.png"), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#league-export")]);
  const exported = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  assert.equal(exported.format, "cod-league-export/1");
  assert.equal(exported.league.league, league.league);
  assert.ok(exported.matches.some((m) => JSON.stringify(m).includes(match)), "the export holds the duel's match");
  await page.click(`#league-view-games .open-match[data-match="${match}"]`);
  await page.waitForSelector("#match-panel:not([hidden])");
  assert.equal(await page.textContent("#match-id"), match);
  assert.deepEqual(jsErrors, []);
  await context.close();
});

test("the step clock (E81): the time left for a pick and a mutation phase, and a pass when it runs out", async () => {
  // Eve opens her league at its first pick; then scripted players play
  // every seat's draft and deck (Eve's too, on a connection of its own: her
  // page follows), and all but Eve pass. The clock (8 s) runs each step.
  const created = await organiser("POST", "", {
    name: "Clock league", players: ["Eve", "Fay", "Gus", "Hal"], packs: ["initiation", "treachery"], seed: "8", phase_clock_sec: 8,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const eve = await openClient(browser, server, { name: "Eve" });
  await eve.fill("#league-token", created.body.players[0].token);
  await eve.click("#league-open");
  await waitForStage(eve, "drafting");
  const secondsLeft = async (what) => {
    const m = (await eve.textContent("#league-deadline")).match(new RegExp(`^Time left ${what}: 0:(\\d\\d);`));
    assert.ok(m, `${what}: ${await eve.textContent("#league-deadline")}`);
    return Number(m[1]);
  };
  const pick = await secondsLeft("for this pick");
  assert.ok(pick > 0 && pick <= 8, `seconds left for the pick (${pick})`);
  assert.match(await eve.textContent("#league-deadline"), /the first card of your packet is kept for you/);
  await eve.screenshot({ path: artifact("league-clock.png"), fullPage: true });
  const scripted = await startBots(created.body.players, [1, 2, 3]);
  await waitForStage(eve, "mutating", 1);
  assert.equal((await view(eve)).you.drafted.length, 16, "Eve's page followed her picks made elsewhere");
  const first = await secondsLeft("in this phase");
  assert.ok(first > 0 && first <= 8, `seconds left in the phase (${first})`);
  await eve.waitForFunction((s) => Number((document.querySelector("#league-deadline").textContent.match(/0:(\d\d)/) || [])[1]) < s, first);
  // The clock passes Eve (R15.4): the push brings the round's duels.
  await waitForStage(eve, "playing", 1, 15000);
  assert.match(await eve.textContent("#league-duel"), /your duel against Fay/);
  assert.equal((await view(eve)).you.mutations.length, 0);
  assert.equal(await eve.isHidden("#league-deadline"), true, "no clock while the duels are played");
  assert.deepEqual(await scripted.evaluate(() => Object.values(window.bots).flatMap((b) => b.errors)), []);
  assert.deepEqual(eve.jsErrors || [], []);
  await eve.context().close();
  await scripted.context().close();
});
