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
# BEFORE=path/to/an/older/energyboard times that binary too, on the same files: its runs
# alternate with this commit's (one of each in turn, so that a change in the machine's load
# falls on both), and its row follows each size's, with this commit's wall time over its own.
# Build the older binary in a worktree of its own, e.g.
#   git worktree add /tmp/eb-before 00719c7 && (cd /tmp/eb-before && cargo build --release)
#   BEFORE=/tmp/eb-before/target/release/energyboard SIZES=1000 RUNS=7 bench/build.sh
#
# Then, unless HUGO=0, bench/hugo.sh times the Hugo reference site (bench/hugo/: the same
# model files as model pages and workload leaderboards, without charts) at the same sizes and
# prints its table below this one, with the ratio to energyboard's wall time.
#
# Usage: bench/build.sh            (from anywhere inside the repository)
# Environment: SIZES="2 100 1000 10000"  RUNS=3  SEED=1  HUGO=1  BEFORE=
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
work="$(cd "$work" && pwd)"
if [ -n "${BEFORE:-}" ]; then
  BEFORE="$(realpath "$BEFORE")"
fi
# Builds run in the benchmark's folder, where no energyboard.toml is: the settings of the folder
# the script was started from (the repository's, say) would not apply to synthetic data, and an
# older binary (BEFORE) may not read a newer settings file.
cd "$work"

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

  build_this=("$bin" build --data "$data" --static "$root/static" --out "$out")
  if [ -z "${BEFORE:-}" ]; then
    read -r wall cpu mem <<<"$(time_runs "$runs" "N=$n" "$log" "$work/summary-$n.txt" "${build_this[@]}")"
  else
    before_out="$work/site-before-$n"
    build_before=("$BEFORE" build --data "$data" --static "$root/static" --out "$before_out")
    "${build_before[@]}" >/dev/null
    this_runs=() before_runs=()
    for ((r = 1; r <= runs; r++)); do
      this_runs+=("$(time_runs 1 "N=$n, this commit, run $r" "$log" "$work/summary-$n.txt" "${build_this[@]}")")
      before_runs+=("$(time_runs 1 "N=$n, before, run $r" "$log" "$work/summary-before-$n.txt" "${build_before[@]}")")
    done
    read -r wall cpu mem <<<"$(column_medians "${this_runs[@]}")"
    read -r b_wall b_cpu b_mem <<<"$(column_medians "${before_runs[@]}")"
  fi
  # "built DIR: 100 models, 101 pages, 0 charts, 102 files (20.5 kB) in 0.01 s"
  summary="$(cat "$work/summary-$n.txt")"
  pages="$(sed -E 's/.* ([0-9]+) pages?,.*/\1/' <<<"$summary")"
  charts="$(sed -E 's/.* ([0-9]+) charts?,.*/\1/' <<<"$summary")"
  bytes="$(du -sb "$out" | cut -f1)"
  copy="$(copy_floor "$runs" "$out" "$work/copy")"
  size="$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')"
  rows+=("| $n | $(printf '%.3f' "$wall") | $cpu | $mem | $pages | $charts | $size | $(printf '%.3f' "$copy") | $(ratio "$wall" "$copy") |")
  if [ -n "${BEFORE:-}" ]; then
    b_summary="$(cat "$work/summary-before-$n.txt")"
    b_pages="$(sed -E 's/.* ([0-9]+) pages?,.*/\1/' <<<"$b_summary")"
    b_charts="$(sed -E 's/.* ([0-9]+) charts?,.*/\1/' <<<"$b_summary")"
    b_size="$(du -sb "$before_out" | awk '{ printf "%.2f", $1 / 1e6 }')"
    rows+=("| $n, before | $(printf '%.3f' "$b_wall") | $b_cpu | $b_mem | $b_pages | $b_charts | $b_size | | this commit's wall: $(awk -v a="$wall" -v b="$b_wall" 'BEGIN { printf "%.2f×", a / b }') |")
  fi
  walls_by_size+=("$n=$wall")
done

echo
before_note=""
if [ -n "${BEFORE:-}" ]; then
  before_note=", beside BEFORE=$BEFORE (runs alternated)"
fi
echo "Build benchmark, $(machine "$root")$before_note, median of $runs runs, output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| N models | wall (s) | CPU (s) | peak RSS (MiB) | pages | charts | output (MB) | cp -r (s) | wall / cp -r |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"

if [ "${HUGO:-1}" != 0 ]; then
  SIZES="$sizes" RUNS="$runs" SEED="$seed" BENCH_DIR="$work" ENERGYBOARD_WALLS="${walls_by_size[*]}" \
    "$root/bench/hugo.sh"
fi
