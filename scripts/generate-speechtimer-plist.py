#!/usr/bin/env python3
"""Writes a realistic Speech Timer 1 data file (article 1: one serialized property list).

Deterministic for a given --seed. Written with Python's own plistlib, so storekeep's readers are
tested against an independent encoder.

  scripts/generate-speechtimer-plist.py OUT.plist --speeches 200000 [--format xml|binary]
      [--recording-every 50] [--seed 1] [--bad-type-at N]
"""
import argparse
import datetime
import plistlib
import random
import uuid

BUILT_IN = [("Table Topics", 60, 90, 120), ("Icebreaker", 240, 300, 360), ("Standard Speech", 300, 360, 420),
            ("Evaluation", 120, 150, 180), ("Humorous Speech", 300, 360, 420)]
USER_TYPES = [("Wedding Toast", 90, 120, 150), ("Lightning Talk", 240, 270, 300)]
SPEAKERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Margaret Hamilton", "Ken Thompson", "Barbara Liskov",
            "Edsger Dijkstra", "Frances Allen", "Donald Knuth", "Radia Perlman", "Jean Sammet", "John Backus"]
WORDS = ["keynote", "introduction", "review", "story", "lesson", "update", "welcome", "farewell", "pitch", "report"]


def build(count, recording_every, seed, bad_type_at):
    rng = random.Random(seed)
    types = [{"name": n, "green": float(g), "yellow": float(y), "red": float(r), "builtIn": True} for n, g, y, r in BUILT_IN]
    types += [{"name": n, "green": float(g), "yellow": float(y), "red": float(r), "builtIn": False} for n, g, y, r in USER_TYPES]
    names = [t["name"] for t in types]
    start = datetime.datetime(2009, 6, 1, 18, 30, 0)
    speeches = []
    for index in range(count):
        speech = {
            "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
            "title": f"{rng.choice(WORDS).title()} {index + 1}",
            "speaker": rng.choice(SPEAKERS),
            "type": names[index % len(names)],
            "date": start + datetime.timedelta(minutes=37 * index),
            "duration": round(rng.uniform(45.0, 600.0), 1),
        }
        if index % 3 == 0:
            speech["notes"] = f"Remember to pause after the {rng.choice(WORDS)}."
        if recording_every and index % recording_every == 0:
            size = 3000 + (index * 7919) % 9000  # some below, most above 4 KB
            speech["recording"] = bytes(rng.getrandbits(8) for _ in range(size))
        if bad_type_at is not None and index == bad_type_at:
            speech["type"] = "No Such Type"
        speeches.append(speech)
    return {"version": 1, "speechTypes": types, "speeches": speeches,
            "settings": {"vibrate": True, "theme": "classic", "lastExport": datetime.datetime(2012, 3, 4, 5, 6, 7)}}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--speeches", type=int, default=1000)
    parser.add_argument("--format", choices=["xml", "binary"], default="binary")
    parser.add_argument("--recording-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bad-type-at", type=int, default=None)
    args = parser.parse_args()
    data = build(args.speeches, args.recording_every, args.seed, args.bad_type_at)
    with open(args.out, "wb") as out:
        plistlib.dump(data, out, fmt=plistlib.FMT_XML if args.format == "xml" else plistlib.FMT_BINARY, sort_keys=False)


if __name__ == "__main__":
    main()
