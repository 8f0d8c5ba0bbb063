#!/usr/bin/env python3
"""End to end: a tournament run by an organiser through the HTTP API
(docs/tournaments.md) and played by six cod-bots with their join tokens.

Six players, three Swiss rounds, best of 1 (--best-of 3), exhaustion rule, a
turn clock, optionally a top cut (--top-cut 2). The organiser starts each
round; in round 2 gives a game loss, after round 2 drops a player (round 3
then has a bye). With --crash the server is killed (SIGKILL) while round 1's
matches are being played, restarted on the same database, and the bots
started again: they get their seats back with tournament_join and finish. The final standings the server shows are checked
against standings computed here, independently, from the games' results;
each game's result is checked against its stored match. Also: a rejected
token, tournament_waiting before round 1, the organiser log and the server's
log lines, the export, the admin search by tournament, pairings reproduced
from the seed, and the tournament reloaded after a restart.

  test_tournament.py --server S --bot B [--best-of 3] [--top-cut 2] [--crash]
"""

import http.client
import json
import os
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

TOKEN = "e2e-organiser-token-4b1d9a"
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]
SEED = "20261122"
EPS = 1e-9


def call(server, method, path, body=None, token=TOKEN):
    c = http.client.HTTPConnection(e2e.LOOPBACK, server.port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        c.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = c.getresponse()
        text = r.read().decode()
        return r.status, json.loads(text) if text else None
    finally:
        c.close()


def ok(server, method, path, body=None, want=200):
    status, j = call(server, method, path, body)
    e2e.check(status == want, "%s %s: %d, wanted %d: %s" % (method, path, status, want, j))
    return j


def wait_round_finished(server, tid, timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = ok(server, "GET", "/admin/api/tournaments/" + tid)
        if st["round_finished"]:
            return st
        time.sleep(0.2)
    raise e2e.TestFailure("round %s not finished within %d s" % (st["round"], timeout))


# ---------------------------------------------------------------------------
# Standings, computed here from the rounds (docs/tournaments.md, "Scoring"
# and "Standings"), without the server's code.

def hand_standings(state):
    n = len(state["player_list"])
    bye_games = 2 if state["config"]["best_of"] == 3 else 1
    mp = [0] * n
    gp = [0] * n
    games = [0] * n
    matches = [0] * n
    opponents = [[] for _ in range(n)]
    for r in state["rounds"]:
        if r["kind"] != "swiss":
            continue
        for p in r["pairings"]:
            a = p["a"]["player"]
            if p["bye"]:
                # A bye: a match won 1-0 (best of 1) or 2-0 (best of 3), no opponent.
                mp[a] += 3
                gp[a] += 3 * bye_games
                games[a] += bye_games
                matches[a] += 1
                continue
            b = p["b"]["player"]
            wins = {a: 0, b: 0}
            draws = 0
            e2e.check(p["score"]["finished"], "round %d table %d: unfinished" % (r["round"], p["table"]))
            for g in p["games"]:
                e2e.check(g["decided"], "round %d table %d: an undecided game in a finished round" %
                          (r["round"], p["table"]))
                if g["winner"] is None:
                    draws += 1
                else:
                    wins[g["winner"]["player"]] += 1
            for x in (a, b):
                y = b if x == a else a
                gp[x] += 3 * wins[x] + draws
                games[x] += wins[x] + wins[y] + draws
                matches[x] += 1
                opponents[x].append(y)
                if wins[x] > wins[y]:
                    mp[x] += 3
                elif wins[x] == wins[y]:
                    mp[x] += 1

    def pct(points, count):
        return 1.0 / 3 if count == 0 else max(1.0 / 3, points / (3.0 * count))

    mwp = [pct(mp[i], matches[i]) for i in range(n)]
    gwp = [pct(gp[i], games[i]) for i in range(n)]
    omwp = [sum(mwp[o] for o in opponents[i]) / len(opponents[i]) if opponents[i] else 0.0 for i in range(n)]
    ogwp = [sum(gwp[o] for o in opponents[i]) / len(opponents[i]) if opponents[i] else 0.0 for i in range(n)]
    seed_order = {p["player"]: p["seed_order"] for p in state["player_list"]}

    import functools

    def cmp(x, y):
        if mp[x] != mp[y]:
            return -1 if mp[x] > mp[y] else 1
        for v in (omwp, gwp, ogwp):
            if abs(v[x] - v[y]) >= EPS:
                return -1 if v[x] > v[y] else 1
        return -1 if seed_order[x] < seed_order[y] else 1

    order = sorted(range(n), key=functools.cmp_to_key(cmp))
    return [{"player": i, "match_points": mp[i], "omwp": omwp[i], "gwp": gwp[i], "ogwp": ogwp[i], "mwp": mwp[i]}
            for i in order]


def check_standings(state):
    mine = hand_standings(state)
    theirs = state["standings"]
    e2e.check(len(mine) == len(theirs), "standings: %d rows, computed %d" % (len(theirs), len(mine)))
    for rank, (h, s) in enumerate(zip(mine, theirs), start=1):
        e2e.check(s["rank"] == rank, "standings row %d has rank %s" % (rank, s["rank"]))
        e2e.check(s["player"] == h["player"], "rank %d: server says %s, computed %s (server %s, computed %s)" %
                  (rank, s["name"], NAMES[h["player"]], theirs, mine))
        e2e.check(s["match_points"] == h["match_points"], "rank %d: match points %s, computed %s" %
                  (rank, s["match_points"], h["match_points"]))
        for k in ("mwp", "omwp", "gwp", "ogwp"):
            e2e.check(abs(s[k] - h[k]) < EPS, "rank %d (%s): %s %r, computed %r" % (rank, s["name"], k, s[k], h[k]))
    e2e.log("standings:", ", ".join("%d %s %dmp omw %.3f gw %.3f" % (s["rank"], s["name"], s["match_points"],
                                                                      s["omwp"], s["gwp"]) for s in theirs))


def ws_request(port, msg):
    ws = e2e.WS(port)
    try:
        r = ws.request({"type": "hello", "id": 1, "version": 1})
        e2e.check(r["type"] == "welcome", "hello: %s" % r)
        return ws.request(msg)
    finally:
        ws.close()


def wait_all_started(server, tid, timeout=30):
    """Round 1's pairings each have a match attached (being played)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = ok(server, "GET", "/admin/api/tournaments/" + tid)
        games = [p["games"] for p in st["rounds"][0]["pairings"]]
        if all(g and g[-1]["match_id"] for g in games):
            return st
        time.sleep(0.05)
    raise e2e.TestFailure("round 1's matches did not all start within %d s" % timeout)


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db, extra=["--admin-token", TOKEN]).start()

    # Without the token: refused, nothing created.
    status, _ = call(server, "POST", "/admin/api/tournaments", {"name": "x", "players": NAMES}, token=None)
    e2e.check(status == 401, "create without a token: %d" % status)
    # A bad request names the field.
    status, j = call(server, "POST", "/admin/api/tournaments", {"name": "x", "players": NAMES, "best_of": 2})
    e2e.check(status == 400 and j["error"] == "invalid_config", "best_of 2: %d %s" % (status, j))

    created = ok(server, "POST", "/admin/api/tournaments",
                 {"name": "E2E Open", "players": NAMES, "format": "preconstructed", "rounds": 3,
                  "best_of": args.best_of, "top_cut": args.top_cut, "seed": SEED, "spectator_delay": 2,
                  "turn_clock": {"bank_ms": 600000, "increment_ms": 1000}, "organiser": "Olga"}, want=201)
    tid = created["tournament"]
    tokens = {p["name"]: p["token"] for p in created["players"]}
    # Each token names its tournament: "ID." and 32 hex digits.
    e2e.check(sorted(tokens) == sorted(NAMES) and
              all(t.startswith(tid + ".") and len(t) == len(tid) + 33 for t in tokens.values()), "tokens: %s" % created)
    st = ok(server, "GET", "/admin/api/tournaments/" + tid)
    e2e.check(st["config"]["exhaustion"] is True, "exhaustion is on by default: %s" % st["config"])
    e2e.check(st["stage"] == "not_started" and st["spectator_delay"] == 2, "new tournament: %s" % st)
    e2e.check("token" not in json.dumps(st), "the state shows no token")

    # A rejected token, and a real one before round 1.
    r = ws_request(server.port, {"type": "tournament_join", "id": 2, "token": "0" * 32, "deck": {"preconstructed": 1}})
    e2e.check(r["type"] == "error" and r["code"] == "bad_token", "unknown token: %s" % r)
    r = ws_request(server.port, {"type": "tournament_join", "id": 3, "token": tokens["Ada"],
                                 "deck": {"preconstructed": 1}})
    e2e.check(r["type"] == "error" and r["code"] == "tournament_waiting", "before round 1: %s" % r)

    # Six bots, each with its token and a deck.
    bots = []
    slow = ["--delay-ms", "25"] if args.crash else []  # long enough matches to kill the server mid-way
    for i, name in enumerate(NAMES):
        b = e2e.Bot(args.bot, work, name, server.port,
                    ["--tournament-token", tokens[name], "--deck", str(i % 4 + 1), "--seed", str(100 + i),
                     "--timeout-sec", "140", "--quiet"] + slow)
        bots.append(b.start())

    ok(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {"organiser": "Olga"})
    if args.crash:
        before = wait_all_started(server, tid)
        time.sleep(0.4)  # some actions into the matches (the bots wait 25 ms before each)
        server.kill9()
        for b in bots:
            rc = b.wait(20)
            e2e.check(rc == 3, "bot %s: exit %s after the server's SIGKILL, wanted 3 (connection lost)" % (b.name, rc))
        server.start()
        text = server.log()
        m = re.search(r"'E2E Open'\): loaded, stage swiss, (\d+) running matches recovered", text)
        e2e.check(m and int(m.group(1)) >= 1, "no running tournament match recovered:\n%s" % text[-2000:])
        for b in bots:
            b.start()
        st = wait_round_finished(server, tid)
        # The games are the matches that were running: recovered, not replaced.
        for p0, p1 in zip(before["rounds"][0]["pairings"], st["rounds"][0]["pairings"]):
            e2e.check(p0["games"][0]["match_id"] == p1["games"][0]["match_id"],
                      "table %d: match %s before the crash, %s after" %
                      (p0["table"], p0["games"][0]["match_id"], p1["games"][0]["match_id"]))
        e2e.log("round 1 finished after the crash")
    else:
        st = wait_round_finished(server, tid)
        e2e.log("round 1 finished")

    # Round 2, and at once a game loss for the player at table 1, seat a:
    # their game is decided whether its match has started or not.
    st = ok(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {"organiser": "Olga"})
    penalised = st["rounds"][1]["pairings"][0]["a"]
    ok(server, "POST", "/admin/api/tournaments/%s/game_loss" % tid,
       {"organiser": "Olga", "player": penalised["name"], "reason": "late deck registration"})
    st = wait_round_finished(server, tid)
    g = st["rounds"][1]["pairings"][0]["games"][0]
    e2e.check(g["penalty"] and g["winner"]["player"] == st["rounds"][1]["pairings"][0]["b"]["player"],
              "the game loss decided table 1: %s" % g)
    e2e.log("round 2 finished; game loss for", penalised["name"])

    # A drop between rounds: round 3 pairs five players, one with a bye.
    dropped = st["standings"][-1]
    ok(server, "POST", "/admin/api/tournaments/%s/drop" % tid,
       {"organiser": "Olga", "player": dropped["player"], "reason": "left the venue"})
    st = ok(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {"organiser": "Olga"})
    r3 = st["rounds"][2]["pairings"]
    in_r3 = [p["a"]["player"] for p in r3] + [p["b"]["player"] for p in r3 if not p["bye"]]
    e2e.check(dropped["player"] not in in_r3 and len(in_r3) == 5, "round 3 pairs the five others: %s" % r3)
    e2e.check(sum(1 for p in r3 if p["bye"]) == 1, "round 3 has one bye: %s" % r3)
    # A second round start while this one runs is refused.
    status, j = call(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {})
    e2e.check(status == 409 and j["error"] == "round_not_finished", "early round start: %d %s" % (status, j))
    st = wait_round_finished(server, tid)
    # The top cut, if any: the best of the standings, until the final is decided.
    while st["stage"] != "finished":
        st = ok(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {"organiser": "Olga"})
        e2e.check(st["rounds"][-1]["kind"] == "top_cut", "round %d after the Swiss rounds" % st["round"])
        st = wait_round_finished(server, tid)
    e2e.check(len(st["rounds"]) == 3 + {0: 0, 2: 1, 4: 2}[args.top_cut], "%d rounds" % len(st["rounds"]))
    status, j = call(server, "POST", "/admin/api/tournaments/%s/rounds" % tid, {})
    e2e.check(status == 409 and j["error"] == "tournament_finished", "a 4th round: %d %s" % (status, j))

    # Every bot played its games and stopped at tournament_over.
    codes = e2e.wait_bots(bots, 60)
    e2e.check(all(c == 0 for c in codes.values()), "bot exit codes %s" % codes)

    st = ok(server, "GET", "/admin/api/tournaments/" + tid)
    e2e.check(st["stage"] == "finished", "stage %s" % st["stage"])
    if args.top_cut:
        final = st["rounds"][-1]["pairings"][0]
        top = [s["player"] for s in st["standings"] if not s["dropped"]][:2]
        e2e.check(sorted([final["a"]["player"], final["b"]["player"]]) == sorted(top), "final %s, top two %s" %
                  (final, top))
        e2e.check(st["champion"]["player"] == final["score"]["winner"]["player"], "champion %s" % st["champion"])
    else:
        e2e.check(st["champion"]["player"] == st["standings"][0]["player"], "champion %s" % st["champion"])

    # Each game's result is its match's (winner seat 0: player a).
    export = ok(server, "GET", "/admin/api/tournaments/%s/export" % tid)
    e2e.check(export["format"] == "cod-tournament-export/1", "export format %s" % export.get("format"))
    by_id = {m["match"]["match_id"]: m for m in export["matches"]}
    played = 0
    for r in st["rounds"]:
        for p in r["pairings"]:
            for g in p["games"]:
                if g["match_id"] is None or g["penalty"]:
                    continue
                played += 1
                m = by_id.get(g["match_id"])
                e2e.check(m is not None, "match %s is not in the export" % g["match_id"])
                winners = m["result"]["winners"]
                e2e.check(m["options"]["exhaustion"] is True and
                          m["options"]["turn_clock"] == {"bank_ms": 600000, "increment_ms": 1000},
                          "match %s options %s" % (g["match_id"], m["options"]))
                e2e.check(len(winners) == 1, "match %s winners %s" % (g["match_id"], winners))
                want = p["a"]["player"] if winners[0] == 0 else p["b"]["player"]
                e2e.check(g["winner"]["player"] == want, "round %d table %d: game winner %s, match says %s" %
                          (r["round"], p["table"], g["winner"], NAMES[want]))
    e2e.check(played >= 6, "only %d games played by matches" % played)

    # Bots' own counts agree with the games they played.
    for b in bots:
        e2e.check("cod-bot: tournament games=" in b.output(), "bot %s printed no tournament line" % b.name)

    check_standings(st)

    # The organiser log: three round starts, the game loss and the drop, by Olga.
    log = ok(server, "GET", "/admin/api/tournaments/%s/log" % tid)["log"]
    acts = [(e["act"], e["actor"]) for e in log]
    e2e.check(acts.count(("start_round", "Olga")) == len(st["rounds"]), "log: %s" % acts)
    gl = [e for e in log if e["act"] == "game_loss"]
    dr = [e for e in log if e["act"] == "drop"]
    e2e.check(len(gl) == 1 and gl[0]["player"]["player"] == penalised["player"] and
              gl[0]["note"] == "late deck registration" and gl[0]["round"] == 2, "game loss logged: %s" % gl)
    e2e.check(len(dr) == 1 and dr[0]["player"]["player"] == dropped["player"] and dr[0]["note"] == "left the venue",
              "drop logged: %s" % dr)
    text = "".join(open(os.path.join(work, f), errors="replace").read()
                   for f in sorted(os.listdir(work)) if f.startswith("server-"))
    for what in ("game_loss on tournament %s -> 200" % tid, "drop on tournament %s -> 200" % tid,
                 "rounds on tournament %s -> 200" % tid, "create tournament -> 201"):
        e2e.check(what in text, "no server log line '%s'" % what)

    # The admin search by tournament finds exactly the tournament's matches.
    found = ok(server, "GET", "/admin/api/matches?tournament=%s&limit=100" % tid)
    ids = sorted(m["match_id"] for m in found["matches"])
    e2e.check(ids == sorted(by_id), "search by tournament: %s, export %s" % (ids, sorted(by_id)))

    # The seed reproduces the pairings: the same players and seed give the same round 1.
    twin = ok(server, "POST", "/admin/api/tournaments",
              {"name": "Twin", "players": NAMES, "rounds": 3, "seed": SEED}, want=201)
    t2 = ok(server, "POST", "/admin/api/tournaments/%s/rounds" % twin["tournament"], {})
    pair = lambda s: [(p["a"]["player"], p["b"]["player"]) for p in s["rounds"][0]["pairings"]]  # noqa: E731
    e2e.check(pair(t2) == pair(st), "round 1 from the same seed: %s vs %s" % (pair(t2), pair(st)))

    # After a restart the tournament is back as it was.
    server.stop(strict=True)
    server.start()
    again = ok(server, "GET", "/admin/api/tournaments/" + tid)
    for k in ("stage", "rounds", "standings", "log", "champion", "player_list", "spectator_delay"):
        strip = (lambda v: json.dumps(v, sort_keys=True).replace('"rooms": [],', ""))
        e2e.check(strip(again[k]) == strip(st[k]), "after restart, %s differs" % k)
    # The twin's round 1 (rooms waiting) is back with its rooms.
    t2b = ok(server, "GET", "/admin/api/tournaments/" + twin["tournament"])
    e2e.check(all(p["rooms"] for p in t2b["rounds"][0]["pairings"]), "twin's rooms after restart: %s" %
              t2b["rounds"][0]["pairings"])
    server.stop(strict=True)


def extra(ap):
    ap.add_argument("--best-of", type=int, default=1, choices=[1, 3])
    ap.add_argument("--top-cut", type=int, default=0, choices=[0, 2, 4])
    ap.add_argument("--crash", action="store_true", help="SIGKILL the server during round 1")


if __name__ == "__main__":
    e2e.main(test, __doc__.strip().splitlines()[0], extra, time_limit=140)
