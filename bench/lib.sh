# shellcheck shell=bash
# Shared by bench/build.sh and bench/hugo.sh (sourced, not run): GNU time, medians and the
# timing of repeated builds.

# Installs GNU time (Debian package time) when /usr/bin/time -v does not work and this is root
# with apt-get; otherwise stops with a message.
need_gnu_time() {
  if ! /usr/bin/time -v true >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "installing GNU time (Debian package time)" >&2
      apt-get install -y -qq time >/dev/null
    else
      echo "bench: needs GNU time at /usr/bin/time: apt-get install time" >&2
      exit 1
    fi
  fi
}

# Median of the numbers on standard input, one a line.
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Seconds since the epoch, to the microsecond.
now() { echo "${EPOCHREALTIME/,/.}"; }

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }

# Figures of a GNU time -v report (the file LOG): user, system and user + system CPU seconds, and
# the peak RSS in MiB.
user_seconds() { awk -F': ' '/User time/ { printf "%.2f", $2 }' "$1"; }
system_seconds() { awk -F': ' '/System time/ { printf "%.2f", $2 }' "$1"; }
cpu_seconds() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"; }
peak_rss_mib() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }

# time_runs RUNS LABEL LOG OUT COMMAND...: runs COMMAND RUNS times under GNU time (its report in
# LOG, its standard output in OUT) and prints the medians: wall time (s), CPU time (user + sys, s)
# and peak RSS (MiB), separated by spaces. One progress line a run on standard error, starting
# with LABEL.
time_runs() {
  local runs="$1" label="$2" log="$3" out="$4"
  shift 4
  local walls=() cpus=() rss=() start end r
  for ((r = 1; r <= runs; r++)); do
    start="$(now)"
    /usr/bin/time -v -o "$log" "$@" >"$out"
    end="$(now)"
    walls+=("$(elapsed "$start" "$end")")
    cpus+=("$(cpu_seconds "$log")")
    rss+=("$(peak_rss_mib "$log")")
    echo "$label run $r: ${walls[-1]} s wall, ${cpus[-1]} s CPU, ${rss[-1]} MiB $(cat "$out")" >&2
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median) $(printf '%s\n' "${rss[@]}" | median)"
}

# column_medians LINE...: each LINE is "wall cpu rss" as time_runs prints it; prints the median
# of each column, separated by spaces.
column_medians() {
  local column
  for column in 1 2 3; do
    printf '%s\n' "$@" | awk -v c="$column" '{ print $c }' | median | tr '\n' ' '
  done
  echo
}

# copy_floor RUNS DIR SCRATCH: the median wall time (s) of RUNS `cp -r DIR SCRATCH`, the floor
# for writing DIR's bytes on SCRATCH's disk; SCRATCH is removed afterwards.
copy_floor() {
  local copies=() start end r
  for ((r = 1; r <= $1; r++)); do
    rm -rf "$3"
    start="$(now)"
    cp -r "$2" "$3"
    end="$(now)"
    copies+=("$(elapsed "$start" "$end")")
  done
  rm -rf "$3"
  printf '%s\n' "${copies[@]}" | median
}

# ratio A B: A / B as "2.8×", or n/a when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f×", a / b; else print "n/a" }'; }

# The run's context for a table's heading: date, cores, CPU, commit.
machine() {
  echo "$(date -u +%Y-%m-%d), $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), commit $(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)"
}
