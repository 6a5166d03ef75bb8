#!/usr/bin/env bash
# Runs every test. Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
cargo test
