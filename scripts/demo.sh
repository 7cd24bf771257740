#!/usr/bin/env bash
# Demonstrates storekeep on this machine. Run it through `make demo`, which builds first.
set -euo pipefail
cd "$(dirname "$0")/.."
storekeep=.build/debug/storekeep

echo "\$ storekeep version"
"$storekeep" version
echo
echo "\$ storekeep version --json"
"$storekeep" version --json
