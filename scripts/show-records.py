#!/usr/bin/env python3
"""Prints the live records of one entity of a storekeep store as a table (for `make demo`).

    scripts/show-records.py STORE ENTITY [ATTRIBUTE ...]

Reads the store read-only (SQLite URI mode=ro) through its documented layout (docs/format.md):
sk_column says which column of which table holds each attribute. Shows the global ID, the
attributes asked for (all when none is named) and the seed mark (seed set and version).
"""
import sqlite3
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    store, entity, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    columns = {p: (t, c) for p, t, c in db.execute(
        "SELECT property, table_name, column_name FROM sk_column WHERE entity = ? AND kind = 'attribute' ORDER BY property", (entity,))}
    if not columns:
        sys.exit(f"{store}: no entity {entity} in this store")
    names = wanted or sorted(columns)
    table = next(iter(columns.values()))[0]
    quoted = lambda name: '"' + name.replace('"', '""') + '"'
    select = ", ".join(quoted(columns[n][1]) for n in names)
    rows = db.execute(
        f"SELECT _gid, {select}, _seed_set, _seed_version FROM {quoted(table)} WHERE _entity = ? ORDER BY 2", (entity,)).fetchall()
    header = ["global ID"] + names + ["seed mark"]
    lines = [[str(r[0])] + ["" if v is None else (f"{v:g}" if isinstance(v, float) else str(v)) for v in r[1:-2]]
             + [f"{r[-2]} v{r[-1]}" if r[-2] else "(none: the user's)"] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(header, *lines)]
    for line in [header, ["-" * w for w in widths]] + lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    print(f"({len(rows)} {entity} record{'s' if len(rows) != 1 else ''})")


main()
