#!/usr/bin/env python3
"""End to end: TLS at the proxy (docs/cluster.md). scripts/make-cert makes a
self-signed certificate, scripts/proxy-config renders config/haproxy/cod.cfg.in
for one cod-server node, and HAProxy terminates TLS in front of it:

- two cod-bots play a duel to match_over over wss:// through the proxy,
  trusting that certificate (--tls-ca); their connections name the room
  (/ws?room=ID), as a cluster's routing needs; the stored match verifies;
- a bot that does not trust the certificate is refused at the TLS
  handshake (exit 3, "certificate verify failed"): cod-bot checks the peer;
- the server's plain port still answers /healthz (the proxy's check).

  test_tls_proxy.py --server S --bot B [--admin A]
"""

import os
import shutil
import socket
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import check  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind((e2e.LOOPBACK, 0))
        return s.getsockname()[1]


def start_proxy(work, server):
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    check(os.path.exists(haproxy), "haproxy is not installed (scripts/install-deps installs it)")
    scripts = os.path.join(e2e.SOURCE_ROOT, "scripts")
    certs = os.path.join(work, "tls")
    subprocess.run([os.path.join(scripts, "make-cert"), certs], check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    cfg = subprocess.run([os.path.join(scripts, "proxy-config"), "--listen", "%s:%d" % (e2e.LOOPBACK, port),
                          "--cert", os.path.join(certs, "proxy.pem"),
                          "--node", "n1=%s:%d" % (e2e.LOOPBACK, server.port)],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    path = os.path.join(work, "haproxy.cfg")
    with open(path, "w") as f:
        f.write(cfg)
    r = subprocess.run([haproxy, "-c", "-q", "-f", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, "haproxy refuses the rendered configuration:\n%s" % r.stdout)
    log = open(os.path.join(work, "haproxy.log"), "w")
    proc = e2e.spawn([haproxy, "-db", "-f", path], stdout=log)
    log.close()
    deadline = time.time() + 10
    while time.time() < deadline:
        check(proc.poll() is None, "haproxy exited at start-up:\n%s" % open(os.path.join(work, "haproxy.log")).read())
        try:
            socket.create_connection((e2e.LOOPBACK, port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        raise e2e.TestFailure("haproxy did not listen on port %d" % port)
    e2e.log("haproxy (pid %d) on %d, TLS, in front of the node on %d" % (proc.pid, port, server.port))
    return proc, port, os.path.join(certs, "cert.pem")


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()
    proxy, port, ca = start_proxy(work, server)
    # "localhost": the name the certificate carries (the bot checks it).
    url = ["--url", "wss://localhost:%d/ws" % port, "--tls-ca", ca]
    a, b, room = e2e.play_duel(args, work, server, ["--deck", "1"] + url, ["--deck", "3"] + url)
    sa, sb = e2e.check_results(a, b)
    e2e.check_stored_match(args, db, room, sa["seq"], a.acks() + b.acks())
    check("?room=%s" % room in open(b.log_path).read(), "bot b did not name its room in the URL")

    # Not trusting the proxy's certificate: refused at the handshake.
    c = e2e.Bot(args.bot, work, "untrusting", server.port,
                ["--url", "wss://localhost:%d/ws" % port, "--create", "--timeout-sec", "10"]).start()
    code = c.wait(20)
    check(code == 3, "a bot without the CA exited %s, not 3:\n%s" % (code, c.output()))
    check("certificate verify failed" in c.output(), "no verification failure reported:\n%s" % c.output())

    check(proxy.poll() is None, "haproxy died")
    server.check_healthy()
    server.stop(strict=True)


if __name__ == "__main__":
    e2e.main(test, __doc__)
