#!/usr/bin/env python3
"""End to end: create_room and join options over a real WebSocket. Every
invalid create_room (unknown mode, seats that do not fit the mode,
share_team_hands outside 2v2, options of the wrong type) gets the documented
error with its field and creates nothing (list_rooms stays empty); so does
every invalid solo/coop difficulty (points that do not match the level, AI
settings or Champions in quick play, out-of-range values, constructed decks)
and every invalid format choice (an unknown format, instant_constructed
beyond duel, packs outside the drafted formats or unknown, Champions in a
solo quick-play draft or leaving too small a pool, instant constructed in solo and coop rooms, a co-op draft pool too
small, a stall turn (R17.25) other than 0 or 8..1000); valid ffa, 2v2, Champion,
solo and coop rooms list their mode, options (the stall turn: 40 unless set) and
free seats (AI seats taken, marked "ai", never free); a join on an AI seat
is refused with ai_seat; a join whose Champion is refused (each reason)
takes no seat.

  test_room_options.py --server S --bot B --catalogue C
"""

import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import e2e_lib as e2e  # noqa: E402
from e2e_lib import WS, check  # noqa: E402

BAD_CREATES = [
    ({"mode": "draft2", "format": "preconstructed"}, "bad_field_value", "mode"),
    # Solo and co-op (R2.1, R12.8, R13.1).
    ({"mode": "solo", "format": "constructed"}, "bad_field_value", "format"),
    ({"mode": "solo", "format": "preconstructed", "options": {"difficulty": 5, "ai": {"ai_first": True,
                                                                                    "resistance": True}}},
     "bad_field_value", "options.difficulty"),
    ({"mode": "solo", "format": "preconstructed", "options": {"difficulty": 3}}, "bad_field_value",
     "options.difficulty"),
    ({"mode": "solo", "format": "preconstructed", "options": {"ai": {"fixed_mana": 7}}}, "bad_field_value",
     "options.ai"),
    ({"mode": "solo", "format": "preconstructed", "options": {"champions": True}}, "bad_field_value",
     "options.champions"),
    ({"mode": "coop", "format": "preconstructed", "options": {"difficulty": 11}}, "bad_field_value",
     "options.difficulty"),
    ({"mode": "coop", "format": "preconstructed", "options": {"difficulty": 1, "ai": {"fixed_mana": 5}}},
     "bad_field_value", "options.ai.fixed_mana"),
    ({"mode": "coop", "format": "preconstructed", "options": {"difficulty": 1, "ai": {"abilities": ["aerial"]}}},
     "bad_field_value", "options.ai.abilities[0]"),
    ({"mode": "coop", "format": "preconstructed", "options": {"difficulty": 1, "ai": {"ai_first": "yes"}}},
     "bad_field_type", "options.ai.ai_first"),
    ({"mode": "coop", "format": "preconstructed", "options": {"difficulty": 1, "ai": {"mana": 7}}},
     "unknown_field", "options.ai.mana"),
    ({"mode": "duel", "format": "preconstructed", "options": {"difficulty": 1, "ai": {"ai_first": True}}},
     "bad_field_value", "options.difficulty"),
    # Formats and drafts (R14).
    ({"mode": "ffa", "format": "sealed"}, "bad_field_value", "format"),
    ({"mode": "ffa", "format": "instant_constructed"}, "bad_field_value", "format"),
    ({"mode": "duel", "format": "constructed", "options": {"packs": ["initiation"]}}, "bad_field_value",
     "options.packs"),
    ({"mode": "duel", "format": "draft", "options": {"packs": ["no-such-pack"]}}, "bad_field_value",
     "options.packs"),
    # R13.1: Champions in a draft, but not in solo quick play; withheld from the
    # pool (RULING E67), they leave solo's one pack of 32 too small.
    ({"mode": "solo", "format": "draft", "options": {"champions": True}}, "bad_field_value", "options.champions"),
    ({"mode": "solo", "format": "draft", "options": {"champions": True, "packs": ["initiation"], "difficulty": 1,
                                                     "ai": {"fixed_mana": 9}}}, "bad_field_value", "options.packs"),
    # Solo and co-op play preconstructed decks or the draft (R12.7, R14.4, R14.5),
    # never instant constructed (RULING E65); co-op deals 64 cards: one pack is too few.
    ({"mode": "solo", "format": "instant_constructed"}, "bad_field_value", "format"),
    ({"mode": "coop", "format": "draft", "options": {"packs": ["initiation"]}}, "bad_field_value",
     "options.packs"),
    ({"mode": "coop", "format": "instant_constructed"}, "bad_field_value", "format"),
    ({"mode": "solo", "format": "preconstructed", "options": {"packs": ["initiation"]}}, "bad_field_value",
     "options.packs"),
    ({"mode": "ffa", "format": "preconstructed", "options": {"seats": 2}}, "bad_field_value", "options.seats"),
    ({"mode": "2v2", "format": "preconstructed", "options": {"seats": 3}}, "bad_field_value", "options.seats"),
    ({"mode": "duel", "format": "preconstructed", "options": {"seats": 4}}, "bad_field_value", "options.seats"),
    ({"mode": "duel", "format": "constructed", "options": {"share_team_hands": True}}, "bad_field_value",
     "options.share_team_hands"),
    ({"mode": "ffa", "format": "constructed", "options": {"share_team_hands": True}}, "bad_field_value",
     "options.share_team_hands"),
    ({"mode": "2v2", "format": "constructed", "options": {"share_team_hands": "yes"}}, "bad_field_type",
     "options.share_team_hands"),
    ({"mode": "ffa", "format": "constructed", "options": {"champions": 1}}, "bad_field_type", "options.champions"),
    ({"mode": "ffa", "format": "constructed", "options": {"exhaustion": "on"}}, "bad_field_type",
     "options.exhaustion"),
    ({"mode": "ffa", "format": "constructed", "options": {"teams": True}}, "unknown_field", "options.teams"),
    # R17.25 the stall guard: 0 (never) or a turn from 8 to 1000.
    ({"mode": "duel", "format": "preconstructed", "options": {"stall_exhaustion_turn": 7}}, "bad_field_value",
     "options.stall_exhaustion_turn"),
    ({"mode": "coop", "format": "preconstructed", "options": {"stall_exhaustion_turn": 1001}}, "bad_field_value",
     "options.stall_exhaustion_turn"),
    ({"mode": "ffa", "format": "constructed", "options": {"stall_exhaustion_turn": True}}, "bad_field_type",
     "options.stall_exhaustion_turn"),
]


def request(ws, msg):
    ws.send_json(msg)
    return ws.recv_json()


def rooms(ws):
    r = request(ws, {"type": "list_rooms", "id": "l"})
    check(r["type"] == "rooms", "list_rooms: %s" % r)
    return {x["room"]: x for x in r["rooms"]}


def test(args, work):
    db = os.path.join(work, "cod.db")
    server = e2e.Server(args.server, work, db).start()
    ws = WS(server.port)
    welcome = request(ws, {"type": "hello", "version": 1})
    check(welcome["type"] == "welcome", "hello")
    # More refusals than the rate limit's burst: paced to stay under it.
    pace = 1.0 / welcome["rate_limit_per_sec"] if welcome["rate_limit_per_sec"] else 0

    for i, (fields, code, field) in enumerate(BAD_CREATES):
        msg = dict({"type": "create_room", "id": i}, **fields)
        time.sleep(pace)
        r = request(ws, msg)
        check(r["type"] == "error" and r["code"] == code and r.get("field") == field and r.get("id") == i,
              "create_room %s: expected %s on %s, got %s" % (fields, code, field, r))
        check(isinstance(r.get("message"), str) and r["message"], "no message: %s" % r)
    check(rooms(ws) == {}, "a refused create_room created a room")
    e2e.log("%d invalid create_room refused, no room created" % len(BAD_CREATES))

    made = {}
    for name, fields in {
        "ffa": {"mode": "ffa", "format": "constructed", "options": {"champions": True}},
        "2v2": {"mode": "2v2", "format": "preconstructed",
                "options": {"share_team_hands": True, "seats": 4, "stall_exhaustion_turn": 0}},
        "duel": {"mode": "duel", "format": "preconstructed", "options": {"champions": True}},
        "solo": {"mode": "solo", "format": "preconstructed",
                 "options": {"difficulty": 3, "ai": {"ai_first": True, "abilities": ["sprint", "rage"]}}},
        # R12.8, RULING E45: two human Champions give 4 points: 4 + 1 (mana 7) - 4 = 1.
        "coop": {"mode": "coop", "format": "preconstructed",
                 "options": {"difficulty": 1, "champions": True, "ai": {"fixed_mana": 7, "resistance": True,
                                                                        "double_variable": True}}},
    }.items():
        r = request(ws, dict({"type": "create_room", "id": name}, **fields))
        check(r["type"] == "room_created" and r["id"] == name, "create_room %s: %s" % (name, r))
        made[name] = r["room"]
    listed = rooms(ws)
    check(set(listed) == set(made.values()), "listed %s" % sorted(listed))
    for name, room in made.items():
        x = listed[room]
        want_seats = 2 if name in ("duel", "solo") else 4
        ai_seats = {"solo": [1], "coop": [1, 3]}.get(name, [])
        check(x["mode"] == name and x["status"] == "waiting", "room %s: %s" % (name, x))
        check(x["options"]["seats"] == want_seats and len(x["seats"]) == want_seats, "room %s seats: %s" % (name, x))
        for s in x["seats"]:
            if s["seat"] in ai_seats:
                check(s["taken"] and s.get("ai") is True and s["name"] == "AI" and s["champion"] is None,
                      "room %s AI seat: %s" % (name, s))
            else:
                check(not s["taken"] and "ai" not in s and s["champion"] is None, "room %s: %s" % (name, x))
        check(("difficulty" in x["options"]) == bool(ai_seats), "room %s options: %s" % (name, x["options"]))
    check(listed[made["solo"]]["options"]["difficulty"] == 3 and
          listed[made["solo"]]["options"]["ai"] == {"fixed_mana": 6, "double_variable": False, "ai_first": True,
                                                    "resistance": False, "abilities": ["rage", "sprint"]},
          "solo options: %s" % listed[made["solo"]]["options"])
    check(listed[made["coop"]]["options"]["ai"]["fixed_mana"] == 7 and
          listed[made["coop"]]["options"]["champions"] is True, "coop options: %s" % listed[made["coop"]]["options"])
    check(listed[made["ffa"]]["options"]["champions"] is True, "ffa champions")
    check(listed[made["2v2"]]["options"]["share_team_hands"] is True, "2v2 share_team_hands")
    for name, room in made.items():
        want = 0 if name == "2v2" else 40  # R17.25: the room's setting, else the default
        check(listed[room]["options"]["stall_exhaustion_turn"] == want,
              "room %s stall_exhaustion_turn: %s" % (name, listed[room]["options"]))

    # Champions at join: each refusal takes no seat.
    with open(args.catalogue) as f:
        cat = json.load(f)
    incantation = next(c["id"] for c in cat["cards"] if c["type"] != "creature")
    in_deck = next(i for i in cat["preconstructed_decks"]["1"]
                   if next(c for c in cat["cards"] if c["id"] == i)["type"] == "creature")
    outside = next(c["id"] for c in cat["cards"]
                   if c["type"] == "creature" and c["id"] not in cat["preconstructed_decks"]["1"])
    joiner = WS(server.port)
    check(request(joiner, {"type": "hello", "version": 1})["type"] == "welcome", "hello")
    duel = made["duel"]
    for champion, reason, room in [(None, "champion_required", duel), ("dragon", "unknown_card", duel),
                                   (incantation, "not_a_creature", duel), (in_deck, "in_deck", duel),
                                   (outside, "champions_off", made["2v2"])]:
        msg = {"type": "join", "id": reason, "room": room, "name": "Ann", "deck": {"preconstructed": 1}}
        if champion is not None:
            msg["champion"] = champion
        r = request(joiner, msg)
        check(r["type"] == "error" and r["code"] == "bad_champion_choice" and r.get("reason") == reason,
              "join with champion %r: expected %s, got %s" % (champion, reason, r))
    listed = rooms(ws)
    check(not any(s["taken"] for s in listed[duel]["seats"] + listed[made["2v2"]]["seats"]),
          "a refused join took a seat")
    # An AI seat is never joinable (R12, R11.7): ai_seat, nothing taken.
    for room, seat in [(made["solo"], 1), (made["coop"], 3)]:
        r = request(joiner, {"type": "join", "id": "ai", "room": room, "name": "Ann", "seat": seat,
                             "deck": {"preconstructed": 1}})
        check(r["type"] == "error" and r["code"] == "ai_seat" and r.get("id") == "ai", "join on AI seat: %s" % r)
    listed = rooms(ws)
    check(not any(s["taken"] and not s.get("ai") for s in listed[made["coop"]]["seats"]), "an AI-seat join took a seat")
    e2e.log("joins on AI seats refused with ai_seat")
    r = request(joiner, {"type": "join", "id": "ok", "room": duel, "name": "Ann", "deck": {"preconstructed": 1},
                         "champion": outside})
    check(r["type"] == "joined" and r["seat"] == 0, "join with a good Champion: %s" % r)
    x = rooms(ws)[duel]
    check(x["seats"][0]["taken"] and x["seats"][0]["champion"] is None, "the Champion shows before the start: %s" % x)
    e2e.log("Champion refusals: ok; the choice stays hidden while waiting")
    ws.close()
    joiner.close()
    server.check_healthy()
    server.stop()


if __name__ == "__main__":
    e2e.main(test, __doc__)
