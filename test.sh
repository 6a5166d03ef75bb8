#!/usr/bin/env bash
# The project's test command: cargo test, then the sync script on committed
# copies of published leaderboard data, then the site checks of issue 6 on
# two freshly built sites (data/, the whole leaderboard with its seven
# workloads and change history, without a base URL; tests/fixtures/large/
# with one), each served under a sub-path on 127.0.0.1:
#   Nu Html Checker (HTML, CSS, SVG), links and fragments, axe-core in
#   headless Chromium (light and dark), script errors and off-site requests,
#   width at 360 px, and screenshots at 1280 and 390 px written to
#   $ENERGYBOARD_SHOTS_DIR (default /tmp/energyboard-shots/<site>/).
# Ends with one line `N passed, N failed` adding cargo's and the checks'
# counts, and exits non-zero if anything failed.
#
# Needs: cargo, python3, node + npm, java, /usr/bin/chromium (.ci/run
# installs what a fresh machine lacks). Installs checks/node_modules with
# `npm ci --ignore-scripts` when it is missing.
#
# Environment:
#   ENERGYBOARD_REQUIRE_ALL_PAGES=1  a missing page kind (GPU, compare, ...)
#                                    fails instead of being skipped (CI)
#   ENERGYBOARD_SHOTS_DIR=DIR        where screenshots go (outside the repo)
#   ENERGYBOARD_SITE_CHECKS=0        cargo test only (quick local runs)
set -uo pipefail

cd "$(dirname "$0")"
ROOT=$PWD
BASE_URL=https://example.github.io/energyboard/
TMP=$(mktemp -d "${TMPDIR:-/tmp}/energyboard-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
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

# Adds the `N passed, N failed` closing line of a node script's output; a
# script that ended without one (a crash) counts as one failure.
add_summary() { # add_summary LOG STATUS NAME
  local line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "  FAIL  $3 ended without a summary line (exit $2)"
    failed=$((failed + 1))
    return
  fi
  p=${line%% passed*}
  f=${line#*, }
  f=${f%% failed*}
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "  FAIL  $3 exited $2 with no failed check"
    failed=$((failed + 1))
  fi
}

# --- cargo test -----------------------------------------------------------
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

# --- module layers: no cycle, no import back up the stages -----------------
echo
echo "== module layers (scripts/check-layers.py)"
python3 scripts/check-layers.py
one "src/ imports follow the stage order of scripts/check-layers.py" $?

if [ "${ENERGYBOARD_SITE_CHECKS:-1}" = "0" ]; then
  echo "note: ENERGYBOARD_SITE_CHECKS=0, site checks skipped"
else
  # --- fixtures and builds ------------------------------------------------
  echo
  echo "== fixtures and site builds"
  t=$(now)
  python3 tests/fixtures/make_large.py --check
  one "tests/fixtures/large matches make_large.py" $?
  # Ask cargo where the binary is: CARGO_TARGET_DIR or a build.target-dir
  # setting may put it anywhere.
  BIN=$(cargo build --quiet --color never --message-format=json-render-diagnostics \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "energyboard" and m.get("executable"):
        print(m["executable"])' | tail -n 1)
  [ -n "$BIN" ] && [ -x "$BIN" ]
  one "cargo build (binary at ${BIN:-?})" $?
  "$BIN" check --data tests/fixtures/large
  one "energyboard check --data tests/fixtures/large" $?
  "$BIN" build --data data --out "$TMP/site-data"
  built_data=$?
  one "energyboard build --data data" $built_data
  "$BIN" build --data tests/fixtures/large --out "$TMP/site-large" --base-url "$BASE_URL"
  built_large=$?
  one "energyboard build --data tests/fixtures/large --base-url $BASE_URL" $built_large
  timings+=("builds $(elapsed "$t")")

  echo
  echo "== GitHub Pages workflow lint (actionlint)"
  t=$(now)
  bash tests/lint-workflow.sh
  one "actionlint .github/workflows" $?
  timings+=("workflow lint $(elapsed "$t")")

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

  # --- npm packages for the checks ----------------------------------------
  if [ ! -d checks/node_modules/playwright-core ] || [ ! -d checks/node_modules/vnu-jar ] || [ ! -d checks/node_modules/axe-core ]; then
    echo
    echo "== npm ci --ignore-scripts (checks/)"
    (cd checks && npm ci --ignore-scripts --no-audit --no-fund)
    one "npm ci in checks/" $?
  fi

  # --- the checks' self-test, then each site --------------------------------
  echo
  t=$(now)
  node checks/selftest.mjs 2>&1 | tee "$TMP/selftest.log"
  add_summary "$TMP/selftest.log" "${PIPESTATUS[0]}" "checks/selftest.mjs"
  timings+=("self-test $(elapsed "$t")")

  # --- the live preview in a browser: an edit shows by itself -------------
  echo
  t=$(now)
  node checks/preview.mjs "$BIN" tests/fixtures/workloads 2>&1 | tee "$TMP/preview.log"
  add_summary "$TMP/preview.log" "${PIPESTATUS[0]}" "checks/preview.mjs"
  timings+=("preview $(elapsed "$t")")

  if [ "$built_data" -eq 0 ]; then
    echo
    t=$(now)
    node checks/run.mjs "$TMP/site-data" --label data 2>&1 | tee "$TMP/run-data.log"
    add_summary "$TMP/run-data.log" "${PIPESTATUS[0]}" "site checks (data)"
    timings+=("site checks data/ $(elapsed "$t")")
  fi
  if [ "$built_large" -eq 0 ]; then
    echo
    t=$(now)
    node checks/run.mjs "$TMP/site-large" --label large --base-url "$BASE_URL" 2>&1 | tee "$TMP/run-large.log"
    add_summary "$TMP/run-large.log" "${PIPESTATUS[0]}" "site checks (large)"
    timings+=("site checks large $(elapsed "$t")")
  fi
fi

echo
echo "timings: $(IFS=';'; echo "${timings[*]}" | sed 's/;/; /g')"
echo "(cargo test alone: $cargo_passed tests passed and $cargo_failed failed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
