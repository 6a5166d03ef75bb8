#!/usr/bin/env bash
# Tests scripts/sync.sh's decisions with a stand-in for energyboard (the
# ENERGYBOARD variable): nothing changed → no rebuild, changed=false;
# something changed → the site rebuilt, the summary kept, changed=true (also
# in $GITHUB_OUTPUT); a failed import → non-zero exit and no rebuild; a stale
# summary file is never taken for a change; a --from folder that is not the
# leaderboard's data is refused. The stand-in follows the documented CLI:
# `energyboard import --from DIR [--data DIR] [--retrieved DATE] [--summary
# FILE]` writes the summary only when something changed.
# Ends with `N passed, N failed`.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/energyboard-sync-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

passed=0 failed=0
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "  ok    $name"
  else
    failed=$((failed + 1))
    echo "  FAIL  $name"
  fi
}

# The stand-in: records its calls in $tmp/calls; STUB_CHANGE=1 makes import
# write a summary, STUB_FAIL=1 makes it fail.
cat >"$tmp/energyboard" <<'STUB'
#!/usr/bin/env bash
set -euo pipefail
echo "$*" >>"$STUB_CALLS"
cmd=$1
shift
summary="" out="" data=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --summary) summary=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) shift ;;
  esac
done
case "$cmd" in
  import)
    if [ "${STUB_FAIL:-0}" = 1 ]; then echo "error: upstream/tasks/gpqa.json: avg_output_len: missing" >&2; exit 1; fi
    if [ "${STUB_CHANGE:-0}" = 1 ] && [ -n "$summary" ]; then
      printf '## Leaderboard data of 2026-02-16\n\n- Qwen 3 32B on H100: 70.00 → 63.47 Wh/M tok (−9.3 %%)\n' >"$summary"
      echo new >"$data/imported.json"
    fi ;;
  build)
    if [ "${STUB_BUILD_FAIL:-0}" = 1 ]; then echo "error: cannot write site" >&2; exit 1; fi
    mkdir -p "$out"; echo built >"$out/built" ;;
  *) echo "stub: unexpected command $cmd" >&2; exit 2 ;;
esac
STUB
chmod +x "$tmp/energyboard"
mkdir -p "$tmp/upstream" "$tmp/data"
echo '{"last_updated": "2026-02-16"}' >"$tmp/upstream/index.json"

run() { # run NAME [ENV...]: runs the script, output in $tmp/NAME.out, status in $tmp/NAME.status
  local name=$1
  shift
  rm -rf "$tmp/site" "$tmp/calls" "$tmp/gh-output"
  env "$@" ENERGYBOARD="$tmp/energyboard" STUB_CALLS="$tmp/calls" GITHUB_OUTPUT="$tmp/gh-output" \
    bash "$root/scripts/sync.sh" --from "$tmp/upstream" --data "$tmp/data" --out "$tmp/site" \
    --summary "$tmp/summary.md" --retrieved 2026-03-02 >"$tmp/$name.out" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.status"
}
status() { cat "$tmp/$1.status"; }
last_line() { tail -n 1 "$tmp/$1.out"; }

echo "== scripts/sync.sh"
echo "stale" >"$tmp/summary.md"
run unchanged STUB_CHANGE=0
check "nothing changed: exit 0" test "$(status unchanged)" = 0
check "nothing changed: says changed=false" test "$(last_line unchanged)" = "changed=false"
check "nothing changed: \$GITHUB_OUTPUT has changed=false" grep -qx "changed=false" "$tmp/gh-output"
check "nothing changed: no rebuild" test ! -e "$tmp/site/built"
check "nothing changed: a stale summary file is not kept" test ! -e "$tmp/summary.md"
check "import is called as documented" grep -qx -- "import --from $tmp/upstream --data $tmp/data --summary $tmp/summary.md --retrieved 2026-03-02" "$tmp/calls"

run changed STUB_CHANGE=1
check "changed: exit 0" test "$(status changed)" = 0
check "changed: says changed=true" test "$(last_line changed)" = "changed=true"
check "changed: \$GITHUB_OUTPUT has changed=true" grep -qx "changed=true" "$tmp/gh-output"
check "changed: the site is rebuilt from the data folder" grep -qx -- "build --data $tmp/data --out $tmp/site" "$tmp/calls"
check "changed: the summary is kept for the pull request" grep -q "70.00 → 63.47" "$tmp/summary.md"

run failed STUB_FAIL=1
check "failed import: non-zero exit" test "$(status failed)" != 0
check "failed import: no rebuild" test ! -e "$tmp/site/built"
check "failed import: the importer's error is shown" grep -q "avg_output_len" "$tmp/failed.err"

# The build fails after an import that changed data/: all undone.
rm -f "$tmp/data/imported.json"
echo old >"$tmp/data/kept.json"
run build_failed STUB_CHANGE=1 STUB_BUILD_FAIL=1
check "failed build: non-zero exit" test "$(status build_failed)" != 0
check "failed build: data/ is as it was (the import undone)" test ! -e "$tmp/data/imported.json"
check "failed build: data/ keeps its other files" grep -qx old "$tmp/data/kept.json"
check "failed build: no summary left for a pull request" test ! -e "$tmp/summary.md"
check "failed build: no backup left beside data/" test -z "$(find "$tmp" -maxdepth 1 -name '.sync-*')"
run rerun STUB_CHANGE=1
check "after a failed build, a re-run imports and rebuilds" test -e "$tmp/site/built"
check "after a failed build, a re-run says changed=true" test "$(last_line rerun)" = "changed=true"

rm -f "$tmp/upstream/index.json"
run wrong_folder STUB_CHANGE=1
check "--from without index.json: refused" test "$(status wrong_folder)" = 1
check "--from without index.json: says why" grep -q "public/data/ folder" "$tmp/wrong_folder.err"
check "--from without index.json: importer not run" test ! -e "$tmp/calls"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
