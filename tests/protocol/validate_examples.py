#!/usr/bin/python3
"""Validates the protocol's examples and samples against protocol/schema/v1.

  validate_examples.py --schemas DIR --doc docs/protocol.md docs/protocol-transcript.md
                       [--samples CMD...]

1. Every schema is a valid draft 2020-12 schema.
2. The documents (--doc, one or more; the protocol reference and its
   transcript are read as one): every ```json block is preceded by an HTML
   comment naming its schema (<!-- schema: server/update -->) and validates
   against it. Every client and server message, and every event type, has at
   least one example in one of them. Within one room, every seed_hash equals
   the SHA-256 of the seed match_over reveals, wherever the two appear.
3. --samples: runs the command (protocol_samples), which prints one
   {"schema", "message", "valid"?} object per line; each must validate (or,
   with "valid": false, must not). Every message schema and every event type
   must be covered, and so must the wire features of the full ability set
   (a Symbiote on top, a chained card, a play with a host, hand_reordered
   with and without its card, card_played's mana_paid; a Champion ready, in
   play and exhausted).

Runs with Debian's python3-jsonschema (4.10): use /usr/bin/python3.
Schema names: "client/join", "server/update" (files under DIR), or
"defs/<name>" for a shared definition in DIR/defs.json.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

import jsonschema
from jsonschema import Draft202012Validator

EVENT_TYPES = [
    "match_started", "turn_started", "card_removed", "mana_gained", "card_played",
    "creature_entered", "creature_moved", "attack", "damage_dealt", "damage_prevented",
    "creature_destroyed", "card_returned", "stronghold_damaged", "stronghold_moved",
    "stronghold_flipped", "turn_ended", "conceded", "game_over",
    # Added with the full ability set (R7):
    "creature_stacked", "creature_vanished", "card_chained", "hand_reordered", "ability_triggered",
    # Added with the Champion module (R13):
    "champion_exhausted", "champion_readied",
]

# Wire features the samples must show at least once, validated (a schema that
# allowed them only by accident would otherwise go unnoticed).
FEATURES = {
    "a creature with a Symbiote on top": lambda c: c.get("top") is not None,
    "a creature holding a chained card": lambda c: bool(c.get("chained")),
}


def creatures(view):
    for line in view.get("lines", []):
        for side in line.get("sides", []):
            for c in side.get("creatures", []):
                yield c


def features_of(name, value):
    """The FEATURES (and "host action", "redacted hand_reordered") a valid sample shows."""
    found = set()
    view = None
    if name == "defs/view":
        view = value
    elif name in ("server/state", "server/update"):
        view = value.get("view")
    if view:
        for c in creatures(view):
            found.update(f for f, test in FEATURES.items() if test(c))
        for seat in view.get("seats", []):
            champion = seat.get("champion") if isinstance(seat, dict) else None
            if isinstance(champion, dict):
                found.add("a Champion " + str(champion.get("state")))
    if name == "defs/creature":
        found.update(f for f, test in FEATURES.items() if test(value))
    action = value.get("action") if name == "client/act" else value if name == "defs/action" else None
    if isinstance(action, dict) and "host" in action:
        found.add("a play with a host")
    if name in ("server/state", "server/update") and isinstance(value.get("legal_actions"), dict):
        legal = value["legal_actions"]
        plays = legal.get("plays", [])
        if not plays and not legal.get("end_turn"):
            found.add("legal_actions empty")
        for key in ("lines", "hosts", "targets"):
            if any(key in p for p in plays if isinstance(p, dict)):
                found.add("legal_actions with " + key)
    if name == "server/draft" and value.get("legal_picks"):
        found.add("draft with legal_picks")
    if name in ("client/act", "client/draft_pick") and "seq" in value:
        found.add(name + " with seq")
    if name == "client/hello" and value.get("legal_actions") is True:
        found.add("hello asking for legal_actions")
    evs = value.get("events", []) if name == "server/update" else [value] if name == "defs/event" else []
    for e in evs:
        if e.get("type") == "hand_reordered":
            found.add("hand_reordered with its card" if "card" in e else "hand_reordered redacted")
        if e.get("type") == "card_played" and e.get("mana_paid", 0) > 0:
            found.add("card_played with mana_paid")
    return found


REQUIRED_FEATURES = sorted(FEATURES) + [
    "a play with a host", "hand_reordered with its card", "hand_reordered redacted",
    "card_played with mana_paid",
    # R13: a seat's Champion in each of its states.
    "a Champion ready", "a Champion in_play", "a Champion exhausted",
    # hello.legal_actions, act.seq, draft_pick.seq (docs/protocol.md, Legal actions).
    "legal_actions empty", "legal_actions with lines", "legal_actions with hosts", "legal_actions with targets",
    "client/act with seq", "client/draft_pick with seq", "hello asking for legal_actions",
    "draft with legal_picks",
]


class Schemas:
    def __init__(self, root):
        self.root = root
        self.by_name = {}
        self.store = {}
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith(".json"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    schema = json.load(fh)
                Draft202012Validator.check_schema(schema)
                name = os.path.relpath(path, root)[: -len(".json")].replace(os.sep, "/")
                self.by_name[name] = schema
                self.store[schema["$id"]] = schema
        self.base = self.by_name["defs"]["$id"]
        self.validators = {}

    def messages(self):
        return sorted(n for n in self.by_name if n.startswith(("client/", "server/")))

    def validator(self, name):
        if name in self.validators:
            return self.validators[name]
        if name.startswith("defs/"):
            defs = self.by_name["defs"]
            if name[5:] not in defs["$defs"]:
                raise KeyError(name)
            schema = {"$schema": defs["$schema"], "$ref": "defs.json#/$defs/" + name[5:]}
            base = defs["$id"].replace("defs.json", "defs-wrapper.json")
        else:
            schema = self.by_name[name]
            base = schema["$id"]
        resolver = jsonschema.RefResolver(base_uri=base, referrer=schema, store=self.store)
        v = Draft202012Validator(schema, resolver=resolver)
        self.validators[name] = v
        return v

    def errors(self, name, value):
        try:
            v = self.validator(name)
        except KeyError:
            return ["no schema named %r" % name]
        return [
            "%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(root)", e.message)
            for e in sorted(v.iter_errors(value), key=lambda e: list(map(str, e.path)))
        ]


def doc_examples(path):
    """(line, schema, text) for every ```json block of the document."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, problems = [], []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```json":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            m = re.fullmatch(r"<!--\s*schema:\s*([a-z_/]+)\s*-->", lines[k].strip()) if k >= 0 else None
            if not m:
                problems.append("%s:%d: a ```json block without <!-- schema: ... --> before it" % (path, i + 1))
            else:
                out.append((i + 1, m.group(1), "\n".join(lines[start:j])))
            i = j + 1
        else:
            i += 1
    return out, problems


def check_docs(schemas, paths):
    problems = []
    examples = []
    for path in paths:
        found, p = doc_examples(path)
        problems += p
        examples += [(path, line, name, text) for line, name, text in found]
        print("%s: %d examples" % (path, len(found)))
    where = " + ".join(paths)
    covered, events = set(), set()
    hashes, seeds = {}, {}
    for path, line, name, text in examples:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            problems.append("%s:%d: not JSON: %s" % (path, line, e))
            continue
        for err in schemas.errors(name, value):
            problems.append("%s:%d: %s: %s" % (path, line, name, err))
        covered.add(name)
        if name == "defs/event" and isinstance(value, dict):
            events.add(value.get("type"))
        if name == "server/update" and isinstance(value, dict):
            events.update(e.get("type") for e in value.get("events", []) if isinstance(e, dict))
        if isinstance(value, dict) and "room" in value:
            if "seed_hash" in value:
                hashes.setdefault(value["room"], set()).add(value["seed_hash"])
            if value.get("type") == "match_over":
                seeds[value["room"]] = value["seed"]
    for name in schemas.messages():
        if name not in covered:
            problems.append("%s: no example of %s" % (where, name))
    for t in EVENT_TYPES:
        if t not in events:
            problems.append("%s: no example of the %s event" % (where, t))
    for room, seed in seeds.items():
        want = hashlib.sha256(seed.encode()).hexdigest()
        for h in hashes.get(room, ()):
            if h != want:
                problems.append("%s: room %s: seed_hash %s is not SHA-256(\"%s\") = %s" % (where, room, h, seed, want))
    print("%s: %d examples checked" % (where, len(examples)))
    return problems


def check_samples(schemas, cmd):
    problems = []
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        problems.append("%s exited %d: %s" % (cmd[0], run.returncode, run.stderr.strip()))
    covered, events, features = set(), set(), set()
    count = 0
    # One sample a line: split on "\n" only (splitlines() would also split
    # inside a name holding U+0085 or U+2028, which the samples refuse).
    for n, line in enumerate((l for l in run.stdout.split("\n") if l), 1):
        sample = json.loads(line)
        name, value, valid = sample["schema"], sample["message"], sample.get("valid", True)
        errs = schemas.errors(name, value)
        count += 1
        if valid:
            covered.add(name)
            for err in errs:
                problems.append("sample %d (%s) %s: %s" % (n, name, json.dumps(value)[:300], err))
            if name == "server/update":
                events.update(e["type"] for e in value["events"])
            if name == "defs/event":
                events.add(value["type"])
            if not errs:
                features |= features_of(name, value)
        elif not errs:
            problems.append("sample %d (%s): the schema accepts what the parser refuses: %s" % (n, name, json.dumps(value)))
    for name in schemas.messages():
        if name not in covered:
            problems.append("samples: none for %s" % name)
    for t in EVENT_TYPES:
        if t not in events:
            problems.append("samples: no event of type %s" % t)
    for f in REQUIRED_FEATURES:
        if f not in features:
            problems.append("samples: none shows %s" % f)
    print("%s: %d samples checked, %d event types" % (cmd[0], count, len(events)))
    return problems


def check_frames(schemas, paths):
    problems = []
    count = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                frame = json.loads(line)
                count += 1
                for e in schemas.errors("server/" + str(frame.get("type")), frame):
                    problems.append("%s:%d (%s): %s" % (path, n, frame.get("type"), e))
    print("%d frames checked" % count)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--doc", nargs="+", help="the documents, read as one")
    ap.add_argument("--frames", nargs="+", help="files of received frames, one JSON object per line")
    ap.add_argument("--samples", nargs=argparse.REMAINDER, help="command printing samples")
    args = ap.parse_args()

    schemas = Schemas(args.schemas)
    print("%s: %d schemas" % (args.schemas, len(schemas.by_name)))
    problems = []
    if args.doc:
        problems += check_docs(schemas, args.doc)
    if args.frames:
        problems += check_frames(schemas, args.frames)
    if args.samples:
        problems += check_samples(schemas, args.samples)
    for p in problems[:200]:
        print("FAIL", p)
    if len(problems) > 200:
        print("... and %d more" % (len(problems) - 200))
    print("ok" if not problems else "%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
