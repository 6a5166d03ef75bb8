#!/usr/bin/env python3
"""Checks the module graph of src/: no cycle, and no import up the stages.

Reads every `crate::<module>` path in src/ (in `use` lines, including
`use crate::{a, b}` groups, and written out in code), outside comments and
outside the `#[cfg(test)]` module at the end of a file, and attributes it
to the top-level module of the file (src/load/best.rs is `load`). Each
module may import only modules listed before it in LAYERS; a module named
twice in one layer may not import the other. It fails, naming the file and
line, on an import that runs back up, and on a module missing from LAYERS.

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
    # Load: files -> validated models (and the static folder's files).
    ["load"],
    # What sits on loaded data without computing figures: grouping by
    # workload, the carbon and cost tables, the built-in assets, and the
    # writer, the only module that touches the output folder (render
    # streams into its PageSink, so it sits below render).
    ["workload", "footprint", "assets", "write"],
    # The settings file; the columns (how a figure is named, read, shown).
    ["settings", "columns"],
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
    if problems:
        print(f"check-layers: {len(problems)} import(s) against the stage order", file=sys.stderr)
        return 1
    print(f"check-layers: {len(edges)} imports between {len(RANK)} modules, none runs back up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
