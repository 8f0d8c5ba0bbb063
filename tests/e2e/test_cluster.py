#!/usr/bin/env python3
"""End to end, a cluster (docs/cluster.md): a throwaway PostgreSQL, three
cod-server nodes on it (n1, n2, n3) and HAProxy in front over TLS; every
bot connects through the proxy only.

1. Failover: --duels duels, --ffa four-player free-for-alls, --solo games
   against the AI and --drafts drafted duels of cod-bots, created through
   the proxy (round robin puts them on every node); once
   every match is under way, the node with the most rooms is killed (-9).
   Its bots lose their connection (exit 3) and come back with their tokens
   through the proxy, which sends each room to one of the two other nodes;
   that node takes the room over from the store at once, its lease still
   live (the dead node's liveness lock went with its PostgreSQL session):
   rooms are taken over before the leases they held at the kill expire,
   which without the liveness lock no claim can do (how many depends on how
   fast 80 bots reconnect on a busy machine: at least a tenth; the delays
   are printed). Every match finishes (the AI's seats and the drafts are
   rebuilt from the log like the rest).
2. Handover and a whole-cluster restart: the dead node comes back and
   --restart-duels new duels start (slower). The node with the most of them
   is stopped gracefully (SIGTERM): it gives its leases up, its bots come
   back through the proxy and play on at once on the other nodes. It starts
   again; its rooms' bots reconnect (their clients restarted), the proxy
   sends them to the room's own node again, which asks the room's holder to
   hand it over ("handed over" in the holder's log): the room moves back
   with its seats. Then the node with the most rooms is paused (SIGSTOP)
   for longer than a lease: its PostgreSQL session lives on (its kernel
   answers), so its liveness lock holds and nobody takes its rooms early;
   once its leases expire, the players of some of its rooms, restarted,
   play on elsewhere, and its other rooms are swept while their players
   still wait on it. Resumed (SIGCONT), it writes nothing more to them (the
   fence refuses its pending writes, or its renewal finds them gone) and
   its players follow the rooms. Then every node is killed (-9) in
   mid-play, all three start again on the same store, and every match
   resumes and finishes.
3. A tournament, created and played through the proxy, runs on the node
   that created it; that node is killed in mid-round and stays down: its
   games' rooms are taken over like the others and finish; the node its
   players' next tournament_join reaches (the proxy hashes the tournament
   id) takes the tournament over, counts those results, runs round 2 and
   finishes it. In round 2 one game's bots resume their seats on the third
   node (the room moves there), and the organiser gives one of them a game
   loss through the proxy: the tournament's node brings the room back,
   concedes the seat, and the match's end is counted.
4. A mutation league of four bots, created through the proxy: its node is
   killed in round 1's mutation phase, the node its bots reach next (they
   start again with their tokens alone) takes it over from the store and is
   killed in turn in a round's duels; the last node brings the duels' rooms
   to itself and finishes the league. Its standings are the schedule's
   (R15.7), each duel's result its stored match's, and every node (the two
   killed ones started again) reads the same standings from the store.

For every match: every action a bot saw acknowledged is in the store, the
stored seqs are 1..N with N the bots' final seq, the match is finished,
and `cod-admin --store URI verify-all` verifies every match of the store.

  test_cluster.py --server S --bot B --admin A [--duels N] [--ffa N] [--solo N] [--drafts N]
                  [--restart-duels N] [--only tournament|league]
"""

import datetime
import http.client
import json
import os
import re
import signal
import ssl
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402

NODES = ("n1", "n2", "n3")
ORGANISER = "e2e-organiser-token-c1u5t3r"
# A node's liveness lock (server/persist/pg/pg_liveness.hpp): held while its
# PostgreSQL session lives.
LIVENESS_LOCK = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %d AND "
                 "objid = hashtext(:'p1')::oid AND objsubid = 2 AND granted AND "
                 "database = (SELECT oid FROM pg_database WHERE datname = current_database())" % 0x436f4431)


def extra(ap):
    ap.add_argument("--duels", type=int, default=100)
    ap.add_argument("--ffa", type=int, default=10)
    ap.add_argument("--solo", type=int, default=3)
    ap.add_argument("--drafts", type=int, default=3)
    ap.add_argument("--restart-duels", type=int, default=10)
    ap.add_argument("--delay-ms", type=int, default=150, help="each bot's pause before an action")
    ap.add_argument("--only", choices=["tournament", "league"], help="run that phase alone (debugging)")


class Cluster:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.pg = e2e.Postgres(work)
        self.servers = {}
        for node in NODES:
            # --grace-period-sec covers the takeover.
            self.servers[node] = e2e.Server(args.server, work, None, name=node,
                                            extra=["--store", self.pg.uri, "--node-id", node,
                                                   "--organiser-token", ORGANISER,
                                                   "--grace-period-sec", "120", "--log-level", "info"]).start()
        self.proxy, self.port, self.ca = e2e.start_proxy(work, self.servers)
        self.url = ["--url", "wss://localhost:%d/ws" % self.port, "--tls-ca", self.ca]

    def bot(self, name, args, delay_ms=None):
        return e2e.Bot(self.args.bot, self.work, name, self.servers["n1"].port,
                       args + self.url + ["--delay-ms", str(delay_ms or self.args.delay_ms), "--timeout-sec", "240"])


# A kind of room: how it is created, and its human seats.
KINDS = {
    "duel": (["--mode", "duel", "--deck", "1"], 2),
    "ffa": (["--mode", "ffa", "--deck", "1"], 4),
    "solo": (["--mode", "solo", "--deck", "1"], 1),
    "draft": (["--mode", "duel", "--format", "draft", "--seat", "0"], 2),
}


DRAFTED = set()  # rooms that draft first: under way once seated


def start_games(c, prefix, duels, ffas, delay_ms=None, solos=0, drafts=0):
    """{room: [bots]}: each room's creator first, then its joiners."""
    games = {}
    creators = []
    kinds = ["duel"] * duels + ["ffa"] * ffas + ["solo"] * solos + ["draft"] * drafts
    for g, kind in enumerate(kinds):
        a = c.bot("%s%d-0" % (prefix, g), ["--create", "--seed", str(g)] + KINDS[kind][0], delay_ms).start()
        creators.append((a, kind))
    for g, (a, kind) in enumerate(creators):
        room = a.token(60)["room"]
        games[room] = [a]
        if kind == "draft":
            DRAFTED.add(room)
        for s in range(1, KINDS[kind][1]):
            # A drafted room's joiner brings no deck: it drafts one.
            deck = ["--seat", str(s)] if kind == "draft" else ["--deck", str(1 + s)]
            b = c.bot("%s%d-%d" % (prefix, g, s), ["--room", room, "--seed", str(g * 4 + s)] + deck, delay_ms)
            games[room].append(b.start())
    for room, bots in games.items():
        for b in bots[1:]:
            b.token(60)
    e2e.log("%d rooms under way: %s" % (len(games), by_node(games)))
    return games


def by_node(games):
    count = {}
    for room in games:
        count[room.split("-")[0]] = count.get(room.split("-")[0], 0) + 1
    return count


def wait_under_way(games, acks_each, timeout=120):
    """Until every room has `acks_each` acknowledged actions (or is over)."""
    deadline = time.time() + timeout
    while True:
        slow = [room for room, bots in games.items()
                if room not in DRAFTED and sum(len(b.acks()) for b in bots) < acks_each and
                all(b.proc.poll() is None for b in bots)]
        if not slow:
            return
        check(time.time() < deadline, "%d rooms have fewer than %d actions after %d s" % (len(slow), acks_each, timeout))
        time.sleep(0.2)


def resume(c, room, b, delay_ms=None):
    b.start(["--room", room, "--resume", b.token()["token"], "--seed", "7"] + c.url +
            ["--delay-ms", str(delay_ms or c.args.delay_ms), "--timeout-sec", "240"])


def finish_all(c, games, timeout=240, until=None, delay_ms=None):
    """Waits for every bot; one that lost its connection (exit 3) comes back
    with its token through the proxy, as many times as it must. With
    `until`: returns as soon as until() is true."""
    deadline = time.time() + timeout
    resumed = 0
    pending = [(room, b) for room, bots in games.items() for b in bots]
    while pending and not (until and until()):
        check(time.time() < deadline, "%d bots still playing after %d s" % (len(pending), timeout))
        still = []
        for room, b in pending:
            code = b.proc.poll()
            if code is None:
                still.append((room, b))
            elif code == 3:
                check(b.runs < 8, "bot %s lost its connection %d times:\n%s" % (b.name, b.runs, b.output()[-3000:]))
                resume(c, room, b, delay_ms)
                resumed += 1
                still.append((room, b))
            else:
                check(code == 0, "bot %s exited %s:\n%s" % (b.name, code, b.output()[-3000:]))
        pending = still
        time.sleep(0.1)
    return resumed


def unfinished_rooms(c):
    return {r[0] for r in c.pg.query("SELECT room_id FROM matches WHERE status <> 'finished'")}


def seated_summary(b):
    """The bot's last summary line that names its seat (a run refused at
    resume names none)."""
    found = [m for m in e2e.SUMMARY_RE.findall(b.output()) if m[1] != "-"]
    check(found, "bot %s never had a seat" % b.name)
    return {"seat": int(found[-1][1]), "seq": int(found[-1][5])}


def check_games(c, games):
    for room, bots in games.items():
        sums = [seated_summary(b) for b in bots]
        final = max(s["seq"] for s in sums)
        # Every bot saw the end, one whose match ended with its node's last
        # action too (another node showed it the finished room).
        check(final > 0 and all(s["seq"] == final for s in sums),
              "room %s: final seqs %s" % (room, [s["seq"] for s in sums]))
        check(sorted(s["seat"] for s in sums) == list(range(len(bots))), "room %s: seats %s" % (room, sums))
        rows = c.pg.query("SELECT m.status, a.seq FROM matches m JOIN match_actions a ON a.match_id = m.match_id "
                          "WHERE m.room_id = :'p1' ORDER BY a.seq", room)
        check(rows, "room %s: no stored actions" % room)
        check({r[0] for r in rows} == {"finished"}, "room %s: status %s" % (room, {r[0] for r in rows}))
        stored = [int(r[1]) for r in rows]
        check(stored == list(range(1, final + 1)), "room %s: stored seqs %s..%s (%d), bots saw seq %d" %
              (room, stored[:3], stored[-3:], len(stored), final))
        acked = set()
        for b in bots:
            acked |= set(b.acks())
        missing = sorted(acked - set(stored))
        check(not missing, "room %s: acknowledged actions missing from the store: %s" % (room, missing))
    e2e.log("%d matches: stored whole, every acknowledged action in the store" % len(games))


def takeover_times(c, rooms, since, nodes):
    """{room: the time.time() of its first "taken over" line in the logs of
    `nodes` since `since`} (their clocks are this machine's)."""
    line = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\] \[\w+\] cluster: room (\S+) taken over \(",
                      re.M)
    first = {}
    for n in nodes:
        for stamp, room in line.findall(c.servers[n].log()):
            at = datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f").timestamp()
            if room in rooms and at >= since - 1:
                first[room] = min(first.get(room, at), at)
    return first



def pause_past_lease(c, games, slow):
    """SIGSTOP the node holding the most of `games`' unfinished rooms for
    longer than a lease. Its liveness lock holds (its session lives), so its
    rooms stay its own until their leases expire; then the restarted players
    of half of them take theirs elsewhere through the proxy, and the other
    half are swept while their players still wait on the paused node. After
    SIGCONT it writes none of them again: the fence refuses its pending
    writes, or its renewal finds the rooms gone, and it moves them away."""
    holders = dict(c.pg.query("SELECT room_id, node_id FROM room_leases"))
    playing = unfinished_rooms(c)
    on = {}
    for room in games:
        if room in playing and room in holders:
            on.setdefault(holders[room], []).append(room)
    check(on, "no room of %s is still playing" % sorted(games))
    node = max(sorted(on), key=lambda n: len(on[n]))
    rooms = sorted(on[node])
    moved, stay = rooms[:len(rooms) // 2], rooms[len(rooms) // 2:]
    srv = c.servers[node]
    e2e.log("SIGSTOP %s (rooms %s)" % (node, rooms))
    srv.proc.send_signal(signal.SIGSTOP)
    paused_at = time.time()
    try:
        time.sleep(0.8)
        leases = dict(c.pg.query("SELECT room_id, node_id FROM room_leases"))
        sampled = time.time() - paused_at
        check(c.pg.query(LIVENESS_LOCK, node) == [["1"]], "paused %s lost its liveness lock" % node)
        # A lease lasts 3 s from its last renewal, at most 1 s before the pause.
        if sampled < 1.9:
            check(all(leases.get(r) == node for r in rooms),
                  "rooms of paused %s taken within %.1f s: %s" % (node, sampled, leases))
        # The proxy's checks time out on the paused node: down after two (1.5 s).
        time.sleep(max(0.0, 2.5 - (time.time() - paused_at)))
        acks_at = {room: sum(len(b.acks()) for b in games[room]) for room in moved}
        for room in moved:
            for b in games[room]:
                if b.proc.poll() is None:
                    b.proc.kill()
                    b.proc.wait()
                resume(c, room, b, slow)
        deadline = time.time() + 20
        while True:
            leases = dict(c.pg.query("SELECT room_id, node_id FROM room_leases"))
            playing = unfinished_rooms(c)
            if all(leases.get(r) not in (None, node) or r not in playing for r in rooms):
                break
            check(time.time() < deadline, "rooms of paused %s not taken over: %s" % (node, leases))
            time.sleep(0.2)
        check(c.pg.query(LIVENESS_LOCK, node) == [["1"]], "paused %s lost its liveness lock" % node)
    finally:
        srv.proc.send_signal(signal.SIGCONT)
    paused_for = time.time() - paused_at
    # Its rooms' players meanwhile: the restarted ones played on elsewhere.
    finish_all(c, {r: games[r] for r in moved}, timeout=60, delay_ms=slow,
               until=lambda: all(sum(len(b.acks()) for b in games[r]) >= acks_at[r] + 2 or r not in unfinished_rooms(c)
                                 for r in moved))

    def moved_away():
        return all(("room %s: moved away" % r) in srv.log() for r in stay)
    deadline = time.time() + 20
    while not moved_away():
        check(time.time() < deadline, "%s still runs %s after SIGCONT:\n%s" % (node, stay, srv.log()[-3000:]))
        time.sleep(0.1)
    refused = sum(("room %s: the store refused a write" % r) in srv.log() for r in stay)
    check("does not hold its liveness lock" not in srv.log(), "%s lost its liveness lock:\n%s" %
          (node, srv.log()[-3000:]))
    srv.check_healthy()
    e2e.log("%s paused for %.1f s: its liveness lock held, its rooms taken only after their leases expired (%d "
            "resumed elsewhere, %d swept); after SIGCONT %d of its writes fenced off, every room moved away" %
            (node, paused_for, len(moved), len(stay), refused))


def organise(c, method, path, body=None, want=(200,)):
    """The organiser API through the proxy (HTTPS): the answer's body, or
    None for a status in `want` other than the first."""
    conn = http.client.HTTPSConnection("localhost", c.port, timeout=10,
                                       context=ssl.create_default_context(cafile=c.ca))
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + ORGANISER})
        r = conn.getresponse()
        text = r.read().decode()
    finally:
        conn.close()
    want = want if isinstance(want, tuple) else (want,)
    check(r.status in want, "%s %s: %d, wanted %s: %s" % (method, path, r.status, want, text))
    return json.loads(text) if text and r.status == want[0] else None


def tournament_failover(c):
    """A tournament runs on the node that created it. That node is killed in
    mid-round and stays down: its games' rooms fail over like any other and
    finish; the tournament's next request through the proxy (its players'
    tournament_join, hashed by its id) moves it to another node, which
    counts those results from the store, starts round 2 (auto_advance) and
    runs it to the end. The node comes back to a finished tournament."""
    t = organise(c, "POST", "/admin/api/tournaments",
                 {"name": "Cluster cup", "players": ["Ada", "Bo", "Cy", "Di"], "rounds": 2, "auto_advance": True},
                 201)
    tid = t["tournament"]
    owner = tid.split("-")[0]
    check(owner in NODES, "tournament id %s names no node" % tid)
    organise(c, "POST", "/admin/api/tournaments/%s/rounds" % tid, {})

    # Each token names the tournament ("ID.HEX"): a bot given the token alone
    # connects with /ws?room=ID, so the proxy sends it where the tournament runs.
    for p in t["players"]:
        check(p["token"].startswith(tid + "."), "token %s does not name tournament %s" % (p["token"], tid))

    def players(run):
        return [c.bot("t%d-%d" % (run, i), ["--tournament-token", p["token"],
                                             "--deck", str(1 + i), "--seed", str(90 + 10 * run + i)]).start()
                for i, p in enumerate(t["players"])]

    games = {}
    for b in players(1):
        room = b.token(60)["room"]
        check(room.startswith(owner + "-"), "tournament room %s is not on %s" % (room, owner))
        games.setdefault(room, []).append(b)
    check(len(games) == 2, "tournament rooms %s" % list(games))
    wait_under_way(games, 4)
    c.servers[owner].kill9()
    resumed = finish_all(c, games)  # round 1's games finish on other nodes
    check_games(c, games)
    # Round 2, the owner still down: the players come back as tournament players.
    round2 = players(2)
    loss = game_loss_elsewhere(c, tid, owner, round2)
    for b in round2:
        if b in loss["replaced"]:
            continue
        code = b.wait(240)
        check(code == 0, "round-2 bot %s exited %s:\n%s" % (b.name, code, b.output()[-3000:]))
    st = organise(c, "GET", "/admin/api/tournaments/" + tid)
    check(st["stage"] == "finished", "tournament %s: stage %s after round 2: %s" %
          (tid, st["stage"], json.dumps(st["rounds"])))
    check(len(st["rounds"]) == 2, "tournament %s: %d rounds" % (tid, len(st["rounds"])))
    runner = [n for n in NODES if n != owner and "tournament %s taken over" % tid in c.servers[n].log()]
    check(len(runner) >= 1, "no node says it took tournament %s over" % tid)
    for r in st["rounds"]:
        for p in r["pairings"]:
            for g in p["games"]:
                check(g["decided"], "tournament %s round %d table %d: a game undecided" % (tid, r["round"], p["table"]))
                rows = c.pg.query("SELECT status FROM matches WHERE match_id = :'p1'", g["match_id"])
                check(rows == [["finished"]], "game %s: stored %s" % (g["match_id"], rows))
    round2_rooms = {b.token()["room"] for b in round2}
    check(not any(r.startswith(owner + "-") for r in round2_rooms),
          "round 2 rooms %s: some on the dead node %s" % (sorted(round2_rooms), owner))
    # The owner comes back (the proxy sends it the tournament's requests
    # again once its health checks pass): the tournament stays finished.
    c.servers[owner].start()
    for _ in range(6):
        back = organise(c, "GET", "/admin/api/tournaments/" + tid)
        check(back["stage"] == "finished", "tournament %s: stage %s with %s back" % (tid, back["stage"], owner))
        time.sleep(0.5)
    e2e.log("tournament %s of %s: its node killed in round 1 and kept down; its %d games finished on other nodes "
            "(%d bots resumed); %s took the tournament over, ran round 2 and finished it" %
            (tid, owner, len(games), resumed, ", ".join(runner)))


def game_loss_elsewhere(c, tid, owner, bots):
    """An organiser's game loss on a game whose room plays on another node
    than the tournament's: the two bots of one round-2 game are stopped and
    resume their seats on a node the tournament does not run (connecting to
    it directly, so that it asks for the room); the organiser's game loss,
    sent through the proxy to the tournament's node, brings the room back
    there and concedes the player's seat. The match ends as the act says and
    the tournament counts it; the two players come back as tournament
    players for whatever their pairing still needs."""
    seats = {}
    for b in bots:
        seats.setdefault(b.token(60)["room"], []).append(b)
    room, pair = sorted(seats.items())[0]
    runner = room.split("-")[0]
    check(runner != owner, "round 2 room %s on the dead node" % room)
    elsewhere = [n for n in NODES if n not in (owner, runner)][0]
    wait_under_way({room: pair}, 4)
    tokens = {}
    for b in pair:
        b.proc.kill()
        b.proc.wait()
        tokens[b.name] = b.token()
        b.start(["--room", room, "--resume", tokens[b.name]["token"], "--seed", "7",
                 "--delay-ms", str(c.args.delay_ms), "--timeout-sec", "240"], port=c.servers[elsewhere].port)
    deadline = time.time() + 60
    while "room %s taken over" % room not in c.servers[elsewhere].log():
        check(time.time() < deadline, "room %s did not move to %s" % (room, elsewhere))
        time.sleep(0.1)
    wait_under_way({room: pair}, 8)
    st = organise(c, "GET", "/admin/api/tournaments/" + tid)
    pairing = [p for p in st["rounds"][-1]["pairings"]
               if any(g.get("match_id", "").startswith(room + "-") for g in p["games"])]
    check(len(pairing) == 1, "no pairing of tournament %s plays in room %s: %s" % (tid, room, st["rounds"][-1]))
    game = [g for g in pairing[0]["games"] if g.get("match_id", "").startswith(room + "-")][0]
    loser = pairing[0]["a"]
    organise(c, "POST", "/admin/api/tournaments/%s/game_loss" % tid, {"player": loser["player"], "reason": "e2e"})
    deadline = time.time() + 30
    while True:
        rows = c.pg.query("SELECT status, reason, winners FROM matches WHERE match_id = :'p1'", game["match_id"])
        if rows and rows[0][0] == "finished":
            break
        check(time.time() < deadline, "match %s not ended by the game loss: %s" % (game["match_id"], rows))
        time.sleep(0.1)
    result = {"reason": rows[0][1], "winners": json.loads(rows[0][2])}
    check(result["reason"] == "concession" and result["winners"] == [1],
          "match %s after a game loss of seat 0: %s" % (game["match_id"], result))
    check("room %s taken over" % room in c.servers[runner].log() or "room %s handed over" % room in
          c.servers[elsewhere].log(), "room %s did not come back to %s for the game loss" % (room, runner))
    after = organise(c, "GET", "/admin/api/tournaments/" + tid)
    counted = [g for p in after["rounds"][-1]["pairings"] for g in p["games"] if g.get("match_id") == game["match_id"]]
    check(counted and counted[0]["decided"], "tournament %s: the game loss's match %s not counted: %s" %
          (tid, game["match_id"], after["rounds"][-1]))
    for b in pair:
        b.proc.kill()
        b.proc.wait()
    # Its players come back as tournament players for what their pairing needs.
    index = {b.name: i for i, b in enumerate(bots)}
    again = [c.bot("t3-%d" % index[b.name], b.args).start() for b in pair]
    for b in again:
        code = b.wait(240)
        check(code == 0, "bot %s after the game loss exited %s:\n%s" % (b.name, code, b.output()[-3000:]))
    e2e.log("tournament %s: a game loss on match %s, played on %s while %s ran the tournament: the room came back "
            "to %s, the match ended (%s) and was counted" % (tid, game["match_id"], elsewhere, runner, runner,
                                                             result["reason"]))
    return {"replaced": pair}


def league_failover(c):
    """A mutation league of four bots, created through the proxy, runs on the
    node that created it. That node is killed (-9) in round 1's mutation
    phase and stays down: the bots, started again with their tokens alone,
    reach (the proxy hashes the league id) a node that takes it over from the
    store. That node is killed in turn while a round's duels are played: the
    last node takes the league and its duels' rooms over and finishes it. Its
    standings are those the schedule gives (R15.7), every duel's result its
    stored match's, and every node, reading the stored league, agrees."""
    created = organise(c, "POST", "/admin/api/leagues",
                       {"name": "Cluster league", "players": ["Ann", "Bob", "Cy", "Di"],
                        "packs": ["initiation", "treachery"], "seed": "4242", "phase_clock_sec": 60}, want=(201,))
    lid = created["league"]
    first = lid.split("-")[0]
    check(first in NODES and lid[len(first) + 1] == "l", "league id %s names no node" % lid)
    tokens = [p["token"] for p in created["players"]]
    check(all(t.startswith(lid + ".") for t in tokens), "tokens %s do not name league %s" % (tokens, lid))
    # A bot thinks 400 ms over each league op (a mutation phase lasts that
    # long: the kill lands in it) and 50 ms over each action of its duels.
    bots = [c.bot("league-%d" % i, ["--league-token", t, "--seed", str(300 + i), "--league-delay-ms", "400"],
                  delay_ms=50) for i, t in enumerate(tokens)]
    for b in bots:
        b.start()

    def league(pred, what, timeout=120):
        deadline = time.time() + timeout
        while True:
            st = organise(c, "GET", "/admin/api/leagues/" + lid)
            if pred(st):
                return st
            check(time.time() < deadline, "league %s: %s not reached in %d s (stage %s, round %s)" %
                  (lid, what, timeout, st["stage"], st["round"]))
            for b in bots:
                code = b.proc.poll()
                check(code is None or code in (0, 3), "bot %s exited %s:\n%s" % (b.name, code, b.output()[-3000:]))
            time.sleep(0.05)

    def kill_runner(node, why):
        c.servers[node].kill9()
        for b in bots:
            code = b.wait(30)
            check(code == 3, "bot %s: exit %s after %s's SIGKILL, wanted 3:\n%s" % (b.name, code, node,
                                                                                   b.output()[-3000:]))
        e2e.log("league %s: its node %s killed %s" % (lid, node, why))
        for b in bots:
            b.start()

    league(lambda st: st["stage"] == "mutating", "round 1's mutation phase")
    kill_runner(first, "in the mutation phase")

    def duel_under_way(st):
        if st["stage"] != "playing":
            return False
        tables = st["schedule"][st["round"] - 1]["tables"]
        return any(g["match"] and g["round"] == st["round"] and not tables[g["table"]]["decided"] for g in st["games"])
    st = league(duel_under_way, "a duel under way on the node that took it over")
    second = [n for n in NODES if n != first and "cluster: league %s taken over" % lid in c.servers[n].log()]
    check(len(second) == 1, "nodes that say they took league %s over: %s" % (lid, second))
    second = second[0]
    kill_round = st["round"]
    kill_runner(second, "in round %d's duels" % kill_round)
    codes = e2e.wait_bots(bots, 240)
    check(all(code == 0 for code in codes.values()), "league bots' exit codes %s" % codes)
    last = [n for n in NODES if n not in (first, second)][0]
    check("cluster: league %s taken over" % lid in c.servers[last].log(), "%s did not take league %s over" % (last, lid))

    st = organise(c, "GET", "/admin/api/leagues/" + lid)
    check(st["stage"] == "finished", "league %s: stage %s" % (lid, st["stage"]))
    # R15.7 from the schedule: wins, and place = 1 + the players with more.
    wins = {s: 0 for s in range(4)}
    for r in st["schedule"]:
        for t in r["tables"]:
            check(t["decided"], "league round %d table %d undecided" % (r["round"], t["table"]))
            if t["winner"] is not None:
                wins[t["winner"]] += 1
    for p in st["players"]:
        place = 1 + sum(1 for o in range(4) if wins[o] > wins[p["seat"]])
        check(p["won"] == wins[p["seat"]] and p["played"] == 6 and p["place"] == place,
              "league standing %s: won %d, place %d computed" % (p, wins[p["seat"]], place))
    # Every duel's result is its stored match's (the matches played across
    # two failovers included), as the league's export carries them.
    export = organise(c, "GET", "/admin/api/leagues/%s/export" % lid)
    matches = {m["match"]["match_id"]: m for m in export["matches"]}
    for r in st["schedule"]:
        for t in r["tables"]:
            decided = []
            for g in st["games"]:
                if g["round"] != r["round"] or g["table"] != t["table"] or not g["match"]:
                    continue
                sm = matches.get(g["match"])
                check(sm is not None, "league %s: match %s not exported" % (lid, g["match"]))
                if (sm["result"] or {}).get("reason") not in ("voided", "aborted", None):
                    decided.append(sm)
            check(len(decided) == 1, "league round %d table %d: %d decided matches" % (r["round"], t["table"],
                                                                                      len(decided)))
            w = decided[0]["result"]["winners"]
            check(t["winner"] == (t["seats"][w[0]] if len(w) == 1 else None),
                  "league round %d table %d: league says %s, match says %s" % (r["round"], t["table"], t["winner"], w))
    # The dead nodes come back; every node computes the same standings from
    # the stored league (a node that does not run it replays its record).
    c.servers[first].start()
    c.servers[second].start()
    for n in NODES:
        conn = http.client.HTTPConnection(e2e.LOOPBACK, c.servers[n].port, timeout=10)
        try:
            conn.request("GET", "/admin/api/leagues/%s/standings" % lid, headers={"Authorization": "Bearer " + ORGANISER})
            r = conn.getresponse()
            status, body = r.status, r.read().decode()
        finally:
            conn.close()
        check(status == 200, "node %s: GET the standings of league %s: %d %s" % (n, lid, status, body))
        got = json.loads(body)
        check(got["standings"] == st["players"], "node %s's standings of league %s: %s, not %s" %
              (n, lid, got["standings"], st["players"]))
    e2e.log("league %s of %s: killed in the mutation phase, run on %s, killed in round %d's duels, finished on %s; "
            "ranking %s" % (lid, first, second, kill_round, last,
                            ", ".join("%d. %s (%d)" % (p["place"], p["name"], p["won"]) for p in st["players"])))


def verify_all(c):
    rc, out = e2e.run_admin_store(c.args.admin, c.pg.uri, "verify-all", timeout=300)
    check(rc == 0, "cod-admin verify-all (%d):\n%s" % (rc, out[-3000:]))
    e2e.log(out.strip().splitlines()[-1])


def test(args, work):
    c = Cluster(args, work)
    if args.only:  # one phase alone, for debugging it
        {"tournament": tournament_failover, "league": league_failover}[args.only](c)
        for n in NODES:
            c.servers[n].stop(strict=True)
        return

    # 1. Failover.
    # Slower bots than the default: the 116 rooms are launched one after
    # another (a joiner once its creator is seated), and at the default pace
    # the first rooms' games ended before the last were under way (on a slow
    # machine 9 of the 40 rooms were left at the kill; under ASan, whose
    # processes start slowly, 4).
    pace = (8 if os.environ.get("ASAN_OPTIONS") else 4) * args.delay_ms
    games = start_games(c, "f", args.duels, args.ffa, pace, solos=args.solo, drafts=args.drafts)
    nodes = by_node(games)
    check(len(nodes) == 3, "round robin left a node without rooms: %s" % nodes)
    wait_under_way(games, 4)
    victim = max(nodes, key=lambda n: nodes[n])
    doomed = [room for room in games if room.startswith(victim + "-")]
    unfinished = [room for room in doomed if any(b.proc.poll() is None for b in games[room])]
    # Each lease's end as last renewed before the kill (the store's clock, in
    # ms since the epoch): a renewal after this read only moves it later.
    lease_ends = {r[0]: int(r[1]) / 1000.0 for r in
                  c.pg.query("SELECT room_id, expires_ms FROM room_leases WHERE node_id = :'p1'", victim)}
    c.servers[victim].kill9()
    killed_at = time.time()
    resumed = finish_all(c, games)
    e2e.log("failover: %s killed with %d rooms (bots still running in %d); %d bots resumed through the proxy" %
            (victim, len(doomed), len(unfinished), resumed))
    # Taken over at once (no lease waited out), bots restarted by this loop included.
    taken = takeover_times(c, set(doomed), killed_at, [n for n in NODES if n != victim])
    delays = sorted(at - killed_at for at in taken.values())
    check(delays, "no room of %s taken over" % victim)
    early = [room for room, at in taken.items() if room in lease_ends and at < lease_ends[room]]
    e2e.log("rooms of %s taken over after the kill: first %.2f s, median %.2f s, last %.2f s (%d rooms); "
            "%d before their leases expired" %
            (victim, delays[0], delays[len(delays) // 2], delays[-1], len(delays), len(early)))
    # Without the dead node's liveness lock gone, no claim succeeds before
    # the lease ends: any room taken before proves the path; a tenth of them
    # keeps the check clear of one lucky room.
    check(len(early) >= max(1, len(taken) // 10),
          "only %d of %s's %d rooms were taken over before their leases expired" % (len(early), victim, len(taken)))
    check_games(c, games)
    # A room whose match ended with the dead node's last action is rebuilt
    # as a finished room for the bots that had not seen the end.
    taken = sum(c.servers[n].log().count(" taken over (") for n in NODES if n != victim)
    shown = sum(c.servers[n].log().count(" rebuilt as a finished room") for n in NODES if n != victim)
    # The rooms another node had to take over: a bot of theirs lost its
    # connection and came back. Not the rooms whose bots were still running
    # at the kill: a bot that has seen its match end may not have exited yet.
    live = [r for r in doomed if any(b.runs > 1 for b in games[r])]
    check(len(live) >= min(10, len(doomed)), "only %d of %s's %d rooms were still playing at the kill" %
          (len(live), victim, len(doomed)))
    e2e.log("%d rooms of %s taken over (%d drafted, %d solo), %d of them shown finished" %
            (len(live), victim, len([r for r in live if r in DRAFTED]), len([r for r in live if len(games[r]) == 1]),
             shown))
    check(taken + shown >= len(live), "%d rooms taken over and %d shown finished for %d rooms left playing on %s" %
          (taken, shown, len(live), victim))
    for n in NODES:
        if n != victim:
            c.servers[n].check_healthy()

    # 2. A graceful stop, a handover back, and the whole cluster restarts.
    slow = 4 * args.delay_ms
    c.servers[victim].start()
    time.sleep(1.5)  # the proxy's health checks see it up
    games2 = start_games(c, "r", args.restart_duels, 0, slow)
    wait_under_way(games2, 4)
    nodes2 = by_node(games2)
    leaving = max(nodes2, key=lambda n: nodes2[n])
    on_leaving = [room for room in games2 if room.startswith(leaving + "-")]
    acks_at_stop = {room: sum(len(b.acks()) for b in games2[room]) for room in on_leaving}
    stopped_at = time.time()
    c.servers[leaving].stop(strict=True)
    check("room leases released" in c.servers[leaving].log(), "%s did not release its leases:\n%s" %
          (leaving, c.servers[leaving].log()[-2000:]))
    # Its rooms whose match was not over at the stop (the store says so).
    moved = [room for room in on_leaving if room in unfinished_rooms(c)]
    check(moved, "every match of %s ended before its graceful stop" % leaving)

    def played_on():
        # Two more actions each, or the match ended on another node.
        acks = {room: sum(len(b.acks()) for b in games2[room]) - acks_at_stop[room] for room in moved}
        if all(n >= 2 for n in acks.values()):
            return True
        if any(n < 1 for n in acks.values()):
            return False
        playing = unfinished_rooms(c)
        return all(n >= 2 or room not in playing for room, n in acks.items())
    finish_all(c, games2, until=played_on, delay_ms=slow)
    check(played_on(), "the rooms of %s did not play on after its graceful stop" % leaving)
    e2e.log("graceful stop of %s: its %d rooms played on elsewhere within %.1f s" %
            (leaving, len(moved), time.time() - stopped_at))

    c.servers[leaving].start()
    time.sleep(1.5)  # the proxy's health checks see it up
    # The players' clients restart: they reconnect through the proxy. Only
    # the rooms still playing once every such client is gone can go home.
    for room in moved:
        for b in games2[room]:
            if b.proc.poll() is None:
                b.proc.kill()
                b.proc.wait()
    playing = unfinished_rooms(c)
    for room in moved:
        for b in games2[room]:
            resume(c, room, b, slow)
    moved = [room for room in moved if room in playing]
    check(moved, "every match moved away from %s ended before it came back" % leaving)

    def home_again():
        return c.servers[leaving].log().count(" taken over (") >= len(moved)
    finish_all(c, games2, until=home_again, delay_ms=slow)
    check(home_again(), "%s took back %d of its %d rooms" %
          (leaving, c.servers[leaving].log().count(" taken over ("), len(moved)))
    handed = sum(c.servers[n].log().count(" handed over") for n in NODES if n != leaving)
    check(handed >= len(moved), "%d rooms handed over to %s, %d expected" % (handed, leaving, len(moved)))
    e2e.log("handover: %s took its %d rooms back from their holders" % (leaving, len(moved)))

    pause_past_lease(c, games2, slow)

    wait_under_way(games2, 2)
    for n in NODES:
        c.servers[n].kill9()
    for n in NODES:
        c.servers[n].start()
    resumed = finish_all(c, games2, delay_ms=slow)
    e2e.log("whole-cluster restart: %d bots resumed" % resumed)
    check_games(c, games2)

    # 3. A tournament whose node dies in mid-round.
    tournament_failover(c)

    # 4. A league whose node dies in its mutation phase, and its next node in
    # a round's duels.
    league_failover(c)

    verify_all(c)
    check(c.proxy.poll() is None, "haproxy died")
    for n in NODES:
        c.servers[n].check_healthy()
        c.servers[n].stop(strict=True)


if __name__ == "__main__":
    e2e.main(test, __doc__, extra, time_limit=600)
