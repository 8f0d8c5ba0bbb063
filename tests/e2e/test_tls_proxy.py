#!/usr/bin/env python3
"""End to end: TLS at the proxy and routing by room (docs/cluster.md).
scripts/make-cert makes a self-signed certificate, scripts/proxy-config
renders config/haproxy/cod.cfg.in for two cod-server nodes (node_id n1 and
n2, each on its own database), and HAProxy terminates TLS in front of them:

- duels created through the proxy land on both nodes (round robin for
  lobby connections), and their room ids carry the node's id;
- the joining bot of each duel connects through the proxy naming the room
  (/ws?room=ID) and reaches the node that holds it (anywhere else the join
  would be room_not_found); both bots play to match_over over wss://,
  trusting that certificate (--tls-ca), and each match is stored, whole,
  in its node's database only;
- a bot that does not trust the certificate is refused at the TLS
  handshake (exit 3, "certificate verify failed"): cod-bot checks the peer;
- the nodes trust the proxy's address (trusted_proxies): a connection from
  it is the client its X-Forwarded-For names last, and the per-client
  limit of waiting rooms (here 1) counts each client apart, not the
  connection's own address (which every client behind a proxy shares).

  test_tls_proxy.py --server S --bot B [--admin A]
"""

import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def test(args, work):
    servers, dbs = {}, {}
    for node in ("n1", "n2"):
        dbs[node] = os.path.join(work, "%s.db" % node)
        servers[node] = e2e.Server(args.server, work, dbs[node], name=node,
                                   extra=["--node-id", node, "--trusted-proxies", "127.0.0.1",
                                          "--max-waiting-rooms-per-address", "1"]).start()
    proxy, port, ca = e2e.start_proxy(work, servers)
    # "localhost": the name the certificate carries (the bot checks it).
    url = ["--url", "wss://localhost:%d/ws" % port, "--tls-ca", ca]
    any_server = servers["n1"]  # the bots' --port, overridden by --url
    by_node = {"n1": [], "n2": []}
    for game in range(4):
        a = e2e.Bot(args.bot, work, "a%d" % game, any_server.port,
                    ["--create", "--deck", "1", "--timeout-sec", "60"] + url).start()
        room = a.token()["room"]
        b = e2e.Bot(args.bot, work, "b%d" % game, any_server.port,
                    ["--room", room, "--deck", "3", "--timeout-sec", "60"] + url).start()
        codes = e2e.wait_bots([a, b], 70)
        for bot in (a, b):
            check(codes[bot.name] == 0, "bot %s exited %s:\n%s" % (bot.name, codes[bot.name], bot.output()))
        node = room.split("-")[0]
        check(node in by_node and room.startswith(node + "-"), "room id %r does not name a node" % room)
        sa, sb = e2e.check_results(a, b)
        e2e.check_stored_match(args, dbs[node], room, sa["seq"], a.acks() + b.acks())
        other = "n2" if node == "n1" else "n1"
        con = sqlite3.connect("file:%s?mode=ro" % dbs[other], uri=True, timeout=10)
        try:
            elsewhere = con.execute("SELECT COUNT(*) FROM matches WHERE room_id = ?", (room,)).fetchone()[0]
        finally:
            con.close()
        check(elsewhere == 0, "room %s is stored on %s too" % (room, other))
        check("?room=%s" % room in b.output(), "bot b did not name its room in the URL:\n%s" % b.output())
        by_node[node].append(room)
    e2e.log("rooms by node:", by_node)
    check(by_node["n1"] and by_node["n2"], "round robin put every room on one node: %s" % by_node)

    # Not trusting the proxy's certificate: refused at the handshake.
    c = e2e.Bot(args.bot, work, "untrusting", any_server.port,
                ["--url", "wss://localhost:%d/ws" % port, "--create", "--timeout-sec", "10"]).start()
    code = c.wait(20)
    check(code == 3, "a bot without the CA exited %s, not 3:\n%s" % (code, c.output()))
    check("certificate verify failed" in c.output(), "no verification failure reported:\n%s" % c.output())

    # X-Forwarded-For from a trusted proxy (127.0.0.1): each named client
    # has its own waiting room; a second for the same client is refused.
    def create_as(client):
        ws = e2e.WS(servers["n1"].port, headers=[("X-Forwarded-For", "198.51.100.9, " + client)])
        ws.request({"type": "hello", "id": 1, "version": 1})
        reply = ws.request({"type": "create_room", "id": 2, "mode": "duel", "format": "preconstructed"})
        return ws, reply
    held = []
    for client, expected in (("203.0.113.7", "room_created"), ("203.0.113.8", "room_created"),
                             ("203.0.113.7", "error")):
        ws, reply = create_as(client)
        held.append(ws)
        check(reply["type"] == expected, "create_room as %s: %s" % (client, reply))
    check(held[-1] and reply["code"] == "too_many_rooms", "the second room of one client: %s" % reply)
    for ws in held:
        ws.close()

    check(proxy.poll() is None, "haproxy died")
    for srv in servers.values():
        srv.check_healthy()
        srv.stop(strict=True)


if __name__ == "__main__":
    e2e.main(test, __doc__)
