#!/usr/bin/env python3
"""End to end: a match of any mode the server offers, played to the end by
cod-bots on a real cod-server: a free-for-all or a 2v2 with four bots (and a
spectator), or a duel, optionally with the Champion module. Then:

- every bot saw the same room, final seq and reason; the bots' winners fit the
  mode (2v2: a whole team, seats 0+2 or 1+3; ffa: one seat, or three after a
  loss by one's own doing; duel: one seat);
- each seat's first view is its own: its hand appears in no other seat's view
  (with share_team_hands a 2v2 teammate's view shows it as teammate_hand);
- with Champions every seat's Champion is revealed in every view, and is a
  creature outside that seat's deck;
- the database holds the match: mode, options, one row per seat with its
  team (2v2 only) and Champion, the winners the bots saw, the whole log;
  cod-admin lists, shows (teams, Champions) and verifies it.

  test_modes.py --server S --bot B [--admin A] --mode ffa|2v2|duel [--champions] [--share-team-hands]
"""

import json
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def extra(ap):
    ap.add_argument("--mode", required=True, choices=["duel", "ffa", "2v2"])
    ap.add_argument("--champions", action="store_true")
    ap.add_argument("--share-team-hands", action="store_true")
    ap.add_argument("--spectator", action="store_true", help="a spectator bot watches the match")


def hand_uids(view):
    return {c["uid"] for c in view["hand"]}


def all_uids(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "uid" and isinstance(v, int):
                out.add(v)
            all_uids(v, out)
    elif isinstance(value, list):
        for v in value:
            all_uids(v, out)
    return out


def catalogue_info(path):
    with open(path) as f:
        cat = json.load(f)
    creatures = {c["id"] for c in cat["cards"] if c.get("type") == "creature"}
    decks = {int(n): set(ids) for n, ids in cat["preconstructed_decks"].items()}
    return creatures, decks


def test(args, work):
    seats = 2 if args.mode == "duel" else 4
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()
    timeout = 80

    create = ["--create", "--mode", args.mode, "--seat", "0", "--deck", "1"]
    if args.champions:
        create += ["--champions", "--champion", "auto"]
    if args.share_team_hands:
        create.append("--share-team-hands")
    bots = [e2e.Bot(args.bot, work, "p0", server.port,
                    create + ["--timeout-sec", str(timeout), "--seed", "101"]).start()]
    room = bots[0].token()["room"]
    spectator = None
    if args.spectator:
        spectator = e2e.Bot(args.bot, work, "spec", server.port,
                            ["--spectate", room, "--timeout-sec", str(timeout)]).start().watching()
    for s in range(1, seats):
        extra_args = ["--room", room, "--seat", str(s), "--deck", str(s + 1),
                      "--timeout-sec", str(timeout), "--seed", str(101 + 17 * s)]
        # Seat 1 names its Champion; the others let the bot pick one when the
        # room answers champion_required (a refused join changes nothing).
        if args.champions and s == 1:
            extra_args += ["--champion", "auto"]
        bots.append(e2e.Bot(args.bot, work, "p%d" % s, server.port, extra_args).start())
        bots[-1].token()  # seated before the next one joins: seats in order
    watchers = bots + ([spectator] if spectator else [])
    codes = e2e.wait_bots(watchers, timeout + 10)
    for b in watchers:
        check(codes[b.name] == 0, "bot %s exited %s:\n%s" % (b.name, codes[b.name], b.output()))

    sums = [b.summary() for b in bots]
    for s in sums:
        e2e.log("bot:", s)
    check([s["seat"] for s in sums] == list(range(seats)), "seats %s" % [s["seat"] for s in sums])
    check(len({s["room"] for s in sums}) == 1, "the bots were in different rooms")
    check(len({s["seq"] for s in sums}) == 1 and sums[0]["seq"] > 0, "final seqs differ: %s" % [s["seq"] for s in sums])
    check(len({s["reason"] for s in sums}) == 1 and sums[0]["reason"] != "none", "reasons differ")
    winners = sorted(s["seat"] for s in sums if s["result"] == "win")
    check(all(s["result"] in ("win", "loss") for s in sums), "results %s" % [s["result"] for s in sums])
    if args.mode == "2v2":
        check(winners in ([0, 2], [1, 3]), "2v2 winners %s are not a team" % winners)
    elif args.mode == "ffa":
        check(len(winners) in (1, 3), "ffa winners %s" % winners)
    else:
        check(len(winners) == 1, "duel winners %s" % winners)
    if spectator:
        ss = spectator.summary()
        check(ss["result"] == "watched" and ss["seq"] == sums[0]["seq"], "spectator: %s" % ss)
        first = [m for m in spectator.frames() if m["type"] == "state"][0]["view"]
        check(first["hand"] == [] and first["viewer"] is None, "the spectator's view has a hand")
        updates = [m["seq"] for m in spectator.frames() if m["type"] == "update"]
        check(updates == list(range(1, sums[0]["seq"] + 1)), "the spectator missed updates")

    # Each seat's first view: its own; hands private (R16.2).
    creatures, decks = catalogue_info(args.catalogue)
    views = [[m for m in b.frames() if m["type"] == "state"][0]["view"] for b in bots]
    for s, v in enumerate(views):
        check(v["viewer"] == s and v["mode"] == args.mode and len(v["seats"]) == seats, "seat %d view" % s)
    for s, v in enumerate(views):
        seen = all_uids(v, set())
        for o in range(seats):
            if o == s:
                continue
            mate = args.mode == "2v2" and o == (s + 2) % 4
            leaked = hand_uids(views[o]) & seen
            if mate and args.share_team_hands:
                check({c["uid"] for c in v["teammate_hand"]} == hand_uids(views[o]), "seat %d: teammate_hand" % s)
            else:
                check(not leaked, "seat %d sees uids %s of seat %d's hand" % (s, sorted(leaked), o))
        if args.mode == "2v2":
            check(v["teammate"] == (s + 2) % 4, "seat %d: teammate %s" % (s, v.get("teammate")))
    # Champions: revealed in every view, each a creature outside its deck.
    champions = {}
    for s in range(seats):
        shown = {json.dumps(v["seats"][s]["champion"]) for v in views}
        check(len(shown) == 1, "seat %d's Champion differs between views: %s" % (s, shown))
        ch = views[0]["seats"][s]["champion"]
        if args.champions:
            check(ch is not None and ch["state"] == "ready", "seat %d has no ready Champion: %s" % (s, ch))
            check(ch["card_id"] in creatures and ch["card_id"] not in decks[s + 1],
                  "seat %d's Champion %s is not a creature outside deck %d" % (s, ch["card_id"], s + 1))
            champions[s] = ch["card_id"]
        else:
            check(ch is None, "seat %d has a Champion in a room without: %s" % (s, ch))

    # The database.
    acks = [a for b in bots for a in b.acks()]
    check(sorted(acks) == list(range(1, sums[0]["seq"] + 1)), "acknowledged seqs are not 1..N")
    rec, _ = e2e.check_stored_match(args, db, room, sums[0]["seq"], acks)
    check(rec["mode"] == args.mode, "stored mode %s" % rec["mode"])
    options = json.loads(rec["options_json"])
    check(options["seats"] == seats and options["champions"] is args.champions and
          options["share_team_hands"] is args.share_team_hands, "stored options %s" % options)
    check(sorted(json.loads(rec["winners"])) == winners, "stored winners %s, the bots say %s" % (rec["winners"], winners))
    check(rec["reason"] == sums[0]["reason"], "stored reason %s" % rec["reason"])
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        rows = con.execute("SELECT seat, team, champion FROM match_seats WHERE match_id = ? ORDER BY seat",
                           (rec["match_id"],)).fetchall()
    finally:
        con.close()
    check([r[0] for r in rows] == list(range(seats)), "stored seats %s" % rows)
    for seat, team, champion in rows:
        check(team == (seat % 2 if args.mode == "2v2" else None), "seat %d stored team %s" % (seat, team))
        check(champion == champions.get(seat), "seat %d stored champion %s" % (seat, champion))
    if args.mode == "2v2":
        stored_teams = {team for seat, team, _ in rows if seat in winners}
        check(len(stored_teams) == 1, "the winners %s are not one stored team" % winners)
    if args.admin:
        rc, out = e2e.run_admin(args.admin, db, "show", rec["match_id"])
        check(rc == 0 and ("mode         %s" % args.mode) in out, "cod-admin show:\n%s" % out)
        for seat, team, champion in rows:
            line = [l for l in out.splitlines() if l.startswith("seat %d " % seat)]
            check(line, "cod-admin show has no line for seat %d" % seat)
            if team is not None:
                check("team %d" % team in line[0], "cod-admin show seat %d: %s" % (seat, line[0]))
            if champion:
                check("champion %s" % champion in line[0], "cod-admin show seat %d: %s" % (seat, line[0]))
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
