// The wire protocol (docs/protocol.md) for browsers: one WebSocket to /ws
// (/ws?room=ID when it is for one room), hello first, requests matched to
// replies by id, pushed messages to listeners. No DOM here: the game screen,
// the lobby and the admin page (and any other client) use it the same way.

export const PROTOCOL_VERSION = 1;
export const CLIENT_NAME = "cod-web/0.1";

// A refused request: `code` (docs/protocol.md "Errors"), the server's
// sentence in `message`, `field` and `reason` when the server gave them.
export class ServerError extends Error {
  constructor(msg) {
    super(msg.message || msg.code);
    this.name = "ServerError";
    this.code = msg.code;
    this.field = msg.field;
    this.reason = msg.reason;
    // league_refused: which rule (docs/protocol.md "league_act").
    this.refusal = msg.refusal;
  }
}

// A request that could not be answered: the connection closed first.
export class ConnectionLost extends Error {
  constructor() {
    super("the connection to the server was lost");
    this.name = "ConnectionLost";
    this.code = "connection_lost";
  }
}

// The WebSocket's URL: /ws for the lobby; /ws?room=ID for a connection that
// takes part in one room (join, resume, spectate), so that a proxy in front
// of several nodes sends it to the room's node (docs/cluster.md, "Routing").
export function socketUrl(loc = window.location, room = null) {
  return (loc.protocol === "https:" ? "wss://" : "ws://") + loc.host + "/ws" +
    (room ? "?room=" + encodeURIComponent(room) : "");
}

// A connection whose traffic stops without a close (a dead Wi-Fi, a
// suspended laptop, a proxy that hangs) is found out by a heartbeat: after
// `pingAfterMs` without a message the client sends a ping; when nothing at
// all arrives within `deadAfterMs` of that ping, the connection is given up
// as if it had closed (close event, code 4000) and the page reconnects. A
// connection that does not open within `connectMs` is given up the same way.
// Measured from the ping, not from the last message: a background tab's
// timers may run a minute late, and that alone must not end a connection.
export const HEARTBEAT = { pingAfterMs: 2000, deadAfterMs: 3000, connectMs: 3000, tickMs: 250 };

// Pushed messages (no id): state, update, seat_status, match_over, clock,
// left, league (a followed league's view), and errors about frames the
// server could not read.
export class Connection {
  // `room`: the room this connection is for (its URL says so), or null.
  constructor(url = socketUrl(), room = null, heartbeat = HEARTBEAT) {
    this.url = url;
    this.room = room;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, type}
    this.listeners = new Map(); // type -> [fn]
    this.welcome = null;
    this.accountToken = null; // a session token: hello signs the connection in
    this.accountRefused = null; // the ServerError that refused it
    this.closed = true;
    this.heartbeat = heartbeat;
    this.lastReceived = 0;
    this.pingSent = 0; // when the unanswered ping went, 0 when none
    this.timer = null;
  }

  // Opens the socket and says hello; resolves with the welcome.
  open() {
    return new Promise((resolve, reject) => {
      let ws;
      try {
        ws = new WebSocket(this.url);
      } catch (e) {
        reject(e);
        return;
      }
      this.ws = ws;
      let opened = false;
      ws.onopen = () => {
        opened = true;
        this.closed = false;
        this._hello().then((w) => {
          this.welcome = w;
          resolve(w);
        }, reject);
      };
      ws.onmessage = (ev) => {
        this.lastReceived = Date.now();
        this.pingSent = 0;
        this._receive(ev.data);
      };
      ws.onclose = (ev) => this._closed({ code: ev.code, reason: ev.reason, wasClean: ev.wasClean });
      this._openFailed = () => { if (!opened) reject(new ConnectionLost()); };
      this.lastReceived = Date.now();
      this.timer = setInterval(() => this._beat(), this.heartbeat.tickMs);
    });
  }

  // hello, signed in with `accountToken` when there is one (docs/protocol.md
  // "Playing signed in"). A refused token (bad_session: signed out, revoked,
  // expired; account_disabled; server_busy) leaves the hello untaken: the
  // connection says hello again without it and plays unsigned;
  // `accountRefused` keeps the refusal for the page to act on.
  async _hello() {
    const fields = { version: PROTOCOL_VERSION, client: CLIENT_NAME, legal_actions: true };
    if (this.accountToken) {
      try {
        return await this.request("hello", { ...fields, account_token: this.accountToken });
      } catch (e) {
        if (!(e instanceof ServerError)) throw e;
        this.accountRefused = e;
      }
    }
    return this.request("hello", fields);
  }

  close() {
    if (this.ws) this.ws.close(1000);
  }

  // Once per connection: pending requests fail, listeners hear "close".
  _closed(ev) {
    if (this.timer === null && this.closed) return;
    clearInterval(this.timer);
    this.timer = null;
    this.closed = true;
    if (this._openFailed) this._openFailed();
    for (const p of this.pending.values()) p.reject(new ConnectionLost());
    this.pending.clear();
    this._emit("close", ev);
  }

  _beat() {
    const now = Date.now();
    const { pingAfterMs, deadAfterMs, connectMs } = this.heartbeat;
    const connecting = this.ws.readyState === WebSocket.CONNECTING;
    if (connecting ? now - this.lastReceived >= connectMs : this.pingSent && now - this.pingSent >= deadAfterMs) {
      // Silent: no close will come in time (the socket's own would wait for
      // TCP to give up, minutes later).
      const ws = this.ws;
      ws.onmessage = ws.onclose = ws.onopen = null;
      try { ws.close(4000, "no answer"); } catch { /* closing anyway */ }
      this._closed({ code: 4000, reason: "no answer from the server", wasClean: false, silent: true });
      return;
    }
    if (!connecting && !this.closed && !this.pingSent && now - this.lastReceived >= pingAfterMs) {
      this.pingSent = now;
      this.request("ping").catch(() => { /* a lost connection is reported by close */ });
    }
  }

  // Sends {type, id, ...fields}; resolves with the reply, rejects with a
  // ServerError for an error reply or ConnectionLost.
  request(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return Promise.reject(new ConnectionLost());
    const id = this.nextId++;
    const msg = { type, id, ...fields };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, type });
      this._emit("sent", msg);
      this.ws.send(JSON.stringify(msg));
    });
  }

  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(fn);
    return () => {
      const list = this.listeners.get(type);
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    };
  }

  _emit(type, msg) {
    for (const fn of this.listeners.get(type) || []) {
      try {
        fn(msg);
      } catch (e) {
        console.error(e);
      }
    }
  }

  _receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      console.error("not JSON from the server", text);
      return;
    }
    this._emit("received", msg);
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === "error") p.reject(new ServerError(msg));
      else p.resolve(msg);
      return;
    }
    this._emit(msg.type, msg);
  }
}

// The seat tokens this browser holds, kept across reloads (localStorage):
// {room, seat, token, name}. The token is the only way back to a seat
// (docs/protocol.md "Reconnecting"); it is never shown.
const SEAT_KEY = "cod.seat";

export const seatStore = {
  get() {
    try {
      const s = JSON.parse(window.localStorage.getItem(SEAT_KEY) || "null");
      return s && typeof s.room === "string" && typeof s.token === "string" ? s : null;
    } catch {
      return null;
    }
  },
  set(s) {
    window.localStorage.setItem(SEAT_KEY, JSON.stringify(s));
  },
  clear() {
    window.localStorage.removeItem(SEAT_KEY);
  },
};

// The room this browser watches, kept across reloads: {room}. A reload
// spectates it again (no token: anyone may watch).
const WATCH_KEY = "cod.watch";

export const watchStore = {
  get() {
    try {
      const s = JSON.parse(window.localStorage.getItem(WATCH_KEY) || "null");
      return s && typeof s.room === "string" ? s : null;
    } catch {
      return null;
    }
  },
  set(s) {
    window.localStorage.setItem(WATCH_KEY, JSON.stringify(s));
  },
  clear() {
    window.localStorage.removeItem(WATCH_KEY);
  },
};

// The mutation league this browser follows, kept across reloads: {token,
// league}. The league token is the player's for the whole league (R15); it
// is never shown.
const LEAGUE_KEY = "cod.league";

export const leagueStore = {
  get() {
    try {
      const s = JSON.parse(window.localStorage.getItem(LEAGUE_KEY) || "null");
      return s && typeof s.token === "string" ? s : null;
    } catch {
      return null;
    }
  },
  set(s) {
    window.localStorage.setItem(LEAGUE_KEY, JSON.stringify(s));
  },
  clear() {
    window.localStorage.removeItem(LEAGUE_KEY);
  },
};
