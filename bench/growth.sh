#!/usr/bin/env bash
# Growth benchmark (issue 45): how a build grows with the number of models.
#
# For each N in SIZES it writes N synthetic model files (energyboard-synth,
# deterministic) and builds them once untimed; then RUNS rounds, each
# building every size once into its folder (a maintainer's rebuild: the old
# site is removed at the end), so that the machine's slow and fast spells
# fall on all sizes alike. It prints one Markdown row a size of medians:
# wall time, user and system CPU time (GNU time -v), peak RSS, files
# written, output size, the wall time of `cp -r` of the output (the floor:
# what the file system alone takes to write those files), the largest file,
# and the largest workload's first leaderboard page gzip-compressed (what a
# reader's first visit downloads of it). A last column gives each size's
# figures over the first size's: wall time, user CPU (the program's own
# work), system CPU (the kernel's, mostly writing and removing files), the
# cp -r floor and memory; the issue bounds the first and the last (10,000
# models in at most 12x the time of 1,000, and in at most 256 MiB). A last
# line gives the largest size's wall time over the first's in each round,
# and their median.
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

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
need_gnu_time

if [ -n "${BIN:-}" ]; then
  bin="$BIN"
else
  echo "building energyboard in release mode" >&2
  (cd "$root" && cargo build --release --quiet)
  bin="${CARGO_TARGET_DIR:-$root/target}/release/energyboard"
fi
mkdir -p "$work"

load="$(cut -d' ' -f1-3 /proc/loadavg)"
read -ra size_list <<<"$sizes"
for n in "${size_list[@]}"; do
  echo "N=$n: writing synthetic data ($spread workloads)" >&2
  "$bin-synth" --count "$n" --seed "$seed" --workloads "$spread" \
    --data "$root/tests/fixtures/seeds" --out "$work/data-$n-$spread" --force >&2
  echo "N=$n: warm-up build" >&2
  "$bin" build --data "$work/data-$n-$spread" --static "$root/static" \
    --out "$work/site-$n-$spread" --force >/dev/null
done

# Rounds: each round builds every size once, smallest first, so a slow or
# fast spell of the machine falls on all sizes alike. Each size keeps its
# runs' figures as space-separated lists.
declare -A walls users systems rss
for ((r = 1; r <= runs; r++)); do
  for n in "${size_list[@]}"; do
    log="$work/time-$n.txt"
    start="$(now)"
    summary="$(/usr/bin/time -v -o "$log" "$bin" build --data "$work/data-$n-$spread" \
      --static "$root/static" --out "$work/site-$n-$spread" --force)"
    end="$(now)"
    wall="$(elapsed "$start" "$end")"
    user="$(user_seconds "$log")"
    system="$(system_seconds "$log")"
    mem="$(peak_rss_mib "$log")"
    walls[$n]+=" $wall" users[$n]+=" $user" systems[$n]+=" $system" rss[$n]+=" $mem"
    echo "round $r, N=$n: $wall s wall, $user s user, $system s system, $mem MiB; $summary" >&2
  done
done

# median_of LIST: the median of a space-separated list.
median_of() { tr ' ' '\n' <<<"$1" | grep . | median; }

rows=() first=""
for n in "${size_list[@]}"; do
  out="$work/site-$n-$spread"
  wall="$(median_of "${walls[$n]}")"
  user="$(median_of "${users[$n]}")"
  system="$(median_of "${systems[$n]}")"
  mem="$(median_of "${rss[$n]}")"
  echo "N=$n: cp -r of the output" >&2
  copy="$(copy_floor "$runs" "$out" "$work/copy-$n")"
  files="$(find "$out" -type f | wc -l)"
  size="$(du -sb "$out" | awk '{ printf "%.2f", $1 / 1e9 }')"
  largest="$(find "$out" -type f -printf '%s %P\n' | sort -rn | awk 'NR == 1')"
  largest_text="$(awk '{ printf "%.1f MB (%s)", $1 / 1e6, $2 }' <<<"$largest")"
  board="$(find "$out/workloads" -name index.html -path '*/workloads/*/index.html' \
    -not -path '*/models/*' -not -path '*/gpus/*' -not -path '*/compare/*' -printf '%s %p\n' |
    sort -rn | awk 'NR == 1 { print $2 }')"
  board_gz="$(gzip -6 -c "$board" | wc -c | awk '{ printf "%.0f", $1 / 1e3 }')"
  [ -z "$first" ] && first="$wall $user $system $copy $mem"
  read -r first_wall first_user first_system first_copy first_mem <<<"$first"
  over="$(ratio "$wall" "$first_wall") / $(ratio "$user" "$first_user")"
  over+=" / $(ratio "$system" "$first_system") / $(ratio "$copy" "$first_copy")"
  over+=" / $(ratio "$mem" "$first_mem")"
  rows+=("| $(printf "%'d" "$n") | $wall | $user | $system | $mem | $(printf "%'d" "$files") | $size | $copy | $largest_text | $board_gz | $over |")
done

# The largest size's wall time over the first's within each round, and their median.
smallest="${size_list[0]}" largest_n="${size_list[-1]}"
by_round="$(awk -v a="${walls[$smallest]}" -v b="${walls[$largest_n]}" 'BEGIN {
  n = split(a, x, " "); split(b, y, " ")
  for (i = 1; i <= n; i++) printf "%.1f\n", y[i] / x[i] }')"

echo
echo "Growth benchmark, $(machine "$root"), $spread workload(s), median of $runs round(s), output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| models | wall (s) | user CPU (s) | system CPU (s) | peak RSS (MiB) | files | output (GB) | cp -r of the output (s) | largest file | first leaderboard page (KB gzip) | over the first size: wall / user / system / cp -r / memory |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"
printf '%s\n' "${rows[@]}"
if [ "${#size_list[@]}" -gt 1 ]; then
  echo
  echo "$(printf "%'d" "$largest_n") models over $(printf "%'d" "$smallest") in wall time, round by round: $(tr '\n' ' ' <<<"$by_round" | sed 's/ /× /g')(median $(median <<<"$by_round")×)"
fi
