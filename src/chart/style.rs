//! Colours, marker shapes and dash patterns, and the CSS that gives them
//! their final look.
//!
//! plotters only knows RGB colours, so every element is drawn with a
//! *sentinel* colour `#EBrrii`: `EB` marks it as ours, `rr` is its [`Role`]
//! and `ii` a series index. [`crate::chart::svg`] swaps each sentinel for a
//! class, and the `<style>` built here colours the classes, with a second
//! palette for dark mode.

use std::collections::BTreeSet;

use plotters::style::RGBColor;

/// First byte of every sentinel colour.
pub(crate) const SENTINEL: u8 = 0xEB;

/// What an element is, which decides its class and so its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Text and axis lines.
    Ink,
    /// Grid lines and secondary text.
    Muted,
    /// A series line (dashed per series) or legend sample.
    Line(usize),
    /// A data point marker: filled for a first run, hollow for a repeat.
    Point(usize),
    /// A marker in the legend.
    Swatch(usize),
    /// A data label, drawn with a halo so it reads over lines.
    Label,
    /// The ring around a best configuration.
    Best,
    /// The Pareto frontier line.
    Frontier,
    /// The latency deadline line.
    Deadline,
    /// The stem from median to p99 latency.
    Stem(usize),
    /// The p90 latency dot.
    P90(usize),
    /// The p99 latency cap.
    P99(usize),
    /// A bar.
    Bar(usize),
    /// A line from a point to its label.
    Leader,
}

impl Role {
    /// The sentinel colour plotters draws this role with.
    pub(crate) fn color(self) -> RGBColor {
        let (code, idx) = match self {
            Role::Ink => (1, 0),
            Role::Muted => (2, 0),
            Role::Line(i) => (3, i),
            Role::Point(i) => (4, i),
            Role::Swatch(i) => (5, i),
            Role::Label => (6, 0),
            Role::Best => (7, 0),
            Role::Frontier => (8, 0),
            Role::Deadline => (9, 0),
            Role::Stem(i) => (10, i),
            Role::P90(i) => (11, i),
            Role::P99(i) => (12, i),
            Role::Bar(i) => (13, i),
            Role::Leader => (14, 0),
        };
        RGBColor(SENTINEL, code, (idx % PALETTE.len()) as u8)
    }
}

/// The class replacing a sentinel colour, for a `fill` or a `stroke`
/// attribute, or `None` when `rgb` is not a sentinel.
pub(crate) fn class_of(code: u8, idx: u8, fill: bool) -> Option<String> {
    let plain = |name: &str| Some(name.to_owned());
    let indexed = |name: &str| Some(format!("{name}{idx}"));
    match (code, fill) {
        (1, true) => plain("t"),
        (1, false) => plain("a"),
        (2, true) => plain("m"),
        (2, false) => plain("g"),
        (3 | 5, true) => indexed("f"),
        (3, false) => indexed("s"),
        (4, true) => indexed("p"),
        (4, false) => indexed("h"),
        (5, false) => indexed("e"),
        (6, _) => plain("l"),
        (7, _) => plain("b"),
        (8, _) => plain("fr"),
        (9, _) => plain("dl"),
        (10, _) => indexed("w"),
        (11, _) => indexed("n"),
        (12, _) => indexed("q"),
        (13, _) => indexed("c"),
        (14, _) => plain("ld"),
        _ => None,
    }
}

/// Okabe–Ito colours (light background, dark background); the last is a
/// neutral grey.
pub(crate) const PALETTE: [(&str, &str); 7] = [
    ("#0072B2", "#56B4E9"),
    ("#D55E00", "#E8833A"),
    ("#009E73", "#2BC197"),
    ("#CC79A7", "#DE95BE"),
    ("#E69F00", "#E69F00"),
    ("#56B4E9", "#A8D8F5"),
    ("#6E6E6E", "#ABABAB"),
];

/// Dash patterns by series index; the first series is solid.
const DASHES: [&str; 4] = ["", "8 4", "2 3", "10 3 2 3"];

/// Marker shapes by series index, drawn the same for any colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Plus,
    TriangleRight,
}

/// The marker shape of series `idx`.
pub(crate) fn shape(idx: usize) -> Shape {
    const SHAPES: [Shape; 7] = [
        Shape::Circle,
        Shape::Square,
        Shape::TriangleUp,
        Shape::Diamond,
        Shape::TriangleDown,
        Shape::Plus,
        Shape::TriangleRight,
    ];
    SHAPES[idx % SHAPES.len()]
}

/// Palette slot for a GPU, fixed per GPU name so a GPU has the same colour on
/// every page: well-known GPUs first, others by a stable hash of the name.
pub(crate) fn gpu_slot(gpu: &str) -> usize {
    const KNOWN: [&str; 6] = ["B200", "H100", "H200", "A100", "GB200", "MI300X"];
    if let Some(i) = KNOWN.iter().position(|k| k.eq_ignore_ascii_case(gpu)) {
        return i;
    }
    // FNV-1a: stable across runs and platforms.
    let mut h: u32 = 0x811c_9dc5;
    for b in gpu.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as usize % PALETTE.len()
}

/// The `<style>` for the classes used: light colours by default, dark ones
/// under `prefers-color-scheme: dark`. Rules are scoped to `.ebc`, the root
/// class, so an SVG placed inline cannot restyle the page.
pub(crate) fn css(used: &BTreeSet<String>) -> String {
    let has = |c: &str| used.contains(c);
    let mut light = String::from(
        ".ebc text{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif}",
    );
    let mut dark = String::new();
    let rule = |out: &mut String, classes: &[&str], decl: &str| {
        let present: Vec<&str> = classes.iter().copied().filter(|c| has(c)).collect();
        match present.as_slice() {
            [] => {}
            [one] => out.push_str(&format!(".ebc .{one}{{{decl}}}")),
            many => {
                let list: Vec<String> = many.iter().map(|c| format!(".{c}")).collect();
                out.push_str(&format!(".ebc :is({}){{{decl}}}", list.join(",")));
            }
        }
    };
    rule(&mut light, &["t", "l"], "fill:#1a1a1a");
    rule(&mut light, &["m"], "fill:#555");
    rule(&mut light, &["a", "b", "fr"], "stroke:#1a1a1a");
    rule(&mut light, &["g"], "stroke:#e0e0e0");
    rule(
        &mut light,
        &["l"],
        "stroke:#fff;stroke-width:4px;stroke-linejoin:round;paint-order:stroke",
    );
    rule(&mut light, &["dl"], "stroke:#666;stroke-dasharray:6 4");
    rule(&mut light, &["ld"], "stroke:#888");
    rule(&mut dark, &["t", "l"], "fill:#ececec");
    rule(&mut dark, &["m"], "fill:#b0b0b0");
    rule(&mut dark, &["a", "b", "fr"], "stroke:#ececec");
    rule(&mut dark, &["g"], "stroke:#3a3a3a");
    rule(&mut dark, &["l"], "stroke:#121212");
    rule(&mut dark, &["dl"], "stroke:#aaa");
    rule(&mut dark, &["ld"], "stroke:#999");
    for (i, (day, night)) in PALETTE.iter().enumerate() {
        let fills: Vec<String> = ["f", "p", "n", "c"]
            .iter()
            .map(|p| format!("{p}{i}"))
            .collect();
        let strokes: Vec<String> = ["s", "e", "h", "w", "q"]
            .iter()
            .map(|p| format!("{p}{i}"))
            .collect();
        let fills: Vec<&str> = fills.iter().map(String::as_str).collect();
        let strokes: Vec<&str> = strokes.iter().map(String::as_str).collect();
        rule(&mut light, &fills, &format!("fill:{day}"));
        rule(&mut light, &strokes, &format!("stroke:{day}"));
        rule(&mut dark, &fills, &format!("fill:{night}"));
        rule(&mut dark, &strokes, &format!("stroke:{night}"));
        let dash = DASHES[i % DASHES.len()];
        if !dash.is_empty() {
            rule(
                &mut light,
                &[&format!("s{i}")],
                &format!("stroke-dasharray:{dash}"),
            );
        }
    }
    if dark.is_empty() {
        light
    } else {
        format!("{light}@media (prefers-color-scheme:dark){{{dark}}}")
    }
}
