#!/usr/bin/env python3
"""End to end: player accounts (docs/accounts.md) on a real cod-server over
HTTP. Register, sign in, a guest that claims a name; the sessions survive a
kill -9 and restart (they are in the database: only their hashes, no
token, no password); the 11th failed sign-in of a name is 429 with
Retry-After; an admin finds and disables an account (the organiser token
cannot), and does it again with cod-admin through the admin API; two guests
play a rated duel from the queue, and the ladder and the winner's page show
it; a storm of sign-ins beyond the account workers' queue is answered
503 busy at once and the server stays healthy.

  test_accounts.py --server S --bot B
"""

import http.client
import json
import os
import sqlite3
import subprocess
import sys
import threading
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

ADMIN = "e2e-admin-token-0c7d5e19aa"
ORGANISER = "e2e-organiser-token-77a1b3"


def call(server, method, path, body=None, token=None, source=None):
    """(status, headers dict, parsed JSON body)."""
    c = http.client.HTTPConnection(e2e.LOOPBACK, server.port, timeout=30,
                                   source_address=(source, 0) if source else None)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        c.request(method, path, json.dumps(body) if body is not None else None, headers)
        r = c.getresponse()
        text = r.read().decode()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, (json.loads(text) if text else None)
    finally:
        c.close()


def signed_in(server, token):
    ws = e2e.WS(server.port)
    w = ws.request({"type": "hello", "id": 1, "version": 1, "account_token": token})
    e2e.check(w["type"] == "welcome" and "account" in w, "a signed-in hello: %s" % w)
    return ws, w["account"]


def wait_for(ws, kind, timeout=15):
    while True:
        m = json.loads(ws.recv(timeout)[1])
        if m.get("type") == kind:
            return m


def queue_over_the_wire(server, db):
    """Two guests sign their WebSockets in, queue a duel, are matched and
    seated (matched, joined, state); one comes back from a new connection
    and resumes its seat with no token, by its account; the stored seats
    are bound to the accounts."""
    guests = []
    for _ in range(2):
        st, _, g = call(server, "POST", "/api/guest", {})
        e2e.check(st == 201, "guest: %d %s" % (st, g))
        guests.append(g)
    conns = [signed_in(server, g["session"]["token"])[0] for g in guests]
    bad = e2e.WS(server.port)
    r = bad.request({"type": "hello", "id": 1, "version": 1, "account_token": "0" * 32})
    e2e.check(r["type"] == "error" and r["code"] == "bad_session", "a bad account_token: %s" % r)
    r = bad.request({"type": "hello", "id": 2, "version": 1})
    e2e.check(r["type"] == "welcome", "hello again without the token: %s" % r)
    r = bad.request({"type": "queue", "id": 3, "mode": "duel", "format": "preconstructed",
                     "deck": {"preconstructed": 1}})
    e2e.check(r["type"] == "error" and r["code"] == "not_signed_in", "queue unsigned: %s" % r)
    bad.close()
    for i, ws in enumerate(conns):
        r = ws.request({"type": "queue", "id": 10 + i, "mode": "duel", "format": "preconstructed",
                        "deck": {"preconstructed": i + 1}})
        e2e.check(r["type"] == "queued" and r["mode"] == "duel", "queued: %s" % r)
    matched = [wait_for(ws, "matched") for ws in conns]
    e2e.check(matched[0]["room"] == matched[1]["room"], "one room: %s" % matched)
    for ws in conns:
        wait_for(ws, "state")
    room = matched[0]["room"]
    # Guest 0 comes back on a new connection and takes its seat by its account.
    conns[0].close()
    again, _ = signed_in(server, guests[0]["session"]["token"])
    r = again.request({"type": "resume", "id": 20, "room": room})
    e2e.check(r["type"] == "joined" and r["seat"] == matched[0]["seat"] and "token" not in r,
              "resumed by the account: %s" % r)
    state = wait_for(again, "state")
    # A rated duel: each side acts once (a match aborted before that is
    # unrated), then the side to move concedes; the store rates it as it ends.
    by_seat = {matched[0]["seat"]: again, matched[1]["seat"]: conns[1]}
    active = state["view"]["active_seat"]
    for i, seat in enumerate([active, 1 - active]):
        by_seat[seat].send_json({"type": "act", "id": 30 + i, "action": {"type": "end_turn"}})
        r = wait_for(by_seat[seat], "accepted")
    by_seat[active].send_json({"type": "act", "id": 40, "action": {"type": "concede"}})
    over = wait_for(by_seat[1 - active], "match_over")
    e2e.check(over["winners"] == [1 - active], "the conceding seat lost: %s" % over)
    again.close()
    conns[1].close()
    rows = sqlite3.connect("file:%s?mode=ro" % db, uri=True).execute(
        "SELECT s.account_id, s.name FROM match_seats s JOIN matches m ON m.match_id = s.match_id "
        "WHERE m.room_id = ? ORDER BY s.seat", (room,)).fetchall()
    ids = sorted(g["account"]["id"] for g in guests)
    e2e.check(sorted(r[0] for r in rows) == ids, "seats bound to the accounts: %s vs %s" % (rows, ids))
    ratings = sqlite3.connect("file:%s?mode=ro" % db, uri=True).execute(
        "SELECT account_id, ladder, value, games FROM ratings ORDER BY account_id").fetchall()
    e2e.check(sorted(r[0] for r in ratings) == ids and all(r[1] == "duel" and r[3] == 1 for r in ratings),
              "both rated on the duel ladder: %s" % ratings)
    winner = [g["account"]["id"] for g, m in zip(guests, matched) if m["seat"] == 1 - active][0]
    e2e.check(all((r[2] > 1500) == (r[0] == winner) for r in ratings), "the winner gained: %s" % ratings)
    e2e.log("signed in, queued, matched, resumed by account: ok")
    players_see_it(server, db, room, guests, winner)


def players_see_it(server, db, room, guests, winner):
    """The public pages after the rated duel: both guests are provisional
    after one game (RD >= 110), so the ladder shows neither; the winner's
    page has the rating, one history entry gained, and the match."""
    st, headers, lad = call(server, "GET", "/api/ladder/duel?offset=0&limit=50")
    e2e.check(st == 200 and lad == {"ladder": "duel", "players": [], "offset": 0, "next_offset": None},
              "the duel ladder without provisionals: %d %s" % (st, lad))
    e2e.check("max-age" in headers.get("cache-control", ""), "the ladder's Cache-Control: %s" % headers)
    st, _, body = call(server, "GET", "/api/ladder/chess")
    e2e.check(st == 404 and body["error"] == "no_such_ladder", "an unknown ladder: %d %s" % (st, body))
    st, _, body = call(server, "GET", "/api/ladder/duel?limit=0")
    e2e.check(st == 400 and body["error"] == "bad_parameter", "a bad limit: %d %s" % (st, body))
    st, _, body = call(server, "POST", "/api/ladder/duel", {})
    e2e.check(st == 405, "POST on the ladder: %d %s" % (st, body))

    match_id = sqlite3.connect("file:%s?mode=ro" % db, uri=True).execute(
        "SELECT match_id FROM matches WHERE room_id = ?", (room,)).fetchone()[0]
    name = [g["account"]["name"] for g in guests if g["account"]["id"] == winner][0]
    st, headers, page = call(server, "GET", "/api/players/%s" % urllib.parse.quote(name.upper()))
    e2e.check(st == 200, "the winner's page: %d %s" % (st, page))
    e2e.check(headers.get("cache-control") == "no-store", "the page's Cache-Control: %s" % headers)
    e2e.check(page["player"]["id"] == winner and page["player"]["name"] == name and page["player"]["guest"],
              "the player: %s" % page["player"])
    e2e.check(len(page["ratings"]) == 1, "one rating: %s" % page["ratings"])
    r = page["ratings"][0]
    e2e.check(r["ladder"] == "duel" and r["rating"] > 1500 and r["games"] == 1 and r["wins"] == 1 and
              r["losses"] == 0 and r["provisional"] and r["deviation"] >= 110, "the rating: %s" % r)
    e2e.check(len(page["history"]) == 1, "one history entry: %s" % page["history"])
    h = page["history"][0]
    e2e.check(h["match_id"] == match_id and h["ladder"] == "duel" and h["before"] == 1500 and h["delta"] > 0 and
              h["after"] == r["rating"] and h["result"] == "win", "the history entry: %s" % h)
    e2e.check(len(page["matches"]) == 1, "one match: %s" % page["matches"])
    m = page["matches"][0]
    e2e.check(m["match_id"] == match_id and m["mode"] == "duel" and m["result"] == "win" and
              m["rating_change"] == h["delta"] and m["ended_ms"] == h["ended_ms"], "the match: %s" % m)
    st, _, body = call(server, "GET", "/api/players/nobody-here")
    e2e.check(st == 404 and body["error"] == "no_such_player", "an unknown player: %d %s" % (st, body))
    e2e.log("the ladder hides the provisional guests; the winner's page: %s +%d: ok" % (r["rating"], h["delta"]))


def accounts_with_cod_admin(args, server):
    """cod-admin's accounts commands through the admin API (the server owns
    its database): find Cleo, disable her (her sign-in is refused), enable,
    revoke her sessions; bad ids, a missing or wrong token."""
    url = "http://%s:%d" % (e2e.LOOPBACK, server.port)

    def run(*cmd, token=ADMIN):
        env = {k: v for k, v in os.environ.items() if k != "COD_ADMIN_TOKEN"}
        if token:
            env["COD_ADMIN_TOKEN"] = token
        p = subprocess.run([args.admin, "--url", url, "accounts"] + list(cmd), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=env, timeout=30, preexec_fn=e2e._die_with_parent)
        return p.returncode, p.stdout.decode(errors="replace")

    rc, out = run("find", "CLE")
    lines = out.strip().split("\n")
    e2e.check(rc == 0 and len(lines) == 1, "cod-admin accounts find (%d):\n%s" % (rc, out))
    fields = lines[0].split("\t")
    e2e.check(fields[1:3] == ["Cleo", "registered"], "the found line: %s" % fields)
    cleo = fields[0]
    rc, out = run("disable", cleo)
    e2e.check(rc == 0 and out.strip() == "account %s (Cleo) disabled" % cleo, "disable (%d): %s" % (rc, out))
    st, _, body = call(server, "POST", "/api/login", {"name": "Cleo", "password": "a good password"})
    e2e.check(st == 403 and body["error"] == "account_disabled", "a disabled sign-in: %d %s" % (st, body))
    rc, out = run("find", "cleo", "--json")
    e2e.check(rc == 0 and json.loads(out)["accounts"][0]["disabled"], "find --json (%d): %s" % (rc, out))
    rc, out = run("enable", cleo)
    e2e.check(rc == 0 and out.strip() == "account %s (Cleo) enabled" % cleo, "enable (%d): %s" % (rc, out))
    st, _, body = call(server, "POST", "/api/login", {"name": "Cleo", "password": "a good password"})
    e2e.check(st == 200, "signed in again: %d %s" % (st, body))
    rc, out = run("revoke-sessions", cleo)
    e2e.check(rc == 0 and out.strip() == "account %s: 2 session(s) revoked" % cleo, "revoke (%d): %s" % (rc, out))
    st, _, body = call(server, "GET", "/api/me", token=body["session"]["token"])
    e2e.check(st == 401, "a revoked session: %d %s" % (st, body))

    rc, out = run("disable", "999999")
    e2e.check(rc == 1 and "404" in out, "no such account (%d): %s" % (rc, out))
    rc, out = run("disable", "x")
    e2e.check(rc == 2, "a bad id (%d): %s" % (rc, out))
    rc, out = run("find", "c", token=None)
    e2e.check(rc == 2 and "COD_ADMIN_TOKEN" in out, "no token (%d): %s" % (rc, out))
    rc, out = run("find", "c", token=ORGANISER)
    e2e.check(rc == 1 and "403" in out, "the organiser's token (%d): %s" % (rc, out))
    e2e.log("cod-admin accounts find, disable, enable, revoke-sessions: ok")


def test(args, work):
    db = os.path.join(work, "cod.db")
    extra = ["--admin-token", ADMIN, "--organiser-token", ORGANISER]
    server = e2e.Server(args.server, work, db, extra=extra).start()
    e2e.check("accounts: /api/" in server.log(), "no start-up line about the accounts")

    st, _, ann = call(server, "POST", "/api/register", {"name": "Ann", "password": "correct horse battery"})
    e2e.check(st == 201, "register: %d %s" % (st, ann))
    token = ann["session"]["token"]
    st, _, me = call(server, "GET", "/api/me", token=token)
    e2e.check(st == 200 and me["account"]["name"] == "Ann", "me: %d %s" % (st, me))
    st, _, again = call(server, "POST", "/api/login", {"name": "ANN", "password": "correct horse battery"})
    e2e.check(st == 200 and again["account"]["id"] == ann["account"]["id"], "login: %d %s" % (st, again))
    st, _, body = call(server, "POST", "/api/register", {"name": "ann", "password": "correct horse battery"})
    e2e.check(st == 409 and body["error"] == "name_taken", "a taken name: %d %s" % (st, body))
    st, _, body = call(server, "POST", "/api/register", {"name": "Bob", "password": "password", "x": 1})
    e2e.check(st == 400 and body["error"] == "unknown_field", "an unknown field: %d %s" % (st, body))
    st, _, g = call(server, "POST", "/api/guest", {})
    e2e.check(st == 201 and g["account"]["guest"], "guest: %d %s" % (st, g))
    st, _, c = call(server, "POST", "/api/claim", {"name": "Cleo", "password": "a good password"},
                    token=g["session"]["token"])
    e2e.check(st == 200 and c["account"]["name"] == "Cleo" and c["account"]["id"] == g["account"]["id"],
              "claim: %d %s" % (st, c))
    e2e.log("register, login, guest and claim: ok")

    # Nothing secret in the database: token hashes and argon2id hashes only.
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT name, password_hash FROM accounts ORDER BY account_id").fetchall()
        hashes = [r[0] for r in con.execute("SELECT token_hash FROM account_sessions").fetchall()]
    finally:
        con.close()
    e2e.check([r[0] for r in rows] == ["Ann", "Cleo"], "accounts stored: %s" % rows)
    e2e.check(all(r[1].startswith("$argon2id$v=19$m=19456,t=2,p=1$") for r in rows), "password hashes: %s" % rows)
    e2e.check(token not in hashes and len(hashes) == 3, "session rows: %s" % hashes)

    # kill -9, restart on the same database: the sessions still open the account.
    server.kill9()
    server.start()
    st, _, me = call(server, "GET", "/api/me", token=token)
    e2e.check(st == 200 and me["account"]["name"] == "Ann", "me after kill -9: %d %s" % (st, me))
    e2e.log("sessions survive kill -9: ok")
    queue_over_the_wire(server, db)

    # Ten failures from ten addresses, then the right password is held back.
    for i in range(10):
        st, _, body = call(server, "POST", "/api/login", {"name": "Ann", "password": "guess number %d" % i},
                           source="127.0.2.%d" % (i + 1))
        e2e.check(st == 401 and body["error"] == "invalid_credentials", "failure %d: %d %s" % (i, st, body))
    st, headers, body = call(server, "POST", "/api/login", {"name": "Ann", "password": "correct horse battery"},
                             source="127.0.2.99")
    e2e.check(st == 429 and body["error"] == "too_many_attempts", "the 11th: %d %s" % (st, body))
    e2e.check(int(headers.get("retry-after", "0")) == body["retry_after"] > 0, "Retry-After %s" % headers)
    st, _, me = call(server, "GET", "/api/me", token=token)
    e2e.check(st == 200, "an open session is not held back: %d" % st)
    e2e.log("the 11th failed sign-in is 429 with Retry-After: ok")

    # Admins: find and disable; the organiser token cannot.
    st, _, body = call(server, "GET", "/admin/api/accounts?name=an", token=ORGANISER)
    e2e.check(st == 403, "organiser on accounts: %d %s" % (st, body))
    st, _, body = call(server, "GET", "/admin/api/accounts?name=an", token=ADMIN)
    e2e.check(st == 200 and [a["name"] for a in body["accounts"]] == ["Ann"], "find: %d %s" % (st, body))
    st, _, body = call(server, "POST", "/admin/api/accounts/%d/disable" % ann["account"]["id"], token=ADMIN)
    e2e.check(st == 200 and body["account"]["disabled"], "disable: %d %s" % (st, body))
    st, _, body = call(server, "GET", "/api/me", token=token)
    e2e.check(st == 403 and body["error"] == "account_disabled", "a disabled account's session: %d %s" % (st, body))
    e2e.check("disabled by an admin" in server.log(), "no log line for the disabling")
    e2e.log("admins find and disable: ok")
    if args.admin:
        accounts_with_cod_admin(args, server)

    # A storm beyond the queue (1 worker, 2 waiting): some get 503 busy at
    # once, none hangs, the server stays healthy.
    server.stop()
    small = e2e.Server(args.server, work, db, name="server-small",
                       extra=extra + ["--account-threads", "1", "--account-queue", "2"]).start()
    results = []
    lock = threading.Lock()

    def one(i):
        st, headers, body = call(small, "POST", "/api/login", {"name": "Cleo", "password": "a good password"},
                                 source="127.0.3.%d" % (i + 1))
        with lock:
            results.append((st, headers.get("retry-after"), body and body.get("error")))

    ts = [threading.Thread(target=one, args=(i,)) for i in range(40)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=60)
    codes = sorted(r[0] for r in results)
    e2e.check(len(results) == 40, "%d of 40 answered" % len(results))
    e2e.check(set(codes) <= {200, 503} and 200 in codes, "storm answers %s" % codes)
    busy = [r for r in results if r[0] == 503]
    e2e.check(all(r[1] == "1" and r[2] == "busy" for r in busy), "busy answers %s" % busy)
    e2e.log("a storm of 40 sign-ins: %d signed in, %d told busy" % (codes.count(200), len(busy)))
    small.check_healthy()
    small.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__)
