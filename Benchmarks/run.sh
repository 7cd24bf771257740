#!/usr/bin/env bash
# storekeep's benchmarks (DESIGN.md §8): measures the requirements of `storekeep migrate` and `check` against
# references run on the same data in the same run, and prints a table with ratios. `make bench`
# runs it. What is measured and the figures of record: docs/benchmarks.md.
#
# Environment (defaults match the requirements):
#   BENCH_SPEECHES=1000000       speeches in the binary property lists (plistlib and children-first layouts)
#   BENCH_XML_SPEECHES=200000    speeches in the XML property list (plistlib FMT_XML)
#   BENCH_COREDATA_ROWS=1000000  rows of the generated Core Data store
#   BENCH_4M=1                   also migrate BENCH_BIG_SPEECHES speeches, and sync as many changes, for
#                                peak memory (slow: several minutes once the inputs exist; off by default)
#   BENCH_BIG_SPEECHES=4000000   size of that run
#   BENCH_REPAIR_FINDINGS=1000000  dangling references `storekeep repair` fixes (and a tenth as many)
#   BENCH_ONLY=repair            only the repair measurement (the others are skipped)
#   BENCH_ONLY=plist             only the property-list migrations (the three layouts and the C insert)
#   BENCH_ONLY=sync              only the Core Data migration and what stands on its store: sync, rekey,
#                                archive (and, with BENCH_4M=1, sync's peak memory at the big size)
#   BENCH_ARCHIVE_SPEECHES=400000  speeches (a recording every third) migrated and exported for archive
#   BENCH_RUNS=3                 runs of the cheap measurements (C baselines, check); the median is kept
#   BENCH_SLOW_RUNS=1            runs of each full migration (storekeep, Python); the median is kept
#   BENCH_QUICK=1                smoke run: 20,000 speeches and rows and findings, 80,000 for the big case
#   BENCH_WORK=Benchmarks/.work  scratch folder: generated inputs (kept and reused), stores, results.json
#   STOREKEEP_BUILD=.build/release   where `swift build -c release` puts storekeep
#   BENCH_SKIP_BUILD=1           use the storekeep already in STOREKEEP_BUILD
set -Eeuo pipefail
cd "$(dirname "$0")/.."

fail() { printf 'bench: %s\n' "$*" >&2; exit 1; }
trap 'status=$?; printf "bench: failed (exit %s) at line %s: %s\n" "$status" "$LINENO" "$BASH_COMMAND" >&2' ERR

positive() { # NAME VALUE: VALUE must be a positive integer
    [[ $2 =~ ^[1-9][0-9]*$ ]] || fail "$1 must be a positive integer, not '$2'"
}

if [[ ${BENCH_QUICK:-0} == 1 ]]; then
    speeches=${BENCH_SPEECHES:-20000}; coredata_rows=${BENCH_COREDATA_ROWS:-20000}; big=${BENCH_BIG_SPEECHES:-80000}
    repair_findings=${BENCH_REPAIR_FINDINGS:-20000}
else
    speeches=${BENCH_SPEECHES:-1000000}; coredata_rows=${BENCH_COREDATA_ROWS:-1000000}; big=${BENCH_BIG_SPEECHES:-4000000}
    repair_findings=${BENCH_REPAIR_FINDINGS:-1000000}
fi
only=${BENCH_ONLY:-all}
runs=${BENCH_RUNS:-3}
slow_runs=${BENCH_SLOW_RUNS:-1}
big_case=${BENCH_4M:-0}
positive BENCH_SPEECHES "$speeches"; positive BENCH_COREDATA_ROWS "$coredata_rows"
positive BENCH_BIG_SPEECHES "$big"; positive BENCH_RUNS "$runs"; positive BENCH_SLOW_RUNS "$slow_runs"
[[ $big_case == 0 || $big_case == 1 ]] || fail "BENCH_4M must be 0 or 1, not '$big_case'"
positive BENCH_REPAIR_FINDINGS "$repair_findings"
(( repair_findings >= 10 )) || fail "BENCH_REPAIR_FINDINGS must be at least 10 (a tenth of it is measured too)"
[[ $only == all || $only == repair || $only == sync || $only == plist ]] || fail "BENCH_ONLY must be all, repair, sync or plist, not '$only'"

work=${BENCH_WORK:-Benchmarks/.work}
build=${STOREKEEP_BUILD:-.build/release}
storekeep=$build/storekeep
mapping=Migrations/SpeechTimer/speechtimer1-plist.mapping.yaml
timer=/usr/bin/time

for tool in swift gcc python3; do
    command -v "$tool" >/dev/null || fail "$tool is not installed"
done
[[ -x $timer ]] || fail "$timer is missing (apt-get install time): it measures peak memory"
# (captured, not piped into grep -q: grep quitting early would fail the pipe under pipefail)
[[ $($timer -v true 2>&1) == *'Maximum resident set size'* ]] || fail "$timer -v does not report the maximum resident set size"
[[ -f /usr/include/sqlite3.h ]] || fail "sqlite3.h is missing: make deps installs libsqlite3-dev"
mkdir -p "$work"
rm -f "$work"/*.out "$work"/*.err "$work"/*.time "$work/results.json"
# Outputs an interrupted earlier run left behind go first: every measured run below writes into
# its own new path and nothing is deleted until the measurements are done, because ext4 skips
# inodes freed in the last minutes when it allocates new ones (find_inode_bit / recently_deleted)
# and creating ~20,000 blob files right after deleting ~20,000 cost a run seconds of kernel time.
rm -rf "$work"/*.store "$work"/*.store-wal "$work"/*.store-journal "$work"/*.store-shm "$work"/*.store.blobs "$work"/*.store.rejected.jsonl \
    "$work"/reference-*.db "$work"/reference-*.db-wal "$work"/reference-*.db-shm "$work"/reference-*.db.blobs
measurements=$work/measurements.txt
: >"$measurements"

step() { printf '\n== %s\n' "$*" >&2; }
record() { printf '%s %s\n' "$1" "$2" >>"$measurements"; }

# timed NAME COMMAND...: runs COMMAND under /usr/bin/time -v, its stdout to $work/NAME.out, and
# records NAME.seconds (wall clock) and NAME.rss_kib (maximum resident set size).
timed() {
    local name=$1; shift
    local report=$work/$name.time
    # Earlier runs' outputs are written back first, so that their writeback does not share the
    # two cores and the disk with the run being timed.
    sync
    if ! $timer -v -o "$report" "$@" >"$work/$name.out" 2>"$work/$name.err"; then
        cat "$work/$name.err" >&2
        fail "$name failed: $*"
    fi
    local wall rss
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$report")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$report")
    [[ -n $wall && -n $rss ]] || fail "could not read the time and memory of $name from $report"
    record "$name.seconds" "$(python3 -c 'import sys; parts = sys.argv[1].split(":"); print(sum(float(p) * 60 ** i for i, p in enumerate(reversed(parts))))' "$wall")"
    record "$name.rss_kib" "$rss"
    printf '   %s: %s wall, %s KiB max RSS\n' "$name" "$wall" "$rss" >&2
}

remove_store() { rm -rf "$1" "$1-wal" "$1-shm" "$1.blobs" "$1.rejected.jsonl"; }

# migrate NAME SOURCE TARGET [options]: one storekeep migration into a fresh target.
migrate() {
    local name=$1 source=$2 target=$3; shift 3
    remove_store "$target"
    timed "$name" "$storekeep" migrate "$source" --to "$target" --quiet "$@"
}

# baseline NAME STORE TABLE [--bare]: the C insert of STORE's TABLE rows into a fresh database
# (the same table and indexes; with --bare, the same columns without indexes).
baseline() {
    local name=$1 store=$2 table=$3
    "$work/sqlite-insert-baseline" ${4:+"$4"} "$store" "$table" "$work/baseline.db" >"$work/$name.out" \
        || fail "the C baseline failed on $store $table"
    local rate
    rate=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["rows_per_second"])' "$work/$name.out")
    record "$name.rows_per_second" "$rate"
    printf '   %s: %s rows/s\n' "$name" "$rate" >&2
    rm -f "$work/baseline.db" "$work/baseline.db-wal" "$work/baseline.db-shm"
}

# plist SPEECHES [LAYOUT]: the generated Speech Timer 1 data file with SPEECHES speeches, made once.
# LAYOUT: plistlib (default: binary, written by Python's plistlib, parents before children as Apple's
# writer orders them too), xml (plistlib's FMT_XML), or children-first (Benchmarks/generate-speechtimer-bplist.py:
# the same content, objects written children first, in little memory).
plist() {
    local layout=${2:-plistlib}
    local file=$work/speechtimer1-$1-$layout.plist
    if [[ ! -f $file ]]; then
        step "generating $file"
        case $layout in
            plistlib) python3 scripts/generate-speechtimer-plist.py "$file" --speeches "$1" --format binary --recording-every 50 ;;
            xml) python3 scripts/generate-speechtimer-plist.py "$file" --speeches "$1" --format xml --recording-every 50 ;;
            children-first) python3 Benchmarks/generate-speechtimer-bplist.py "$file" --speeches "$1" --recording-every 50 ;;
            *) fail "unknown layout $layout" ;;
        esac
    fi
    printf '%s' "$file"
}

load=$(cut -d' ' -f1 /proc/loadavg)
record machine.load_before "$load"
if python3 -c 'import os, sys; sys.exit(0 if float(sys.argv[1]) < os.cpu_count() * 0.5 else 1)' "$load"; then :; else
    printf 'bench: load average %s on %s cores: other work will slow every figure (ratios suffer less)\n' "$load" "$(nproc)" >&2
fi

if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    step "swift build -c release"
    swift build -c release >&2
fi
[[ -x $storekeep ]] || fail "$storekeep is missing: build with swift build -c release, or set STOREKEEP_BUILD"
gcc -O2 -Wall -Wextra -o "$work/sqlite-insert-baseline" Benchmarks/sqlite-insert-baseline.c -lsqlite3

# 5. Repair of BENCH_REPAIR_FINDINGS dangling to-one references, and of a tenth as many, each in a
# copy of one migrated store: repair must be linear in the number of findings (a quadratic one did
# not finish 100,000 in ten minutes). Every speech's required `type` points at a record that does not
# exist: repair empties each (one finding, one fix) and lists the speech, left without its required
# type under the policy keep, for the user (a finding the fix causes); so the run exits 1.
repair_case() {
    local findings=$1 tenth=$(( $1 / 10 ))
    local source base=$work/repair-base.store
    source=$(plist "$findings")
    remove_store "$base"
    step "storekeep migrate, $findings speeches: the store the repairs start from (not timed)"
    "$storekeep" migrate "$source" --to "$base" --mapping "$mapping" --quiet >/dev/null \
        || fail "could not make $base to repair"
    record repair.findings "$findings"
    for run in $(seq "$slow_runs"); do
        for size in "$tenth" "$findings"; do
            local name=repair.full store=$work/repair-$size-$run.store
            [[ $size == "$tenth" ]] && name=repair.tenth
            remove_store "$store"
            cp "$base" "$store"
            cp -al "$base.blobs" "$store.blobs"
            python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE e_Speech SET r_type = \x27gone-\x27 || _rowid WHERE _rowid IN (SELECT _rowid FROM e_Speech ORDER BY _rowid LIMIT ?)", (int(sys.argv[2]),))
db.commit()' "$store" "$size"
            step "storekeep repair, $size dangling references (run $run of $slow_runs)"
            # Exit 1 is the expected outcome (the speeches left without a type are the user's).
            timed "$name" bash -c '"$@"; status=$?; (( status == 0 || status == 1 ))' repair \
                "$storekeep" repair "$store" --no-backup --quiet
        done
    done
    for run in $(seq "$slow_runs"); do remove_store "$work/repair-$tenth-$run.store"; remove_store "$work/repair-$findings-$run.store"; done
    remove_store "$base"
}

if [[ $only == repair ]]; then
    repair_case "$repair_findings"
    record machine.load_after "$(cut -d' ' -f1 /proc/loadavg)"
    python3 Benchmarks/report.py "$measurements" "$work/results.json"
    exit 0
fi

# 1. Property list → store, per layout: storekeep, the Python reference, and the simplest script
# (information), alternating; then the bare C insert of the same rows.
if [[ $only == all || $only == plist ]]; then
plist_layout() { # PREFIX FILE SPEECHES: one layout's runs
    local prefix=$1 file=$2 count=$3
    record "$prefix.speeches" "$count"
    record "$prefix.bytes" "$(stat -c %s "$file")"
    for run in $(seq "$slow_runs"); do
        step "storekeep migrate, $prefix, $count speeches (run $run of $slow_runs)"
        migrate "$prefix.storekeep" "$file" "$work/$prefix-$run.store" --mapping "$mapping"
        step "Python plistlib + sqlite3 reference, $prefix, $count speeches (run $run of $slow_runs)"
        timed "$prefix.python" python3 Benchmarks/reference-migrate.py "$file" "$work/reference-$prefix-$run.db"
        timed "$prefix.simplest" python3 Benchmarks/simplest-migrate.py "$file" "$work/simplest-$prefix-$run.db"
    done
}
data=$(plist "$speeches")
plist_layout plist "$data" "$speeches"
store=$work/plist-1.store
plist_layout plistcf "$(plist "$speeches" children-first)" "$speeches"
xml_speeches=${BENCH_XML_SPEECHES:-$([[ ${BENCH_QUICK:-0} == 1 ]] && echo 20000 || echo 200000)}
plist_layout plistxml "$(plist "$xml_speeches" xml)" "$xml_speeches"
for prefix in plist plistcf plistxml; do
    record "$prefix.rows" "$(python3 -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); print(sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("e_Speech", "e_SpeechType", "e_Settings")))' "$work/$prefix-1.store")"
done
for run in $(seq "$runs"); do
    step "C prepared-statement insert of the same e_Speech rows, same table / no indexes (run $run of $runs)"
    baseline plist.c "$store" e_Speech
    baseline plist.cbare "$store" e_Speech --bare
done
for prefix in plist plistcf plistxml; do
    for run in $(seq "$slow_runs"); do
        remove_store "$work/$prefix-$run.store"
        rm -rf "$work/reference-$prefix-$run.db" "$work/reference-$prefix-$run.db-wal" "$work/reference-$prefix-$run.db-shm" \
            "$work/reference-$prefix-$run.db.blobs" "$work/simplest-$prefix-$run.db"
    done
done
fi

if [[ $only == plist ]]; then
    record machine.load_after "$(cut -d' ' -f1 /proc/loadavg)"
    python3 Benchmarks/report.py "$measurements" "$work/results.json"
    exit 0
fi

# 2. Core Data store → store.
coredata=$work/coredata-$coredata_rows.sqlite
if [[ ! -f $coredata ]]; then
    step "generating $coredata"
    python3 Benchmarks/generate-coredata-store.py "$coredata" --rows "$coredata_rows"
fi
record coredata.rows "$coredata_rows"
for run in $(seq "$slow_runs"); do
    cdstore=$work/coredata-$run.store
    step "storekeep migrate, Core Data store of $coredata_rows rows (run $run of $slow_runs)"
    migrate coredata.storekeep "$coredata" "$cdstore"
done
if [[ $only == all ]]; then
for run in $(seq "$runs"); do
    step "C prepared-statement insert of the same e_Item rows, same table / no indexes (run $run of $runs)"
    baseline coredata.c "$cdstore" e_Item
    baseline coredata.cbare "$cdstore" e_Item --bare
done
# 3. check --full of that store against SQLite's integrity_check alone, on the same file. Each is run
# $runs times, alternating, so both meet the same page cache.
record check.records "$coredata_rows"
for run in $(seq "$runs"); do
    step "PRAGMA integrity_check and storekeep check --full, $coredata_rows records (run $run of $runs)"
    timed check.integrity python3 -c 'import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
result = db.execute("PRAGMA integrity_check").fetchall()
sys.exit(0 if result == [("ok",)] else 1)' "$cdstore"
    timed check.storekeep "$storekeep" check "$cdstore" --full --quiet
done
fi
# 4. Sync: export of that store's records into a container, and their import into a new empty peer
# made like it (what a new device does); the log files against the same changes as JSON lines.
content_name() { "$storekeep" info "$1" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["contentName"])'; }
sync_case() { # PREFIX STORE: export STORE's transactions, then import them into a new peer.
    local prefix=$1 source=$2 box=$work/container-$1 peer=$work/peer-$1.store
    rm -rf "$box"; mkdir -p "$box"; remove_store "$peer"
    timed "$prefix.export" "$storekeep" sync "$source" --container "$box" --quiet
    record "$prefix.log_bytes" "$(find "$box" -name '*.sklog' -printf '%s\n' | python3 -c 'import sys; print(sum(int(n) for n in sys.stdin))')"
    "$storekeep" init "$peer" --model "$source" --content-name "$(content_name "$source")" --peer-id bench-new-peer --quiet >/dev/null
    timed "$prefix.import" "$storekeep" sync "$peer" --container "$box" --quiet
    remove_store "$peer"; rm -rf "$box"
}
record sync.changes "$coredata_rows"
for run in $(seq "$slow_runs"); do
    step "storekeep sync: export and import of $coredata_rows changes (run $run of $slow_runs)"
    sync_case sync "$work/coredata-$run.store"
done
python3 Benchmarks/changes-as-jsonl.py "$work/coredata-1.store" "$work/changes.jsonl"
record sync.jsonl_bytes "$(stat -c %s "$work/changes.jsonl")"
rm -f "$work/changes.jsonl"

# 5. Rekey of that store (synced first, so the rekey's own sync has nothing to move) against a
# sqlite3 .backup of the same file.
record rekey.records "$coredata_rows"
for run in $(seq "$runs"); do
    box=$work/rekey-box; rm -rf "$box"; mkdir -p "$box"
    rekeyed=$work/rekeyed.store; remove_store "$rekeyed"; cp "$work/coredata-1.store" "$rekeyed"
    "$storekeep" sync "$rekeyed" --container "$box" --quiet >/dev/null
    step "sqlite3 .backup and storekeep rekey, $coredata_rows records (run $run of $runs)"
    rm -f "$work/backup.db"
    timed rekey.backup sqlite3 "$rekeyed" ".backup $work/backup.db"
    timed rekey.storekeep "$storekeep" rekey "$rekeyed" --container "$box" --to bench-rekeyed --quiet
    rm -rf "$box" "$work/backup.db"; remove_store "$rekeyed"
done
for run in $(seq "$slow_runs"); do remove_store "$work/coredata-$run.store"; done

# 6. Archive and restore of about 1 GB of logs (a Speech Timer file with a recording every third
# speech, migrated and exported), against bsdtar --zstd on the same log files.
archive_speeches=${BENCH_ARCHIVE_SPEECHES:-$([[ ${BENCH_QUICK:-0} == 1 ]] && echo 20000 || echo 400000)}
adata=$work/speechtimer1-archive-$archive_speeches.plist
if [[ ! -f $adata ]]; then
    step "generating $adata"
    python3 Benchmarks/generate-speechtimer-bplist.py "$adata" --speeches "$archive_speeches" --recording-every 3
fi
# join_peer STORE BOX KIND: a new peer of STORE's model syncs from BOX (timed as archive.join_KIND)
# and must reach STORE's content digest.
join_peer() {
    local source=$1 box=$2 kind=$3 peer=$work/join-$3.store
    remove_store "$peer"
    "$storekeep" init "$peer" --model "$source" --content-name "$(content_name "$source")" --peer-id "bench-join-$kind" --quiet >/dev/null
    timed "archive.join_$kind" "$storekeep" sync "$peer" --container "$box" --quiet
    local want got
    want=$("$storekeep" digest "$source" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["digest"])')
    got=$("$storekeep" digest "$peer" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["digest"])')
    [[ $want == "$got" ]] || fail "the peer that joined from the $kind has digest $got, not $want"
    remove_store "$peer"
}
for run in $(seq "$slow_runs"); do
    astore=$work/archive.store; abox=$work/archive-box; remove_store "$astore"; rm -rf "$abox" "$work/archives" "$work/restored" "$work/logs.tar.zst"
    mkdir -p "$abox" "$work/restored"
    step "archive: migrate, export ($archive_speeches speeches with recordings) (run $run of $slow_runs)"
    "$storekeep" migrate "$adata" --to "$astore" --mapping "$mapping" --quiet >/dev/null
    timed archive.export "$storekeep" sync "$astore" --container "$abox" --quiet
    logs=$(find "$abox" -name '*.sklog' -printf '%s\n' | python3 -c 'import sys; print(sum(int(n) for n in sys.stdin))')
    record archive.log_bytes "$logs"
    logdir=$(dirname "$(find "$abox" -name '*.sklog' | head -1)")
    step "a new peer joining from those logs (run $run of $slow_runs)"
    join_peer "$astore" "$abox" logs
    step "bsdtar --zstd and storekeep archive of $logs bytes of logs (run $run of $slow_runs)"
    timed archive.bsdtar bsdtar --zstd -cf "$work/logs.tar.zst" -C "$logdir" .
    timed archive.storekeep "$storekeep" archive "$astore" --container "$abox" --to "$work/archives" --quiet
    archive=$(ls "$work"/archives/*.tar.zst | head -1)
    timed archive.restore "$storekeep" archive restore "$archive" --container "$work/restored" --quiet
    step "a new peer joining from the archive's snapshot baseline (run $run of $slow_runs)"
    join_peer "$astore" "$abox" snapshot
    remove_store "$astore"; rm -rf "$abox" "$work/archives" "$work/restored" "$work/logs.tar.zst"
done

# 7. Peak memory at the big size (slow: only with BENCH_4M=1).
if [[ $big_case == 1 ]]; then
    if [[ $only == all ]]; then
        record big.speeches "$big"
        step "storekeep migrate, $big speeches (plistlib layout), for peak memory"
        migrate big.storekeep "$(plist "$big")" "$work/big.store" --mapping "$mapping"
        remove_store "$work/big.store"
        step "storekeep migrate, $big speeches (children first), for peak memory"
        migrate bigcf.storekeep "$(plist "$big" children-first)" "$work/bigcf.store" --mapping "$mapping"
        remove_store "$work/bigcf.store"
    fi
    bigcoredata=$work/coredata-$big.sqlite
    if [[ ! -f $bigcoredata ]]; then
        step "generating $bigcoredata"
        python3 Benchmarks/generate-coredata-store.py "$bigcoredata" --rows "$big"
    fi
    step "storekeep sync: export and import of $big changes, for peak memory"
    migrate big.coredata "$bigcoredata" "$work/bigcd.store"
    record syncbig.changes "$big"
    sync_case syncbig "$work/bigcd.store"
    remove_store "$work/bigcd.store"
fi

[[ $only == all ]] && repair_case "$repair_findings"

record machine.load_after "$(cut -d' ' -f1 /proc/loadavg)"
python3 Benchmarks/report.py "$measurements" "$work/results.json"
