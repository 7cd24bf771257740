#!/usr/bin/env python3
"""Turns the measurements Benchmarks/run.sh recorded into the benchmark table and results.json.

  Benchmarks/report.py MEASUREMENTS.txt RESULTS.json

MEASUREMENTS.txt holds `name value` lines; a name recorded by several runs keeps every value and
the table uses their median (peak memory: their maximum).
"""
import datetime
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys

MIB = 1024 * 1024
REQUIRED_SPEECHES = 1_000_000
REQUIRED_BIG_SPEECHES = 4_000_000
REQUIRED_COREDATA_ROWS = 1_000_000
REQUIRED_REPAIR_FINDINGS = 1_000_000


def read(path):
    values = {}
    with open(path) as lines:
        for line in lines:
            name, value = line.split()
            values.setdefault(name, []).append(float(value))
    return values


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def migration_table(values, median, peak, table):
    """The rows of the migration and check measurements (skipped with BENCH_ONLY=repair)."""
    speeches = int(median("plist.speeches"))
    rows = median("plist.rows")
    storekeep_seconds = median("plist.storekeep.seconds")
    python_seconds = median("plist.python.seconds")
    storekeep_rate = rows / storekeep_seconds
    python_rate = rows / python_seconds
    c_rate = median("plist.c.rows_per_second")
    storekeep_mib = peak("plist.storekeep.rss_kib") * 1024 / MIB
    python_mib = peak("plist.python.rss_kib") * 1024 / MIB
    has_coredata = "coredata.c.rows_per_second" in values
    if has_coredata:
        coredata_rows = median("coredata.rows")
        coredata_rate = coredata_rows / median("coredata.storekeep.seconds")
        coredata_c_rate = median("coredata.c.rows_per_second")

    table += [
        {"measurement": f"plist → store, {speeches:,} speeches, binary as plistlib writes it: speed-up over Python plistlib + sqlite3",
         "unit": "records/s", "figure": storekeep_rate, "reference": python_rate,
         "ratio": python_seconds / storekeep_seconds, "goal": "ratio ≥ 5×",
         "met": python_seconds / storekeep_seconds >= 5},
        {"measurement": f"plist → store, {speeches:,} speeches: share of the C insert rate (same table and indexes)",
         "unit": "records/s", "figure": storekeep_rate, "reference": c_rate,
         "ratio": storekeep_rate / c_rate, "goal": "ratio ≥ 0.70", "met": storekeep_rate / c_rate >= 0.70},
        {"measurement": f"plist → store, {speeches:,} speeches: peak memory (reference: the Python script)",
         "unit": "MiB", "figure": storekeep_mib, "reference": python_mib,
         "ratio": storekeep_mib / python_mib, "goal": "figure ≤ 64 MiB", "met": storekeep_mib <= 64},
    ]
    for prefix, words, goal in (("plistcf", "binary, children first", 6), ("plistxml", "XML as plistlib writes it", 5)):
        if f"{prefix}.storekeep.seconds" not in values:
            continue
        count = int(median(f"{prefix}.speeches"))
        seconds = median(f"{prefix}.storekeep.seconds")
        reference = median(f"{prefix}.python.seconds")
        table.append({"measurement": f"plist → store, {count:,} speeches, {words}: speed-up over Python plistlib + sqlite3",
                      "unit": "records/s", "figure": median(f"{prefix}.rows") / seconds, "reference": median(f"{prefix}.rows") / reference,
                      "ratio": reference / seconds, "goal": f"ratio ≥ {goal}×", "met": reference / seconds >= goal})
        mib = peak(f"{prefix}.storekeep.rss_kib") * 1024 / MIB
        table.append({"measurement": f"plist → store, {count:,} speeches, {words}: peak memory", "unit": "MiB", "figure": mib,
                      "reference": None, "ratio": None, "goal": "figure ≤ 64 MiB", "met": mib <= 64})
    for prefix, words in (("plist", "binary as plistlib writes it"), ("plistcf", "binary, children first"), ("plistxml", "XML")):
        if f"{prefix}.simplest.seconds" in values:
            seconds = median(f"{prefix}.storekeep.seconds")
            simplest = median(f"{prefix}.simplest.seconds")
            table.append({"measurement": f"plist → store, {words}: vs the simplest script (plistlib + plain tables, no history)",
                          "unit": "s", "figure": seconds, "reference": simplest, "ratio": simplest / seconds,
                          "goal": "information", "met": None, "note": "-"})
    if "bigcf.storekeep.rss_kib" in values:
        big = int(median("big.speeches"))
        bigcf_mib = peak("bigcf.storekeep.rss_kib") * 1024 / MIB
        table.append({"measurement": f"plist → store, {big:,} speeches, children first: peak memory",
                      "unit": "MiB", "figure": bigcf_mib, "reference": storekeep_mib, "ratio": bigcf_mib / storekeep_mib,
                      "goal": "figure ≤ 64 MiB, ratio ≤ 1.10", "met": bigcf_mib <= 64 and bigcf_mib / storekeep_mib <= 1.10})
    if "big.storekeep.rss_kib" in values:
        big = int(median("big.speeches"))
        big_mib = peak("big.storekeep.rss_kib") * 1024 / MIB
        table.append({"measurement": f"plist → store, {big:,} speeches: peak memory (reference: {speeches:,})",
                      "unit": "MiB", "figure": big_mib, "reference": storekeep_mib, "ratio": big_mib / storekeep_mib,
                      "goal": "figure ≤ 64 MiB, ratio ≤ 1.10", "met": big_mib <= 64 and big_mib / storekeep_mib <= 1.10,
                      "seconds": median("big.storekeep.seconds")})
    else:
        table.append({"measurement": "plist → store, big case: peak memory", "unit": "MiB", "figure": None,
                      "reference": storekeep_mib, "ratio": None, "goal": "figure ≤ 64 MiB, ratio ≤ 1.10",
                      "met": None, "note": "not run: set BENCH_4M=1"})
    if has_coredata:
        table.append({"measurement": f"Core Data store → store, {int(coredata_rows):,} rows (reference: C insert, same table and indexes)",
                      "unit": "rows/s", "figure": coredata_rate, "reference": coredata_c_rate,
                      "ratio": coredata_rate / coredata_c_rate, "goal": "figure ≥ 300,000 rows/s",
                      "met": coredata_rate >= 300_000})
    if "check.storekeep.seconds" in values:
        check_records = int(median("check.records"))
        check_seconds = median("check.storekeep.seconds")
        integrity_seconds = median("check.integrity.seconds")
        table.append({"measurement": f"check --full, store of {check_records:,} records (reference: PRAGMA integrity_check alone)",
                      "unit": "s", "figure": check_seconds, "reference": integrity_seconds,
                      "ratio": check_seconds / integrity_seconds, "goal": "ratio ≤ 2×",
                      "met": check_seconds / integrity_seconds <= 2})
    # For information: the C insert into a table of the same columns without its indexes (the
    # unique global ID index costs most), closer to DESIGN.md §8's raw C API figure.
    if "plist.cbare.rows_per_second" in values:
        bare = median("plist.cbare.rows_per_second")
        table.append({"measurement": f"plist → store, {speeches:,} speeches, vs C insert into a table without indexes",
                      "unit": "records/s", "figure": storekeep_rate, "reference": bare,
                      "ratio": storekeep_rate / bare, "goal": "information", "met": None, "note": "-"})
    if has_coredata and "coredata.cbare.rows_per_second" in values:
        bare = median("coredata.cbare.rows_per_second")
        table.append({"measurement": f"Core Data store → store, {int(coredata_rows):,} rows, vs C insert without indexes",
                      "unit": "rows/s", "figure": coredata_rate, "reference": bare,
                      "ratio": coredata_rate / bare, "goal": "information", "met": None, "note": "-"})


def sync_table(values, median, peak, table):
    """The rows of sync, rekey and archive (the store they start from: the Core Data migration's)."""
    if "sync.export.seconds" in values:
        changes = int(median("sync.changes"))
        export_rate = changes / median("sync.export.seconds")
        import_rate = changes / median("sync.import.seconds")
        log_bytes = median("sync.log_bytes")
        jsonl_bytes = median("sync.jsonl_bytes")
        table.append({"measurement": f"sync export, {changes:,} changes (the whole command)", "unit": "changes/s",
                      "figure": export_rate, "reference": None, "ratio": None, "goal": "figure ≥ 300,000 changes/s",
                      "met": export_rate >= 300_000})
        table.append({"measurement": f"sync log files, {changes:,} changes (reference: the same changes as JSON lines)",
                      "unit": "MiB", "figure": log_bytes / MIB, "reference": jsonl_bytes / MIB, "ratio": log_bytes / jsonl_bytes,
                      "goal": "ratio ≤ 0.5", "met": log_bytes / jsonl_bytes <= 0.5})
        table.append({"measurement": f"sync import and merge into a new peer, {changes:,} changes (the whole command)", "unit": "changes/s",
                      "figure": import_rate, "reference": None, "ratio": None, "goal": "figure ≥ 150,000 changes/s",
                      "met": import_rate >= 150_000})
        if "syncbig.import.rss_kib" not in values:
            for step in ("export", "import"):
                table.append({"measurement": f"sync {step}, {changes:,} changes: peak memory (the 4M ratio: BENCH_4M=1)",
                              "unit": "MiB", "figure": peak(f"sync.{step}.rss_kib") * 1024 / MIB, "reference": None,
                              "ratio": None, "goal": "ratio to 1M ≤ 1.10 at 4M", "met": None, "note": "not measured"})
        else:
            big_changes = int(median("syncbig.changes"))
            for step in ("export", "import"):
                small = peak(f"sync.{step}.rss_kib") * 1024 / MIB
                large = peak(f"syncbig.{step}.rss_kib") * 1024 / MIB
                table.append({"measurement": f"sync {step}, {big_changes:,} changes: peak memory (reference: {changes:,})",
                              "unit": "MiB", "figure": large, "reference": small, "ratio": large / small,
                              "goal": "ratio ≤ 1.10", "met": large / small <= 1.10})
    if "rekey.storekeep.seconds" in values:
        records = int(median("rekey.records"))
        rekey_seconds = median("rekey.storekeep.seconds")
        backup_seconds = median("rekey.backup.seconds")
        table.append({"measurement": f"rekey, store of {records:,} records, baseline written and verified (reference: sqlite3 .backup)",
                      "unit": "s", "figure": rekey_seconds, "reference": backup_seconds, "ratio": rekey_seconds / backup_seconds,
                      "goal": "ratio ≤ 2×", "met": rekey_seconds / backup_seconds <= 2})
    if "archive.storekeep.seconds" in values:
        log_mib = median("archive.log_bytes") / MIB
        archive_seconds = median("archive.storekeep.seconds")
        bsdtar_seconds = median("archive.bsdtar.seconds")
        table.append({"measurement": f"archive of {log_mib:,.0f} MiB of logs, the whole command (reference: bsdtar --zstd of the same files)",
                      "unit": "s", "figure": archive_seconds, "reference": bsdtar_seconds, "ratio": bsdtar_seconds / archive_seconds,
                      "goal": "ratio ≥ 1.5× (reference / figure)", "met": bsdtar_seconds / archive_seconds >= 1.5})
        for name, what in (("export", "first sync export of the store: the logs written"),
                           ("join_logs", "a new peer joining from those logs (sync: import and merge, recordings written)"),
                           ("join_snapshot", "a new peer joining from the archive's snapshot baseline")):
            if f"archive.{name}.seconds" in values:
                mib = peak(f"archive.{name}.rss_kib") * 1024 / MIB
                table.append({"measurement": f"{what}, {log_mib:,.0f} MiB of logs (peak memory {mib:,.0f} MiB)", "unit": "s",
                              "figure": median(f"archive.{name}.seconds"), "reference": None, "ratio": None,
                              "goal": "information", "met": None, "note": "-"})
        restore_rate = median("archive.log_bytes") / MIB / median("archive.restore.seconds")
        table.append({"measurement": f"archive restore, {log_mib:,.0f} MiB of logs written and verified", "unit": "MiB/s",
                      "figure": restore_rate, "reference": None, "ratio": None, "goal": "figure ≥ 400 MB/s (381 MiB/s)",
                      "met": restore_rate >= 400 * 1_000_000 / MIB})


def main():
    measurements, results_path = sys.argv[1], sys.argv[2]
    values = read(measurements)

    def median(name):
        return statistics.median(values[name])

    def peak(name):
        return max(values[name])

    table = []
    if "plist.speeches" in values:
        migration_table(values, median, peak, table)
    if "sync.changes" in values:
        sync_table(values, median, peak, table)
    if "repair.findings" in values:
        findings = int(median("repair.findings"))
        full = median("repair.full.seconds")
        tenth = median("repair.tenth.seconds")
        table.append({"measurement": f"repair of {findings:,} dangling references (reference: 10 × the repair of {findings // 10:,})",
                      "unit": "s", "figure": full, "reference": 10 * tenth, "ratio": full / (10 * tenth),
                      "goal": "ratio ≤ 1.5 (linear)", "met": full / (10 * tenth) <= 1.5,
                      "findings_per_second": findings / full,
                      "rss_mib": peak("repair.full.rss_kib") * 1024 / MIB})

    def show(value, unit):
        if value is None:
            return "-"
        if unit == "s":
            return f"{value:,.2f} {unit}"
        return f"{value:,.1f} {unit}" if unit == "MiB" else f"{value:,.0f} {unit}"

    header = ("measurement", "figure", "reference", "ratio", "goal", "met")
    lines = [(entry["measurement"], show(entry["figure"], entry["unit"]), show(entry["reference"], entry["unit"]),
              "-" if entry["ratio"] is None else f"{entry['ratio']:.2f}", entry["goal"],
              {True: "yes", False: "NO", None: entry.get("note", "-")}[entry["met"]]) for entry in table]
    widths = [max(len(row[column]) for row in [header] + lines) for column in range(len(header))]
    print()
    for row in [header, tuple("-" * width for width in widths)] + lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    sizes_as_required = (("plist.speeches" not in values or median("plist.speeches") >= REQUIRED_SPEECHES)
                         and ("coredata.rows" not in values or median("coredata.rows") >= REQUIRED_COREDATA_ROWS)
                         and ("repair.findings" not in values or median("repair.findings") >= REQUIRED_REPAIR_FINDINGS))
    if not sizes_as_required:
        print("\nsmaller sizes than the requirements (BENCH_QUICK or BENCH_* sizes): a smoke run, not the figures of record")
    print(f"\nload average {values['machine.load_before'][0]} before, {values['machine.load_after'][0]} after, "
          f"on {os.cpu_count()} cores; results in {results_path}")

    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "sqlite": sqlite3.sqlite_version,
                    "load_before": values["machine.load_before"][0], "load_after": values["machine.load_after"][0]},
        "sizes_as_required": sizes_as_required,
        "table": table,
        "measurements": values,
    }
    with open(results_path, "w") as out:
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
