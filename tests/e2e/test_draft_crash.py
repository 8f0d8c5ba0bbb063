#!/usr/bin/env python3
"""End to end, kill -9 during a draft against the AI and then during its match:
a solo (R14.4) or co-op (R14.5) draft room with a custom difficulty. The
human seats pick over raw WebSockets; after a few picks the server is killed
with SIGKILL, restarted on the same database and port, and rebuilds the draft
from its log (draft_events): the seats resume with their tokens and get the
same public draft (offer, picks, whose turn, the AI's cards), then finish it;
the match starts with the drafted decks (each AI pile 24). cod-bots then
resume the seats and play; after some actions the server is killed again,
restarted, the bots resume once more and finish the match. The stored match
(draft log included) verifies with cod-admin.

  test_draft_crash.py --server S --bot B [--admin A] --mode solo|coop
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def extra(ap):
    ap.add_argument("--mode", required=True, choices=["solo", "coop"])
    ap.add_argument("--kill-after-picks", type=int, default=3)
    ap.add_argument("--kill-after", type=int, default=6, help="acknowledged actions before the second kill")


def next_of(ws, types, timeout=10):
    """The next message of one of `types` (others skipped)."""
    while True:
        m = ws.recv_json(timeout, skip=())
        if m["type"] in types:
            return m
        check(m["type"] not in ("error", "left"), "unexpected %s" % m)


def connect(port):
    ws = e2e.WS(port)
    check(ws.request({"type": "hello", "version": 1, "client": "e2e"})["type"] == "welcome", "hello")
    return ws


def pick_round(humans, view, n):
    """Makes the next pick (the first cards on offer); returns every seat's new view."""
    check(len(view["waiting"]) == 1, "waiting %s" % view["waiting"])
    w = view["waiting"][0]
    check(w["seat"] in humans, "the draft waits for seat %d, not a human's (RULING E61)" % w["seat"])
    ws = humans[w["seat"]]
    ws.send_json({"type": "draft_pick", "id": 100 + n, "pick": "take", "cards": view["offer"][:w["count"]]})
    check(next_of(ws, ("accepted",))["id"] == 100 + n, "accepted")
    return {s: next_of(h, ("draft",))["draft"] for s, h in humans.items()}


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db, extra=["--grace-period-sec", "60"]).start()
    seats = [0] if args.mode == "solo" else [0, 2]
    host = connect(server.port)
    created = host.request({"type": "create_room", "id": 1, "mode": args.mode, "format": "draft",
                            "options": {"difficulty": 1, "ai": {"fixed_mana": 7}}})
    check(created["type"] == "room_created", "create_room: %s" % created)
    room = created["room"]
    host.close()
    humans, tokens = {}, {}
    for s in seats:
        ws = connect(server.port)
        joined = ws.request({"type": "join", "id": 2, "room": room, "name": "h%d" % s, "seat": s})
        check(joined["type"] == "joined" and joined["seat"] == s, "join: %s" % joined)
        humans[s], tokens[s] = ws, joined["token"]
    views = {s: next_of(h, ("draft",))["draft"] for s, h in humans.items()}
    for n in range(args.kill_after_picks):
        views = pick_round(humans, views[0], n)
    before = views[0]
    check(not before["finished"], "the draft finished before the kill")
    server.kill9()
    for ws in humans.values():
        ws.close()
    e2e.log("killed mid-draft after %d picks (round %d)" % (args.kill_after_picks, before["round"]))

    server.start()
    check("recovery: 1 of 1 unfinished matches rebuilt" in server.log(), "no recovery line in the log")
    humans = {}
    for s in seats:
        ws = connect(server.port)
        check(ws.request({"type": "resume", "id": 3, "room": room, "token": tokens[s]})["type"] == "joined", "resume")
        humans[s] = ws
        views[s] = next_of(ws, ("draft",))["draft"]
    after = views[0]
    for k in ("offer", "waiting", "round", "pile_left", "ai_cards", "pool"):
        check(after[k] == before[k], "draft %s: %s before the kill, %s after" % (k, before[k], after[k]))
    check([x["taken"] for x in after["seats"]] == [x["taken"] for x in before["seats"]], "picks lost")
    n = args.kill_after_picks
    while not views[0]["finished"]:
        views = pick_round(humans, views[0], n)
        n += 1
    ai = [s for s in range(len(views[0]["seats"])) if s not in seats]
    check(len(views[0]["ai_cards"]) == 24 * len(ai), "the AI received %d cards" % len(views[0]["ai_cards"]))
    for s, ws in humans.items():
        st = next_of(ws, ("state",))
        for a in ai:
            check(st["view"]["seats"][a]["deck_size"] == 24, "AI seat %d pile %s" % (a, st["view"]["seats"][a]))
        check(set(c["card_id"] for c in st["view"]["hand"]) <= set(views[s]["own_deck"]), "hand not from the draft")
        ws.close()
    e2e.log("draft finished after %d picks; the match started" % n)

    # The match, by cod-bots resuming the seats; killed again after some actions.
    slow = ["--delay-ms", "25", "--timeout-sec", "60"]
    bots = [e2e.Bot(args.bot, work, "p%d" % s, server.port,
                    ["--room", room, "--resume", tokens[s], "--seed", str(5 + s)] + slow).start() for s in seats]
    deadline = time.time() + 30
    while sum(len(b.acks()) for b in bots) < args.kill_after:
        check(time.time() < deadline, "too few actions after 30 s")
        check(all(b.proc.poll() is None for b in bots), "a bot stopped before the kill:\n%s" %
              "\n".join(b.output() for b in bots))
        time.sleep(0.01)
    server.kill9()
    codes = e2e.wait_bots(bots, 15)
    for b in bots:
        check(codes[b.name] == 3, "bot %s exited %s after the kill:\n%s" % (b.name, codes[b.name], b.output()))
    server.start()
    for s, b in zip(seats, bots):
        b.start(["--room", room, "--resume", tokens[s], "--seed", "7"] + slow, port=server.port)
    codes = e2e.wait_bots(bots, 70)
    for b in bots:
        check(codes[b.name] == 0, "resumed bot %s exited %s:\n%s" % (b.name, codes[b.name], b.output()))
    sums = [b.summary() for b in bots]
    check(len({x["seq"] for x in sums}) == 1 and sums[0]["result"] in ("win", "loss"), "results %s" % sums)
    acks = [a for b in bots for a in b.acks()]
    rec, _ = e2e.check_stored_match(args, db, room, sums[0]["seq"], acks)
    check(rec["mode"] == args.mode and rec["format"] == "draft", "stored %s %s" % (rec["mode"], rec["format"]))
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
