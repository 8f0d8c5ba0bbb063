#!/usr/bin/env python3
"""End to end: a drafted room (R14) played through the server by cod-bots,
then the match to its end: a 2-player draft duel (R14.2), a 4-player draft
free-for-all (R14.3), an instant-constructed duel (R14.7), a solo draft
against the AI (R14.4: the human takes 1 of 4, the AI gets 3) or a co-op
draft (R14.5: A and C take 1 each of 8, the AIs get 6, split 24/24), with a
custom difficulty (R12.8). Then:

- every bot and the spectator saw the same draft: `draft` messages with seqs
  rising to the same last one, the last one finished; every pick a seat made
  appears in every viewer's view (public, R14.2); a secret list (instant
  constructed) is in no other seat's view before it is revealed;
- each seat's match deck (its first state's deck) is the deck the draft gave
  it (own_deck of the last draft message);
- the database's draft_events hold every reveal and every pick, seq 1..N,
  in order: the picks match the bots' accepted picks in count, the reveals
  are the draft's revealed cards to every seat; the match is finished and
  cod-admin verify (draft replay included) passes, and cod-admin draft gives
  the same rows, replayed.

- solo, co-op: the draft never waited for an AI seat; every AI seat's deck
  is 24 cards (the match's first state), the AI's cards are the 3 of each 4
  (6 of each 8) the humans left; the AI seats are stored ai, their decks
  from the draft log;

- with --champions: each human seat's Champion (R13.1, named at join) was
  never in the pool nor a drafted deck, and is in the match (RULING E67);

  test_draft.py --server S --bot B [--admin A] --mode duel|ffa|solo|coop --format draft|instant_constructed
                [--champions]
"""

import json
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def extra(ap):
    ap.add_argument("--mode", required=True, choices=["duel", "ffa", "solo", "coop"])
    ap.add_argument("--format", required=True, choices=["draft", "instant_constructed"])
    ap.add_argument("--champions", action="store_true",
                    help="the Champion module (R13.1): each bot names a random Champion at join (RULING E67)")


def test(args, work):
    seats = 2 if args.mode in ("duel", "solo") else 4
    champions = ["--champions"] if args.champions else []
    # Solo, co-op: the human seats (R14.4: A; R14.5: A and C); the others are the AI's.
    humans = {"solo": [0], "coop": [0, 2]}.get(args.mode, list(range(seats)))
    ai_seats = [s for s in range(seats) if s not in humans]
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()
    timeout = 80
    if ai_seats:
        # Against the AI the first join starts the draft (solo), so the room is
        # created first and the spectator is watching before anyone joins.
        # Custom play (R12.8): 2 points; each human Champion gives 2 back (RULING E45).
        options = {"difficulty": 2, "ai": {"fixed_mana": 7, "ai_first": True}}
        if args.champions:
            options = {"difficulty": 2, "champions": True,
                       "ai": {"fixed_mana": 9, "ai_first": True} if args.mode == "solo"
                       else {"fixed_mana": 10, "double_variable": True}}
        ws = e2e.WS(server.port)
        ws.request({"type": "hello", "version": 1, "client": "e2e"})
        created = ws.request({"type": "create_room", "id": 1, "mode": args.mode, "format": args.format,
                              "options": options})
        check(created["type"] == "room_created", "create_room: %s" % created)
        ws.close()
        room = created["room"]
        spectator = e2e.Bot(args.bot, work, "spec", server.port,
                            ["--spectate", room, "--timeout-sec", str(timeout)]).start().watching()
        bots = [e2e.Bot(args.bot, work, "p0", server.port,
                        ["--room", room, "--format", args.format, "--seat", "0",
                         "--timeout-sec", str(timeout), "--seed", "7"]).start()]
        bots[0].token()
    else:
        bots = [e2e.Bot(args.bot, work, "p0", server.port,
                        ["--create", "--mode", args.mode, "--format", args.format, "--seat", "0",
                         "--timeout-sec", str(timeout), "--seed", "7"] + champions).start()]
        room = bots[0].token()["room"]
        spectator = e2e.Bot(args.bot, work, "spec", server.port,
                            ["--spectate", room, "--timeout-sec", str(timeout)]).start().watching()
    for s in humans[1:]:
        # Joiners do not give the format: refused with a deck, they join without.
        bots.append(e2e.Bot(args.bot, work, "p%d" % s, server.port,
                            ["--room", room, "--seat", str(s), "--timeout-sec", str(timeout),
                             "--seed", str(7 + 13 * s)]).start())
        bots[-1].token()
    watchers = bots + [spectator]
    codes = e2e.wait_bots(watchers, timeout + 10)
    for b in watchers:
        check(codes[b.name] == 0, "bot %s exited %s:\n%s" % (b.name, codes[b.name], b.output()))
    sums = [b.summary() for b in bots]
    for s in sums:
        e2e.log("bot:", s)
    check(len({s["seq"] for s in sums}) == 1 and sums[0]["seq"] > 0, "final seqs differ")
    check(all(s["result"] in ("win", "loss", "draw") for s in sums), "results %s" % sums)

    # Every frame every viewer received matches the schemas: the doc's
    # examples alone missed an instant-constructed draft's first push.
    e2e.check_frames_schema(["%s.%d" % (b.dump_file, b.runs) for b in watchers])

    # The draft as every viewer saw it.
    drafts = {b.name: [m for m in b.frames() if m["type"] == "draft"] for b in watchers}
    last_seq = None
    for name, msgs in drafts.items():
        check(msgs, "%s saw no draft message" % name)
        seqs = [m["seq"] for m in msgs]
        check(seqs == sorted(seqs), "%s: draft seqs out of order %s" % (name, seqs))
        check(msgs[-1]["draft"]["finished"], "%s: the last draft message is not finished" % name)
        last_seq = last_seq or seqs[-1]
        check(seqs[-1] == last_seq, "%s: last draft seq %d, others %d" % (name, seqs[-1], last_seq))
    final = {name: msgs[-1]["draft"] for name, msgs in drafts.items()}
    spec = final["spec"]
    for s in humans:
        # Public picks (R14.2): the same taken cards in every view.
        taken = {json.dumps(v["seats"][s]["taken"]) for v in final.values()}
        check(len(taken) == 1, "seat %d's picks differ between views: %s" % (s, taken))
    if args.format == "draft":
        per_seat = 8
        for s in humans:
            check(len(spec["seats"][s]["taken"]) == per_seat, "seat %d took %s" % (s, spec["seats"][s]["taken"]))
        everything = [c for s in humans for c in spec["seats"][s]["taken"]] + spec["ai_cards"]
        if ai_seats:
            # R14.4: the AI gets 24; R14.5: 48, 24 to each AI (RULING E66).
            check(len(spec["ai_cards"]) == 24 * len(ai_seats), "the AI received %d cards" % len(spec["ai_cards"]))
            for s in ai_seats:
                check(spec["seats"][s]["ai"] and spec["seats"][s]["taken"] == [] and spec["seats"][s]["deck_size"] == 24,
                      "AI seat %d in the draft: %s" % (s, spec["seats"][s]))
            # The draft never waited for an AI seat (RULING E61).
            for m in drafts["spec"]:
                check(all(w["seat"] in humans for w in m["draft"]["waiting"]), "the draft waited for an AI seat")
        check(len(set(everything)) == len(everything), "a card was drafted twice (R14.8)")
    else:
        # R14.7: bans 1 / 2 / 1 of the revealed lists.
        check(len(spec["seats"][0]["banned"]) == 2 and len(spec["seats"][1]["banned"]) == 2,
              "bans %s / %s" % (spec["seats"][0]["banned"], spec["seats"][1]["banned"]))
        # Before the lists were revealed, no one saw the other's list.
        for s, b in enumerate(bots):
            for m in drafts[b.name]:
                other = m["draft"]["seats"][1 - s]
                if not other["revealed"]:
                    check(other["list"] is None, "seat %d saw seat %d's secret list" % (s, 1 - s))
        for m in drafts["spec"]:
            for s in range(2):
                if not m["draft"]["seats"][s]["revealed"]:
                    check(m["draft"]["seats"][s]["list"] is None, "the spectator saw a secret list")
    # Each seat's match deck is its drafted deck.
    for s, b in zip(humans, bots):
        own = final[b.name]["own_deck"]
        check(len(own) == 8, "seat %d own_deck %s" % (s, own))
        first = [m for m in b.frames() if m["type"] == "state"][0]["view"]
        in_match = sorted([c["card_id"] for c in first["hand"]] + first["seats"][s].get("deck_cards", [])) \
            if "deck_cards" in first["seats"][s] else None
        hand = [c["card_id"] for c in first["hand"]]
        check(set(hand) <= set(own), "seat %d's hand %s is not from its drafted deck %s" % (s, hand, own))
        if in_match is not None:
            check(in_match == sorted(own), "seat %d's deck differs from the draft" % s)
        for a in ai_seats:
            # The AI's pile: 24 drafted cards (R14.4, R14.5); with --ai-first (R12.8)
            # it opened, so some are already on the board or in its discard.
            size = first["seats"][a]["deck_size"]
            check(0 < size <= 24, "AI seat %d's pile in the first state: %d" % (a, size))

    if args.champions:
        # R13.1, RULING E67: each human seat named a Champion at join; none was
        # in the pool, so none is in a drafted deck; the match has them.
        first = [m for m in bots[0].frames() if m["type"] == "state"][0]["view"]
        for s in humans:
            champ = first["seats"][s]["champion"]
            check(champ is not None, "seat %d has no Champion in the match" % s)
            check(champ["card_id"] not in spec["pool"], "seat %d's Champion %s was in the pool" % (s, champ["card_id"]))
            for b in bots:
                check(champ["card_id"] not in final[b.name]["own_deck"], "a Champion was drafted")
        e2e.log("Champions:", [first["seats"][s]["champion"]["card_id"] for s in humans])

    # The database: every reveal and pick, in order, by seat.
    picks = sum(int(b.output().rsplit("picks=", 1)[1].split()[0]) for b in bots)
    rec, _ = e2e.check_stored_match(args, db, room, sums[0]["seq"], [a for b in bots for a in b.acks()])
    check(rec["format"] == args.format, "stored format %s" % rec["format"])
    check(rec["mode"] == args.mode, "stored mode %s" % rec["mode"])
    # Every seat's deck, the AI's too, is in the draft log (docs/persistence.md, "Drafts").
    check(all(json.loads(st["deck_json"]) == {"draft": True} for st in rec["seats"]),
          "stored decks %s" % [st["deck_json"] for st in rec["seats"]])
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        rows = con.execute("SELECT seq, seat, kind, cards_json, at_ms FROM draft_events WHERE match_id = ? "
                           "ORDER BY seq", (rec["match_id"],)).fetchall()
    finally:
        con.close()
    check([r[0] for r in rows] == list(range(1, len(rows) + 1)), "draft seqs are not 1..N")
    check(len(rows) == last_seq, "%d draft rows, the last draft message had seq %d" % (len(rows), last_seq))
    stored_picks = [r for r in rows if r[2] == "pick"]
    check(len(stored_picks) == picks, "%d picks stored, the bots made %d" % (len(stored_picks), picks))
    times = [r[4] for r in rows]
    check(times == sorted(times) and times[0] >= rec["created_ms"], "draft timestamps out of order")
    reveals = [r for r in rows if r[2] == "reveal"]
    if args.format == "draft":
        # R14.2 / R14.3: 4 rounds; each reveal of 4 (duel) or 8 (four players) to every seat.
        # R14.4 / R14.5: 8 rounds of 4 (solo) or 8 (co-op), to every seat, the AI's too.
        rounds = 8 if ai_seats else 4
        check(len(reveals) == rounds * seats, "%d reveal rows" % len(reveals))
        check(all(len(json.loads(r[3])) == (4 if seats == 2 else 8) for r in reveals), "reveal sizes")
        # R14.2: A 1, B 2 (one pick), A the last (forced, RULING E61); R14.3: 7 steps, the last forced.
        # R14.4: the human takes 1 a round; R14.5: A and C take 1 each; the AI's cards are no pick.
        expected_picks = {"solo": 8, "coop": 16}.get(args.mode, 2 * 4 if seats == 2 else 6 * 4)
        check(len(stored_picks) == expected_picks, "%d picks, the schedule has %d" % (len(stored_picks), expected_picks))
        # Each seat's picks in the log are its drafted cards (forced takes aside).
        check(all(r[1] in humans for r in stored_picks), "a pick stored for an AI seat")
        for s in humans:
            cards = [c for r in stored_picks if r[1] == s for c in json.loads(r[3])]
            check(set(cards) <= set(spec["seats"][s]["taken"]), "seat %d's stored picks are not its cards" % s)
        # The reveals are what the viewers saw revealed, in order.
        seen = [e["cards"] for m in drafts["spec"] for e in m["events"] if e["type"] == "revealed"]
        stored = [json.loads(r[3]) for r in reveals if r[1] == 0]
        check(seen == stored, "stored reveals %s, seen %s" % (stored, seen))
    else:
        # 2 secret lists, 3 bans (1 / 2 / 1 cards); each list revealed to the other seat.
        kinds = [(r[1], len(json.loads(r[3]))) for r in stored_picks]
        check(sorted(kinds[:2]) == [(0, 10), (1, 10)] and kinds[2:] == [(1, 1), (0, 2), (1, 1)],
              "stored picks (seat, cards) %s" % kinds)
        check([(r[1], len(json.loads(r[3]))) for r in reveals] == [(1, 10), (0, 10)], "list reveals")
    if args.admin:
        # The admin's draft record (docs/admin.md): the same rows, replayed.
        rc, out = e2e.run_admin(args.admin, db, "--catalogue", args.catalogue, "draft", rec["match_id"])
        check(rc == 0, "cod-admin draft (%d):\n%s" % (rc, out))
        d = json.loads(out)
        check(d["finished"] and d["complete"] and d["error"] is None, "cod-admin draft: %s" % out[:400])
        check([(r["seq"], r["seat"], r["kind"], r["cards"], r["at_ms"]) for r in d["rows"]] ==
              [(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows], "cod-admin draft rows differ from the table")
        check(d["picks"] == len(stored_picks) and d["reveals"] == len(reveals), "cod-admin draft counts: %s" % out[:400])
        e2e.log("cod-admin draft %s: %d rows, replayed" % (rec["match_id"], len(rows)))
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
