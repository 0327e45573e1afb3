#!/usr/bin/env bash
# Builds samples/<scenario>.tar.gz: the real, trimmed must-gather in test/fixtures/mg-mini with
# each scenario's overlay (samples/scenarios/<scenario>/overlay/, laid over the image folder),
# its gather time (scenarios/<scenario>/timestamp) and removals (remove.txt, paths in the image folder).
# Deterministic (sorted names, fixed owner and mtime, gzip -n): rebuilding gives the same bytes.
set -euo pipefail
cd "$(dirname "$0")"
base=../test/fixtures/mg-mini/must-gather-aws
image=$(cd "$base" && ls -d quay-io-*)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for scenario in scenarios/*/; do
  name=$(basename "$scenario")
  tree="$work/$name/must-gather.local.4242"
  mkdir -p "$tree"
  cp -r "$base/." "$tree/"
  if [ -d "$scenario/overlay" ]; then cp -r "$scenario/overlay/." "$tree/$image/"; fi
  # A scenario's own gather time replaces both timestamp files (top folder and image folder).
  if [ -f "$scenario/timestamp" ]; then cp "$scenario/timestamp" "$tree/timestamp"; cp "$scenario/timestamp" "$tree/$image/timestamp"; fi
  if [ -f "$scenario/remove.txt" ]; then
    while read -r path; do [ -n "$path" ] && rm -rf "${tree:?}/$image/$path"; done < "$scenario/remove.txt"
  fi
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2021-08-03 10:14:13Z' -C "$work/$name" -cf - must-gather.local.4242 | gzip -n -9 > "$name.tar.gz"
  echo "samples/$name.tar.gz"
done
