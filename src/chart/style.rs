//! Colours, marker shapes and dash patterns, and the CSS that gives them
//! their final look.
//!
//! plotters only knows RGB colours, so every element is drawn with a
//! *sentinel* colour `#EBffss`: `EB` marks it as ours, `ff` and `ss` are
//! its [`Role`]'s class as a fill and as a stroke. [`crate::chart::svg`] swaps each sentinel for a
//! class, and the `<style>` built here colours the classes, with a second
//! palette for dark mode.

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
    Frontier,
    Deadline,
    /// The stem from median to p99 latency.
    Stem(usize),
    /// The p90 latency dot.
    P90(usize),
    /// The p99 latency cap.
    P99(usize),
    Bar(usize),
    /// A line from a point to its label.
    Leader,
}

impl Role {
    /// The sentinel colour plotters draws this role with: `#EBffss`, `ff`
    /// its [`Class`] as a fill and `ss` as a stroke.
    pub(crate) fn color(self) -> RGBColor {
        // Plain classes by their place in PLAIN, indexed ones by their
        // prefix's place in INDEXED.
        let ix = |prefix: usize, i: usize| Class::indexed(prefix, (i % PALETTE.len()) as u8).0;
        let (fill, stroke) = match self {
            Role::Ink => (0, 1),
            Role::Muted => (2, 3),
            Role::Line(i) => (ix(0, i), ix(1, i)),
            Role::Point(i) => (ix(2, i), ix(3, i)),
            Role::Swatch(i) => (ix(0, i), ix(4, i)),
            Role::Label => (4, 4),
            Role::Best => (5, 5),
            Role::Frontier => (6, 6),
            Role::Deadline => (7, 7),
            Role::Stem(i) => (ix(5, i), ix(5, i)),
            Role::P90(i) => (ix(6, i), ix(6, i)),
            Role::P99(i) => (ix(7, i), ix(7, i)),
            Role::Bar(i) => (ix(8, i), ix(8, i)),
            Role::Leader => (8, 8),
        };
        RGBColor(SENTINEL, fill, stroke)
    }
}

/// Names of the classes without an index.
const PLAIN: [&str; 9] = ["t", "a", "m", "g", "l", "b", "fr", "dl", "ld"];
/// Prefixes of the classes with a palette index.
const INDEXED: [&str; 9] = ["f", "s", "p", "h", "e", "w", "n", "q", "c"];

/// A class an element can carry, such as `t` or `s2`: a plain name, or a
/// prefix with a palette index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Class(u8);

impl Class {
    fn indexed(prefix: usize, idx: u8) -> Self {
        Class((PLAIN.len() + prefix * PALETTE.len()) as u8 + idx)
    }

    pub(crate) fn push_name(self, out: &mut String) {
        let i = usize::from(self.0);
        if i < PLAIN.len() {
            out.push_str(PLAIN[i]);
        } else {
            let k = i - PLAIN.len();
            out.push_str(INDEXED[k / PALETTE.len()]);
            out.push(char::from(b'0' + (k % PALETTE.len()) as u8));
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Classes(u128);

impl Classes {
    pub(crate) fn insert(&mut self, c: Class) {
        self.0 |= 1 << c.0;
    }

    pub(crate) fn contains(self, c: Class) -> bool {
        self.0 & (1 << c.0) != 0
    }
}

/// The class replacing a sentinel colour `#EBffss` in a `fill` (`ff`) or
/// a `stroke` (`ss`) attribute, or `None` when it is no class.
pub(crate) fn class_of(fill_class: u8, stroke_class: u8, fill: bool) -> Option<Class> {
    let id = if fill { fill_class } else { stroke_class };
    (usize::from(id) < PLAIN.len() + INDEXED.len() * PALETTE.len()).then_some(Class(id))
}

/// Okabe–Ito colours (light background, dark background); the last a neutral grey.
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

/// Palette slot for a GPU, fixed per GPU name so a GPU has the same colour
/// and marker on every page: well-known GPUs first, others by a stable hash
/// of the name into the slots past the palette (`7..49`), whose colour
/// repeats a known GPU's with another marker ([`shape`]), so a GPU the list
/// lacks (an L40S a lab measured) never looks like a known one.
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
    let n = PALETTE.len();
    n + h as usize % (n * n - n)
}

/// The `<style>` for the classes used: light colours by default, dark ones
/// under `prefers-color-scheme: dark`. Rules are scoped to `.ebc`, the root
/// class, so an SVG placed inline cannot restyle the page.
///
/// A chart shown as an `<img>` follows the page's theme switch by itself
/// (the browser gives an SVG image the `color-scheme` of its `<img>`, which
/// the page's `data-theme` sets). An inline chart, or one in an `<iframe>`,
/// is `themed`: its dark rules also follow a `data-theme` attribute, on the
/// page's root or on the chart's own.
pub(crate) fn css(used: Classes, themed: bool) -> String {
    let mut light = String::with_capacity(1536);
    light.push_str(
        ".ebc text{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif}",
    );
    let mut dark = String::with_capacity(768);
    for p in PLAIN_COLOURS {
        let classes: Vec<Class> = p.classes.iter().map(|&i| Class(i)).collect();
        css_rule(&mut light, used, &classes, &[p.light]);
        css_rule(&mut dark, used, &classes, &[p.dark]);
    }
    for (i, (day, night)) in PALETTE.iter().enumerate() {
        let idx = i as u8;
        // Prefixes in INDEXED coloured by fill (f p n c), and by stroke
        // (s e h w q).
        let fills = [0, 2, 6, 8].map(|p| Class::indexed(p, idx));
        let strokes = [1, 4, 3, 5, 7].map(|p| Class::indexed(p, idx));
        css_rule(&mut light, used, &fills, &["fill:", day]);
        css_rule(&mut light, used, &strokes, &["stroke:", day]);
        css_rule(&mut dark, used, &fills, &["fill:", night]);
        css_rule(&mut dark, used, &strokes, &["stroke:", night]);
        let dash = DASHES[i % DASHES.len()];
        if !dash.is_empty() {
            let series_line = [Class::indexed(1, idx)];
            css_rule(&mut light, used, &series_line, &["stroke-dasharray:", dash]);
        }
    }
    if !dark.is_empty() {
        light.push_str("@media (prefers-color-scheme:dark){");
        if themed {
            // Dark unless the page (an inline chart's `<html>`, or the
            // chart's own root, set by its script in an <iframe>) chose
            // light.
            light.push_str(&dark.replace(".ebc ", THEME_SYSTEM_DARK));
        } else {
            light.push_str(&dark);
        }
        light.push('}');
        if themed {
            light.push_str(&dark.replace(".ebc ", THEME_DARK));
        }
    }
    light
}

/// Appends to `out` one rule for the classes of `classes` that are `used`,
/// declaring the concatenation of `decl`; nothing when none is used.
fn css_rule(out: &mut String, used: Classes, classes: &[Class], decl: &[&str]) {
    let n = classes.iter().filter(|c| used.contains(**c)).count();
    if n == 0 {
        return;
    }
    out.push_str(if n == 1 { ".ebc " } else { ".ebc :is(" });
    for (k, c) in classes.iter().filter(|c| used.contains(**c)).enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push('.');
        c.push_name(out);
    }
    out.push_str(if n == 1 { "{" } else { "){" });
    for d in decl {
        out.push_str(d);
    }
    out.push('}');
}

/// The colours of some plain classes (by their index in PLAIN), in light
/// and in dark.
struct PlainColour {
    classes: &'static [u8],
    light: &'static str,
    dark: &'static str,
}

const PLAIN_COLOURS: [PlainColour; 7] = [
    PlainColour {
        classes: &[0, 4],
        light: "fill:#1a1a1a",
        dark: "fill:#ececec",
    },
    PlainColour {
        classes: &[2],
        light: "fill:#555",
        dark: "fill:#b0b0b0",
    },
    PlainColour {
        classes: &[1, 5, 6],
        light: "stroke:#1a1a1a",
        dark: "stroke:#ececec",
    },
    PlainColour {
        classes: &[3],
        light: "stroke:#e0e0e0",
        dark: "stroke:#3a3a3a",
    },
    PlainColour {
        classes: &[4],
        light: "stroke:#fff;stroke-width:4px;stroke-linejoin:round;paint-order:stroke",
        dark: "stroke:#121212",
    },
    PlainColour {
        classes: &[7],
        light: "stroke:#666;stroke-dasharray:6 4",
        dark: "stroke:#aaa",
    },
    PlainColour {
        classes: &[8],
        light: "stroke:#888",
        dark: "stroke:#999",
    },
];

/// The scope of a themed chart's dark rules under a dark system scheme:
/// any page or chart root but one whose `data-theme` is light.
const THEME_SYSTEM_DARK: &str =
    ":is(:root:not([data-theme=light]) .ebc,:root.ebc:not([data-theme=light])) ";
/// The scope of a themed chart's dark rules whatever the system scheme:
/// a page or chart root whose `data-theme` is dark.
const THEME_DARK: &str = ":is(:root[data-theme=dark] .ebc,:root.ebc[data-theme=dark]) ";
