#!/usr/bin/env python3
"""End to end: a computer player (cod-bot --policy search --level 1) plays a
whole preconstructed duel against a random cod-bot on a real cod-server, to
match_over. Every one of its moves is the search's (none falls back to a
random one: each view decoded and made a world the search could play), and
every frame it received matches the schemas (the views with the fields the
decoder reads).

  test_search_bot.py --server S --bot B [--level N] [--think-ms MS]
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402

POLICY_RE = re.compile(r"^cod-bot: policy=(\w+) level=(\d+|-) decisions=(\d+) fallbacks=(\d+) iterations=(\d+) known_decks=(\d+)$", re.M)


def extra(ap):
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--think-ms", type=int, default=50)


def test(args, work):
    server = e2e.Server(args.server, work, os.path.join(work, "cod.db")).start()
    searching = ["--deck", "1", "--policy", "search", "--level", str(args.level), "--think-ms", str(args.think_ms)]
    a, b, room = e2e.play_duel(args, work, server, searching, ["--deck", "3"], timeout=60)
    sa, sb = e2e.check_results(a, b)

    found = POLICY_RE.findall(a.output())
    e2e.check(found, "the searching bot printed no policy line:\n%s" % a.output()[-2000:])
    policy, level, decisions, fallbacks, iterations, known = found[-1]
    e2e.log("search bot: level %s, %s decisions (%s iterations), %s fell back to random; result %s (%s)" %
            (level, decisions, iterations, fallbacks, sa["result"], sa["reason"]))
    e2e.check(policy == "search" and int(level) == args.level, "policy line %s" % (found[-1],))
    e2e.check(int(decisions) > 0 and int(iterations) > 0, "the search made no decision")
    # RULING E82: the match's state gave both deck lists (the search samples
    # the opponent's unseen cards from its list, not the whole catalogue).
    e2e.check(int(known) == 2, "the search knew %s deck lists, not 2" % known)
    e2e.check(int(fallbacks) == 0, "moves fell back to random:\n%s" % a.output()[-2000:])
    e2e.check(not POLICY_RE.findall(b.output()), "the random bot printed a policy line")
    e2e.check_frames_schema(["%s.%d" % (a.dump_file, a.runs)])
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__, extra, time_limit=60)
