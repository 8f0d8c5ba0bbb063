// A small client of the admin HTTP API (/admin/api/..., bearer token;
// docs/admin.md). Every call
// resolves with the parsed JSON or rejects with an AdminError carrying the
// API's stable code, its sentence and the parameter it names.

export class AdminError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.name = "AdminError";
    this.status = status;
    this.code = (body && body.error) || `http_${status}`;
    this.param = body && body.param;
  }
}

const ADMIN_WORDS = {
  unauthorized: "The admin token is missing or wrong.",
  admin_disabled: "The admin API is disabled on this server (its admin_token setting is empty).",
  bad_parameter: "A search field has a wrong value.",
  unknown_parameter: "The server does not take that search field.",
  no_such_match: "There is no match with that id.",
  not_found: "The server has no such admin endpoint (is the admin API there?).",
  bad_path: "The match id in the address is malformed.",
  method_not_allowed: "The admin API refused the request's method.",
  replay_failed: "The stored log cannot be replayed that far: it diverges earlier.",
  storage_error: "The server could not read its database.",
  no_such_league: "There is no league with that id.",
  forbidden: "That token does not open this part of the admin API.",
};

export function adminErrorWords(e) {
  const words = ADMIN_WORDS[e.code] || "The admin API refused that.";
  return e.message && e.message !== words ? `${words} (${e.message})` : words;
}

export class AdminApi {
  constructor(token, base = "/admin/api") {
    this.token = token;
    this.base = base;
  }

  async get(path, params = {}) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== "" && v !== null && v !== undefined) q.set(k, String(v));
    const url = this.base + path + (q.toString() ? `?${q}` : "");
    const res = await fetch(url, { headers: { Authorization: `Bearer ${this.token}` } });
    const type = res.headers.get("content-type") || "";
    const body = type.includes("json") ? await res.json().catch(() => null) : await res.text();
    if (!res.ok) throw new AdminError(res.status, typeof body === "object" ? body : null);
    return body;
  }

  // {player, mode, status, winner, from, to, limit, offset, before}
  search(params) { return this.get("/matches", params); }
  match(id) { return this.get(`/matches/${encodeURIComponent(id)}`); }
  log(id) { return this.get(`/matches/${encodeURIComponent(id)}/log`); }
  state(id, step) { return this.get(`/matches/${encodeURIComponent(id)}/state`, { step }); }
  verify(id) { return this.get(`/matches/${encodeURIComponent(id)}/verify`); }
  // Mutation leagues (the organiser API, docs/league.md; the admin token opens it too).
  leagues() { return this.get("/leagues"); }
  league(id) { return this.get(`/leagues/${encodeURIComponent(id)}`); }
  leagueExportPath(id) { return `${this.base}/leagues/${encodeURIComponent(id)}/export`; }
  leagueExport(id) { return this.get(`/leagues/${encodeURIComponent(id)}/export`); }
}
