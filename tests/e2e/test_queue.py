#!/usr/bin/env python3
"""End to end: the matchmaking queue on one real cod-server (docs/queue.md,
issue 28's "End to end"). N bots queue rated duels and M queue rated
free-for-all, each as a new guest (cod-bot --queue MODE --guest); every one
is matched and plays its match to the end (and --teams bots queue 2v2, the
first two as friends naming each other: they play on one team); every match is stored, finished
and verified by cod-admin (its "rating" check recomputes each rating change
from the stored before-values and the result); every rated match's seats
have their rating change stored, and each account's rating row is the
after-value of its change.

  test_queue.py --server S --bot B --admin A [--duels 40] [--ffa 8] [--teams 4]
"""

import collections
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402


def test(args, work):
    db = os.path.join(work, "cod.db")
    players = args.duels + args.ffa + args.teams
    # Every guest comes from 127.0.0.1: the registrations throttle is raised.
    extra = ["--registrations-per-hour", str(players + 10)]
    server = e2e.Server(args.server, work, db, extra=extra).start()
    bots = []
    # The two friends of 2v2 sign up under names they can give each other.
    friends = ["ally%d" % i for i in range(2)] if args.teams else []
    for name in friends:
        e2e.register_account(server.port, name, "queue-e2e-password-71")
    for i in range(players):
        mode = "duel" if i < args.duels else "ffa" if i < args.duels + args.ffa else "2v2"
        who = ["--guest"]
        team = i - args.duels - args.ffa
        if mode == "2v2" and team < 2:
            who = ["--account", friends[team], "--password", "queue-e2e-password-71", "--partner", friends[1 - team]]
        bots.append(e2e.Bot(args.bot, work, "q%02d" % i, server.port,
                            ["--queue", mode, "--deck", str(i % 4 + 1), "--quiet",
                             "--timeout-sec", str(args.time_limit - 20)] + who).start())
    codes = e2e.wait_bots(bots, args.time_limit - 15)
    bad = {n: c for n, c in codes.items() if c != 0}
    e2e.check(not bad, "bots failed: %s" % bad)
    rooms = collections.defaultdict(list)
    for b in bots:
        s = b.summary()
        e2e.check(s["result"] in ("win", "loss", "draw"), "bot %s: %s" % (b.name, s))
        rooms[s["room"]].append(b.name)
    sizes = sorted(len(v) for v in rooms.values())
    e2e.check(sizes == sorted([2] * (args.duels // 2) + [4] * ((args.ffa + args.teams) // 4)),
              "tables: %s" % dict(rooms))
    if args.teams:
        # The friends: one room, one team (2v2 seats 0, 2 against 1, 3).
        a, b = bots[args.duels + args.ffa].summary(), bots[args.duels + args.ffa + 1].summary()
        e2e.check(a["room"] == b["room"] and a["seat"] % 2 == b["seat"] % 2, "the friends: %s and %s" % (a, b))
        e2e.log("the two friends played on one team: seats %d and %d" % (a["seat"], b["seat"]))
    e2e.log("%d bots matched into %d rooms: ok" % (players, len(rooms)))

    server.stop(strict=True)
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    matches = con.execute("SELECT match_id, room_id, mode, status, rated FROM matches").fetchall()
    e2e.check(len(matches) == len(rooms), "%d matches stored for %d rooms" % (len(matches), len(rooms)))
    rated_seats = 0
    for match_id, room, mode, status, rated in matches:
        e2e.check(room in rooms and status == "finished" and rated == 1,
                  "match %s: room %s, %s, rated %s" % (match_id, room, status, rated))
        rc, out = e2e.run_admin(args.admin, db, "verify", match_id)
        e2e.check(rc == 0, "cod-admin verify %s (%d):\n%s" % (match_id, rc, out))
        changes = con.execute("SELECT COUNT(*) FROM rating_changes WHERE match_id = ?", (match_id,)).fetchone()[0]
        seats = con.execute("SELECT COUNT(*) FROM match_seats WHERE match_id = ?", (match_id,)).fetchone()[0]
        # A match whose seat never acted (only conceded) is unrated by rule
        # (docs/ratings.md); the bots always act first.
        e2e.check(changes == seats, "match %s: %d rating changes for %d seats" % (match_id, changes, seats))
        rated_seats += changes
    # One rated game each: each account's rating row is its change's after-value.
    rows = con.execute(
        "SELECT r.account_id, r.ladder, r.value, c.after_value, r.games FROM ratings r "
        "JOIN rating_changes c ON c.account_id = r.account_id AND c.ladder = r.ladder").fetchall()
    e2e.check(len(rows) == rated_seats == players, "%d rating rows, %d changes, %d players" %
              (len(rows), rated_seats, players))
    for account, ladder, value, after, games in rows:
        e2e.check(abs(value - after) < 1e-9 and games == 1,
                  "account %s on %s: rating %s, change after %s, games %s" % (account, ladder, value, after, games))
    ladders = collections.Counter(r[1] for r in rows)
    want = {"duel": args.duels, "ffa": args.ffa, "2v2": args.teams}
    e2e.check(ladders == {k: v for k, v in want.items() if v}, "ladders: %s" % ladders)
    e2e.log("%d matches stored, verified and rated: ok" % len(matches))


def extra(ap):
    ap.add_argument("--duels", type=int, default=40, help="bots queueing duels (even)")
    ap.add_argument("--ffa", type=int, default=8, help="bots queueing free-for-all (a multiple of 4)")
    ap.add_argument("--teams", type=int, default=4, help="bots queueing 2v2, two of them friends (0 or a multiple of 4)")


if __name__ == "__main__":
    e2e.main(test, "the matchmaking queue: bots matched, every match stored, verified and rated", extra,
             time_limit=140)
