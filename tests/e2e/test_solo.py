#!/usr/bin/env python3
"""End to end: solo (R12) and co-op (R11.7) against the AI on a real
cod-server. One cod-bot (solo, seat 0) or two (co-op, seats 0 and 2) play
the match to the end; the engine plays the AI seats inside the server.
Then:

- the match started at the last human join; every bot saw the same room,
  final seq and reason; solo: the bot won or lost; co-op: both bots have the
  same result (the humans are one team, R11.7);
- each bot's first state is its own view of the mode, with the AI seats'
  piles (deck_count, discard); with --ai-first the first state carries the
  opening events (the AI's first turn, seat 1's) and it is a human's turn;
- while a co-op room waits, list_rooms shows the AI seats taken ("ai") and
  only seat 2 free;
- the database holds the match: mode, difficulty and AI settings in
  options_json, match_seats with the AI seats marked (name AI, no token,
  their 24 cards; co-op teams humans 0 / AIs 1), the winners the bots saw;
  cod-admin lists (co-op teams), shows (AI seats) and verifies it.

  test_solo.py --server S --bot B [--admin A] --mode solo|coop [--difficulty N --ai-first ...]
"""

import json
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import WS, check  # noqa: E402


def extra(ap):
    ap.add_argument("--mode", required=True, choices=["solo", "coop"])
    ap.add_argument("--difficulty", type=int, default=0)
    ap.add_argument("--ai-first", action="store_true")
    ap.add_argument("--ai-abilities", default="")


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()
    timeout = 80
    humans = [0] if args.mode == "solo" else [0, 2]
    ai_seats = [1] if args.mode == "solo" else [1, 3]
    seats = len(humans) + len(ai_seats)

    create = ["--create", "--mode", args.mode, "--deck", "2", "--difficulty", str(args.difficulty)]
    if args.ai_first:
        create.append("--ai-first")
    if args.ai_abilities:
        create += ["--ai-abilities", args.ai_abilities]
    bots = [e2e.Bot(args.bot, work, "p0", server.port,
                    create + ["--timeout-sec", str(timeout), "--seed", "31"]).start()]
    room = bots[0].token()["room"]
    if args.mode == "coop":
        # The room waits for C: the AI seats are taken, never free.
        ws = WS(server.port)
        ws.send_json({"type": "hello", "version": 1})
        check(ws.recv_json()["type"] == "welcome", "hello")
        ws.send_json({"type": "list_rooms", "id": 1})
        listed = {x["room"]: x for x in ws.recv_json()["rooms"]}
        x = listed[room]
        check(x["status"] == "waiting", "coop room before C joins: %s" % x)
        free = [s["seat"] for s in x["seats"] if not s["taken"]]
        check(free == [2], "coop free seats %s, expected [2]" % free)
        check([s["seat"] for s in x["seats"] if s.get("ai")] == ai_seats, "coop AI seats: %s" % x["seats"])
        ws.close()
        bots.append(e2e.Bot(args.bot, work, "p2", server.port,
                            ["--room", room, "--deck", "3", "--timeout-sec", str(timeout), "--seed", "47"]).start())
        check(bots[1].token()["seat"] == 2, "the second bot is not seat 2")

    codes = e2e.wait_bots(bots, timeout + 10)
    for b in bots:
        check(codes[b.name] == 0, "bot %s exited %s:\n%s" % (b.name, codes[b.name], b.output()))
    sums = [b.summary() for b in bots]
    for s in sums:
        e2e.log("bot:", s)
    check([s["seat"] for s in sums] == humans, "seats %s" % [s["seat"] for s in sums])
    check(len({s["seq"] for s in sums}) == 1 and sums[0]["seq"] > 0, "final seqs differ: %s" % sums)
    check(len({s["reason"] for s in sums}) == 1 and sums[0]["reason"] != "none", "reasons differ: %s" % sums)
    check(all(s["result"] in ("win", "loss") for s in sums), "results %s" % [s["result"] for s in sums])
    check(len({s["result"] for s in sums}) == 1, "co-op humans have different results: %s" % sums)
    humans_won = sums[0]["result"] == "win"
    winners = humans if humans_won else ai_seats

    # First state: the seat's own view; the AI piles; the opening events.
    for b, seat in zip(bots, humans):
        first = [m for m in b.frames() if m["type"] == "state"][0]
        v = first["view"]
        check(first["seq"] == 0 and v["viewer"] == seat and v["mode"] == args.mode and len(v["seats"]) == seats,
              "seat %d first state: %s" % (seat, {k: first[k] for k in ("seq",)}))
        check(v["active_seat"] in humans, "a first state with the AI active: %s" % v["active_seat"])
        for a in ai_seats:
            ai = v["seats"][a]
            check(ai.get("ai") is True and isinstance(ai.get("deck_size"), int) and isinstance(ai.get("discard"), list),
                  "seat %d's view of AI %d: %s" % (seat, a, ai))
            check(0 < ai["deck_size"] <= 24 and ai["hand_size"] == 0, "AI %d piles: %s" % (a, ai))
        check(isinstance(first.get("events"), list), "no opening events in the first state: %s" % list(first))
        if args.ai_first:
            check(first["events"], "AI first but no opening events")
            check(any(e.get("seat") == 1 for e in first["events"]), "no event of AI seat 1: %s" % first["events"])
            # The AI revealed cards on its opening turn: its deck is no longer 24 (R12.3).
            check(v["seats"][1]["deck_size"] < 24, "the AI has taken no turn: %s" % v["seats"][1])
    # Later updates carry the AI's turns: some update has an event of an AI seat.
    ai_events = [e for m in bots[0].frames() if m["type"] == "update" for e in m["events"]
                 if e.get("seat") in ai_seats]
    check(ai_events, "no AI event in any update")

    # The database and cod-admin.
    acks = [a for b in bots for a in b.acks()]
    check(sorted(acks) == list(range(1, sums[0]["seq"] + 1)), "acknowledged seqs are not 1..N")
    rec, actions = e2e.check_stored_match(args, db, room, sums[0]["seq"], acks)
    check(all(seat in humans for _, seat, _ in actions), "an AI seat in the action log")
    check(rec["mode"] == args.mode, "stored mode %s" % rec["mode"])
    options = json.loads(rec["options_json"])
    check(options["difficulty"] == args.difficulty and options["ai"]["ai_first"] is args.ai_first,
          "stored options %s" % options)
    check(sorted(json.loads(rec["winners"])) == winners, "stored winners %s, the bots say %s" % (rec["winners"], winners))
    check(rec["reason"] == sums[0]["reason"], "stored reason %s" % rec["reason"])
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        rows = con.execute("SELECT seat, name, token_hash, deck_json, team, ai FROM match_seats "
                           "WHERE match_id = ? ORDER BY seat", (rec["match_id"],)).fetchall()
    finally:
        con.close()
    check([r[0] for r in rows] == list(range(seats)), "stored seats %s" % rows)
    for seat, name, token_hash, deck_json, team, ai in rows:
        if seat in ai_seats:
            check(ai == 1 and name == "AI" and token_hash == "", "AI seat %d stored as %s" % (seat, (name, ai)))
            cards = json.loads(deck_json)["cards"]
            check(len(cards) == 24 and len(set(cards)) == 24, "AI seat %d deck: %s" % (seat, deck_json))
        else:
            check(ai == 0 and len(token_hash) == 64, "human seat %d stored as %s" % (seat, (name, ai)))
        check(team == (seat % 2 if args.mode == "coop" else None), "seat %d stored team %s" % (seat, team))
    if args.admin:
        rc, out = e2e.run_admin(args.admin, db, "list")
        line = [l for l in out.splitlines() if rec["match_id"] in l][0]
        if args.mode == "coop":
            check(" & AI vs AI & AI" not in line and "AI & AI" in line, "cod-admin list coop teams: %s" % line)
        rc, out = e2e.run_admin(args.admin, db, "show", rec["match_id"])
        check(rc == 0 and ("mode         %s" % args.mode) in out, "cod-admin show:\n%s" % out)
        for seat in ai_seats:
            line = [l for l in out.splitlines() if l.startswith("seat %d " % seat)]
            check(line and "ai (played by the engine" in line[0], "cod-admin show AI seat %d: %s" % (seat, line))
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
