#!/usr/bin/env bash
# Page weight: what a first visit downloads, gzip-compressed (level 6, as a
# web server sends it). Counts each page's HTML plus every stylesheet,
# script, image and icon it loads, for data/ (the whole leaderboard) and for the 24-model
# fixture set.
# Usage: bench/weight.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -n "${BIN:-}" ] || (cd "$root" && cargo build --release --quiet)
bin="${BIN:-${CARGO_TARGET_DIR:-$root/target}/release/energyboard}"
synth="${CARGO_TARGET_DIR:-$root/target}/release/energyboard-synth"
"$bin" build --data "$root/data" --out "$work/seed" >/dev/null 2>&1
"$bin" build --data "$root/tests/fixtures/large" --out "$work/large" >/dev/null 2>&1
"$synth" --count 250 --seed 1 --out "$work/synth-data" >/dev/null 2>&1
"$bin" build --data "$work/synth-data" --out "$work/synth" >/dev/null 2>&1
python3 - "$work" <<'PY'
import gzip, os, re, sys
from html.parser import HTMLParser
work = sys.argv[1]

class Refs(HTMLParser):
    def __init__(self):
        super().__init__(); self.refs = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") in ("stylesheet", "icon"): self.refs.append(a["href"])
        if tag in ("script", "img") and a.get("src"): self.refs.append(a["src"])

def weight(site, page):
    path = os.path.join(site, page)
    files = [path]
    p = Refs(); p.feed(open(path, encoding="utf-8").read())
    for ref in p.refs:
        files.append(os.path.normpath(os.path.join(os.path.dirname(path), ref.split("#")[0])))
    raw = sum(os.path.getsize(f) for f in files)
    gz = sum(len(gzip.compress(open(f, "rb").read(), 6)) for f in files)
    return len(files), raw, gz

print("| site | page | files | raw (KB) | gzip (KB) | budget (KB) |")
print("|---|---|---:|---:|---:|---:|")
for label, site, budget in (("data/ (the leaderboard, 62 models; chat: 18)", "seed", 30), ("fixtures (24 models)", "large", 60), ("synth (50 models a workload)", "synth", 30)):
    d = os.path.join(work, site)
    n, raw, gz = weight(d, "index.html")
    print(f"| {label} | front page | {n} | {raw/1000:.1f} | {gz/1000:.1f} | {budget} |")
    chat = "workloads/lm-arena-chat/"
    n, raw, gz = weight(d, chat + "index.html")
    print(f"| {label} | leaderboard | {n} | {raw/1000:.1f} | {gz/1000:.1f} | {budget} |")
    n, raw, gz = weight(d, chat + "compare/index.html")
    print(f"| {label} | compare | {n} | {raw/1000:.1f} | {gz/1000:.1f} | {max(budget, 30)} |")
    models = sorted(os.listdir(os.path.join(d, chat + "models")))
    worst = max((weight(d, f"{chat}models/{m}/index.html") + (m,) for m in models), key=lambda t: t[2])
    print(f"| {label} | heaviest model page ({worst[3]}) | {worst[0]} | {worst[1]/1000:.1f} | {worst[2]/1000:.1f} | 60 |")
PY
