#!/usr/bin/env python3
"""Writes a SQLite file laid out the way Core Data lays out a store, for benchmarks.

One entity, Item, in table ZITEM (`Z_PK`, `Z_ENT`, `Z_OPT`, then a Boolean, an Integer 64, a
Date, a Double and two Strings, declared with Core Data's column types so that storekeep infers
them); `Z_PRIMARYKEY` and `Z_METADATA`, whose `Z_PLIST` is a binary property list (plistlib) with
`NSStoreUUID`, `NSStoreType` and the other keys Core Data writes. No `Z_MODELCACHE`: storekeep
infers the model from the tables (docs/coredata.md). Deterministic for a given --seed.

  Benchmarks/generate-coredata-store.py OUT.sqlite --rows 1000000 [--seed 1]
"""
import argparse
import os
import plistlib
import random
import sqlite3
import uuid

WORDS = ["keynote", "introduction", "review", "story", "lesson", "update", "welcome", "farewell", "pitch", "report"]


def rows(count, rng):
    created = 300_000_000.0  # seconds since 2001-01-01, as Core Data stores dates
    for pk in range(1, count + 1):
        notes = f"Remember to pause after the {rng.choice(WORDS)}." if pk % 3 == 0 else None
        yield (pk, 1, 1, pk % 2, rng.randrange(1, 6), created + 37.0 * 60 * pk, round(rng.uniform(0.0, 100.0), 2),
               f"{rng.choice(WORDS).title()} {pk}", notes)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    store_uuid = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
    temporary = args.out + ".partial"
    for path in (temporary, temporary + "-journal"):
        if os.path.exists(path):
            os.remove(path)
    db = sqlite3.connect(temporary, isolation_level=None)
    db.executescript("""
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZPRIORITY INTEGER,
                            ZCREATED TIMESTAMP, ZSCORE FLOAT, ZTITLE VARCHAR, ZNOTES VARCHAR);
    """)
    metadata = {
        "NSStoreUUID": store_uuid,
        "NSStoreType": "SQLite",
        "NSPersistenceFrameworkVersion": 977,
        "NSStoreModelVersionHashes": {"Item": bytes(rng.getrandbits(8) for _ in range(32))},
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""],
    }
    db.execute("BEGIN")
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plistlib.dumps(metadata, fmt=plistlib.FMT_BINARY)))
    db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, ?)", (args.rows,))
    db.executemany("INSERT INTO ZITEM VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows(args.rows, rng))
    db.execute("COMMIT")
    db.close()
    os.replace(temporary, args.out)


if __name__ == "__main__":
    main()
