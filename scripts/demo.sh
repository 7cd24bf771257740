#!/usr/bin/env bash
# The storekeep demo on the bundled Speech Timer example. Run it through `make demo`, which builds first.
#   1. generate a realistic Speech Timer 1 data file (a property list, as the app of article 1 kept);
#   2. inspect it;  3. migrate it into a new versioned store, with progress, verified;
#   4. print the store's info and content digest;  5. run the migration again: nothing to do;
#   6. seed the built-in speech types on the migrated store and on a new device, offline, then
#      sync both through a container: one copy of each built-in type on both (the records shown);
#   7. a store an older app seeded with random IDs (a duplicate, an edit) meets a freshly seeded
#      device: seed adopts its records, sync merges them, the user's edit stays;
#   8. a read-only seed store (article 4): built beside a user's store, checked, replaced by a
#      newer version that drops a record a user's rating points at, and checked again.
# DEMO_SPEECHES sets the number of speeches (default 200000); STOREKEEP_BUILD the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${STOREKEEP_BUILD:-.build/release}
storekeep=$build/storekeep
speeches=${DEMO_SPEECHES:-200000}
mapping=Migrations/SpeechTimer/speechtimer1-plist.mapping.yaml
out=demo-out
data=$out/SpeechTimer1-data.plist
store=$out/SpeechTimer.store

run() { printf '\n$ %s\n' "$*"; "$@"; }

rm -rf "$out"
mkdir -p "$out"
printf '\n# generating a Speech Timer 1 data file with %s speeches (Python plistlib, binary)\n' "$speeches"
python3 scripts/generate-speechtimer-plist.py "$data" --speeches "$speeches" --recording-every 40
ls -l "$data"
run "$storekeep" inspect "$data"
run "$storekeep" migrate "$data" --to "$store" --mapping "$mapping" --dry-run
run "$storekeep" migrate "$data" --to "$store" --mapping "$mapping"
run "$storekeep" info "$store"
run "$storekeep" digest "$store"
run "$storekeep" migrate "$data" --to "$store" --mapping "$mapping"

seeds=Migrations/SpeechTimer/speechtimer-builtin-types.seed.yaml
device=$out/NewDevice.store
container=$out/container
printf '\n# seeding: the migrated store holds the built-in types under the seed IDs already;\n'
printf '# a new device seeds them offline, and sync merges the two instead of duplicating them\n'
run "$storekeep" seed "$store" --from "$seeds"
run python3 scripts/show-records.py "$store" SpeechType name greenSeconds yellowSeconds redSeconds
run "$storekeep" init "$device" --model Migrations/SpeechTimer/SpeechTimer.xcdatamodeld --content-name SpeechTimer
run "$storekeep" seed "$device" --from "$seeds"
run "$storekeep" seed "$device" --from "$seeds"
printf '\n# the new device derived the same global IDs from the seed key (name), offline\n'
run python3 scripts/show-records.py "$device" SpeechType name greenSeconds
mkdir -p "$container"
run "$storekeep" sync "$device" --container "$container"
run "$storekeep" sync "$store" --container "$container"
run "$storekeep" sync "$device" --container "$container"
printf '\n# after sync: still one record per built-in type, and the same content on both\n'
run python3 scripts/show-records.py "$device" SpeechType name greenSeconds
run "$storekeep" digest "$store"
run "$storekeep" digest "$device"

old=$out/OldApp.store
fresh=$out/Fresh.store
shared=$out/container-old-app
model=Migrations/SpeechTimer/SpeechTimer.xcdatamodeld
printf '\n# an older app seeded with random IDs: Table Topics twice (two devices, synced), and the user\n'
printf '# edited Evaluation; seed adopts them (marks them as seed data), and sync de-duplicates\n'
run "$storekeep" init "$old" --model "$model" --content-name OldApp
run "$storekeep" init "$fresh" --model "$model" --content-name OldApp
cat > "$out/old-app.jsonl" <<'JSON'
{"op":"insert","entity":"SpeechType","id":"0A1D-OLD-TT-1","values":{"name":"Table Topics","greenSeconds":55,"yellowSeconds":85,"redSeconds":115}}
{"op":"insert","entity":"SpeechType","id":"0A1D-OLD-TT-2","values":{"name":"Table Topics","greenSeconds":55,"yellowSeconds":85,"redSeconds":115}}
{"op":"insert","entity":"SpeechType","id":"0A1D-OLD-EVAL","values":{"name":"Evaluation","greenSeconds":120,"yellowSeconds":150,"redSeconds":180}}
JSON
printf '{"op":"update","record":"0A1D-OLD-EVAL","values":{"greenSeconds":99}}\n' > "$out/user-edit.jsonl"
run "$storekeep" apply "$old" "$out/old-app.jsonl" --author oldapp
run "$storekeep" apply "$old" "$out/user-edit.jsonl" --author app
run "$storekeep" seed "$old" --from "$seeds"
run python3 scripts/show-records.py "$old" SpeechType name greenSeconds
run "$storekeep" seed "$fresh" --from "$seeds"
mkdir -p "$shared"
for peer in "$old" "$fresh" "$old"; do run "$storekeep" sync "$peer" --container "$shared"; done
printf '\n# one record per built-in type on both: Table Topics merged into one (the newest seed version, then\n'
printf '# the smallest global ID: the same keeper on every peer), refreshed to the set'"'"'s values; the\n'
printf '# user'"'"'s edited Evaluation is never deleted (here it is also the keeper of its key)\n'
run python3 scripts/show-records.py "$fresh" SpeechType name greenSeconds
run "$storekeep" check "$fresh" || printf '(check exit %s)\n' "$?"

ratings=$out/Ratings.store
postcodes=Migrations/Postcodes
printf '\n# a read-only seed store (article 4): the Postcodes configuration lives beside the user'"'"'s store\n'
run "$storekeep" init "$ratings" --model "$postcodes/Postcodes.xcdatamodeld" --content-name Ratings
run "$storekeep" seed-store build "$ratings" --from "$postcodes/postcodes.seed.yaml"
run python3 scripts/show-records.py "$ratings.seed-Postcodes" Postcode postcode town
truro=$(python3 -c "import sqlite3,sys; print(sqlite3.connect('file:$ratings.seed-Postcodes?mode=ro', uri=True).execute(\"SELECT _gid FROM e_Postcode WHERE a_postcode = 'TR1 2AB'\").fetchone()[0])")
printf '{"op":"insert","entity":"Rating","id":"R1","values":{"postcode":"%s","rating":5,"comment":"lovely"}}\n' "$truro" > "$out/rating.jsonl"
run "$storekeep" apply "$ratings" "$out/rating.jsonl"
run "$storekeep" check "$ratings"
# Version 2 of the seed set drops Truro's postcode.
python3 - "$postcodes/postcodes.seed.yaml" "$out/postcodes-v2.seed.yaml" <<'PY'
import sys
lines = open(sys.argv[1]).read().replace("version: 1", "version: 2").split("\n")
at = next(i for i, line in enumerate(lines) if "postcode: TR1 2AB" in line)
open(sys.argv[2], "w").write("\n".join(lines[:at - 1] + lines[at + 2:]))
PY
run "$storekeep" seed-store build "$ratings" --from "$out/postcodes-v2.seed.yaml" --dry-run
run "$storekeep" seed-store build "$ratings" --from "$out/postcodes-v2.seed.yaml"
run "$storekeep" check "$ratings" || printf '(check exit %s: the rating points at a postcode the new seed store lacks)\n' "$?"
run "$storekeep" info "$ratings"
