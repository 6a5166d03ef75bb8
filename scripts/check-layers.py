#!/usr/bin/env python3
"""Checks the module graph of src/: no cycle, and no import up the stages.

Reads every `crate::<module>` path in src/ (in `use` lines, including
`use crate::{a, b}` groups, and written out in code), outside comments and
outside the `#[cfg(test)]` module at the end of a file, and attributes it
to the top-level module of the file (src/load/best.rs is `load`). Each
module may import only modules listed before it in LAYERS; a module named
twice in one layer may not import the other. It fails, naming the file and
line, on an import that runs back up, and on a module missing from LAYERS.

It also checks four invariants of ARCHITECTURE.md on the same code:

- "only `write` touches the output folder": no call that writes, creates,
  renames or removes a file or folder (`fs::write`, `File::create`,
  `create_dir`, `remove_*`, `fs::rename`, `fs::copy`, `OpenOptions`)
  outside the modules in WRITERS;
- "analyse computes everything; chart and render only lay out": no
  ranking call (`sort*`, `min_by*`/`max_by*`, `partial_cmp`, `total_cmp`,
  `.min()`/`.max()`) in src/chart and src/render but the lines in
  LAYOUT_ORDERING, each with the reason it orders for layout, not for a
  figure. An entry no longer found is reported (to be removed), not failed;
- "only `columns` names a unit": no string literal, on one line or
  several, holding a unit (Wh, kWh, J, mJ, J/tok, tok/s, tok/Wh, ms, " s",
  g CO₂e) in the modules that write what a reader sees (UNIT_MODULES),
  outside src/columns*, but the lines in UNITS_OUTSIDE_COLUMNS, each with
  the reason it may stay. An entry no longer found is reported, not failed;
- "chart and render only lay out and format, and never panic" (#40): no
  `panic!(`, `unreachable!(`, `todo!(`, `unimplemented!(`, `.expect(` or
  `.unwrap()` in src/chart and src/render, with no allow-list: a type
  holds the invariant, or the error is returned.

Usage: scripts/check-layers.py [SRC_DIR]   (default: src/ beside this script)
"""

import re
import sys
from pathlib import Path

# Bottom first. A module may import from the layers below its own, never
# from its own layer or above.
LAYERS = [
    # Plain helpers and rules that know no stage: number formatting, the
    # selection rule (deadline, cheapest, tie-breaks) that load, analyse
    # and import all call, and the folder lock, staging and path check that
    # build and import share.
    ["fmt", "select", "stage"],
    # The types of what a data file holds: models, the change history.
    ["model", "changes"],
    # The columns (how a figure is named, read, shown) and each kind's
    # words and units: the one home of units, so below every module that
    # writes one, the loader's messages and the carbon settings' included.
    ["columns"],
    # Load: files -> validated models (and the static folder's files).
    ["load"],
    # What sits on loaded data without computing figures: grouping by
    # workload, the carbon and cost tables, the built-in assets, and the
    # writer, the only module that touches the output folder (render
    # streams into its PageSink, so it sits below render).
    ["workload", "footprint", "assets", "write"],
    # The settings file.
    ["settings"],
    # Analyse: pure figures, once per model.
    ["analyse"],
    # Charts: SVG strings from the analysis.
    ["chart"],
    # Render: pages in memory; reads the analysis, never computes it.
    ["render"],
    # The writer of data/: the importer.
    ["import"],
    # The library root (lib.rs: run, build, check), the pipeline in order.
    ["lib"],
    # The preview server, a front end that calls lib's build.
    ["serve"],
    # The binary (main.rs speaks to the library by its crate name).
    ["main"],
]

RANK = {m: i for i, layer in enumerate(LAYERS) for m in layer}

# The modules that may write files: the output folder's writer, the
# staging folders and lock, the importer (data/ under its journal), the
# preview (its own temporary folder), and the command line (the import
# summary file that `--summary` names).
WRITERS = {"write", "stage", "import", "serve", "main"}
WRITE_CALL = re.compile(
    r"\b(fs::write|File::create|create_dir(_all)?|remove_(file|dir|dir_all)|fs::rename"
    r"|fs::copy|OpenOptions)\b"
)

# Panics in chart and render, which only lay out and format (#40): a type
# holds the invariant, or the error is returned. No line is excused.
PANIC_CALL = re.compile(r"\b(panic|unreachable|todo|unimplemented)!\(|\.expect\(|\.unwrap\(\)")

# Ordering in chart and render that lays out rather than ranks: file (under
# src/), the line's code (stripped), and why it may stay. Every other
# ranking call there fails: rank in analyse (or select) instead.
RANKING_CALL = re.compile(
    r"\.(sort|sort_by|sort_by_key|sort_unstable|sort_unstable_by|sort_unstable_by_key"
    r"|min_by|max_by|min_by_key|max_by_key|partial_cmp|total_cmp)\b|\.(min|max)\(\)"
)
LAYOUT_ORDERING = {
    ("chart.rs", "keys.sort_unstable();"): "the distinct sources of a chart, deduplicated",
    ("render.rs", "addresses.sort_unstable();"): "the sitemap's addresses in path order, whatever order the threads wrote them",
    ("chart/response.rs", "let y_max = r.counts.iter().copied().max().unwrap_or(1) as f64;"):
        "the axis extent of a histogram",
    ("chart/response.rs", "order.sort_by_key(|s| std::cmp::Reverse(s.rank));"):
        "draw order: analyse's rank, highest drawn first so the best is on top",
    ("chart/site.rs", "gpus.sort_unstable();"): "the distinct GPUs of a legend, deduplicated",
    ("chart/draw.rs", ".max()"): "the width of a legend column, its widest key's",
    ("chart/site.rs", "deadlines.sort_by(f64::total_cmp);"): "the distinct deadlines, deduplicated",
    ("chart/site.rs", "chosen.sort_unstable();"): "indices back in the data's order",
    ("chart/site.rs", "seen.sort_unstable_by_key(|&(rank, _, _)| rank);"):
        "legend entries in analyse's rank order",
    ("chart/model_page.rs", ".max_by(|a, b| value(a).total_cmp(&value(b)))"):
        "issue 40: the labelled point of a trade-off chart, to move to analyse",
    ("render/changes.rs", "all.sort_by(|a, b| b.entry.imported.cmp(&a.entry.imported));"):
        "the change log, newest import first",
    ("render/changes.rs", ".max()"): "the feed's updated date, the newest entry's",
    ("render/site_pages.rs", "limits.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));"):
        "the latency-limit control's options in ascending order",
    ("render/overview.rs", "item_measures.sort_unstable();"): "the distinct diffusion kinds, deduplicated",
    ("render/kind.rs", "v.sort();"): "the distinct values of a column, deduplicated",
}
# Modules whose strings reach a reader (pages, charts, their words); the
# columns (src/columns.rs and src/columns/) are the one home of units.
UNIT_MODULES = {"chart", "render", "fmt", "model", "footprint"}
UNIT = re.compile(
    r"(?<![\w/])(?:k?Wh|mJ|J/tok|J)(?!\w)|tok/s|tok/Wh|(?<!\w)ms(?!\w)|\s s(?=\W|$)|g CO₂e"
)
# Units written outside columns, each with the reason it may stay: file
# (under src/) and the line's code (stripped). Issue 40 moved every one to
# read its column's unit (or a unit constant of columns); a new unit outside
# columns fails.
UNITS_OUTSIDE_COLUMNS: dict = {}
PATH = re.compile(r"\bcrate::(\{[^}]*\}|[a-z_][a-z0-9_]*)")


def module_of(src: Path, file: Path) -> str:
    rel = file.relative_to(src)
    if len(rel.parts) == 1:
        return rel.stem
    return rel.parts[0]


def imports(text: str):
    """(line number, imported top-level module) for each crate:: path."""
    lines = text.splitlines()
    in_group = None
    for no, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#[cfg(test)]"):
            nxt = lines[no].strip() if no < len(lines) else ""
            if nxt.startswith("mod tests"):
                return
        if stripped.startswith("//"):
            continue
        code = line.split("//", 1)[0]
        if in_group is not None:
            in_group += code
            if "}" in code:
                for name in group_names(in_group):
                    yield no, name
                in_group = None
            continue
        for match in PATH.finditer(code):
            found = match.group(1)
            if found.startswith("{"):
                for name in group_names(found):
                    yield no, name
            else:
                yield no, found
        if re.search(r"\bcrate::\{[^}]*$", code):
            in_group = code[code.rindex("crate::{") + len("crate::") :]


def group_names(group: str):
    """Top-level names of `{a::b, c, d::{e, f}}`."""
    inner = group.strip()[1:]
    depth, name, names = 0, "", []
    for ch in inner:
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(name)
            name = ""
            continue
        if depth == 0:
            name += ch
    names.append(name)
    for n in names:
        head = n.strip().split("::")[0].strip()
        if head and head != "self" and re.fullmatch(r"[a-z_][a-z0-9_]*", head):
            yield head


def code_lines(text: str):
    """(line number, code without its comment) outside the test module."""
    lines = text.splitlines()
    for no, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#[cfg(test)]"):
            nxt = lines[no].strip() if no < len(lines) else ""
            if nxt.startswith("mod tests"):
                return
        if stripped.startswith("//"):
            continue
        yield no, line.split("//", 1)[0]


def invariant_problems(src: Path):
    """Writes outside WRITERS, ranking in chart and render outside
    LAYOUT_ORDERING, panics in chart and render, units outside columns
    beyond UNITS_OUTSIDE_COLUMNS; and the allow-list entries no longer
    found."""
    problems = []
    # Each allow-list's entries met in the code: the others are stale.
    met = {"LAYOUT_ORDERING": set(), "UNITS_OUTSIDE_COLUMNS": set()}
    allow_lists = {
        "LAYOUT_ORDERING": LAYOUT_ORDERING,
        "UNITS_OUTSIDE_COLUMNS": UNITS_OUTSIDE_COLUMNS,
    }

    def allowed(name: str, key) -> bool:
        """Whether the allow-list `name` has `key`, noting it met."""
        if key in allow_lists[name]:
            met[name].add(key)
            return True
        return False

    for file in sorted(src.rglob("*.rs")):
        here = module_of(src, file)
        rel = file.relative_to(src).as_posix()
        for no, code in code_lines(file.read_text(encoding="utf-8")):
            key = (rel, code.strip())
            if here not in WRITERS and (m := WRITE_CALL.search(code)):
                problems.append(
                    f"{file}:{no}: {here} calls {m.group(0)}; only write (and "
                    f"{', '.join(sorted(WRITERS - {'write'}))}) touch files"
                )
            if (
                here in ("chart", "render")
                and (m := RANKING_CALL.search(code))
                and not allowed("LAYOUT_ORDERING", key)
            ):
                problems.append(
                    f"{file}:{no}: {here} ranks or orders ({m.group(0)}); compute it in "
                    f"analyse, or if it only lays out, add the line to LAYOUT_ORDERING "
                    f"with the reason"
                )
            if here in ("chart", "render") and (m := PANIC_CALL.search(code)):
                problems.append(
                    f"{file}:{no}: {here} can panic ({m.group(0)}); chart and render only "
                    f"lay out and format: let a type hold the invariant, or return the error"
                )
        if here not in UNIT_MODULES:
            continue
        lines = file.read_text(encoding="utf-8").splitlines()
        for no, literal in string_literals(file.read_text(encoding="utf-8")):
            # A literal is known by its first line's code.
            key = (rel, lines[no - 1].split("//", 1)[0].strip())
            if (m := UNIT.search(literal)) and not allowed("UNITS_OUTSIDE_COLUMNS", key):
                problems.append(
                    f"{file}:{no}: {here} writes the unit {m.group(0)!r}; read it from "
                    f"the column (src/columns*) instead"
                )
    stale = [
        f"{name}: {f}: {line}"
        for name, entries in allow_lists.items()
        for (f, line) in entries
        if (f, line) not in met[name]
    ]
    return problems, stale


CHAR_LITERAL = re.compile(r"'(?:\\.|[^\\'\n])'")
RAW_STRING = re.compile(r'r(#*)"')


def string_literals(text: str):
    """(line number of its opening quote, body) of each string literal
    outside comments and the test module, whether it spans one line or
    several (a `\\`-continued literal too)."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line, i = line + 1, i + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif text.startswith("#[cfg(test)]", i) and text[i + 12 :].lstrip().startswith("mod tests"):
            return
        elif c == "'" and (m := CHAR_LITERAL.match(text, i)):
            i = m.end()
        elif (
            c == "r"
            and (m := RAW_STRING.match(text, i))
            and not (i and (text[i - 1].isalnum() or text[i - 1] == "_"))
        ):
            close = '"' + m.group(1)
            end = text.find(close, m.end())
            end = n if end < 0 else end
            yield line, text[m.end() : end]
            line += text.count("\n", i, end)
            i = end + len(close)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            yield line, text[i + 1 : j]
            line += text.count("\n", i, j)
            i = j + 1
        else:
            i += 1


def main() -> int:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src"
    problems = []
    edges = set()
    for file in sorted(src.rglob("*.rs")):
        here = module_of(src, file)
        if here not in RANK:
            problems.append(f"{file}: module {here!r} is not in LAYERS of {__file__}")
            continue
        for no, there in imports(file.read_text(encoding="utf-8")):
            if there == here:
                continue
            if there not in RANK:
                # A crate-level item of lib.rs (crate::build, crate::BuildOptions).
                there = "lib"
            edges.add((here, there))
            if RANK[there] >= RANK[here]:
                how = "its own layer" if RANK[there] == RANK[here] else "a later stage"
                problems.append(
                    f"{file}:{no}: {here} imports {there}, which is {how} "
                    f"({here} is in layer {RANK[here]}, {there} in layer {RANK[there]})"
                )
    for p in problems:
        print(p, file=sys.stderr)
    invariants, stale = invariant_problems(src)
    for p in invariants:
        print(p, file=sys.stderr)
    for line in stale:
        print(f"check-layers: note: allow-list entry no longer found, remove it: {line}")
    if problems or invariants:
        print(
            f"check-layers: {len(problems)} import(s) against the stage order, "
            f"{len(invariants)} against ARCHITECTURE.md's invariants",
            file=sys.stderr,
        )
        return 1
    print(
        f"check-layers: {len(edges)} imports between {len(RANK)} modules, none runs back up; "
        f"files written only by {', '.join(sorted(WRITERS))}; no ranking in chart or render "
        f"but {len(LAYOUT_ORDERING)} layout orderings; units only in columns but "
        f"{len(UNITS_OUTSIDE_COLUMNS)} still to move; no panic in chart or render"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
