#!/usr/bin/env python3
"""What an operator would script instead of `storekeep migrate`: the reference for its speed.

Migrates a Speech Timer 1 data file (a property list) into a SQLite file with the tables storekeep
writes, using only Python's plistlib and sqlite3, doing the same work as a fair equivalent:

- loads the whole property list with plistlib.load, and refuses a data file whose version is not 1;
- creates e_SpeechType, e_Speech and e_Settings with storekeep's columns and indexes (docs/format.md:
  no `_entity` index, as each holds one entity),
  and its history tables sk_transaction, sk_change and sk_insert_run, in WAL mode with SQLite's
  default synchronous setting, as storekeep does;
- inserts speech types (built-in ones marked as seed data), then speeches, then the settings, with
  executemany, 10,000 records per transaction, each transaction also holding one history transaction
  whose inserts are insert runs, as storekeep writes them (format 3: each record's `_insert_run`
  names the run of its set of properties, one `sk_insert_run` row per run);
- resolves each speech's type by name;
- writes recordings over 4096 bytes to content-addressed files beside the database
  (`<db>.blobs/<2 hex>/<sha256>`, temporary name then rename; the file system is synced once per
  transaction before the commit, as storekeep does) and stores `sha256:<hex>` in the column.

It does not checkpoint for resuming, record rejected records, or verify counts and digests
afterwards, which storekeep does: the comparison favours this script.

  Benchmarks/reference-migrate.py DATA.plist TARGET.db
Prints one JSON object: rows, seconds (total), load_seconds (plistlib.load), max_rss_kib.
"""
import hashlib
import json
import os
import plistlib
import resource
import shutil
import sqlite3
import sys
import time
import uuid

BATCH = 10_000
INLINE_LIMIT = 4096
AUTHOR = "reference.migrate"
EPOCH = __import__("datetime").datetime(1970, 1, 1)

SCHEMA = """
CREATE TABLE sk_transaction (id INTEGER PRIMARY KEY, peer TEXT NOT NULL, seq INTEGER NOT NULL,
    author TEXT NOT NULL, timestamp REAL NOT NULL, UNIQUE (peer, seq));
CREATE TABLE sk_change (id INTEGER PRIMARY KEY, tx INTEGER NOT NULL, entity TEXT NOT NULL, gid TEXT NOT NULL,
    kind TEXT NOT NULL, properties TEXT NOT NULL, tombstone TEXT);
CREATE INDEX sk_change_tx ON sk_change (tx);
CREATE INDEX sk_change_gid ON sk_change (gid);
CREATE TABLE sk_insert_run (id INTEGER PRIMARY KEY, tx INTEGER NOT NULL, entity TEXT NOT NULL, properties TEXT NOT NULL,
    first_rowid INTEGER NOT NULL, last_rowid INTEGER NOT NULL, records INTEGER NOT NULL);
CREATE INDEX sk_insert_run_tx ON sk_insert_run (tx);
CREATE TABLE e_Settings (_rowid INTEGER PRIMARY KEY, _gid TEXT NOT NULL UNIQUE, _entity TEXT NOT NULL,
    _created REAL NOT NULL, _updated REAL, _seed_set TEXT, _seed_version INTEGER, _insert_run INTEGER,
    a_lastExport REAL, a_theme TEXT, a_vibrate INTEGER);
CREATE TABLE e_Speech (_rowid INTEGER PRIMARY KEY, _gid TEXT NOT NULL UNIQUE, _entity TEXT NOT NULL,
    _created REAL NOT NULL, _updated REAL, _seed_set TEXT, _seed_version INTEGER, _insert_run INTEGER,
    a_date REAL, a_duration REAL, a_notes TEXT, a_recording BLOB, a_rating INTEGER, a_speakerName TEXT,
    a_title TEXT, r_type TEXT);
CREATE INDEX e_Speech_r_type ON e_Speech (r_type);
CREATE TABLE e_SpeechType (_rowid INTEGER PRIMARY KEY, _gid TEXT NOT NULL UNIQUE, _entity TEXT NOT NULL,
    _created REAL NOT NULL, _updated REAL, _seed_set TEXT, _seed_version INTEGER, _insert_run INTEGER,
    a_greenSeconds REAL, a_name TEXT, a_redSeconds REAL, a_yellowSeconds REAL);
"""


def seconds_since_1970(date):
    return None if date is None else (date - EPOCH).total_seconds()


class Target:
    def __init__(self, path):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        self.blobs = path + ".blobs"
        shutil.rmtree(self.blobs, ignore_errors=True)
        os.makedirs(self.blobs)
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.executescript(SCHEMA)
        self.peer = str(uuid.uuid4()).upper()
        self.seq = 0
        self.wrote_blobs = False
        self.runs = 0
        self.rowids = {}

    def blob(self, data):
        digest = hashlib.sha256(data).hexdigest()
        folder = os.path.join(self.blobs, digest[:2])
        target = os.path.join(folder, digest)
        if not os.path.exists(target):
            os.makedirs(folder, exist_ok=True)
            temporary = os.path.join(folder, f".{digest}.{os.getpid()}.tmp")
            with open(temporary, "wb") as out:
                out.write(data)
            os.rename(temporary, target)
            self.wrote_blobs = True
        return "sha256:" + digest

    def batch(self, table, entity, rows, changes):
        """rows: tuples for `table` without `_insert_run`; changes: (gid, properties JSON) per row."""
        if self.wrote_blobs:
            os.sync()
            self.wrote_blobs = False
        now = time.time()
        self.seq += 1
        self.db.execute("BEGIN")
        tx = self.db.execute("INSERT INTO sk_transaction (peer, seq, author, timestamp) VALUES (?, ?, ?, ?)",
                             (self.peer, self.seq, AUTHOR, now)).lastrowid
        # One insert run per set of properties; rows of a fresh table get row ids 1, 2, 3, … in order.
        runs, written = {}, []
        rowid = self.rowids.get(table, 0)
        for row, (_, properties) in zip(rows, changes):
            rowid += 1
            run = runs.get(properties)
            if run is None:
                self.runs += 1
                run = runs[properties] = [self.runs, rowid, rowid, 0]
            run[2] = rowid
            run[3] += 1
            written.append(row[:6] + (run[0],) + row[6:])
        self.rowids[table] = rowid
        placeholders = ", ".join("?" * len(written[0]))
        self.db.executemany(f"INSERT INTO {table} VALUES (NULL, {placeholders})", written)
        self.db.executemany("INSERT INTO sk_insert_run (id, tx, entity, properties, first_rowid, last_rowid, records) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [(run, tx, entity, properties, first, last, count) for properties, (run, first, last, count) in runs.items()])
        self.db.execute("COMMIT")


def seed_gid(name):
    return str(uuid.UUID(bytes=hashlib.sha256(b"SpeechType\0" + name.encode()).digest()[:16])).upper()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: reference-migrate.py DATA.plist TARGET.db")
    source, target_path = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    with open(source, "rb") as data_file:
        data = plistlib.load(data_file)
    load_seconds = time.monotonic() - started
    if data.get("version") != 1:
        sys.exit(f"{source}: data file version {data.get('version')!r}, expected 1")
    target = Target(target_path)
    created = time.time()
    total = 0

    type_gids, rows, changes = {}, [], []
    for kind in data["speechTypes"]:
        gid = seed_gid(kind["name"])
        type_gids[kind["name"]] = gid
        seed = ("speechtimer.builtin-types", 1) if kind.get("builtIn") else (None, None)
        rows.append((gid, "SpeechType", created, None, *seed, kind["green"], kind["name"], kind["red"], kind["yellow"]))
        changes.append((gid, '["greenSeconds","name","redSeconds","yellowSeconds"]'))
    target.batch("e_SpeechType", "SpeechType", rows, changes)
    total += len(rows)

    speeches = data["speeches"]
    for start in range(0, len(speeches), BATCH):
        rows, changes = [], []
        created = time.time()
        for speech in speeches[start:start + BATCH]:
            type_gid = type_gids.get(speech["type"])
            if type_gid is None:
                sys.exit(f"speech {speech['id']}: no speech type named {speech['type']!r}")
            recording = speech.get("recording")
            if recording is not None and len(recording) > INLINE_LIMIT:
                recording = target.blob(recording)
            notes = speech.get("notes")
            rows.append((speech["id"], "Speech", created, None, None, None, seconds_since_1970(speech["date"]),
                         speech["duration"], notes, recording, None, speech["speaker"], speech["title"], type_gid))
            names = ["date", "duration"] + (["notes"] if notes is not None else []) + \
                    (["recording"] if recording is not None else []) + ["speakerName", "title", "type"]
            changes.append((speech["id"], json.dumps(names, separators=(",", ":"))))
        target.batch("e_Speech", "Speech", rows, changes)
        total += len(rows)

    settings = data["settings"]
    gid = "speechtimer1-plist/Settings/0"
    target.batch("e_Settings", "Settings",
                 [(gid, "Settings", time.time(), None, None, None, seconds_since_1970(settings.get("lastExport")),
                   settings.get("theme"), 1 if settings.get("vibrate") else 0)],
                 [(gid, '["lastExport","theme","vibrate"]')])
    total += 1
    target.db.close()
    print(json.dumps({"rows": total, "seconds": round(time.monotonic() - started, 3),
                      "load_seconds": round(load_seconds, 3),
                      "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))


if __name__ == "__main__":
    main()
