#!/usr/bin/env bash
# Builds the DocC documentation of the libraries an app embeds (ObjectModel, XcodeModel, SyncStore)
# into .build/docs/<Module>.doccarchive, from the symbol graphs of the debug build. `make docs` runs it.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

docc=$(command -v docc || true)
[[ -n $docc ]] || docc=$(dirname "$(command -v swift)")/docc
[[ -x $docc ]] || { echo "docs: docc is not installed beside swift" >&2; exit 1; }

graphs=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p' | tail -1)
[[ -d $graphs ]] || { echo "docs: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }
mkdir -p .build/docs
for module in ObjectModel XcodeModel SyncStore; do
    selected=$(mktemp -d)
    cp "$graphs/$module".symbols.json "$selected/"
    cp "$graphs/$module"@*.symbols.json "$selected/" 2>/dev/null || true
    catalog=()
    [[ -d Sources/$module/$module.docc ]] && catalog=("Sources/$module/$module.docc")
    "$docc" convert "${catalog[@]}" --additional-symbol-graph-dir "$selected" \
        --fallback-display-name "$module" --fallback-bundle-identifier "storekeep.$module" \
        --output-path ".build/docs/$module.doccarchive"
    rm -rf "$selected"
done
echo "docs: .build/docs/{ObjectModel,XcodeModel,SyncStore}.doccarchive"
