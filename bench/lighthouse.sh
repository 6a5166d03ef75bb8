#!/usr/bin/env bash
# Lighthouse scores for one page of each kind: the front page, a leaderboard,
# a model page and one of its version pages, a model overview, a GPU page,
# a GPU hub, a comparison of two models and the about page.
#
# Builds the site into a temporary folder, serves it gzip-compressed on
# 127.0.0.1 (a small Python server, like a static host would), and runs
# Lighthouse 12.2.3 from npm in Debian's Chromium with the default mobile
# settings. Prints the four category scores per page as a Markdown table
# and keeps the JSON reports.
#
# Lighthouse installs once into $ENERGYBOARD_TOOLS (default
# ~/.cache/energyboard-tools), outside the repository.
# Usage: bench/lighthouse.sh
# Environment: DATA=data (model files to build from), REPORTS=<dir>
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${ENERGYBOARD_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/energyboard-tools}/lighthouse-12.2.3"
data="${DATA:-$root/data}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"

if [ ! -x "$CHROME_PATH" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Chromium (Debian package chromium)" >&2
    apt-get install -y -qq chromium >/dev/null
  else
    echo "lighthouse: needs Chromium at $CHROME_PATH: apt-get install chromium" >&2
    exit 1
  fi
fi
if [ ! -x "$tools/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --loglevel=error lighthouse@12.2.3 >&2
fi

work="$(mktemp -d)"
reports="${REPORTS:-$work/reports}"
mkdir -p "$reports"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work/site" "$work/chrome"
}
trap cleanup EXIT

(cd "$root" && cargo build --release --quiet)
"${CARGO_TARGET_DIR:-$root/target}/release/energyboard" build --data "$data" --static "$root/static" --out "$work/site" >&2

# A static server that gzips text the way Pages and most hosts do.
cat >"$work/serve.py" <<'PY'
import gzip, http.server, os, sys
root = sys.argv[1]
TEXT = ("text/", "image/svg+xml", "application/json", "application/xml", "application/javascript")

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                      ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml",
                      ".csv": "text/csv; charset=utf-8", ".json": "application/json"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def do_GET(self):
        path = self.translate_path(self.path)
        # A folder's address serves its index.html (every page of the site
        # is one): its type is that file's, not the folder's.
        if os.path.isdir(path):
            if not self.path.split("?")[0].endswith("/"):
                return super().do_GET()
            path = os.path.join(path, "index.html")
        ctype = self.guess_type(path)
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not ctype.startswith(TEXT):
            return super().do_GET()
        try:
            with open(path, "rb") as f:
                body = gzip.compress(f.read(), 9)
        except OSError:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(httpd.server_address[1], flush=True)
httpd.serve_forever()
PY
python3 "$work/serve.py" "$work/site" >"$work/port" &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"

model="$(cd "$work/site/workloads/lm-arena-chat/models" && find . -mindepth 1 -maxdepth 1 -type d | sort | head -1 | cut -c3-)"
other="$(cd "$work/site/workloads/lm-arena-chat/models" && find . -mindepth 1 -maxdepth 1 -type d | sort | sed -n 2p | cut -c3-)"
version="$(cd "$work/site/workloads/lm-arena-chat/models/$model/v" && find . -mindepth 1 -maxdepth 1 -type d | sort | head -1 | cut -c3-)"
image="$(cd "$work/site/workloads/text-to-image/models" && find . -mindepth 1 -maxdepth 1 -type d | sort | head -1 | cut -c3-)"
gpu="$(cd "$work/site/gpus" && find . -mindepth 1 -maxdepth 1 -type d | sort | head -1 | cut -c3-)"
m="/workloads/lm-arena-chat/models/$model"
pages=("front=/" "leaderboard=/workloads/lm-arena-chat/" "model $model=$m/"
  "version $model $version=$m/v/$version/" "overview $model=/models/$model/"
  "gpu $gpu=/workloads/lm-arena-chat/gpus/$gpu/" "gpu hub $gpu=/gpus/$gpu/"
  "compare $model $other=/workloads/lm-arena-chat/compare/?models=$model,$other"
  "compare=/workloads/lm-arena-chat/compare/" "compare hub=/compare/"
  "diffusion model $image=/workloads/text-to-image/models/$image/"
  "changes=/changes/" "data=/data/" "about=/about/")

rows=()
for entry in "${pages[@]}"; do
  name="${entry%%=*}"
  path="${entry#*=}"
  slug="$(tr -c 'a-z0-9' '-' <<<"$name" | sed 's/-*$//')"
  echo "lighthouse: $name (http://127.0.0.1:$port$path)" >&2
  "$tools/node_modules/.bin/lighthouse" "http://127.0.0.1:$port$path" \
    --quiet --output=json --output-path="$reports/$slug.json" \
    --only-categories=performance,accessibility,best-practices,seo \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$work/chrome"
  scores="$(node -e '
    const r = require(process.argv[1]);
    const c = r.categories;
    const s = (k) => (c[k].score === null ? "n/a" : Math.round(c[k].score * 100));
    console.log([s("performance"), s("accessibility"), s("best-practices"), s("seo")].join(" | "));
  ' "$reports/$slug.json")"
  rows+=("| $name | $scores |")
done

echo
echo "Lighthouse 12.2.3, mobile, $(date -u +%Y-%m-%d), gzip on 127.0.0.1, reports in $reports"
echo
echo "| page | performance | accessibility | best practices | SEO |"
echo "|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
