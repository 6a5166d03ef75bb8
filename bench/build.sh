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
# Usage: bench/build.sh            (from anywhere inside the repository)
# Environment: SIZES="2 100 1000 10000"  RUNS=3  SEED=1
#              BENCH_DIR=/tmp/energyboard-bench (synthetic data and sites;
#              BENCH_DIR=/dev/shm/… takes the disk out of the figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="${SIZES:-2 100 1000 10000}"
runs="${RUNS:-3}"
seed="${SEED:-1}"
work="${BENCH_DIR:-/tmp/energyboard-bench}"

if ! /usr/bin/time -v true >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing GNU time (Debian package time)" >&2
    apt-get install -y -qq time >/dev/null
  else
    echo "bench: needs GNU time at /usr/bin/time: apt-get install time" >&2
    exit 1
  fi
fi

echo "building energyboard in release mode" >&2
(cd "$root" && cargo build --release --quiet)
bin="${CARGO_TARGET_DIR:-$root/target}/release/energyboard"
synth="$bin-synth"
mkdir -p "$work"

# Median of the numbers on standard input, one a line.
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Seconds since the epoch, to the microsecond.
now() { echo "${EPOCHREALTIME/,/.}"; }

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }

load="$(cut -d' ' -f1-3 /proc/loadavg)"
rows=()
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

  walls=() cpus=() rss=() summary=""
  for ((r = 1; r <= runs; r++)); do
    start="$(now)"
    summary="$(/usr/bin/time -v -o "$log" \
      "$bin" build --data "$data" --static "$root/static" --out "$out")"
    end="$(now)"
    walls+=("$(elapsed "$start" "$end")")
    cpus+=("$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$log")")
    rss+=("$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$log")")
    echo "N=$n run $r: ${walls[-1]} s wall, ${cpus[-1]} s CPU, ${rss[-1]} MiB; $summary" >&2
  done
  # "built DIR: 100 models, 101 pages, 0 charts, 102 files (20.5 kB) in 0.01 s"
  pages="$(sed -E 's/.* ([0-9]+) pages?,.*/\1/' <<<"$summary")"
  charts="$(sed -E 's/.* ([0-9]+) charts?,.*/\1/' <<<"$summary")"
  bytes="$(du -sb "$out" | cut -f1)"

  copies=()
  for ((r = 1; r <= runs; r++)); do
    rm -rf "$work/copy"
    start="$(now)"
    cp -r "$out" "$work/copy"
    end="$(now)"
    copies+=("$(elapsed "$start" "$end")")
  done
  rm -rf "$work/copy"

  wall="$(printf '%s\n' "${walls[@]}" | median)"
  cpu="$(printf '%s\n' "${cpus[@]}" | median)"
  mem="$(printf '%s\n' "${rss[@]}" | median)"
  copy="$(printf '%s\n' "${copies[@]}" | median)"
  ratio="$(awk -v w="$wall" -v c="$copy" 'BEGIN { if (c > 0) printf "%.1f×", w / c; else print "n/a" }')"
  size="$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')"
  rows+=("| $n | $(printf '%.3f' "$wall") | $cpu | $mem | $pages | $charts | $size | $(printf '%.3f' "$copy") | $ratio |")
done

echo
echo "Build benchmark, $(date -u +%Y-%m-%d), $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), median of $runs runs, output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| N models | wall (s) | CPU (s) | peak RSS (MiB) | pages | charts | output (MB) | cp -r (s) | wall / cp -r |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
