#!/usr/bin/env bash
# Imports the ML.ENERGY Leaderboard's whole published history into an empty
# data folder: every commit of its repository that changed public/data,
# oldest first, each imported in turn by `energyboard import`, so that
# data/changes.json records each published version's changes (the
# 2026-01-01 throughput fix, the 2026-02-16 parallel-degree correction, ...)
# and the model files end as the newest version made them.
#
#   scripts/import-history.sh <leaderboard git dir> [--data DIR] [--until COMMIT]
#
# <leaderboard git dir>: a clone of github.com/ml-energy/leaderboard (bare or
# not; the script needs only `git log` and `git archive`). DIR (default
# data) must be missing or empty: this rebuilds a history, it never mixes
# one into a folder it did not make. Each version is imported with the date
# of its commit as `retrieved` and `updated` (the day that version was
# published: the history is a reconstruction, not a record of our own
# downloads) and upstream's `last_updated` as `data_version`. Needs no
# network. ENERGYBOARD names the binary (default: cargo run --release).
set -euo pipefail

repo=${1:?usage: scripts/import-history.sh <leaderboard git dir> [--data DIR] [--until COMMIT]}
shift
data=data
until=HEAD
while [ $# -gt 0 ]; do
  case $1 in
    --data) data=${2:?--data needs a folder}; shift 2 ;;
    --until) until=${2:?--until needs a commit}; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -e "$data" ] && [ -n "$(ls -A "$data")" ]; then
  echo "error: $data is not empty; the history is imported into a new folder" >&2
  exit 1
fi
if [ -n "${ENERGYBOARD:-}" ]; then
  eb=("$ENERGYBOARD")
else
  eb=(cargo run --release --quiet --)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/energyboard-history.XXXXXX")
trap 'rm -rf "$work"' EXIT

for commit in $(git -C "$repo" log --reverse --format=%H "$until" -- public/data); do
  short=${commit:0:7}
  rm -rf "$work/up"
  mkdir -p "$work/up"
  git -C "$repo" archive "$commit" public/data | tar -x -C "$work/up"
  published=$(git -C "$repo" log -1 --format=%cs "$commit")
  tasks=$(git -C "$repo" log -1 --format=%cs "$commit" -- public/data/tasks)
  version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["last_updated"])' \
    "$work/up/public/data/index.json")
  echo "== $short, published $published, data version $version"
  "${eb[@]}" import --from "$work/up/public/data" --data "$data" \
    --retrieved "$published" --updated "$published" --data-version "$version" \
    --tasks-committed "$tasks" 2>&1 | grep -v '^warning: ' | grep -v '^|' || true
done
