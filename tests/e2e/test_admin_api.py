#!/usr/bin/env python3
"""End to end: the admin HTTP API (docs/admin.md) of a real cod-server. Two
cod-bots play a duel to the end; then the match is read through
/admin/api/ without a token (401, no data), with a wrong one (401), and with
the right one: search, the record, the log in sentences and raw, the state
at a step, verify, the export, the draft (404). Each access is in the
server's log. cod-admin on the same file gives the same documents. Restarted
without admin_token, the API answers 403 admin_disabled.

  test_admin_api.py --server S --bot B --admin A
"""

import http.client
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

TOKEN = "e2e-admin-token-6f1c0b9e2a"


def request(server, path, token=None, method="GET", auth=None):
    """(status, content type, body text)."""
    c = http.client.HTTPConnection(e2e.LOOPBACK, server.port, timeout=10)
    try:
        headers = {}
        if auth is not None:
            headers["Authorization"] = auth
        elif token is not None:
            headers["Authorization"] = "Bearer " + token
        c.request(method, path, headers=headers)
        r = c.getresponse()
        return r.status, r.getheader("Content-Type", ""), r.read().decode()
    finally:
        c.close()


def get_json(server, path, token=TOKEN, want=200):
    status, ctype, body = request(server, path, token)
    e2e.check(status == want, "GET %s: %d, wanted %d: %s" % (path, status, want, body[:500]))
    e2e.check(ctype == "application/json", "GET %s: content type %s" % (path, ctype))
    return json.loads(body)


def test(args, work):
    e2e.check(args.admin, "--admin (cod-admin) is needed")
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db, extra=["--admin-token", TOKEN]).start()
    e2e.check("admin API enabled on /admin/api/" in server.log(), "no start-up line about the admin API")

    a, b, room = e2e.play_duel(args, work, server, ["--deck", "1"], ["--deck", "2"], timeout=60)
    sa, sb = e2e.check_results(a, b)
    rec, actions = e2e.db_match(db, room)
    mid = rec["match_id"]
    n = sa["seq"]
    e2e.check(len(actions) == n, "%d actions stored, the bots saw %d" % (len(actions), n))

    # Without a token, with a wrong one, with another scheme: 401 and no data.
    for what, kw in (("no token", {}), ("wrong token", {"token": "nope"}), ("a prefix", {"token": TOKEN[:-1]}),
                     ("Basic", {"auth": "Basic " + TOKEN})):
        for path in ("/admin/api/matches", "/admin/api/matches/%s/export" % mid):
            status, ctype, body = request(server, path, **kw)
            e2e.check(status == 401, "%s: GET %s answered %d" % (what, path, status))
            e2e.check(json.loads(body)["error"] == "unauthorized", "%s: body %s" % (what, body))
            e2e.check(mid not in body and "actions" not in body, "%s: data in a refused answer: %s" % (what, body))
    e2e.log("refused without the right token: ok")

    # Search: status and mode, winner, player (case-insensitive), a bad parameter.
    found = get_json(server, "/admin/api/matches?status=finished&mode=duel")
    ids = [m["match_id"] for m in found["matches"]]
    e2e.check(mid in ids, "search: %s not in %s" % (mid, ids))
    m = [x for x in found["matches"] if x["match_id"] == mid][0]
    e2e.check(m["actions"] == n and m["room_id"] == room, "search entry %s" % m)
    winners = json.loads(rec["winners"])
    if winners:
        w = winners[0]
        e2e.check(mid in [x["match_id"] for x in get_json(server, "/admin/api/matches?winner=%d" % w)["matches"]],
                  "winner=%d does not find the match" % w)
        e2e.check(mid not in [x["match_id"] for x in get_json(server, "/admin/api/matches?winner=%d" % (1 - w))["matches"]],
                  "winner=%d finds the match" % (1 - w))
    name = rec["seats"][0]["name"]
    e2e.check(mid in [x["match_id"] for x in get_json(server, "/admin/api/matches?player=" + name.upper())["matches"]],
              "player=%s does not find the match" % name.upper())
    e2e.check(get_json(server, "/admin/api/matches?status=playing")["count"] == 0, "a playing match listed")
    err = get_json(server, "/admin/api/matches?limit=0", want=400)
    e2e.check(err["error"] == "bad_parameter" and err["param"] == "limit", "limit=0: %s" % err)

    # The record and the log.
    record = get_json(server, "/admin/api/matches/" + mid)
    e2e.check(record["status"] == "finished" and record["seed"] == rec["seed"], "record %s" % record)
    log_json = get_json(server, "/admin/api/matches/%s/log" % mid)
    e2e.check(log_json["complete"] is True, "log incomplete: %s" % log_json.get("error"))
    e2e.check(len(log_json["entries"]) == n + 1, "%d log entries for %d actions" % (len(log_json["entries"]), n))
    status, ctype, text = request(server, "/admin/api/matches/%s/log?format=text" % mid, TOKEN)
    e2e.check(status == 200 and ctype.startswith("text/plain"), "text log: %d %s" % (status, ctype))
    lines = text.splitlines()
    e2e.check(any(l.endswith(" goes first") for l in lines), "no 'goes first' line")
    # Seats by their players' names (the wire's numbers are not for people).
    names = [s["name"] for s in record["seats"]]
    e2e.check(any(l.startswith("  Game over: ") and any(n in l for n in names) for l in lines), "no 'Game over: <name>' line")
    plays = [l for l in lines if " plays " in l and " on the " in l]
    e2e.check(len(plays) > 0, "no 'plays ... on the ... line' line")
    e2e.log("log: %d lines, e.g. %r" % (len(lines), plays[0].strip()))
    raw = get_json(server, "/admin/api/matches/%s/log/raw" % mid)
    e2e.check(len(raw["actions"]) == n, "raw log: %d actions" % len(raw["actions"]))
    for x, (seq, seat, aj) in zip(raw["actions"], actions):
        e2e.check((x["seq"], x["seat"], x["action"]) == (seq, seat, json.loads(aj)),
                  "raw log differs from the database at seq %d: %s" % (seq, x))

    # State at a step.
    s0 = get_json(server, "/admin/api/matches/%s/state?step=0" % mid)
    e2e.check(s0["view"]["phase"] == "summoning" and s0["view"]["role"] == "referee", "state at 0: %s" % s0["view"])
    sn = get_json(server, "/admin/api/matches/%s/state?step=%d" % (mid, n))
    e2e.check(sn["view"]["phase"] == "game_over", "state at %d: phase %s" % (n, sn["view"]["phase"]))
    e2e.check(sorted(sn["view"]["winners"]) == sorted(winners), "final view's winners %s" % sn["view"]["winners"])
    err = get_json(server, "/admin/api/matches/%s/state?step=%d" % (mid, n + 1), want=400)
    e2e.check(err["param"] == "step", "step beyond the end: %s" % err)

    # Verify, export, draft.
    v = get_json(server, "/admin/api/matches/%s/verify" % mid)
    e2e.check(v["ok"] is True and v["first_divergence"] is None, "verify: %s" % v)
    export = get_json(server, "/admin/api/matches/%s/export" % mid)
    e2e.check(export["export"] == "cod-match" and len(export["actions"]) == n, "export header/actions")
    e2e.check(export["match"]["seed_hash"] == rec["seed_hash"], "export seed_hash")
    d = get_json(server, "/admin/api/matches/%s/draft" % mid, want=404)
    e2e.check(d["error"] == "no_draft_record", "draft: %s" % d)
    e2e.check(get_json(server, "/admin/api/matches/nope", want=404)["error"] == "no_such_match", "unknown match")

    # The access log: who, what, outcome; never the token.
    text = server.log()
    e2e.check("admin: 127.0.0.1:" in text, "no admin access line with the peer address")
    e2e.check("GET /admin/api/matches refused: 401 unauthorized" in text, "no refused line in the log")
    e2e.check("GET /admin/api/matches/%s/verify -> 200 ok" % mid in text, "no accepted line in the log")
    e2e.check(TOKEN not in text.replace("--admin-token " + TOKEN, ""), "the token is in the server log")

    # cod-admin on the file gives the same documents (one implementation).
    for cmd, path in ((["export", mid], "/admin/api/matches/%s/export" % mid),
                      (["log", mid, "--json"], "/admin/api/matches/%s/log" % mid),
                      (["state", mid, "--step", "5"], "/admin/api/matches/%s/state?step=5" % mid),
                      (["verify", mid, "--json"], "/admin/api/matches/%s/verify" % mid)):
        rc, out = e2e.run_admin(args.admin, db, "--catalogue", args.catalogue, *cmd)
        e2e.check(rc == 0, "cod-admin %s: exit %d\n%s" % (" ".join(cmd), rc, out[-2000:]))
        e2e.check(json.loads(out) == get_json(server, path), "cod-admin %s differs from GET %s" % (cmd[0], path))
    rc, out = e2e.run_admin(args.admin, db, "--catalogue", args.catalogue, "log", mid)
    e2e.check(rc == 0 and out == request(server, "/admin/api/matches/%s/log?format=text" % mid, TOKEN)[2],
              "cod-admin log differs from the text log")
    rc, out = e2e.run_admin(args.admin, db, "list", "--status", "finished", "--json")
    e2e.check(rc == 0 and json.loads(out) == get_json(server, "/admin/api/matches?status=finished"),
              "cod-admin list --json differs from the API")
    e2e.log("cod-admin export/log/state/verify/list == the HTTP API")

    server.check_healthy()
    server.stop()

    # Without admin_token: disabled, 403, with a start-up line saying so.
    off = e2e.Server(args.server, work, db, name="server-noadmin").start()
    e2e.check("admin API disabled" in off.log(), "no start-up line saying the admin API is disabled")
    status, ctype, body = request(off, "/admin/api/matches", TOKEN)
    e2e.check(status == 403 and json.loads(body)["error"] == "admin_disabled", "disabled: %d %s" % (status, body))
    e2e.check(mid not in body, "data from a disabled admin API")
    off.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__)
