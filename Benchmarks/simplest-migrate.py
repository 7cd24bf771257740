#!/usr/bin/env python3
"""The simplest script an operator would write to move a Speech Timer 1 data file into SQLite:
plistlib.load, three plain tables without indexes or history, executemany in one transaction per
table, recordings kept inline. No global IDs checked, no resuming, no verification: printed by
`make bench` beside the reference (Benchmarks/reference-migrate.py) for information only.

  Benchmarks/simplest-migrate.py DATA.plist TARGET.db
"""
import plistlib
import sqlite3
import sys


def main():
    source, target = sys.argv[1], sys.argv[2]
    with open(source, "rb") as handle:
        data = plistlib.load(handle)
    db = sqlite3.connect(target)
    db.execute("CREATE TABLE speech_type (name TEXT, green REAL, yellow REAL, red REAL, built_in INTEGER)")
    db.execute("CREATE TABLE speech (id TEXT, title TEXT, speaker TEXT, type TEXT, date REAL, duration REAL, notes TEXT, recording BLOB)")
    db.execute("CREATE TABLE settings (vibrate INTEGER, theme TEXT, last_export REAL)")
    with db:
        db.executemany("INSERT INTO speech_type VALUES (?, ?, ?, ?, ?)",
                       ((t["name"], t["green"], t["yellow"], t["red"], int(t["builtIn"])) for t in data["speechTypes"]))
    with db:
        db.executemany("INSERT INTO speech VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       ((s["id"], s["title"], s["speaker"], s["type"], s["date"].timestamp(), s["duration"],
                         s.get("notes"), s.get("recording")) for s in data["speeches"]))
    settings = data["settings"]
    with db:
        db.execute("INSERT INTO settings VALUES (?, ?, ?)",
                   (int(settings["vibrate"]), settings["theme"], settings["lastExport"].timestamp()))
    db.close()


if __name__ == "__main__":
    main()
