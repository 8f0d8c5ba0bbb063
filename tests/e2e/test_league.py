#!/usr/bin/env python3
"""End to end: a mutation league (R15; docs/league.md) created by an organiser
through the HTTP API and played to its final ranking by four cod-bots with
their join tokens: the draft, the decks, random legal mutations each round,
twelve duels in reserved rooms.

With --crash the server is killed (SIGKILL) in the middle of the league (a
round's duels being played, or a mutation phase), restarted on the same
database, and the bots started again: the league replays from the store and
they finish it. Checked: the refusals of a bad creation, the final ranking
the server shows against one computed here from the schedule's results,
every duel's result against its stored match, that each stored match holds
the mutated cards it was played with (cards) and replays from its log
(cod-admin verify-all), the export, and the league as it is after a restart.

  test_league.py --server S --bot B [--crash]
"""

import http.client
import json
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

TOKEN = "e2e-league-organiser-token-77"
NAMES = ["Ada", "Bo", "Cy", "Di"]


def call(server, method, path, body=None):
    c = http.client.HTTPConnection(e2e.LOOPBACK, server.port, timeout=10)
    try:
        headers = {"Content-Type": "application/json", "Authorization": "Bearer " + TOKEN}
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


def start_bots(args, work, server, tokens, run):
    bots = []
    for i, name in enumerate(NAMES):
        b = e2e.Bot(args.bot, work, "%s-%d" % (name, run), server.port,
                    ["--league-token", tokens[name], "--seed", str(300 + i + 10 * run), "--timeout-sec", "200",
                     "--quiet"] + (["--delay-ms", "25"] if args.crash and run == 0 else []))
        bots.append(b.start())
    return bots


def wait_for(server, lid, pred, what, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = ok(server, "GET", "/admin/api/leagues/" + lid)
        if pred(st):
            return st
        time.sleep(0.1)
    raise e2e.TestFailure("league %s: %s not reached within %d s (stage %s round %s)" %
                          (lid, what, timeout, st["stage"], st["round"]))


def test(args, work):
    db = work + "/league.db"
    server = e2e.Server(args.server, work, db, extra=["--admin-token", TOKEN]).start()
    base = {"name": "E2E league", "players": NAMES, "packs": ["initiation", "treachery"], "seed": "4242",
            "exhaustion": True, "phase_clock_sec": 30}
    # Refusals name the field.
    for bad, field in ((dict(base, players=NAMES[:3]), "players"), (dict(base, packs=["initiation"]), "packs"),
                       (dict(base, costs={"hp": 1}), "costs"), (dict(base, colour=1), "colour")):
        status, j = call(server, "POST", "/admin/api/leagues", bad)
        e2e.check(status == 400 and j.get("param") == field, "bad league (%s): %d %s" % (field, status, j))
    created = ok(server, "POST", "/admin/api/leagues", base, want=201)
    lid = created["league"]
    tokens = {p["name"]: p["token"] for p in created["players"]}
    e2e.check(sorted(tokens) == sorted(NAMES), "tokens: %s" % created)

    bots = start_bots(args, work, server, tokens, 0)
    if args.crash:
        # In the middle: a duel of round 3 or later being played.
        def duel_under_way(st):
            if st["round"] < 3 or st["stage"] != "playing":
                return False
            tables = st["schedule"][st["round"] - 1]["tables"]
            return any(g["match"] and g["round"] == st["round"] and not tables[g["table"]]["decided"]
                       for g in st["games"])
        wait_for(server, lid, duel_under_way, "a duel of round 3 under way", timeout=120)
        server.kill9()
        for b in bots:
            rc = b.wait(20)
            e2e.check(rc == 3, "bot %s: exit %s after the server's SIGKILL, wanted 3" % (b.name, rc))
        server.start()
        text = server.log()
        e2e.check("league %s ('E2E league'): loaded" % lid in text, "no league loaded line:\n%s" % text[-2000:])
        before = ok(server, "GET", "/admin/api/leagues/" + lid)
        e2e.check(before["round"] >= 3, "after the restart the league is at round %s" % before["round"])
        recovered = re.search(r"league %s \('E2E league'\): loaded, stage (\w+), round (\d+), (\d+) duel rooms recovered" % lid,
                              text)
        e2e.log("restarted at stage %s round %d: %s" % (before["stage"], before["round"],
                                                       recovered.group(0) if recovered else "?"))
        bots = start_bots(args, work, server, tokens, 1)
    codes = e2e.wait_bots(bots, 190)
    e2e.check(all(c == 0 for c in codes.values()), "bot exit codes %s" % codes)
    st = ok(server, "GET", "/admin/api/leagues/" + lid)
    e2e.check(st["stage"] == "finished", "stage %s" % st["stage"])

    # R15.7, computed here: wins from the schedule; place = 1 + players with more wins.
    wins = {s: 0 for s in range(4)}
    played = {s: 0 for s in range(4)}
    for r in st["schedule"]:
        for t in r["tables"]:
            e2e.check(t["decided"], "round %d table %d undecided" % (r["round"], t["table"]))
            for s in t["seats"]:
                played[s] += 1
            if t["winner"] is not None:
                wins[t["winner"]] += 1
    for p in st["players"]:
        s = p["seat"]
        place = 1 + sum(1 for o in range(4) if wins[o] > wins[s])
        e2e.check(p["won"] == wins[s] and p["played"] == played[s] == 6 and p["place"] == place,
                  "standing %s: server %s, computed won %d played %d place %d" % (p["name"], p, wins[s], played[s],
                                                                                  place))
    e2e.log("ranking:", ", ".join("%d. %s (%d)" % (p["place"], p["name"], p["won"]) for p in st["players"]))

    # Every duel's result is its stored match's; each match holds its own cards.
    export = ok(server, "GET", "/admin/api/leagues/%s/export" % lid)
    e2e.check(export["format"] == "cod-league-export/1", "export format %s" % export.get("format"))
    matches = {m["match"]["match_id"]: m for m in export["matches"]}
    games = [g for g in st["games"] if g["match"]]
    decided_by_match = 0
    for r in st["schedule"]:
        for t in r["tables"]:
            mine = [g for g in games if g["round"] == r["round"] and g["table"] == t["table"]]
            finished = []
            for g in mine:
                sm = ok(server, "GET", "/admin/api/matches/" + g["match"])
                if sm.get("status") == "finished" and sm.get("result") and sm["result"].get("reason") not in (
                        "voided", "aborted", None):
                    finished.append(sm)
            e2e.check(len(finished) == 1, "round %d table %d: %d decided matches (%s)" %
                      (r["round"], t["table"], len(finished), mine))
            sm = finished[0]
            w = sm["result"]["winners"]
            want = None if len(w) != 1 else t["seats"][w[0]]
            e2e.check(t["winner"] == want, "round %d table %d: league says %s, match says %s" %
                      (r["round"], t["table"], t["winner"], w))
            e2e.check(sm.get("cards") and len(sm["cards"]) == 16, "match %s: %s cards recorded" %
                      (sm.get("match_id"), len(sm.get("cards") or [])))
            e2e.check(sm["options"]["exhaustion"] is True, "match %s: exhaustion off" % sm.get("match_id"))
            decided_by_match += 1
    e2e.check(decided_by_match == 12, "%d duels decided by matches" % decided_by_match)
    e2e.check(len(matches) >= 12, "export holds %d matches" % len(matches))
    league = export["league"]
    # 15 picks each (R15.1: the 16th comes alone), 4 decks, 4 acts in each of
    # 6 phases, 12 results.
    e2e.check(len(league["ops"]) == 60 + 4 + 24 + 12, "export: %d ops" % len(league["ops"]))
    mutations = sum(1 for op in league["ops"] if op["type"] == "mutate")
    summaries = [b.output() for b in bots]
    e2e.check(all("cod-bot: league games=" in out for out in summaries), "a bot printed no league line")
    e2e.log("%d mutate ops, %d matches exported" % (mutations, len(matches)))

    # The league as the store has it after a clean restart; every duel's match
    # replays from its log with the cards it recorded (cod-admin verify-all).
    server.stop(strict=True)
    if args.admin:
        rc, out = e2e.run_admin(args.admin, db, "--catalogue", args.catalogue, "verify-all")
        e2e.check(rc == 0, "cod-admin verify-all (%d):\n%s" % (rc, out[-3000:]))
        e2e.log(out.strip().splitlines()[-1])
    server.start()
    again = ok(server, "GET", "/admin/api/leagues/" + lid)
    for k in ("stage", "round", "players", "schedule"):
        e2e.check(again[k] == st[k], "after restart, %s differs" % k)
    server.stop(strict=True)


def extra(ap):
    ap.add_argument("--crash", action="store_true", help="kill -9 the server in the middle of the league")


if __name__ == "__main__":
    e2e.main(test, __doc__.strip().splitlines()[0], extra, time_limit=230)
