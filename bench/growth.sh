#!/usr/bin/env bash
# Growth benchmark (issue 45): how a build grows with the number of models.
#
# For each N in SIZES it writes N synthetic model files (energyboard-synth,
# deterministic), builds them once untimed, then RUNS timed builds, and
# prints one Markdown row of medians: wall time, CPU time (user + sys), peak
# RSS (GNU time -v), files written, output size, the largest file, and the
# largest workload's first leaderboard page gzip-compressed (what a reader's
# first visit downloads of it). A last column gives each size's wall time
# and memory over the first size's, the figures the issue bounds (10,000
# models in at most 12x the time of 1,000, and in at most 256 MiB).
#
# Usage: bench/growth.sh            (from anywhere inside the repository)
# Environment: SIZES="1000 3000 10000"  RUNS=1  SEED=1
#              WORKLOADS=5   (1 puts every model in one workload)
#              BENCH_DIR=/tmp/energyboard-growth
#              BIN=path/to/energyboard (a release binary already built, with
#              energyboard-synth beside it)
#              (BENCH_DIR=/dev/shm/… takes the disk out of the figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="${SIZES:-1000 3000 10000}"
runs="${RUNS:-1}"
seed="${SEED:-1}"
spread="${WORKLOADS:-5}"
work="${BENCH_DIR:-/tmp/energyboard-growth}"

if ! /usr/bin/time -v true >/dev/null 2>&1; then
  echo "bench: needs GNU time at /usr/bin/time: apt-get install time" >&2
  exit 1
fi

if [ -n "${BIN:-}" ]; then
  bin="$BIN"
else
  echo "building energyboard in release mode" >&2
  (cd "$root" && cargo build --release --quiet)
  bin="${CARGO_TARGET_DIR:-$root/target}/release/energyboard"
fi
mkdir -p "$work"

median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
now() { echo "${EPOCHREALTIME/,/.}"; }

load="$(cut -d' ' -f1-3 /proc/loadavg)"
rows=() first_wall="" first_mem=""
for n in $sizes; do
  data="$work/data-$n-$spread"
  out="$work/site-$n-$spread"
  log="$work/time-$n.txt"
  echo "N=$n: writing synthetic data ($spread workloads)" >&2
  "$bin-synth" --count "$n" --seed "$seed" --workloads "$spread" \
    --data "$root/tests/fixtures/seeds" --out "$data" --force >&2
  echo "N=$n: warm-up build" >&2
  "$bin" build --data "$data" --static "$root/static" --out "$out" --force >/dev/null
  walls=() cpus=() rss=() summary=""
  for ((r = 1; r <= runs; r++)); do
    start="$(now)"
    summary="$(/usr/bin/time -v -o "$log" \
      "$bin" build --data "$data" --static "$root/static" --out "$out" --force)"
    end="$(now)"
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
    cpus+=("$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$log")")
    rss+=("$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$log")")
    echo "N=$n run $r: ${walls[-1]} s wall, ${cpus[-1]} s CPU, ${rss[-1]} MiB; $summary" >&2
  done
  wall="$(printf '%s\n' "${walls[@]}" | median)"
  cpu="$(printf '%s\n' "${cpus[@]}" | median)"
  mem="$(printf '%s\n' "${rss[@]}" | median)"
  files="$(find "$out" -type f | wc -l)"
  size="$(du -sb "$out" | awk '{ printf "%.2f", $1 / 1e9 }')"
  largest="$(find "$out" -type f -printf '%s %P\n' | sort -rn | awk 'NR == 1')"
  largest_text="$(awk '{ printf "%.1f MB (%s)", $1 / 1e6, $2 }' <<<"$largest")"
  board="$(find "$out/workloads" -name index.html -path '*/workloads/*/index.html' \
    -not -path '*/models/*' -not -path '*/gpus/*' -not -path '*/compare/*' -printf '%s %p\n' |
    sort -rn | awk 'NR == 1 { print $2 }')"
  board_gz="$(gzip -6 -c "$board" | wc -c | awk '{ printf "%.0f", $1 / 1e3 }')"
  [ -z "$first_wall" ] && first_wall="$wall" first_mem="$mem"
  ratio="$(awk -v w="$wall" -v fw="$first_wall" -v m="$mem" -v fm="$first_mem" \
    'BEGIN { printf "%.1f× / %.1f×", w / fw, m / fm }')"
  rows+=("| $(printf "%'d" "$n") | $wall | $cpu | $mem | $(printf "%'d" "$files") | $size | $largest_text | $board_gz | $ratio |")
done

echo
echo "Growth benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $spread workload(s), median of $runs run(s), output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| models | wall (s) | CPU (s) | peak RSS (MiB) | files | output (GB) | largest file | first leaderboard page (KB gzip) | wall / memory over the first size |"
echo "|---:|---:|---:|---:|---:|---:|---|---:|---:|"
printf '%s\n' "${rows[@]}"
