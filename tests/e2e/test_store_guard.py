#!/usr/bin/env python3
"""End to end, the database under abuse: a second cod-server on the
same database (by its path, or through a symlink) refuses to start, naming
the database and the first one's pid,
while cod-admin still reads it; the database and its lock file are 0600; and
a kill -9 right after a match ended (its result stored, the player maybe not
told) loses nothing: the restarted server gives the finished room back, and
a resume with the seat's token gets the final state and the same match_over
with the seed.

  test_store_guard.py --server S --bot B [--admin A]
"""

import os
import stat
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def connect(port):
    ws = e2e.WS(port)
    check(ws.request({"type": "hello", "version": 1, "client": "e2e"})["type"] == "welcome", "hello")
    return ws


def next_of(ws, types, timeout=10):
    """The next message of one of `types` (others skipped)."""
    while True:
        m = ws.recv_json(timeout, skip=())
        if m["type"] in types:
            return m
        check(m["type"] not in ("error", "left"), "unexpected %s" % m)


def test(args, work):
    db = os.path.join(work, "cod.db")
    os.umask(0o022)  # the usual one: without care the files would be 0644
    server = e2e.Server(args.server, work, db).start()

    # One server per database, whatever path names it: the lock is the file's.
    link = os.path.join(work, "link.db")
    os.symlink(db, link)
    for n, path in enumerate((db, link)):
        log_path = os.path.join(work, "second-%d.log" % n)
        with open(log_path, "w") as out:
            second = e2e.spawn([args.server, "--address", "127.0.0.1", "--port", "0", "--db", path], stdout=out)
        try:
            rc = second.wait(timeout=20)
        except subprocess.TimeoutExpired:
            second.kill()
            raise e2e.TestFailure("a second cod-server on the same database (as %s) is still running" % path)
        text = open(log_path, errors="replace").read()
        check(rc == 1, "the second server exited %s:\n%s" % (rc, text))
        check("database " + path in text and "(pid %d)" % server.proc.pid in text,
              "the refusal does not name the database and the first server's pid:\n%s" % text)
        e2e.log("second server refused:", text.strip().splitlines()[-1])
    if args.admin:
        rc, out = e2e.run_admin(args.admin, db, "list")
        check(rc == 0, "cod-admin list while the server runs: exit %s\n%s" % (rc, out))
    for path in (db, db + ".lock"):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(mode == 0o600, "%s has mode %o, not 600" % (path, mode))

    # A duel whose last action (a concession) ends it; then kill -9.
    host = connect(server.port)
    created = host.request({"type": "create_room", "id": 1, "mode": "duel", "format": "preconstructed"})
    check(created["type"] == "room_created", "create_room: %s" % created)
    room = created["room"]
    seats, tokens = [], []
    for s in range(2):
        ws = connect(server.port)
        joined = ws.request({"type": "join", "id": 2, "room": room, "name": "p%d" % s,
                             "deck": {"preconstructed": s + 1}})
        check(joined["type"] == "joined" and joined["seat"] == s, "join: %s" % joined)
        seats.append(ws)
        tokens.append(joined["token"])
    for ws in seats:
        next_of(ws, ("state",))
    seats[0].send_json({"type": "act", "id": 3, "action": {"type": "concede"}})
    over = next_of(seats[0], ("match_over",))
    check(next_of(seats[1], ("match_over",)) == over, "the seats got different match_over")
    server.kill9()

    server.start()
    check("recovery: 1 of 1 matches finished in the last" in server.log(), "no recovery line for the finished match")
    for s in range(2):
        ws = connect(server.port)
        joined = ws.request({"type": "resume", "id": 4, "room": room, "token": tokens[s]})
        check(joined["type"] == "joined" and joined["seat"] == s, "resume after the restart: %s" % joined)
        state = next_of(ws, ("state",))
        check(state["view"]["phase"] == "game_over" and state["seq"] == 1, "the state after resume: %s" % state)
        again = next_of(ws, ("match_over",))
        check(again == over, "match_over after the restart %s, before %s" % (again, over))
        ws.close()
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__)
