// Motion on the game screen (issue 17, items 3 and 11), loaded by game.js on
// first use (not part of the first visit). An update's events are revealed
// step by step: each step's log lines appear together with its animation
// (a play enters, an attacker nudges toward its target, damage floats up,
// a destroyed creature fades out, a returned one leaves), then the update's
// view is drawn exactly as the server sent it. Updates keep their order; a
// newer one, a click or a key on the game screen reveals the rest at once.
// The other seats' moves and "Your turn." are said in a polite live region,
// one step at a time. Under prefers-reduced-motion, with the Motion toggle
// off (localStorage cod.motion) or ?motion=off in the URL, every update
// lands at once, as before, without animation.
import { h } from "./dom.js";
import { narrate, MOTION_WORDS } from "./words.js";
import { soundOn, setSound, cue } from "./sound.js";

const STEP_MS = 400; // a step of another seat's turn
const OWN_STEP_MS = 150; // a step of the viewer's own action (not held up longer)
const MAX_UPDATE_MS = 5000; // one update's steps together never take longer
const STORE_KEY = "cod.motion";
const KEEP_SAID = 6; // lines kept in the live region

// Events that begin a step; the others join the step before them (a play's
// creature_entered, an attack's damage, a turn's mana).
const STARTERS = new Set(["turn_started", "card_played", "ai_revealed", "attack", "creature_destroyed",
  "card_returned", "stronghold_flipped", "card_chained", "creature_vanished", "ability_triggered",
  "conceded", "game_over"]);
// Events said in the live region when another seat causes them.
const SAID = new Set(["card_played", "attack", "creature_destroyed", "stronghold_damaged", "stronghold_flipped",
  "card_chained", "conceded", "game_over"]);

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function urlOff() {
  try {
    return new URLSearchParams(window.location.search).get("motion") === "off";
  } catch {
    return false;
  }
}

export class Motion {
  constructor(game) {
    this.game = game;
    this.queue = []; // {msg} or {fn}, in arrival order
    this.current = null; // {msg, steps, i}
    this.timer = null;
    this.inFn = false;
    this.marks = new Map(); // creature uid -> "new" | "hit" | "moved": since the viewer's last action
    this.seatMarks = new Map(); // seat -> "hit" | "moved"
    this.pops = null; // what the next render animates: {creatures, hand, seats, stronghold}
    this.stored = (() => { try { return window.localStorage.getItem(STORE_KEY); } catch { return null; } })();
    this.layer = h("div.mo-layer", { "aria-hidden": "true" });
    document.body.append(this.layer);
    // The other seats' moves in words, one step at a time.
    this.said = h("div#announce.visually-hidden", { role: "log", "aria-live": "polite", "aria-relevant": "additions" });
    this.toggleBtn = h("button#motion-toggle.small", { type: "button", title: MOTION_WORDS.toggleTitle, onclick: () => this.toggle() });
    game.root.append(this.said);
    const head = game.root.querySelector(".game-head");
    if (head) head.append(this.toggleBtn);
    this._showToggle();
    // Sound (sound.js): off until turned on here; remembered. Beside the
    // game's buttons: the head has no room left on a four-player screen.
    this.soundBtn = h("button#sound-toggle", { type: "button", title: MOTION_WORDS.soundTitle, onclick: () => this.toggleSound() });
    const controls = game.root.querySelector(".dock .controls");
    if (controls) controls.append(this.soundBtn);
    this._showSound();
    // A click or a key on the game screen while steps are being shown:
    // the rest at once, so that the viewer is never held up.
    this.skip = () => { if (this.busy()) this.finish(); };
    game.root.addEventListener("pointerdown", this.skip, true);
    game.root.addEventListener("keydown", this.skip, true);
  }

  // The screen is gone (another room): nothing more is shown.
  destroy() {
    window.clearTimeout(this.timer);
    this.queue = [];
    this.current = null;
    this.game.root.removeEventListener("pointerdown", this.skip, true);
    this.game.root.removeEventListener("keydown", this.skip, true);
    this.layer.remove();
  }

  on() {
    return !reducedMotion() && !urlOff() && this.stored !== "off";
  }

  toggle() {
    this.stored = this.on() ? "off" : "on";
    try { window.localStorage.setItem(STORE_KEY, this.stored); } catch { /* private mode: this page only */ }
    if (!this.on()) this.finish();
    this._showToggle();
  }

  _showToggle() {
    const reduced = reducedMotion();
    this.toggleBtn.disabled = reduced;
    this.toggleBtn.setAttribute("aria-pressed", String(this.on()));
    this.toggleBtn.textContent = reduced ? MOTION_WORDS.toggleReduced : MOTION_WORDS.toggle(this.on());
  }

  toggleSound() {
    setSound(!soundOn());
    this._showSound();
  }

  _showSound() {
    this.soundBtn.setAttribute("aria-pressed", String(soundOn()));
    this.soundBtn.textContent = MOTION_WORDS.sound(soundOn());
  }

  busy() {
    return this.current !== null || this.queue.length > 0;
  }

  // Whether an update after `seq` is waiting or being shown (game.js: a
  // pending act's offers must not come back over it).
  hasUpdateAfter(seq) {
    if (this.current && this.current.msg.seq > seq) return true;
    return this.queue.some((x) => x.msg && x.msg.seq > seq);
  }

  // game.applyUpdate: the update is shown from here (always; at once when
  // motion is off). Returns true. One arriving while another is shown (a
  // spectator, a fast opponent) lands the one shown at once first: the
  // screen never lags behind the match by more than one update.
  take(msg) {
    if (this.busy()) this.finish();
    this.queue.push({ msg });
    if (!this.on()) this.finish();
    else this._next();
    return true;
  }

  // Something that must wait for the updates before it (the match's end, a
  // seat's connection): queued when busy, else the caller does it now.
  defer(fn) {
    if (this.inFn || !this.busy()) return false;
    this.queue.push({ fn });
    return true;
  }

  // Everything waiting, at once (a click, a key, a new state, motion off).
  finish() {
    window.clearTimeout(this.timer);
    this.timer = null;
    const said = [];
    while (this.busy()) {
      if (!this.current) {
        if (!this._begin()) continue;
      }
      const c = this.current;
      while (c.i < c.steps.length) said.push(...this._reveal(c.steps[c.i++], false, false));
      this._apply(false);
    }
    this._say(said);
  }

  // The viewer acted: the marks of what changed before are cleared.
  clearMarks() {
    this.marks.clear();
    this.seatMarks.clear();
  }

  // After every render: the marks of what changed since the viewer's last
  // action, and (once, after an update) the entrance animations.
  decorate() {
    const root = this.game.root;
    for (const [uid, kind] of this.marks) {
      const el = root.querySelector(`#board .creature[data-uid="${uid}"]`);
      if (el) this._tag(el, kind);
    }
    for (const [seat, kind] of this.seatMarks) {
      const el = root.querySelector(`#seats .seat-box[data-seat="${seat}"]`);
      if (el) this._tag(el, kind);
    }
    const p = this.pops;
    this.pops = null;
    if (!p) return;
    for (const uid of p.creatures) this._anim(root.querySelector(`#board .creature[data-uid="${uid}"]`), "mo-enter");
    for (const uid of p.hand) this._anim(root.querySelector(`#hand [data-uid="${uid}"]`), "mo-enter");
    for (const seat of p.seats) this._anim(root.querySelector(`#seats .seat-box[data-seat="${seat}"] .health-track`), "mo-pulse");
    if (p.stronghold) this._anim(root.querySelector("#hand .stronghold-card"), "mo-pop");
  }

  _tag(el, kind) {
    el.classList.add("motion-mark");
    el.dataset.mark = kind;
    if (!el.querySelector(":scope > .motion-tag"))
      el.append(h("span.motion-tag", { title: MOTION_WORDS.tagTitle }, MOTION_WORDS.tags[kind] || kind));
  }

  // ---- the queue ----

  _next() {
    while (!this.current && this.queue.length) this._begin();
    if (this.current) this._step();
  }

  // Takes the queue's head: runs a function, or makes an update current.
  // Returns whether an update is current.
  _begin() {
    const item = this.queue.shift();
    if (item.fn) {
      this.inFn = true;
      try { item.fn(); } finally { this.inFn = false; }
      return false;
    }
    const game = this.game;
    game._noteGap(item.msg);
    this.acting = game.view ? game.view.active_seat : null;
    this.viewer = game.view && game.view.role === "player" ? game.view.viewer : null;
    this.pending = { creatures: new Set(), hand: new Set(), seats: new Set(), stronghold: false };
    this.current = { msg: item.msg, steps: this._steps(item.msg.events), i: 0 };
    game.root.dataset.motion = "playing";
    return true;
  }

  // The events cut into steps, each with the seat acting then and how long
  // it stays before the next one.
  _steps(events) {
    const steps = [];
    let acting = this.acting;
    for (const ev of events) {
      if (ev.type === "turn_started") acting = ev.seat;
      const last = steps[steps.length - 1];
      const joins = last && (!STARTERS.has(ev.type)
        || (last.events[0].type === "ai_revealed" && (ev.type === "card_played" || ev.type === "card_discarded") && last.events.length === 1)
        || (ev.type === "card_returned" && last.events.some((e) => e.type === "creature_destroyed" && e.card === ev.card)));
      if (joins) last.events.push(ev);
      else steps.push({ events: [ev], seat: acting });
    }
    // The viewer's own plays go quickly; an assault (its own too) is paced.
    const own = (s) => this.viewer !== null && s.seat === this.viewer && s.events[0].type !== "attack";
    for (const s of steps) s.ms = own(s) ? OWN_STEP_MS : STEP_MS;
    const total = steps.reduce((t, s) => t + s.ms, 0);
    if (total > MAX_UPDATE_MS) for (const s of steps) s.ms = Math.round(s.ms * MAX_UPDATE_MS / total);
    return steps;
  }

  _step() {
    this.timer = null;
    const c = this.current;
    const step = c.steps[c.i++];
    this.hold = false;
    try {
      this._say(this._reveal(step, true, c.i < c.steps.length));
    } catch (e) {
      // Never held up by a step that went wrong: the rest at once.
      this.finish();
      throw e;
    }
    if (c.i < c.steps.length) {
      this.timer = window.setTimeout(() => this._step(), step.ms);
      return;
    }
    // A last step that hit something stays a moment: the new board drawn at
    // once would move the thing hit from under its number.
    if (this.hold) {
      this.timer = window.setTimeout(() => {
        this.timer = null;
        this._apply(true);
        this._next();
      }, step.ms);
      return;
    }
    this._apply(true);
    this._next();
  }

  // The update's view, drawn by the game screen (its events are in the log).
  _apply(animate) {
    const msg = this.current.msg;
    this.current = null;
    delete this.game.root.dataset.motion;
    this.pops = animate ? this.pending : null;
    this.game.applyNow(msg, msg.events.length);
    this.pops = null;
  }

  // One step: its log lines, its marks, its animation (`stay`: more steps
  // follow, so the old board stays a while). Returns what to say.
  _reveal(step, animate, stay) {
    const game = this.game;
    const ctx = game._narrateCtx();
    const seq = this.current.msg.seq;
    const said = [];
    if (animate) this._inView(step.events);
    for (const ev of step.events) {
      const text = narrate(ev, ctx);
      game.log(text, ev.type, seq);
      if (ev.type === "turn_started") this.acting = ev.seat;
      const other = this.viewer === null || this.acting !== this.viewer;
      if (ev.type === "turn_started" && this.viewer !== null && ev.seat === this.viewer) {
        said.push(MOTION_WORDS.yourTurn);
        cue("turn");
      }
      else if (SAID.has(ev.type) && (other || ev.type === "game_over")) said.push(text);
      if (other && this.viewer !== null) this._mark(ev);
      if (animate) {
        try {
          this._animateEvent(ev, stay);
        } catch (e) {
          console.error("motion:", e); // decoration only: the step goes on
        }
      }
    }
    return said;
  }

  // What changed while another seat acted, tagged until the viewer acts.
  _mark(ev) {
    switch (ev.type) {
      case "creature_entered": case "creature_stacked":
        this.marks.set(ev.card, "new"); break;
      case "damage_dealt":
        if (!this.marks.has(ev.target)) this.marks.set(ev.target, "hit"); break;
      case "creature_moved": case "creature_vanished":
        if (!this.marks.has(ev.card)) this.marks.set(ev.card, "moved"); break;
      case "creature_destroyed": case "card_returned":
        this.marks.delete(ev.card); break;
      case "stronghold_damaged": case "stronghold_flipped":
        this.seatMarks.set(ev.seat, "hit"); break;
      case "stronghold_moved":
        if (!this.seatMarks.has(ev.seat)) this.seatMarks.set(ev.seat, "moved"); break;
    }
  }

  _say(lines) {
    if (!lines.length) return;
    this.said.append(h("p", {}, lines.join(" ")));
    while (this.said.children.length > KEEP_SAID) this.said.firstChild.remove();
  }

  // ---- the animations (transform and opacity only; see style.css) ----

  _animateEvent(ev, stay) {
    const p = this.pending;
    switch (ev.type) {
      case "creature_entered":
        // Shown on the old board when more steps follow (an attack of it may
        // come), else animated once the new view is drawn.
        if (!(stay && this._insertCreature(ev))) p.creatures.add(ev.card);
        break;
      case "creature_stacked":
        p.creatures.add(ev.host);
        this._anim(this._creatureEl(ev.host), "mo-pop");
        break;
      case "card_played":
        cue("play");
        // An incantation: its name over its target.
        if (ev.target !== undefined && ev.target !== null)
          this._float(this._creatureEl(ev.target), this.game.cat.name(ev.card_id), "spell");
        break;
      case "attack": {
        const from = this._creatureEl(ev.attacker);
        const to = ev.stronghold_of !== undefined && ev.stronghold_of !== null
          ? this._seatEl(ev.stronghold_of) : this._creatureEl(ev.target);
        this._nudge(from, to);
        this._arrow(from, to);
        cue("attack");
        break;
      }
      case "damage_dealt": {
        const hit = this._creatureEl(ev.target);
        this._float(hit, `−${ev.amount}`, "damage");
        this.hold = true;
        this._anim(hit, "mo-hit");
        cue("hit");
        break;
      }
      case "damage_prevented":
        this._float(this._creatureEl(ev.target), MOTION_WORDS.prevented, "prevented");
        break;
      case "stronghold_damaged":
        this._float(this._seatEl(ev.seat, ".health-track"), `−${ev.amount}`, "damage");
        this._anim(this._seatEl(ev.seat), "mo-hit");
        this.hold = true;
        cue("hit");
        p.seats.add(ev.seat);
        break;
      case "stronghold_moved": case "stronghold_flipped":
        this._anim(this._seatEl(ev.seat, ".health-track"), "mo-pulse");
        p.seats.add(ev.seat);
        if (ev.seat === this.viewer) p.stronghold = true;
        break;
      case "creature_destroyed":
        cue("destroy");
        this._ghost(this._creatureEl(ev.card), "mo-ghost");
        break;
      case "card_returned":
        this._ghost(this._creatureEl(ev.card), "mo-leave");
        if (ev.seat === this.viewer) p.hand.add(ev.card);
        break;
    }
  }

  _creatureEl(uid) {
    if (uid === null || uid === undefined) return null;
    const root = this.game.root;
    const el = root.querySelector(`#board .creature[data-uid="${uid}"]:not(.mo-gone)`);
    if (el) return el;
    // A Symbiote on top is drawn inside its host.
    const v = this.game.view;
    for (const line of v ? v.lines : []) for (const side of line.sides) for (const c of side.creatures) {
      if (c.top && c.top.uid === uid) return root.querySelector(`#board .creature[data-uid="${c.uid}"]:not(.mo-gone)`);
    }
    return null;
  }

  _seatEl(seat, inner = "") {
    return this.game.root.querySelector(`#seats .seat-box[data-seat="${seat}"] ${inner}`.trim());
  }

  // Restarts a CSS animation class on `el`.
  _anim(el, cls) {
    if (!el) return;
    el.classList.remove(cls);
    void el.offsetWidth; // a new animation, not the end of the last one
    el.classList.add(cls);
    el.addEventListener("animationend", () => el.classList.remove(cls), { once: true });
  }

  // The attacker moves a little toward its target and back.
  _nudge(from, to) {
    if (!from) return;
    const a = from.getBoundingClientRect();
    const b = to ? to.getBoundingClientRect() : a;
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const d = Math.hypot(dx, dy) || 1;
    // A lunge: a third of the way, at most 40 px.
    const len = Math.min(40, d / 3);
    from.style.setProperty("--nudge-x", `${(dx / d) * len}px`);
    from.style.setProperty("--nudge-y", `${(dy / d) * len}px`);
    this._anim(from, "mo-attack");
  }

  // An arrow from the attacker to what it attacks, drawn and faded in the
  // layer (the outer box turned toward the target, its shaft growing).
  _arrow(from, to) {
    if (!from || !to) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const x = a.left + a.width / 2, y = a.top + a.height / 2;
    const dx = b.left + b.width / 2 - x, dy = b.top + b.height / 2 - y;
    const arrow = h("div.mo-arrow", {}, h("span"));
    Object.assign(arrow.style, { left: `${x}px`, top: `${y}px`, width: `${Math.hypot(dx, dy)}px`, transform: `rotate(${Math.atan2(dy, dx)}rad)` });
    this._layered(arrow);
  }

  // On a phone the table scrolls: the creatures a step animates (attacker,
  // targets, what is hit) are brought into sight together before any of
  // its numbers is drawn (one scroll: a second would move the first thing
  // hit from under its number), and not under the viewer's seat, which a
  // phone keeps at the table's foot (look.css).
  _inView(events) {
    const els = [];
    for (const ev of events) for (const uid of [ev.attacker, ev.target, ev.type === "attack" ? null : ev.card]) {
      const el = this._creatureEl(uid);
      if (el) els.push(el);
    }
    const table = this.game.root.querySelector(".table");
    if (!els.length || !table) return;
    for (const el of els) {
      const box = el.closest(".creatures");
      if (!box) continue;
      const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (r.left < b.left) box.scrollLeft -= b.left - r.left;
      else if (r.right > b.right) box.scrollLeft += r.right - b.right;
    }
    const seat = table.querySelector('.seat-box[data-place="bottom"]');
    const under = seat && getComputedStyle(seat).position === "sticky" ? seat.offsetHeight : 0;
    const view = table.getBoundingClientRect();
    const rects = els.map((el) => el.getBoundingClientRect());
    const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
    if (top < view.top) table.scrollTop -= view.top - top + 4;
    else if (bottom > view.bottom - under) table.scrollTop += Math.min(bottom - (view.bottom - under) + 4, top - view.top);
  }

  // A number or a word rising over `el`, in the layer over the viewport (a
  // redraw does not cut it short; it never makes the page longer or wider).
  _float(el, text, kind) {
    if (!el) return;
    const r = el.getBoundingClientRect();
    const f = h(`div.mo-float.${kind}`, {}, text);
    f.style.left = `${r.left + r.width / 2}px`;
    // Inside the table's box, never over the dock (a phone's table scrolls).
    const t = el.closest(".table")?.getBoundingClientRect();
    const y = r.top + r.height / 3;
    f.style.top = `${t ? Math.max(t.top + 4, Math.min(y, t.bottom - 28)) : y}px`;
    this._layered(f);
  }

  // A copy of `el` fading (destroyed) or leaving (back to a hand) in the
  // layer, the original hidden until the new view is drawn.
  _ghost(el, cls) {
    if (!el) return;
    const r = el.getBoundingClientRect();
    const g = el.cloneNode(true);
    for (const a of ["tabindex", "role", "aria-label", "id"]) g.removeAttribute(a);
    g.classList.add("mo-copy", cls);
    Object.assign(g.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
    el.classList.add("mo-gone");
    this._layered(g);
  }

  _layered(el) {
    this.layer.append(el);
    const done = () => el.remove();
    el.addEventListener("animationend", done, { once: true });
    window.setTimeout(done, 2000); // no animation ran (a hidden tab)
  }

  // A creature played by another seat, drawn on the old board at its place
  // (position 0 next to the Bridge) until the new view comes.
  _insertCreature(ev) {
    const game = this.game;
    const v = game.view;
    const line = v && v.lines[ev.line];
    const side = line && line.sides[ev.side];
    if (!side) return false;
    const box = game.root.querySelector(`#board .line[data-line="${ev.line}"] .side[data-seat="${side.seat}"] .creatures`);
    if (!box) return false;
    const c = this._creatureData(ev);
    if (!c) return false;
    const el = game._creature(c, side.seat, ev.line);
    const left = box.parentElement.classList.contains("left");
    const kids = [...box.children];
    if (left) kids.reverse();
    const ref = kids[ev.position];
    if (left) { if (ref) ref.after(el); else box.prepend(el); } else box.insertBefore(el, ref || null);
    this._anim(el, "mo-enter");
    if (game.look) game.look.decorate();
    return true;
  }

  // The entering creature as the update's view has it, else as printed.
  _creatureData(ev) {
    const nv = this.current.msg.view;
    for (const line of nv.lines) for (const side of line.sides) for (const c of side.creatures) if (c.uid === ev.card) return c;
    const def = this.game.cat.card(ev.card_id);
    if (!def) return null;
    return { uid: ev.card, card_id: ev.card_id, av: def.av ?? 0, bonus_av: 0, hp: def.hp ?? 0, damage: 0,
      abilities: def.abilities.map((a) => a.ability), chained: [], entered_this_turn: true };
  }
}
