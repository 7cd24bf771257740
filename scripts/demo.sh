#!/usr/bin/env bash
# The storekeep demo on the bundled Speech Timer example. Run it through `make demo`, which builds first.
#   1. generate a realistic Speech Timer 1 data file (a property list, as the app of article 1 kept);
#   2. inspect it;  3. migrate it into a new versioned store, with progress, verified;
#   4. print the store's info and content digest;  5. run the migration again: nothing to do;
#   6. seed the built-in speech types on the migrated store and on a new device, offline, then
#      sync both through a container: one copy of each built-in type on both.
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
run "$storekeep" init "$device" --model Migrations/SpeechTimer/SpeechTimer.xcdatamodeld --content-name SpeechTimer
run "$storekeep" seed "$device" --from "$seeds"
run "$storekeep" seed "$device" --from "$seeds"
mkdir -p "$container"
run "$storekeep" sync "$device" --container "$container"
run "$storekeep" sync "$store" --container "$container"
run "$storekeep" sync "$device" --container "$container"
run "$storekeep" digest "$store"
run "$storekeep" digest "$device"
