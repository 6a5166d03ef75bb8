#!/usr/bin/env bash
# Hugo reference for the build benchmark: times Hugo building bench/hugo/, a small site that does
# comparable work from the same model files as `energyboard build`, and prints a Markdown table.
#
# Per size N the model files are those of bench/build.sh (N = 2: tests/fixtures/seeds/; larger N:
# `energyboard-synth --count N --seed SEED`). Setup, not timed: bench/hugo/ is copied to
# BENCH_DIR/hugo-src-N, the model files into its data/models/ (Hugo 0.111 has no content
# adapters, so a page cannot come from a data file) and one stub content/models/<slug>.md a model
# written, naming the model's data file and its workload. Hugo then writes a page a model (its
# facts, the best configuration per GPU and every configuration), a leaderboard a workload and a
# front page; no charts (Hugo cannot draw energyboard's SVG charts), so it is a lower bound on
# energyboard's work. One untimed warm-up `hugo --quiet`, then RUNS timed builds into the same
# BENCH_DIR/hugo-site-N (Hugo overwrites its files). Per N it prints the median wall time, CPU
# time (user + sys), peak RSS (GNU time -v), pages written (HTML files), output size (du -sb),
# the wall time of `cp -r` of the output and, when bench/build.sh passes its figures,
# Hugo's wall time over energyboard's.
#
# Hugo is installed from the Debian package hugo (0.111.3 on bookworm) when missing, if this is
# root with apt-get; otherwise the script says so and prints no table (exit 0).
#
# Usage: bench/hugo.sh             (from anywhere inside the repository)
# Environment: SIZES="1000"  RUNS=3  SEED=1  BENCH_DIR=/tmp/energyboard-bench
#              ENERGYBOARD_WALLS="1000=0.650 …" (set by bench/build.sh: energyboard's median wall
#              time per size, for the ratio column)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="${SIZES:-1000}"
runs="${RUNS:-3}"
seed="${SEED:-1}"
work="${BENCH_DIR:-/tmp/energyboard-bench}"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$root/bench/lib.sh"

need_gnu_time
if ! command -v hugo >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Hugo (Debian package hugo)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo >/dev/null
  fi
fi
if ! command -v hugo >/dev/null; then
  echo
  echo "Hugo reference skipped: no hugo on PATH, and it could not be installed here (as root: apt-get install hugo)."
  exit 0
fi

echo "building energyboard-synth in release mode" >&2
(cd "$root" && cargo build --release --quiet)
synth="${CARGO_TARGET_DIR:-$root/target}/release/energyboard-synth"
mkdir -p "$work"

# write_stubs DATA DIR: one content stub DIR/<slug>.md a model file DATA/<slug>.json, with the
# file's name (model) and its workload: the id of its "workload" object, lm-arena-chat (Text
# Conversation) for a file without one, as energyboard reads a flat folder. One awk for all files;
# it reads the pretty-printed layout energyboard-synth writes (a top-level key indented by two).
write_stubs() {
  awk -v dir="$2" '
    function stub(file) {
      file = dir "/" slug ".md"
      printf "---\nmodel: %s\nworkloads: [\"%s\"]\n---\n", slug, (workload == "" ? "lm-arena-chat" : workload) > file
      close(file)
    }
    FNR == 1 {
      if (slug != "") stub()
      slug = FILENAME; sub(/.*\//, "", slug); sub(/\.json$/, "", slug)
      workload = ""; in_workload = 0
    }
    /^  "workload": \{/ { in_workload = 1; next }
    in_workload && /^  }/ { in_workload = 0 }
    in_workload && /^    "id": "/ { workload = $0; sub(/^    "id": "/, "", workload); sub(/".*/, "", workload) }
    END { if (slug != "") stub() }
  ' "$1"/*.json
}

load="$(cut -d' ' -f1-3 /proc/loadavg)"
rows=()
for n in $sizes; do
  if [ "$n" = 2 ]; then
    data="$root/tests/fixtures/seeds"
  else
    data="$work/data-$n"
    echo "Hugo N=$n: writing synthetic data" >&2
    "$synth" --count "$n" --seed "$seed" --data "$root/tests/fixtures/seeds" --out "$data" >&2
  fi
  site="$work/hugo-src-$n"
  out="$work/hugo-site-$n"
  log="$work/hugo-time-$n.txt"
  echo "Hugo N=$n: setting up $site" >&2
  rm -rf "$site" "$out"
  cp -r "$root/bench/hugo" "$site"
  mkdir -p "$site/data/models" "$site/content/models"
  cp "$data"/*.json "$site/data/models/"
  write_stubs "$data" "$site/content/models"

  build=(hugo --quiet --source "$site" --destination "$out" --cacheDir "$work/hugo-cache")
  echo "Hugo N=$n: warm-up build" >&2
  "${build[@]}"
  medians="$(time_runs "$runs" "Hugo N=$n" "$log" /dev/null "${build[@]}")"
  read -r wall cpu mem <<<"$medians"

  pages="$(find "$out" -name '*.html' | wc -l)"
  bytes="$(du -sb "$out" | cut -f1)"
  copy="$(copy_floor "$runs" "$out" "$work/copy")"
  size="$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')"
  energyboard=""
  for pair in ${ENERGYBOARD_WALLS:-}; do
    if [ "${pair%%=*}" = "$n" ]; then energyboard="${pair#*=}"; fi
  done
  if [ -n "$energyboard" ]; then
    against="$(printf '%.3f' "$energyboard") | $(ratio "$wall" "$energyboard")"
  else
    against="n/a | n/a"
  fi
  rows+=("| $n | $(printf '%.3f' "$wall") | $cpu | $mem | $pages | $size | $(printf '%.3f' "$copy") | $(ratio "$wall" "$copy") | $against |")
done

echo
echo "Hugo reference (bench/hugo/: model pages and workload leaderboards, no charts), $(hugo version | cut -d' ' -f2), $(machine "$root"), median of $runs runs, output under $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), load average before: $load"
echo
echo "| N models | wall (s) | CPU (s) | peak RSS (MiB) | pages | output (MB) | cp -r (s) | wall / cp -r | energyboard wall (s) | Hugo / energyboard |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
