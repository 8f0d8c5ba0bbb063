#!/usr/bin/env python3
"""End to end: two cod-bots play a full duel on a real cod-server (loopback,
temporary database) to match_over; then the database holds the match with
its whole action log: seqs 1..N where N is the bots' last seq, every action
a bot saw accepted is in it, exactly one bot acknowledged each, the options
and decks are as asked, and cod-admin lists, shows and verifies it (replay
with digests, seed commitment, result).

  test_duel.py --server S --bot B [--admin A] [--format constructed --exhaustion]
"""

import gzip
import http.client
import json
import os
import sys
import random

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402


def extra(ap):
    ap.add_argument("--format", default="preconstructed", choices=["preconstructed", "constructed"])
    ap.add_argument("--exhaustion", action="store_true")
    ap.add_argument("--seed", type=int, default=1, help="picks the constructed decks")
    ap.add_argument("--check-shutdown", action="store_true", help="fail unless SIGTERM ends the server with exit 0")


def check_static_gzip(server):
    """The browser client's catalogue goes gzip-compressed to a client that
    accepts it (decoded here by Python's own gzip), as is to one that does
    not, each with its own ETag that revalidates to 304."""
    def get(path, headers):
        c = http.client.HTTPConnection(e2e.LOOPBACK, server.port, timeout=5)
        try:
            c.request("GET", path, headers=headers)
            r = c.getresponse()
            return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
        finally:
            c.close()
    status, plain_h, plain = get("/play/catalogue.json", {})
    e2e.check(status == 200 and "content-encoding" not in plain_h, "plain catalogue: %d %s" % (status, plain_h))
    status, gz_h, gz = get("/play/catalogue.json", {"Accept-Encoding": "gzip, deflate, br"})
    e2e.check(status == 200 and gz_h.get("content-encoding") == "gzip", "gzip catalogue: %d %s" % (status, gz_h))
    e2e.check(gz_h.get("vary") == "Accept-Encoding", "Vary: %s" % gz_h.get("vary"))
    e2e.check(gzip.decompress(gz) == plain, "the gzip body decodes to the file")
    e2e.check(gz_h["etag"] != plain_h["etag"], "one ETag per encoding")
    status, _, body = get("/play/catalogue.json", {"Accept-Encoding": "gzip", "If-None-Match": gz_h["etag"]})
    e2e.check(status == 304 and body == b"", "revalidated gzip catalogue: %d" % status)
    e2e.log("catalogue: %d bytes, %d gzip-compressed" % (len(plain), len(gz)))


def constructed_decks(catalogue, seed):
    with open(catalogue) as f:
        ids = [c["id"] for c in json.load(f)["cards"]]
    rng = random.Random(seed)
    return rng.sample(ids, 8), rng.sample(ids, 8)


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()

    a_args, b_args = ["--format", args.format], []
    if args.exhaustion:
        a_args.append("--exhaustion")
    if args.format == "constructed":
        e2e.check(args.catalogue, "--catalogue is needed for constructed decks")
        deck_a, deck_b = constructed_decks(args.catalogue, args.seed)
        e2e.log("decks:", deck_a, deck_b)
        a_args += ["--cards", ",".join(deck_a)]
        b_args += ["--cards", ",".join(deck_b)]
    else:
        a_args += ["--deck", "1"]
        b_args += ["--deck", "3"]

    a, b, room = e2e.play_duel(args, work, server, a_args, b_args, timeout=60)
    sa, sb = e2e.check_results(a, b)

    # Each accepted action was acknowledged to the seat that sent it, once.
    acks_a, acks_b = a.acks(), b.acks()
    e2e.check(sorted(acks_a + acks_b) == list(range(1, sa["seq"] + 1)),
              "acknowledged seqs are not exactly 1..%d: a %s, b %s" % (sa["seq"], acks_a, acks_b))
    e2e.check(len(acks_a) == sa["actions"] and len(acks_b) == sb["actions"], "ack files and summaries disagree")

    rec, actions = e2e.check_stored_match(args, db, room, sa["seq"], acks_a + acks_b)
    options = json.loads(rec["options_json"])
    e2e.check(rec["format"] == args.format, "stored format %s" % rec["format"])
    e2e.check(options.get("exhaustion") is args.exhaustion, "stored options %s" % rec["options_json"])
    winners = json.loads(rec["winners"])
    winner_seats = {s["seat"] for s in (sa, sb) if s["result"] == "win"}
    e2e.check(set(winners) == winner_seats, "stored winners %s, the bots say %s" % (winners, winner_seats))
    e2e.check(rec["reason"] == sa["reason"], "stored reason %s, the bots say %s" % (rec["reason"], sa["reason"]))
    # Each stored action is by the seat that had it acknowledged.
    seat_of_bot = {"a": sa["seat"], "b": sb["seat"]}
    for seq, seat, _ in actions:
        who = "a" if seq in acks_a else "b"
        e2e.check(seat == seat_of_bot[who], "action %d stored for seat %d, acknowledged to bot %s" % (seq, seat, who))
    decks = [json.loads(s["deck_json"]) for s in rec["seats"]]
    if args.format == "constructed":
        e2e.check(all("cards" in d and len(d["cards"]) == 8 for d in decks), "stored decks %s" % decks)
    # The views the bots got carry the room's rule.
    first_state = [m for m in a.frames() if m["type"] == "state"][0]
    e2e.check(first_state["view"]["exhaustion_rule"] is args.exhaustion, "view.exhaustion_rule")

    server.check_healthy()
    check_static_gzip(server)
    status, body = server.http_get("/metrics")
    e2e.check(status == 200, "/metrics answered %d" % status)
    # SIGTERM: a graceful shutdown, exit 0 (under ASan: no report either).
    server.stop(strict=args.check_shutdown)


if __name__ == "__main__":
    e2e.main(test, __doc__, extra)
