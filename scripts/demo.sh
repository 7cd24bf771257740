#!/usr/bin/env bash
# The storekeep demo on the bundled Speech Timer example. Run it through `make demo`, which builds first.
#   1. show the example model;  2. create a store for it;  3. write a few records through the
#   library, as an app embedding it would;  4. print the store's info.
set -euo pipefail
cd "$(dirname "$0")/.."
storekeep=.build/debug/storekeep
example=.build/debug/speechtimer-example
model=Migrations/SpeechTimer/SpeechTimer.xcdatamodeld
out=demo-out
store=$out/SpeechTimer.store

run() { printf '\n$ %s\n' "$*"; "$@"; }

rm -rf "$out"
mkdir -p "$out"
run "$storekeep" model show "$model"
run "$storekeep" init "$store" --model "$model" --content-name SpeechTimer --peer-id demo-mac
run "$example" "$store" "$model"
run "$storekeep" info "$store"
run "$storekeep" info "$store" --json
