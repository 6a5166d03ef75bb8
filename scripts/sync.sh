#!/usr/bin/env bash
# Refreshes the mirror from the leaderboard's published data: imports
# ml-energy/leaderboard's public/data/ (a local copy, or the repository's
# archive, which the importer downloads and reads itself) into the data
# folder with `energyboard import`, and when that changed anything rebuilds
# the site. The scheduled workflow (.github/workflows/sync.yml) runs this with
# the archive's URL; ./test.sh runs it on local copies in a temporary folder.
#
# Another source (docs/importing.md, "Other sources") is updated by its
# maintainer with the importer itself, not this script, from the folder their
# mlenergy-data run wrote (index.json, tasks/, models/):
#
#   cargo run --release -- import --from DIR --source ID   # data/sources/ID/
#   cargo run --release                                    # rebuild site/
#
# The import writes the source's model files, keeps the files whose figures
# it supersedes under data/sources/ID/history/ (their version pages stay), and
# records the import in data/sources/ID/changes.json, which the change log
# and its Atom feed show labelled with the source's name. Commit data/ and
# site/ as the sync workflow does.
#
# Usage: scripts/sync.sh --from DIR|URL [--data DIR] [--out DIR]
#                        [--summary FILE] [--retrieved YYYY-MM-DD]
#   --from DIR|URL   the leaderboard's public/data/ (index.json, tasks/, models/),
#                    or an https:// URL of the repository's .tar.gz archive
#   --data DIR       the data folder to import into (default: data)
#   --out DIR        the site folder to rebuild (default: site)
#   --summary FILE   where the change-log entry, in Markdown, is written when
#                    anything changed (default: a temporary file, removed)
#   --retrieved DATE the import date (default: today, as the importer says)
#
# Environment:
#   ENERGYBOARD  the energyboard command to run (default: cargo run --release
#                --locked --quiet --). Split on spaces.
#
# Exit status 0 whether or not anything changed; non-zero when any step
# fails, and then the data and site folders are as they were and no summary
# is left (the data folder is copied aside first and put back), so a re-run
# does the whole job. Prints `changed=true` or `changed=false` as its
# last line, and appends the same to $GITHUB_OUTPUT when that is set.
set -euo pipefail

usage() { # usage STATUS
  sed -n '8,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit "$1"
}

from="" data="data" out="site" summary="" retrieved=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --from) from=${2:?--from needs a folder}; shift 2 ;;
    --data) data=${2:?--data needs a folder}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --summary) summary=${2:?--summary needs a file}; shift 2 ;;
    --retrieved) retrieved=${2:?--retrieved needs a date}; shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "sync: unknown argument $1" >&2; usage 2 ;;
  esac
done
if [ -z "$from" ]; then
  echo "sync: --from DIR is required (the leaderboard's public/data/ folder)" >&2
  exit 2
fi
if [[ "$from" != https://* ]] && [ ! -f "$from/index.json" ]; then
  echo "sync: $from/index.json not found; --from must be the leaderboard's public/data/ folder" >&2
  exit 1
fi

# The energyboard command, as words.
read -r -a energyboard <<<"${ENERGYBOARD:-cargo run --release --locked --quiet --}"

keep_summary=1
if [ -z "$summary" ]; then
  summary=$(mktemp "${TMPDIR:-/tmp}/energyboard-sync-summary.XXXXXX")
  keep_summary=0
fi
# The importer writes the summary only when something changed: start from
# none, so that an old file is never taken for this run's.
rm -f "$summary"

# All or nothing: the data folder is copied aside (beside it, so moving it
# back is a rename); unless every step succeeds it is put back, and the
# summary goes. The build itself leaves the site as it was when it fails.
backup=$(mktemp -d "$(dirname "$data")/.sync-backup.XXXXXX")
backed_up=0 finished=0
cleanup() {
  if [ "$finished" -eq 0 ] && [ "$backed_up" -eq 1 ]; then
    if [ -e "$backup/data" ]; then
      rm -rf "$data" && mv "$backup/data" "$data"
    else
      rm -rf "$data"
    fi
    rm -f "$summary"
    echo "sync: a step failed; $data is as it was" >&2
  elif [ "$keep_summary" -eq 0 ]; then
    rm -f "$summary"
  fi
  rm -rf "$backup"
}
trap cleanup EXIT
if [ -e "$data" ]; then
  cp -a "$data" "$backup/data"
fi
backed_up=1

import=(import --from "$from" --data "$data" --summary "$summary")
if [ -n "$retrieved" ]; then
  import+=(--retrieved "$retrieved")
fi
echo "sync: ${energyboard[*]} ${import[*]}" >&2
"${energyboard[@]}" "${import[@]}"

changed=false
if [ -s "$summary" ]; then
  changed=true
  echo "sync: the data changed; rebuilding $out" >&2
  "${energyboard[@]}" build --data "$data" --out "$out"
  echo "sync: change-log entry:" >&2
  cat "$summary" >&2
else
  echo "sync: nothing changed" >&2
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "changed=$changed" >>"$GITHUB_OUTPUT"
fi
finished=1
echo "changed=$changed"
