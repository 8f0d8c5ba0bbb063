#!/usr/bin/env python3
"""End to end: a spectator (cod-bot --spectate) watches a duel between two
cod-bots. It gets `spectating`, a `state` and every `update` (seqs 1..N with
no gap) and `match_over`, and never any hand content: every view has role
"spectator", viewer null, an empty hand and playable; no event carries
`hand_index`; `hand_reordered` never names its card; and apart from the
hands, its views equal what the players see (the board, the seats' public
numbers), update for update.

  test_spectator.py --server S --bot B [--admin A]
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

PRIVATE_VIEW_KEYS = ("role", "viewer", "hand", "playable")


def public_part(view):
    return {k: v for k, v in view.items() if k not in PRIVATE_VIEW_KEYS}


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()

    a = e2e.Bot(args.bot, work, "a", server.port,
                ["--create", "--deck", "4", "--seed", "3", "--delay-ms", "5", "--timeout-sec", "60"]).start()
    room = a.token()["room"]
    # The spectator arrives before the second seat: it gets the state when the match starts.
    spec = e2e.Bot(args.bot, work, "spectator", server.port, ["--spectate", room, "--timeout-sec", "70"]).start()
    spec.watching()
    b = e2e.Bot(args.bot, work, "b", server.port,
                ["--room", room, "--deck", "1", "--seed", "4", "--delay-ms", "5", "--timeout-sec", "60"]).start()
    codes = e2e.wait_bots([a, b, spec], 75)
    for bot in (a, b, spec):
        e2e.check(codes[bot.name] == 0, "%s exited %s:\n%s" % (bot.name, codes[bot.name], bot.output()))
    sa, sb = e2e.check_results(a, b)
    ss = spec.summary()
    e2e.check(ss["result"] == "watched" and ss["seq"] == sa["seq"] and ss["reason"] == sa["reason"],
              "spectator summary %s" % ss)

    frames = spec.frames()
    types = [m["type"] for m in frames]
    e2e.check(types[0] == "welcome" and types[1] == "spectating", "spectator's first frames: %s" % types[:3])
    e2e.check(types.count("state") == 1 and types[-1] == "match_over", "spectator's frames: %s" % types)
    seqs = [m["seq"] for m in frames if m["type"] == "update"]
    e2e.check(seqs == list(range(1, sa["seq"] + 1)), "spectator's update seqs: %s" % seqs)

    # Nothing private, anywhere.
    views = 0
    for m in frames:
        if m["type"] in ("state", "update"):
            v = m["view"]
            views += 1
            e2e.check(v["role"] == "spectator" and v["viewer"] is None, "seq %d: role %s" % (m["seq"], v["role"]))
            e2e.check(v["hand"] == [] and v["playable"] == [], "seq %d: a hand was shown to a spectator" % m["seq"])
            e2e.check("all_hands" not in v, "seq %d: all_hands in a spectator view" % m["seq"])
        for e in m.get("events", []):
            # card_returned's hand_index is public (where a card rejoins a
            # hand); card_played's says where the card stood in its hand.
            if e["type"] == "card_played":
                e2e.check("hand_index" not in e, "seq %d: card_played with hand_index: %s" % (m["seq"], e))
            if e["type"] == "hand_reordered":
                e2e.check("card" not in e and "card_id" not in e, "hand_reordered names its card: %s" % e)
    e2e.log("spectator: %d views, %d updates, no hand content" % (views, len(seqs)))

    # The players do see their hands (the checks above would catch a leak)...
    pa = a.frames()
    e2e.check(any(m["type"] == "state" and m["view"]["hand"] for m in pa), "player a never saw its hand")
    # ...and apart from hands, everyone sees the same match.
    def by_seq(fr):
        return {m["seq"]: m for m in fr if m["type"] == "update"}
    spec_updates, a_updates, b_updates = by_seq(frames), by_seq(pa), by_seq(b.frames())
    for seq, m in spec_updates.items():
        for who, mine in (("a", a_updates), ("b", b_updates)):
            e2e.check(seq in mine, "player %s missed update %d" % (who, seq))
            e2e.check(public_part(mine[seq]["view"]) == public_part(m["view"]),
                      "seq %d: the spectator's board differs from player %s's" % (seq, who))
            # Same events, but for the private fields.
            theirs = [{k: v for k, v in e.items() if not (e["type"] == "card_played" and k == "hand_index")}
                      for e in mine[seq]["events"] if e["type"] != "hand_reordered"]
            ours = [e for e in m["events"] if e["type"] != "hand_reordered"]
            e2e.check(theirs == ours, "seq %d: the spectator's events differ from player %s's" % (seq, who))
    e2e.check_stored_match(args, db, room, sa["seq"], a.acks() + b.acks())
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__)
