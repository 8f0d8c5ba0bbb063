#!/usr/bin/env python3
"""End to end: the matchmaking queue on one real cod-server (docs/queue.md,
issue 28's "End to end"). N bots queue rated duels and M queue rated
free-for-all, each as a new guest (cod-bot --queue MODE --guest); every one
is matched and plays its match to the end; every match is stored, finished
and verified by cod-admin (its "rating" check recomputes each rating change
from the stored before-values and the result); every rated match's seats
have their rating change stored, and each account's rating row is the
after-value of its change.

  test_queue.py --server S --bot B --admin A [--duels 40] [--ffa 8]
"""

import collections
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402


def test(args, work):
    db = os.path.join(work, "cod.db")
    players = args.duels + args.ffa
    # Every guest comes from 127.0.0.1: the registrations throttle is raised.
    extra = ["--registrations-per-hour", str(players + 10)]
    server = e2e.Server(args.server, work, db, extra=extra).start()
    bots = []
    for i in range(players):
        mode = "duel" if i < args.duels else "ffa"
        bots.append(e2e.Bot(args.bot, work, "q%02d" % i, server.port,
                            ["--queue", mode, "--guest", "--deck", str(i % 4 + 1), "--quiet",
                             "--timeout-sec", str(args.time_limit - 20)]).start())
    codes = e2e.wait_bots(bots, args.time_limit - 15)
    bad = {n: c for n, c in codes.items() if c != 0}
    e2e.check(not bad, "bots failed: %s" % bad)
    rooms = collections.defaultdict(list)
    for b in bots:
        s = b.summary()
        e2e.check(s["result"] in ("win", "loss", "draw"), "bot %s: %s" % (b.name, s))
        rooms[s["room"]].append(b.name)
    sizes = sorted(len(v) for v in rooms.values())
    e2e.check(sizes == sorted([2] * (args.duels // 2) + [4] * (args.ffa // 4)),
              "tables: %s" % dict(rooms))
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
    e2e.check(ladders == {"duel": args.duels, "ffa": args.ffa}, "ladders: %s" % ladders)
    e2e.log("%d matches stored, verified and rated: ok" % len(matches))


def extra(ap):
    ap.add_argument("--duels", type=int, default=40, help="bots queueing duels (even)")
    ap.add_argument("--ffa", type=int, default=8, help="bots queueing free-for-all (a multiple of 4)")


if __name__ == "__main__":
    e2e.main(test, "the matchmaking queue: bots matched, every match stored, verified and rated", extra,
             time_limit=140)
