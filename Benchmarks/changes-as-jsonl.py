#!/usr/bin/env python3
"""Writes every record of a storekeep store as JSON lines in `storekeep apply`'s insert format, with
Python's json module: the size a sync log is compared with (`make bench`, docs/benchmarks.md).

  Benchmarks/changes-as-jsonl.py STORE OUT.jsonl

One line per record: {"op": "insert", "entity": …, "id": …, "values": {…}, "toOne": {…}}. Binary
values are base64, as `apply` reads them; external ones are read from the blob folder.
"""
import base64
import json
import sqlite3
import sys


def main():
    store, out_path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    columns = {}
    for entity, prop, kind, table, column in db.execute(
            "SELECT entity, property, kind, table_name, column_name FROM sk_column WHERE kind IN ('attribute', 'to-one')"):
        columns.setdefault(entity, []).append((prop, kind, table, column))
    tables = {}
    for entity, props in columns.items():
        tables.setdefault(props[0][2], set()).add(entity)
    with open(out_path, "w") as out:
        for table, entities in sorted(tables.items()):
            quoted = '"' + table.replace('"', '""') + '"'
            cursor = db.execute(f"SELECT * FROM {quoted}")
            names = [description[0] for description in cursor.description]
            for row in cursor:
                record = dict(zip(names, row))
                entity = record["_entity"]
                values, to_one = {}, {}
                for prop, kind, _, column in columns.get(entity, []):
                    value = record.get(column)
                    if kind == "to-one":
                        to_one[prop] = value
                    elif isinstance(value, bytes):
                        values[prop] = base64.b64encode(value).decode()
                    elif isinstance(value, str) and value.startswith("sha256:") and len(value) == 71:
                        with open(f"{store}.blobs/{value[7:9]}/{value[7:]}", "rb") as blob:
                            values[prop] = base64.b64encode(blob.read()).decode()
                    else:
                        values[prop] = value
                line = {"op": "insert", "entity": entity, "id": record["_gid"], "values": values}
                if to_one:
                    line["toOne"] = to_one
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
