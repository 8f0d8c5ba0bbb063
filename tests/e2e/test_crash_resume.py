#!/usr/bin/env python3
"""End to end, kill -9: cod-bots start a match (a duel, or with --mode ffa or
2v2 four bots; --champions: with Champions; --mode solo one bot against the
AI, --mode coop two bots, seats 0 and 2, with the AIs); after some actions the
server is killed with SIGKILL; every bot sees the connection drop (exit 3).
The server is restarted on the same database and port, recovers the match
from its log, the bots come back with their tokens (cod-bot --resume) and
finish the match. Then: the whole log replays (cod-admin verify), no action
a bot saw acknowledged before or after the crash is missing, and each
resumed bot's first state starts at or after the last seq it had seen.

  test_crash_resume.py --server S --bot B [--admin A] [--mode duel|ffa|2v2|solo|coop] [--champions]

Solo and co-op: the AI seats are rebuilt from the record (their decks per
RULING E41, the difficulty from options_json) and never resume; the AI's
pile sizes are the same in the last view before the kill and the first after.
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402


def extra(ap):
    ap.add_argument("--kill-after", type=int, default=12, help="acknowledged actions before the kill")
    ap.add_argument("--mode", default="duel", choices=["duel", "ffa", "2v2", "solo", "coop"])
    ap.add_argument("--difficulty", type=int, default=0)
    ap.add_argument("--ai-first", action="store_true")
    ap.add_argument("--champions", action="store_true")


def last_seq_seen(bot):
    seqs = [m["seq"] for m in bot.frames() if m.get("type") in ("state", "update")]
    return max(seqs) if seqs else 0


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db, extra=["--grace-period-sec", "60"]).start()

    # Slow enough that the match is still running when the server dies.
    slow = ["--delay-ms", "25", "--timeout-sec", "60"]
    seats = 2 if args.mode in ("duel", "solo") else 4
    humans = {"solo": [0], "coop": [0, 2]}.get(args.mode, list(range(seats)))
    create = ["--create", "--mode", args.mode, "--deck", "2", "--seed", "5"]
    if args.champions:
        create += ["--champions", "--champion", "auto"]
    if args.difficulty:
        create += ["--difficulty", str(args.difficulty)]
    if args.ai_first:
        create.append("--ai-first")
    a = e2e.Bot(args.bot, work, "a", server.port, create + slow).start()
    room = a.token()["room"]
    bots = [a]
    for s in humans[1:]:
        name = "bcd"[s - 1]
        deck = [4, 1, 3][s - 1]
        bots.append(e2e.Bot(args.bot, work, name, server.port,
                            ["--room", room, "--deck", str(deck), "--seed", str(5 + s)] + slow).start())
        bots[-1].token()  # in seat order

    def acked():
        return sum(len(bot.acks()) for bot in bots)

    deadline = time.time() + 30
    while acked() < args.kill_after:
        e2e.check(time.time() < deadline, "only %d actions after 30 s" % acked())
        e2e.check(all(bot.proc.poll() is None for bot in bots),
                  "a bot stopped before the kill:\n%s" % "\n".join(bot.output() for bot in bots))
        time.sleep(0.01)
    server.kill9()
    codes = e2e.wait_bots(bots, 15)
    for bot in bots:
        e2e.check(codes[bot.name] == 3, "bot %s exited %s after the kill, not 3 (connection lost):\n%s" %
                  (bot.name, codes[bot.name], bot.output()))
    before = {bot.name: (set(bot.acks()), last_seq_seen(bot)) for bot in bots}
    acked_before = set().union(*(acks for acks, _ in before.values()))
    e2e.log("killed after acknowledged seqs %s" % sorted(acked_before))
    ai_piles_before = None
    if len(humans) < seats:
        views = [m["view"] for m in a.frames() if m.get("type") in ("state", "update")]
        ai_piles_before = [(x["deck_size"], len(x["discard"])) for x in views[-1]["seats"] if x.get("ai")]
    champions_before = None
    if args.champions:
        view = [m for m in a.frames() if m.get("type") == "state"][0]["view"]
        champions_before = [seat["champion"]["card_id"] for seat in view["seats"]]

    # Same database, same port.
    server.start()
    e2e.check("recovery: 1 of 1 unfinished matches rebuilt" in server.log(), "no recovery line in the log")
    tokens = {bot.name: bot.token() for bot in bots}
    for bot in bots:
        bot.start(["--room", room, "--resume", tokens[bot.name]["token"], "--seed", "7"] + slow[:2] +
                  ["--timeout-sec", "60"], port=server.port)
    codes = e2e.wait_bots(bots, 70)
    for bot in bots:
        e2e.check(codes[bot.name] == 0, "resumed bot %s exited %s:\n%s" % (bot.name, codes[bot.name], bot.output()))
    if len(humans) < seats:
        sums = [bot.summary() for bot in bots]
        sa = sums[0]
        e2e.check([x["seat"] for x in sums] == humans, "seats %s" % [x["seat"] for x in sums])
        e2e.check(len({x["seq"] for x in sums}) == 1, "final seqs differ: %s" % [x["seq"] for x in sums])
        e2e.check(len({x["result"] for x in sums}) == 1 and sa["result"] in ("win", "loss"),
                  "results %s" % [x["result"] for x in sums])
    elif seats == 2:
        sa, _ = e2e.check_results(a, bots[1])
    else:
        sums = [bot.summary() for bot in bots]
        sa = sums[0]
        e2e.check(sorted(x["seat"] for x in sums) == [0, 1, 2, 3], "seats %s" % [x["seat"] for x in sums])
        e2e.check(len({x["seq"] for x in sums}) == 1, "final seqs differ: %s" % [x["seq"] for x in sums])
        winners = sorted(x["seat"] for x in sums if x["result"] == "win")
        if args.mode == "2v2":
            e2e.check(winners in ([0, 2], [1, 3]), "2v2 winners %s are not a team" % winners)
        else:
            e2e.check(len(winners) in (1, 3), "ffa winners %s" % winners)
    for bot in bots:
        first = [m for m in bot.frames() if m.get("type") == "state"][0]
        e2e.check(first["seq"] >= before[bot.name][1],
                  "bot %s resumed at seq %d after seeing seq %d" % (bot.name, first["seq"], before[bot.name][1]))
        seat = tokens[bot.name]["seat"]
        e2e.check(bot.summary()["seat"] == seat, "bot %s resumed another seat" % bot.name)
        e2e.check(first["view"]["mode"] == args.mode and len(first["view"]["seats"]) == seats,
                  "bot %s: the recovered view is not a %s" % (bot.name, args.mode))
        if ai_piles_before is not None and bot is a:
            after = [(x["deck_size"], len(x["discard"])) for x in first["view"]["seats"] if x.get("ai")]
            if first["seq"] == before[bot.name][1]:
                e2e.check(after == ai_piles_before, "AI piles %s before the kill, %s after" % (ai_piles_before, after))
        if champions_before:
            after = [x["champion"]["card_id"] if x["champion"] else None for x in first["view"]["seats"]]
            e2e.check(after == champions_before, "Champions %s before the kill, %s after" % (champions_before, after))

    all_acks = [s for bot in bots for s in bot.acks()]
    e2e.check(len(all_acks) == len(set(all_acks)), "a seq was acknowledged twice: %s" % sorted(all_acks))
    rec, actions = e2e.check_stored_match(args, db, room, sa["seq"], all_acks)
    e2e.check(rec["mode"] == args.mode, "stored mode %s" % rec["mode"])
    e2e.check(acked_before <= {s for s, _, _ in actions}, "actions acknowledged before the kill were lost")
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
