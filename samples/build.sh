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
  # A scenario with its own ClusterVersion installed at another time: the base's objects and
  # events (its install-time FailedScheduling events, its pods) move with the install, so they
  # keep their place in it and none is dated after the scenario's gather time.
  version="$scenario/overlay/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
  if [ -f "$version" ]; then python3 - "$tree/$image" "$base/$image/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml" "$version" <<'PY'
import datetime, pathlib, re, sys
tree, base_version, scenario_version = sys.argv[1:4]
def install_start(path):
    # status.history is newest first: the last startedTime is the install's.
    return re.findall(r'startedTime: "?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)', pathlib.Path(path).read_text())[-1]
parse = lambda text: datetime.datetime.strptime(text, '%Y-%m-%dT%H:%M:%SZ')
shift = parse(install_start(scenario_version)) - parse(install_start(base_version))
def moved(match):
    at = datetime.datetime.strptime(match[1], '%Y-%m-%dT%H:%M:%S') + shift
    return at.strftime('%Y-%m-%dT%H:%M:%S') + (match[2] or '') + 'Z'
for path in sorted(pathlib.Path(tree).rglob('*.yaml')):
    path.write_text(re.sub(r'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z', moved, path.read_text()))
PY
  fi
  if [ -d "$scenario/overlay" ]; then cp -r "$scenario/overlay/." "$tree/$image/"; fi
  # A scenario's own gather time replaces both timestamp files (top folder and image folder).
  if [ -f "$scenario/timestamp" ]; then cp "$scenario/timestamp" "$tree/timestamp"; cp "$scenario/timestamp" "$tree/$image/timestamp"; fi
  if [ -f "$scenario/remove.txt" ]; then
    while read -r path; do [ -n "$path" ] && rm -rf "${tree:?}/$image/$path"; done < "$scenario/remove.txt"
  fi
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2021-08-03 10:14:13Z' -C "$work/$name" -cf - must-gather.local.4242 | gzip -n -9 > "$name.tar.gz"
  echo "samples/$name.tar.gz"
done
