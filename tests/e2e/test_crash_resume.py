#!/usr/bin/env python3
"""End to end, kill -9: two cod-bots start a duel; after some actions the
server is killed with SIGKILL; both bots see the connection drop (exit 3).
The server is restarted on the same database and port, recovers the match
from its log, the bots come back with their tokens (cod-bot --resume) and
finish the match. Then: the whole log replays (cod-admin verify), no action
a bot saw acknowledged before or after the crash is missing, and each
resumed bot's first state starts at or after the last seq it had seen.

  test_crash_resume.py --server S --bot B [--admin A]
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402


def extra(ap):
    ap.add_argument("--kill-after", type=int, default=12, help="acknowledged actions before the kill")


def last_seq_seen(bot):
    seqs = [m["seq"] for m in bot.frames() if m.get("type") in ("state", "update")]
    return max(seqs) if seqs else 0


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db, extra=["--grace-period-sec", "60"]).start()

    # Slow enough that the match is still running when the server dies.
    slow = ["--delay-ms", "25", "--timeout-sec", "60"]
    a = e2e.Bot(args.bot, work, "a", server.port, ["--create", "--deck", "2", "--seed", "5"] + slow).start()
    room = a.token()["room"]
    b = e2e.Bot(args.bot, work, "b", server.port, ["--room", room, "--deck", "4", "--seed", "6"] + slow).start()

    deadline = time.time() + 30
    while len(a.acks()) + len(b.acks()) < args.kill_after:
        e2e.check(time.time() < deadline, "only %d actions after 30 s" % (len(a.acks()) + len(b.acks())))
        e2e.check(a.proc.poll() is None and b.proc.poll() is None,
                  "a bot stopped before the kill:\n%s\n%s" % (a.output(), b.output()))
        time.sleep(0.01)
    server.kill9()
    codes = e2e.wait_bots([a, b], 15)
    for bot in (a, b):
        e2e.check(codes[bot.name] == 3, "bot %s exited %s after the kill, not 3 (connection lost):\n%s" %
                  (bot.name, codes[bot.name], bot.output()))
    before = {bot.name: (set(bot.acks()), last_seq_seen(bot)) for bot in (a, b)}
    acked_before = before["a"][0] | before["b"][0]
    e2e.log("killed after acknowledged seqs %s" % sorted(acked_before))

    # Same database, same port.
    server.start()
    e2e.check("recovery: 1 of 1 unfinished matches rebuilt" in server.log(), "no recovery line in the log")
    tokens = {bot.name: bot.token() for bot in (a, b)}
    for bot in (a, b):
        bot.start(["--room", room, "--resume", tokens[bot.name]["token"], "--seed", "7"] + slow[:2] +
                  ["--timeout-sec", "60"], port=server.port)
    codes = e2e.wait_bots([a, b], 70)
    for bot in (a, b):
        e2e.check(codes[bot.name] == 0, "resumed bot %s exited %s:\n%s" % (bot.name, codes[bot.name], bot.output()))
    sa, sb = e2e.check_results(a, b)
    for bot in (a, b):
        first = [m for m in bot.frames() if m.get("type") == "state"][0]
        e2e.check(first["seq"] >= before[bot.name][1],
                  "bot %s resumed at seq %d after seeing seq %d" % (bot.name, first["seq"], before[bot.name][1]))
        seat = tokens[bot.name]["seat"]
        e2e.check(bot.summary()["seat"] == seat, "bot %s resumed another seat" % bot.name)

    all_acks = a.acks() + b.acks()
    e2e.check(len(all_acks) == len(set(all_acks)), "a seq was acknowledged twice: %s" % sorted(all_acks))
    rec, actions = e2e.check_stored_match(args, db, room, sa["seq"], all_acks)
    e2e.check(acked_before <= {s for s, _, _ in actions}, "actions acknowledged before the kill were lost")
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
