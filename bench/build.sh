#!/usr/bin/env bash
# Build benchmark: times `energyboard build` at several model counts and
# prints a Markdown table.
#
# N = 2 is the two seed files (tests/fixtures/seeds/); larger N are synthetic model files made
# by `energyboard-synth` from it (deterministic for a given SEED). Each
# size gets one untimed warm-up build, then RUNS timed builds that each
# replace the previous output, as a rebuild does. Per N it prints the
# median of: wall time, CPU time (user + sys), peak RSS (GNU time -v),
# pages and charts written (the build's summary line), output size (du -sb)
# and the wall time of `cp -r` of the same output, the floor for writing
# those bytes on this disk.
#
# Then, unless HUGO=0, bench/hugo.sh times the Hugo reference site (bench/hugo/: the same
# model files as model pages and workload leaderboards, without charts) at the same sizes and
# prints its table below this one, with the ratio to energyboard's wall time.
#
# Usage: bench/build.sh            (from anywhere inside the repository)
# Environment: SIZES="2 100 1000 10000"  RUNS=3  SEED=1  HUGO=1
#              BENCH_DIR=/tmp/energyboard-bench (synthetic data and sites;
#              BENCH_DIR=/dev/shm/… takes the disk out of the figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="${SIZES:-2 100 1000 10000}"
runs="${RUNS:-3}"
seed="${SEED:-1}"
work="${BENCH_DIR:-/tmp/energyboard-bench}"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$root/bench/lib.sh"

need_gnu_time

echo "building energyboard in release mode" >&2
(cd "$root" && cargo build --release --quiet)
bin="${CARGO_TARGET_DIR:-$root/target}/release/energyboard"
synth="$bin-synth"
mkdir -p "$work"

load="$(cut -d' ' -f1-3 /proc/loadavg)"
rows=() walls_by_size=()
for n in $sizes; do
  if [ "$n" = 2 ]; then
    data="$root/tests/fixtures/seeds"
  else
    data="$work/data-$n"
    echo "N=$n: writing synthetic data" >&2
    "$synth" --count "$n" --seed "$seed" --data "$root/tests/fixtures/seeds" --out "$data" >&2
  fi
  out="$work/site-$n"
  log="$work/time-$n.txt"
  echo "N=$n: warm-up build" >&2
  "$bin" build --data "$data" --static "$root/static" --out "$out" >/dev/null

  medians="$(time_runs "$runs" "N=$n" "$log" "$work/summary-$n.txt" \
    "$bin" build --data "$data" --static "$root/static" --out "$out")"
  read -r wall cpu mem <<<"$medians"
  # "built DIR: 100 models, 101 pages, 0 charts, 102 files (20.5 kB) in 0.01 s"
  summary="$(cat "$work/summary-$n.txt")"
  pages="$(sed -E 's/.* ([0-9]+) pages?,.*/\1/' <<<"$summary")"
  charts="$(sed -E 's/.* ([0-9]+) charts?,.*/\1/' <<<"$summary")"
  bytes="$(du -sb "$out" | cut -f1)"
  copy="$(copy_floor "$runs" "$out" "$work/copy")"
  size="$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')"
  rows+=("| $n | $(printf '%.3f' "$wall") | $cpu | $mem | $pages | $charts | $size | $(printf '%.3f' "$copy") | $(ratio "$wall" "$copy") |")
  walls_by_size+=("$n=$wall")
done

echo
echo "Build benchmark, $(machine "$root"), median of $runs runs, output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| N models | wall (s) | CPU (s) | peak RSS (MiB) | pages | charts | output (MB) | cp -r (s) | wall / cp -r |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"

if [ "${HUGO:-1}" != 0 ]; then
  SIZES="$sizes" RUNS="$runs" SEED="$seed" BENCH_DIR="$work" ENERGYBOARD_WALLS="${walls_by_size[*]}" \
    "$root/bench/hugo.sh"
fi
