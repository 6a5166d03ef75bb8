#!/usr/bin/env bash
# Edit-to-page benchmark for `energyboard serve`: the time from saving an
# edit to one model file of N to an open page's reload having the edited
# model page to load.
#
# It writes N synthetic model files (`energyboard-synth` from the seed
# files), or copies DATA (e.g. DATA=data, the whole leaderboard), starts
# `energyboard serve` on them, then RUNS times renames one
# model (a new `name` in its file, written to a temporary file and moved
# into place, as editors save) and does what the reload script of an open
# page does: asks for the build number with `?after=<the one it saw>`, which
# answers as soon as the next build has finished, then loads the model's
# page (which must have the new name). It prints each time and the median.
# The figure includes the watcher's debounce (50 ms of quiet after the last
# event of a save) and the whole rebuild and swap.
#
# Usage: bench/serve-edit.sh       (from anywhere inside the repository)
# Environment: N=1000  RUNS=5  SEED=1
#              DATA=DIR (a data folder to copy instead of synthetic files;
#              N is then its number of model files)
#              BENCH_DIR=/tmp/energyboard-bench (the data and the log)
#              OUT=DIR (the site there instead of the preview's own
#              temporary folder; OUT=/tmp/… puts the disk in the figure)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${N:-1000}"
runs="${RUNS:-5}"
seed="${SEED:-1}"
work="${BENCH_DIR:-/tmp/energyboard-bench}"

echo "building energyboard in release mode" >&2
(cd "$root" && cargo build --release --quiet)
bin="${CARGO_TARGET_DIR:-$root/target}/release/energyboard"
synth="$bin-synth"
mkdir -p "$work"
if [ -n "${DATA:-}" ]; then
  n="$(find "$DATA" -name '*.json' ! -name changes.json ! -name '.*' | wc -l)"
  data="$work/serve-data-copy"
  rm -rf "$data"
  cp -r "$DATA" "$data"
else
  data="$work/serve-data-$n"
  rm -rf "$data"
  "$synth" --count "$n" --seed "$seed" --data "$root/tests/fixtures/seeds" --out "$data" --force >&2
fi
# The first model file in name order; its page is /models/<slug>/.
file="$(find "$data" -name '*.json' ! -name changes.json ! -name '.*' | sort | sed -n 1p)"
slug="$(sed -nE 's/^  "slug": "([^"]+)",?$/\1/p' "$file")"
name="$(sed -nE 's/^  "name": "([^"]+)",?$/\1/p' "$file")"
[ -n "$slug" ] && [ -n "$name" ] || { echo "bench: no slug or name in $file" >&2; exit 1; }

log="$work/serve-$n.log"
# The preview's own output (a temporary folder: /dev/shm on Linux when it has
# room, see serve::memory_folder), or OUT=DIR.
if [ -n "${OUT:-}" ]; then
  out_args=(--out "$OUT" --force)
else
  out_args=()
fi
"$bin" serve --port 0 --data "$data" --static "$root/static" "${out_args[@]}" \
  >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  url="$(sed -nE 's/^serving ([^ ]+) .*/\1/p' "$log")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "${url:-}" ] || { echo "bench: serve printed no URL:" >&2; cat "$log" >&2; exit 1; }
page="${url}models/$slug/"
curl -sf -o /dev/null "$page"

# Seconds since the epoch, to the microsecond.
now() { echo "${EPOCHREALTIME/,/.}"; }

times=()
for ((r = 1; r <= runs; r++)); do
  marker="Edited $r $$"
  sed -E "s/^  \"name\": \"[^\"]+\"/  \"name\": \"$marker\"/" "$file" >"$data/.edit.tmp"
  sleep 1 # let the last rebuild's events settle
  build="$(printf '%s' "$url" | sed -E 's#^(http://[^/]+).*#\1#')/__energyboard/build"
  seen="$(curl -sf "$build")"
  start="$(now)"
  mv "$data/.edit.tmp" "$file"
  # What an open page's reload script does: wait for the next build to
  # finish (the request returns as soon as it does), then load the page.
  until [ "$(curl -sf "$build?after=$seen")" != "$seen" ]; do :; done
  curl -sf "$page" | grep -F "$marker" >/dev/null || {
    echo "bench: the build finished without the edit on $page" >&2
    exit 1
  }
  end="$(now)"
  times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
  echo "run $r: ${times[-1]} s" >&2
done
sed -E "s/^  \"name\": \"[^\"]+\"/  \"name\": \"$name\"/" "$file" >"$data/.edit.tmp"
mv "$data/.edit.tmp" "$file"

median="$(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END {
  if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
echo
echo "serve edit-to-page, $(date -u +%Y-%m-%d), N=$n, $(nproc) cores, commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), output ${OUT:-in the default temporary folder} (/dev/shm $(df -h --output=avail /dev/shm 2>/dev/null | tail -n 1 | tr -d ' ') free, TMPDIR ${TMPDIR:-unset}): median ${median} s of ${times[*]}"
grep -E "^(built|rebuilt) site" "$log" | tail -2 >&2
