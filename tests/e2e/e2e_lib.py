"""Shared helpers of the end-to-end tests (tests/e2e): the real cod-server
on a free loopback port with a temporary database, cod-bot processes, a
minimal WebSocket client (for hostile frames the bot never sends), and the
database checks. Python 3 standard library only.

Every process a test starts is registered and killed when the test ends,
however it ends (exception, assertion, SIGTERM/SIGINT from ctest, its own
time limit), and also dies with the test process (PR_SET_PDEATHSIG).
"""

import argparse
import atexit
import base64
import ctypes
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

LOOPBACK = "127.0.0.1"

_children = []
_libc = None


def _die_with_parent():
    # In the child, before exec: SIGKILL when the test process dies.
    global _libc
    try:
        if _libc is None:
            _libc = ctypes.CDLL("libc.so.6", use_errno=True)
        _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def spawn(cmd, stdout, stderr=subprocess.STDOUT, env=None):
    """Starts a process that is killed when the test ends."""
    p = subprocess.Popen(cmd, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                         env=env, preexec_fn=_die_with_parent)
    _children.append(p)
    return p


def cleanup():
    for p in _children:
        if p.poll() is None:
            try:
                p.kill()
            except OSError:
                pass
    for p in _children:
        try:
            p.wait(timeout=5)
        except Exception:
            pass


class TestFailure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise TestFailure(what)


def log(*args):
    print("[e2e %s]" % time.strftime("%H:%M:%S"), *args, flush=True)


def main(test, description, extra_args=None, time_limit=100):
    """Parses the common arguments, runs test(args, workdir) with a time
    limit, cleans up, and exits 0 (pass) or 1 (fail)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--server", required=True, help="cod-server executable")
    ap.add_argument("--bot", required=True, help="cod-bot executable")
    ap.add_argument("--admin", default="", help="cod-admin executable (optional)")
    ap.add_argument("--catalogue", default="", help="card catalogue (for constructed decks)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--time-limit", type=int, default=time_limit, help="seconds before the test fails")
    if extra_args:
        extra_args(ap)
    args = ap.parse_args()

    def on_signal(signum, frame):
        raise TestFailure("signal %d: %s" % (signum, "time limit reached" if signum == signal.SIGALRM else "stopped"))

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGHUP):
        signal.signal(s, on_signal)
    atexit.register(cleanup)
    signal.alarm(args.time_limit)

    work = tempfile.mkdtemp(prefix="cod_e2e_")
    ok = False
    started = time.time()
    try:
        test(args, work)
        ok = True
    except TestFailure as e:
        log("FAIL:", e)
    except Exception as e:  # a bug in the test, or a crash: still a failure, with the trace
        import traceback
        traceback.print_exc()
        log("FAIL:", repr(e))
    finally:
        signal.alarm(0)
        cleanup()
        if not ok:
            dump_logs(work)
        if ok and not args.keep:
            import shutil
            shutil.rmtree(work, ignore_errors=True)
        else:
            log("work directory kept:", work)
    log("PASS" if ok else "FAILED", "in %.1f s" % (time.time() - started))
    sys.exit(0 if ok else 1)


def dump_logs(work, tail=40):
    """On failure: the end of every log of the work directory."""
    for name in sorted(os.listdir(work)):
        if not name.endswith(".log"):
            continue
        path = os.path.join(work, name)
        try:
            with open(path, errors="replace") as f:
                lines = f.readlines()
        except OSError:
            continue
        print("----- %s (last %d of %d lines)" % (name, min(tail, len(lines)), len(lines)))
        sys.stdout.writelines(lines[-tail:])
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# cod-server

class Server:
    """cod-server on the loopback with its log in a file. --port 0 picks a
    free port; the server logs it ("listening on 127.0.0.1:PORT")."""

    LISTEN_RE = re.compile(r"listening on ([0-9.]+):(\d+) ")

    def __init__(self, exe, work, db, name="server", port=0, extra=()):
        self.exe, self.work, self.db, self.name = exe, work, db, name
        self.port = port
        # Every bot of a test connects from 127.0.0.1: the per-address limits
        # are off (as behind a proxy), unless a test sets them (later flags win).
        self.extra = ["--max-connections-per-address", "0", "--max-waiting-rooms-per-address", "0"] + list(extra)
        self.proc = None
        self.log_path = None
        self.starts = 0

    def start(self, timeout=30):
        self.starts += 1
        self.log_path = os.path.join(self.work, "%s-%d.log" % (self.name, self.starts))
        out = open(self.log_path, "w")
        # db None: the store is in `extra` (--store).
        cmd = [self.exe, "--address", LOOPBACK, "--port", str(self.port)] + (["--db", self.db] if self.db else []) + self.extra
        log("start:", " ".join(cmd))
        self.proc = spawn(cmd, stdout=out)
        out.close()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise TestFailure("%s exited with %s at start-up:\n%s" % (self.name, self.proc.returncode, self.log()))
            m = self.LISTEN_RE.search(self.log())
            if m:
                self.port = int(m.group(2))
                break
            time.sleep(0.05)
        else:
            raise TestFailure("%s did not report its port within %d s" % (self.name, timeout))
        status, body = self.http_get("/healthz")
        check(status == 200 and json.loads(body)["status"] == "ok", "healthz after start: %s %s" % (status, body))
        log("%s listening on port %d (pid %d)" % (self.name, self.port, self.proc.pid))
        return self

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def http_get(self, path, timeout=5):
        c = http.client.HTTPConnection(LOOPBACK, self.port, timeout=timeout)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read().decode()
        finally:
            c.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill9(self):
        log("SIGKILL %s (pid %d)" % (self.name, self.proc.pid))
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    SANITIZER_RE = re.compile(r"ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer")

    def check_healthy(self):
        """Still running, /healthz ok, and no sanitizer report in the log."""
        check(self.alive(), "%s died (exit %s):\n%s" % (self.name, self.proc.returncode, self.log()[-3000:]))
        m = self.SANITIZER_RE.search(self.log())
        check(not m, "%s: sanitizer report in the log:\n%s" % (self.name, self.log()[m.start():][:3000] if m else ""))
        status, body = self.http_get("/healthz")
        check(status == 200, "%s: /healthz answered %d" % (self.name, status))

    def stop(self, strict=False, timeout=15):
        """SIGTERM (a graceful shutdown); the exit status. With `strict` the
        test fails unless it is 0 (with the sanitizer report, if any);
        otherwise a failure is only logged (tests/e2e checks the shutdown in
        one test, e2e_duel_preconstructed)."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise TestFailure("%s did not stop within %d s of SIGTERM" % (self.name, timeout))
        rc = self.proc.returncode
        if rc != 0:
            text = self.log()
            m = self.SANITIZER_RE.search(text)
            report = text[m.start():][:4000] if m else text[-2000:]
            if strict:
                raise TestFailure("%s exited %s after SIGTERM:\n%s" % (self.name, rc, report))
            summary = [l for l in text.splitlines() if l.startswith("SUMMARY:")]
            log("WARNING: %s exited %s after SIGTERM %s" % (self.name, rc, summary[:1]))
        else:
            log("%s stopped cleanly (exit 0)" % self.name)
        return rc


# ---------------------------------------------------------------------------
# cod-bot

SUMMARY_RE = re.compile(r"cod-bot: room=(\S+) seat=(\S+) result=(\S+) reason=(\S+) actions=(\d+) seq=(-?\d+)")


class Bot:
    def __init__(self, exe, work, name, port, args):
        self.name = name
        self.log_path = os.path.join(work, "bot-%s.log" % name)
        self.token_file = os.path.join(work, "bot-%s.token" % name)
        self.ack_file = os.path.join(work, "bot-%s.acks" % name)
        self.dump_file = os.path.join(work, "bot-%s.frames" % name)
        self.exe, self.work, self.port, self.args = exe, work, port, list(args)
        self.proc = None
        self.runs = 0

    def start(self, args=None, port=None):
        self.runs += 1
        if port is not None:
            self.port = port
        a = self.args if args is None else list(args)
        cmd = [self.exe, "--port", str(self.port), "--name", self.name, "--ack-file", self.ack_file,
               "--dump", "%s.%d" % (self.dump_file, self.runs)] + a
        if "--spectate" not in a:
            cmd += ["--token-file", self.token_file]
        log("start:", " ".join(cmd))
        out = open(self.log_path, "a")
        out.write("=== run %d: %s\n" % (self.runs, " ".join(cmd)))
        out.flush()
        self.proc = spawn(cmd, stdout=out)
        out.close()
        return self

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TestFailure("bot %s still running after %d s" % (self.name, timeout))

    def output(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def summary(self):
        """The last summary line: dict(room, seat, result, reason, actions, seq)."""
        found = SUMMARY_RE.findall(self.output())
        check(found, "bot %s printed no summary line" % self.name)
        room, seat, result, reason, actions, seq = found[-1]
        return {"room": room, "seat": None if seat == "-" else int(seat), "result": result, "reason": reason,
                "actions": int(actions), "seq": int(seq)}

    def token(self, timeout=20):
        """{"room", "seat", "token"} once the bot has a seat."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if os.path.exists(self.token_file):
                with open(self.token_file) as f:
                    return json.load(f)
            if self.proc.poll() is not None:
                raise TestFailure("bot %s exited (%s) before getting a seat:\n%s" %
                                  (self.name, self.proc.returncode, self.output()))
            time.sleep(0.02)
        raise TestFailure("bot %s got no seat within %d s" % (self.name, timeout))

    def watching(self, timeout=20):
        """Returns once a --spectate bot is watching (the room answered it), so
        that a test starting the match next knows the spectator sees it all."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if "watching room" in self.output():
                return self
            if self.proc.poll() is not None:
                raise TestFailure("bot %s exited (%s) before watching:\n%s" %
                                  (self.name, self.proc.returncode, self.output()))
            time.sleep(0.02)
        raise TestFailure("bot %s was not watching within %d s" % (self.name, timeout))

    def acks(self):
        """The seqs of this bot's accepted actions (every run)."""
        if not os.path.exists(self.ack_file):
            return []
        with open(self.ack_file) as f:
            return [int(line) for line in f if line.strip()]

    def frames(self, run=None):
        """Every frame the bot received in run `run` (default: the last), parsed."""
        path = "%s.%d" % (self.dump_file, run or self.runs)
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]


SOURCE_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def check_frames_schema(paths):
    """Validates files of received frames (one JSON object per line) with
    tests/protocol/validate_examples.py, on Debian's python3 and its
    python3-jsonschema (scripts/install-deps)."""
    cmd = ["/usr/bin/python3", os.path.join(SOURCE_ROOT, "tests", "protocol", "validate_examples.py"),
           "--schemas", os.path.join(SOURCE_ROOT, "protocol", "schema", "v1"), "--frames"] + list(paths)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check(r.returncode == 0, "frames that do not match the schemas:\n%s" % r.stdout[-4000:])
    log("schemas:", r.stdout.strip().splitlines()[-2] if r.stdout.strip() else "")


def wait_bots(bots, timeout):
    deadline = time.time() + timeout
    codes = {}
    for b in bots:
        codes[b.name] = b.wait(max(1, deadline - time.time()))
    return codes


def play_duel(args, work, server, a_args, b_args, timeout=60, spectator=False):
    """Bot a creates a room, bot b joins it; both play to the end. Returns
    (a, b, room) once both have exited 0."""
    a = Bot(args.bot, work, "a", server.port, ["--create", "--timeout-sec", str(timeout), "--seed", "11"] + a_args)
    a.start()
    room = a.token()["room"]
    b = Bot(args.bot, work, "b", server.port, ["--room", room, "--timeout-sec", str(timeout), "--seed", "22"] + b_args)
    b.start()
    codes = wait_bots([a, b], timeout + 10)
    for bot in (a, b):
        check(codes[bot.name] == 0, "bot %s exited %s:\n%s" % (bot.name, codes[bot.name], bot.output()))
    return a, b, room


def check_results(a, b):
    sa, sb = a.summary(), b.summary()
    log("bot a:", sa)
    log("bot b:", sb)
    check(sa["room"] == sb["room"], "the bots were in different rooms")
    check({sa["seat"], sb["seat"]} == {0, 1}, "seats %s and %s" % (sa["seat"], sb["seat"]))
    check(sa["seq"] == sb["seq"] and sa["seq"] > 0, "final seqs differ: %d and %d" % (sa["seq"], sb["seq"]))
    check(sa["reason"] == sb["reason"] and sa["reason"] != "none", "reasons: %s, %s" % (sa["reason"], sb["reason"]))
    check({sa["result"], sb["result"]} in ({"win", "loss"}, {"draw"}), "results %s and %s" % (sa["result"], sb["result"]))
    return sa, sb


# ---------------------------------------------------------------------------
# The database

def db_match(db, room):
    """The match of `room` from the SQLite file (read-only): (record dict,
    [(seq, seat, action_json)])."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        con.row_factory = sqlite3.Row
        rows = con.execute("SELECT * FROM matches WHERE room_id = ?", (room,)).fetchall()
        check(len(rows) == 1, "%d matches stored for room %s" % (len(rows), room))
        rec = dict(rows[0])
        actions = [tuple(r) for r in con.execute(
            "SELECT seq, seat, action_json FROM match_actions WHERE match_id = ? ORDER BY seq", (rec["match_id"],))]
        rec["seats"] = [dict(r) for r in con.execute(
            "SELECT seat, name, deck_json FROM match_seats WHERE match_id = ? ORDER BY seat", (rec["match_id"],))]
        return rec, actions
    finally:
        con.close()


def register_account(port, name, password):
    """POST /api/register on a node's port (docs/accounts.md): a new account."""
    c = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    try:
        c.request("POST", "/api/register", json.dumps({"name": name, "password": password}),
                  {"Content-Type": "application/json"})
        r = c.getresponse()
        body = r.read().decode()
        check(r.status in (200, 201), "register %s: %d %s" % (name, r.status, body))
    finally:
        c.close()


def run_admin(admin, db, *cmd, timeout=30):
    p = subprocess.run([admin, "--db", db] + list(cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, preexec_fn=_die_with_parent)
    return p.returncode, p.stdout.decode(errors="replace")


def run_admin_store(admin, store, *cmd, timeout=30):
    """cod-admin on a store setting (a postgresql:// URI, sqlite:PATH)."""
    p = subprocess.run([admin, "--store", store] + list(cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, preexec_fn=_die_with_parent)
    return p.returncode, p.stdout.decode(errors="replace")


def check_stored_match(args, db, room, final_seq, acks, status="finished"):
    """The stored log is whole: seqs 1..final_seq, every acknowledged seq in
    it, the match finished, and (with cod-admin) it lists, shows and
    verifies (replay with digests, seed commitment, result)."""
    rec, actions = db_match(db, room)
    seqs = [s for s, _, _ in actions]
    check(seqs == list(range(1, len(seqs) + 1)), "stored seqs are not 1..N: %s" % seqs[:20])
    check(len(seqs) == final_seq, "%d actions stored, the bots saw seq %d" % (len(seqs), final_seq))
    missing = sorted(set(acks) - set(seqs))
    check(not missing, "acknowledged actions missing from the database: %s" % missing)
    check(rec["status"] == status, "match status %s" % rec["status"])
    check(hashlib.sha256(rec["seed"].encode()).hexdigest() == rec["seed_hash"], "seed commitment")
    log("database: match %s, %d actions, status %s, winners %s, reason %s" %
        (rec["match_id"], len(seqs), rec["status"], rec["winners"], rec["reason"]))
    if args.admin:
        rc, out = run_admin(args.admin, db, "list")
        check(rc == 0 and rec["match_id"] in out, "cod-admin list (%d):\n%s" % (rc, out))
        line = [l for l in out.splitlines() if rec["match_id"] in l][0]
        check("actions=%d" % final_seq in line, "cod-admin list line: %s" % line)
        rc, out = run_admin(args.admin, db, "show", rec["match_id"])
        check(rc == 0, "cod-admin show (%d):\n%s" % (rc, out))
        rc, out = run_admin(args.admin, db, "verify", rec["match_id"])
        check(rc == 0, "cod-admin verify (%d):\n%s" % (rc, out))
        log("cod-admin verify %s: ok" % rec["match_id"])
    return rec, actions



# ---------------------------------------------------------------------------
# A cluster's pieces: HAProxy in front of nodes, a throwaway PostgreSQL

def free_port():
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def start_proxy(work, servers, port=None):
    """HAProxy from config/haproxy/cod.cfg.in (scripts/proxy-config), TLS
    with a certificate from scripts/make-cert, in front of `servers`
    ({node_id: Server}). Returns (process, port, the CA file bots trust)."""
    import shutil
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    check(os.path.exists(haproxy), "haproxy is not installed (scripts/install-deps installs it)")
    scripts = os.path.join(SOURCE_ROOT, "scripts")
    certs = os.path.join(work, "tls")
    if not os.path.exists(os.path.join(certs, "proxy.pem")):
        subprocess.run([os.path.join(scripts, "make-cert"), certs], check=True, stdout=subprocess.DEVNULL)
    port = port or free_port()
    cfg = subprocess.run([os.path.join(scripts, "proxy-config"), "--listen", "%s:%d" % (LOOPBACK, port),
                          "--cert", os.path.join(certs, "proxy.pem"),
                          # Every bot comes from 127.0.0.1: no per-client limit.
                          "--max-per-client", "0"] +
                         [a for node, srv in servers.items() for a in ("--node", "%s=%s:%d" % (node, LOOPBACK, srv.port))],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    path = os.path.join(work, "haproxy.cfg")
    with open(path, "w") as f:
        f.write(cfg)
    r = subprocess.run([haproxy, "-c", "-q", "-f", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, "haproxy refuses the rendered configuration:\n%s" % r.stdout)
    out = open(os.path.join(work, "haproxy.log"), "w")
    proc = spawn([haproxy, "-db", "-f", path], stdout=out)
    out.close()
    deadline = time.time() + 10
    while time.time() < deadline:
        check(proc.poll() is None, "haproxy exited at start-up:\n%s" % open(os.path.join(work, "haproxy.log")).read())
        try:
            socket.create_connection((LOOPBACK, port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        raise TestFailure("haproxy did not listen on port %d" % port)
    log("haproxy (pid %d) on %d, TLS, in front of %s" % (proc.pid, port, sorted(servers)))
    return proc, port, os.path.join(certs, "cert.pem")


class Postgres:
    """A throwaway PostgreSQL (scripts/pg-temp, fsync off), stopped when the
    test ends however it ends."""

    def __init__(self, work):
        self.dir = os.path.join(work, "pg")
        script = os.path.join(SOURCE_ROOT, "scripts", "pg-temp")
        self.script = script
        atexit.register(self.stop)
        r = subprocess.run([script, "start", self.dir, "--fast"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        check(r.returncode == 0, "scripts/pg-temp start failed:\n%s" % r.stdout)
        self.uri = r.stdout.strip().splitlines()[-1]
        log("PostgreSQL at %s" % self.uri)

    def query(self, sql, *params):
        """Rows of text columns (psql, unaligned): `params` are bound as
        psql variables :p1, :p2... (quoted as literals)."""
        cmd = ["psql", self.uri, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1"]
        for i, p in enumerate(params):
            cmd += ["-v", "p%d=%s" % (i + 1, p)]
        r = subprocess.run(cmd, input=sql, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        check(r.returncode == 0, "psql failed (%s):\n%s" % (sql, r.stdout))
        return [line.split("\t") for line in r.stdout.splitlines() if line]

    def stop(self):
        if os.path.exists(self.dir):
            subprocess.run([self.script, "stop", self.dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

# ---------------------------------------------------------------------------
# A minimal WebSocket client (RFC 6455), to send what a real client never would.

class WSClosed(Exception):
    def __init__(self, code, reason):
        super().__init__("closed %s %s" % (code, reason))
        self.code, self.reason = code, reason


class WS:
    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, port, path="/ws", timeout=10, headers=()):
        self.sock = socket.create_connection((LOOPBACK, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join("%s: %s\r\n" % h for h in headers)
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (path, LOOPBACK, port, key, extra))
        self.sock.sendall(req.encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise TestFailure("the server closed during the WebSocket handshake")
            buf += chunk
        head, self.buf = buf.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        check(lines[0].split()[1] == "101", "handshake answer: %s" % lines[0])
        accept = base64.b64encode(hashlib.sha1((key + self.GUID).encode()).digest()).decode()
        check(any(l.lower().startswith("sec-websocket-accept:") and l.split(":", 1)[1].strip() == accept
                  for l in lines), "bad Sec-WebSocket-Accept")
        self.closed = None

    def send_frame(self, opcode, payload, fin=True):
        n = len(payload)
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        if n:
            m = (mask * (n // 4 + 1))[:n]
            payload = (int.from_bytes(payload, "big") ^ int.from_bytes(m, "big")).to_bytes(n, "big")
        self.sock.sendall(head + mask + payload)

    def send_text(self, text):
        self.send_frame(0x1, text.encode() if isinstance(text, str) else text)

    def send_json(self, obj):
        self.send_text(json.dumps(obj))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise WSClosed(None, "TCP connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _frame(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._read(8))[0]
        check(not (b1 & 0x80), "the server masked a frame")
        return bool(b0 & 0x80), b0 & 0x0F, self._read(n)

    def recv(self, timeout=10):
        """The next message: ("text", str) or ("binary", bytes). Raises
        WSClosed on a close frame (answering it) or when the TCP connection ends."""
        self.sock.settimeout(timeout)
        parts, kind = [], None
        while True:
            try:
                fin, op, data = self._frame()
            except socket.timeout:
                raise TestFailure("no message within %s s" % timeout)
            if op == 0x8:  # close
                code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None
                reason = data[2:].decode(errors="replace")
                self.closed = (code, reason)
                try:
                    self.send_frame(0x8, data[:2])
                except OSError:
                    pass
                raise WSClosed(code, reason)
            if op == 0x9:  # ping
                self.send_frame(0xA, data)
                continue
            if op == 0xA:
                continue
            if op in (0x1, 0x2):
                kind = "text" if op == 0x1 else "binary"
            parts.append(data)
            if fin:
                data = b"".join(parts)
                return (kind, data.decode()) if kind == "text" else (kind, data)

    def recv_json(self, timeout=10, skip=("seat_status", "update", "state", "clock")):
        """The next message that is not a pushed one of `skip`."""
        while True:
            kind, data = self.recv(timeout)
            check(kind == "text", "the server sent a binary frame")
            m = json.loads(data)
            if m.get("type") not in skip:
                return m

    def request(self, obj, timeout=10):
        self.send_json(obj)
        return self.recv_json(timeout)

    def close(self):
        try:
            self.send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass
