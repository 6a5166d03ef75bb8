#!/usr/bin/env python3
"""Keeps the documentation true: run by ./test.sh.

    scripts/check-docs.py links
        Every relative link and #anchor in README.md, docs/*.md and
        bench/README.md resolves: the
        file or folder exists in the repository, and an anchor names a heading
        (by GitHub's slug rules) or an explicit id of the target Markdown file.
        Links to other sites are not fetched (no network).

    scripts/check-docs.py commands [--skip CMD]...
        Every command of a fenced ```sh block of README.md runs and exits 0,
        except those marked `# needs network`. They run one by one, each from
        the top of a copy of the repository (its tracked and untracked files,
        not ignored ones) in a temporary folder, so a command that writes site/
        never touches the repository's own; cargo shares the repository's
        target folder, so `cargo run --release` rebuilds nothing that is built.
        --skip CMD leaves out a command exactly equal to CMD (./test.sh passes
        itself: it is the command running this check).

    scripts/check-docs.py selftest
        Both checks on planted faults: each must be reported, and clean text
        must pass.

Prints one line per problem, naming file and line, and exits 1 if any.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NETWORK_MARK = "# needs network"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target); the target may be <...> or end in a "title".
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_REF = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]*)\"", re.IGNORECASE)
HTML_ID = re.compile(r"<[a-z]+\b[^>]*?\b(?:id|name)=\"([^\"]*)\"", re.IGNORECASE)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def doc_files(root):
    """README.md, every Markdown file in docs/ in name order, and
    bench/README.md (which links into docs/)."""
    files = [root / "README.md"]
    files += sorted((root / "docs").glob("*.md"))
    files.append(root / "bench" / "README.md")
    return [f for f in files if f.is_file()]


def prose_lines(text):
    """(line number, line) outside fenced code blocks, inline code removed."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                fence = None
            continue
        yield number, CODE_SPAN.sub(lambda c: " " * len(c.group(0)), line), line


def github_slug(heading):
    """The anchor GitHub gives a heading (github-slugger): the rendered text in
    lower case, without punctuation or symbols (letters, digits, marks, `-` and
    `_` stay), each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links show their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML shows nothing
    text = text.replace("`", "")
    kept = []
    for ch in text.lower():
        if ch in " -_" or unicodedata.category(ch)[0] in "LNM":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path):
    """Every anchor a Markdown file has: its headings' slugs (a repeated slug
    gets -1, -2, ... as on GitHub) and explicit id/name attributes."""
    seen = {}
    found = set()
    for _, _, raw in prose_lines(path.read_text(encoding="utf-8")):
        m = HEADING.match(raw)
        if m:
            slug = github_slug(m.group(2))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        found.update(HTML_ID.findall(raw))
    return found


def link_targets(path):
    """(line number, target) of every link in a Markdown file's prose."""
    for number, line, raw in prose_lines(path.read_text(encoding="utf-8")):
        for m in INLINE_LINK.finditer(line):
            yield number, m.group(1).strip("<>")
        m = REFERENCE_DEF.match(line)
        if m:
            yield number, m.group(1).strip("<>")
        for target in HTML_REF.findall(line):
            yield number, target


def check_links(root):
    problems = []
    cache = {}
    for doc in doc_files(root):
        name = doc.relative_to(root)
        for number, target in link_targets(doc):
            if SCHEME.match(target) or target.startswith("//"):
                continue  # another site: not fetched
            where = f"{name}:{number}: {target}"
            path_part, _, fragment = target.partition("#")
            dest = doc if path_part == "" else (doc.parent / path_part).resolve()
            if root.resolve() not in [dest, *dest.parents]:
                problems.append(f"{where}: leads outside the repository")
                continue
            if not dest.exists():
                problems.append(f"{where}: no such file or folder")
                continue
            if fragment:
                if dest.suffix != ".md" or not dest.is_file():
                    problems.append(f"{where}: an anchor into a file that is not Markdown cannot be checked")
                    continue
                if dest not in cache:
                    cache[dest] = anchors(dest)
                if fragment not in cache[dest]:
                    problems.append(f"{where}: {dest.relative_to(root.resolve())} has no heading or id '{fragment}'")
    return problems


def sh_commands(readme):
    """(line number, command) of each command in README.md's ```sh blocks;
    a line ending in a backslash continues on the next."""
    commands = []
    fence, info, pending, start = None, "", "", 0
    for number, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence, info = m.group(1), m.group(2)
            continue
        if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
            fence = None
            continue
        if info != "sh":
            continue
        if not pending:
            start = number
        pending += line
        if line.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        command, pending = pending.strip(), ""
        if command and not command.startswith("#"):
            commands.append((start, command))
    return commands


def copy_repository(root, dest):
    """Copies the repository's tracked and untracked files (not ignored ones)
    into dest; outside a git work tree, everything but target/, .git and
    node_modules."""
    git = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
    )
    if git.returncode != 0:
        shutil.copytree(root, dest, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("target", ".git", "node_modules"))
        return
    listed = git.stdout.split(b"\0")
    for entry in listed:
        if not entry:
            continue
        src = root / os.fsdecode(entry)
        if not src.is_file():
            continue  # deleted in the work tree
        target = dest / os.fsdecode(entry)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)


def target_dir(root):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)["target_directory"]


def check_commands(root, skip):
    problems = []
    readme = root / "README.md"
    commands = sh_commands(readme)
    if not commands:
        return [f"README.md: no command in a ```sh block"]
    target = target_dir(root)
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    # The copy is made at the same place each run (inside the target
    # folder, which git ignores), with the files' own times, so cargo
    # finds its build of the copy current and rebuilds only what changed.
    copy = Path(target) / "check-docs" / "repo"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir(parents=True)
    try:
        copy_repository(root, copy)
        for number, command in commands:
            where = f"README.md:{number}: {command}"
            if NETWORK_MARK in command:
                print(f"  skip  {where}")
                continue
            if command in skip:
                print(f"  skip  {where} (the command running this check)")
                if not os.access(root / command.split()[0], os.X_OK):
                    problems.append(f"{where}: not an executable file")
                continue
            run = subprocess.run(
                ["bash", "-c", command],
                cwd=copy,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=3600,
            )
            if run.returncode == 0:
                print(f"  ran   {where}")
            else:
                tail = "\n".join((run.stdout + run.stderr).splitlines()[-10:])
                problems.append(f"{where}: exited {run.returncode}\n{tail}")
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return problems


def selftest():
    """The checks must report each planted fault and pass the clean text."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="energyboard-docs-selftest.") as tmp:
        root = Path(tmp)
        (root / "docs").mkdir()
        (root / "docs" / "guide.md").write_text(
            "# Safety of `serve`\n## A & B\n## A & B\n<a id=\"kept\"></a>\n```sh\n# [x](nothing.md)\n```\n",
            encoding="utf-8",
        )
        cases = {
            "[ok](docs/guide.md#safety-of-serve) [ok](docs/guide.md#a--b-1) [ok](docs/guide.md#kept) "
            "[ok](docs/) [web](https://example.org/x) `[code](missing.md)`": [],
            "[bad](docs/missing.md)": ["no such file"],
            "[bad](docs/guide.md#safety-of-serve-1)": ["has no heading"],
            "[bad](#nowhere)": ["has no heading"],
            "[bad](../outside.md)": ["outside the repository"],
            "[bad]: docs/gone.md": ["no such file"],
            '<img src="docs/shot.png">': ["no such file"],
        }
        for text, expected in cases.items():
            (root / "README.md").write_text(text + "\n", encoding="utf-8")
            got = check_links(root)
            if len(got) != len(expected) or any(e not in g for e, g in zip(expected, got)):
                failures.append(f"links on {text!r}: expected {expected}, got {got}")
        (root / "README.md").write_text(
            "```sh\ntrue\nfalse  # needs network\nfalse\necho a \\\n  b\n```\n", encoding="utf-8"
        )
        got = [c for _, c in sh_commands(root / "README.md")]
        if got != ["true", "false  # needs network", "false", "echo a    b"]:
            failures.append(f"sh_commands: got {got}")
    for f in failures:
        print(f"  FAIL  {f}")
    return failures


def main(argv):
    if len(argv) < 2 or argv[1] not in ("links", "commands", "selftest"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "links":
        problems = check_links(ROOT)
    elif argv[1] == "commands":
        skip = [argv[i + 1] for i, a in enumerate(argv) if a == "--skip" and i + 1 < len(argv)]
        problems = check_commands(ROOT, skip)
    else:
        problems = selftest()
    for p in problems:
        print(f"docs: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
