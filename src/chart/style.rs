//! The classes of a chart's elements, and the `<style>` that colours
//! them.
//!
//! plotters only knows RGB colours, so every element is drawn with a
//! *sentinel* colour `#EBffss`: `EB` marks it as ours, `ff` and `ss` are
//! its [`Role`]'s class as a fill and as a stroke. [`crate::chart::svg`] swaps each sentinel for a
//! class, and the `<style>` built here keeps the rules of
//! `templates/chart.css` (colours, dashes, a second palette for dark mode)
//! for the classes the chart uses.

use std::sync::LazyLock;

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
        let ix = |prefix: usize, i: usize| Class::indexed(prefix, (i % PALETTE_SIZE) as u8).0;
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

/// How many classes there are.
const CLASS_COUNT: usize = PLAIN.len() + INDEXED.len() * PALETTE_SIZE;

/// A class an element can carry, such as `t` or `s2`: a plain name, or a
/// prefix with a palette index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Class(u8);

impl Class {
    fn indexed(prefix: usize, idx: u8) -> Self {
        Class((PLAIN.len() + prefix * PALETTE_SIZE) as u8 + idx)
    }

    pub(crate) fn push_name(self, out: &mut String) {
        let i = usize::from(self.0);
        if i < PLAIN.len() {
            out.push_str(PLAIN[i]);
        } else {
            let k = i - PLAIN.len();
            out.push_str(INDEXED[k / PALETTE_SIZE]);
            out.push(char::from(b'0' + (k % PALETTE_SIZE) as u8));
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
    (usize::from(id) < CLASS_COUNT).then_some(Class(id))
}

/// The palette's size: seven colours (Okabe–Ito's, the last a neutral
/// grey), light and dark, and the series' dashes, in
/// `templates/chart.css`.
pub(crate) const PALETTE_SIZE: usize = 7;

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
    let n = PALETTE_SIZE;
    n + h as usize % (n * n - n)
}

/// The charts' stylesheet: every rule, one a line, in the order a
/// chart's `<style>` has them; the dark colours in its `@media` block.
const SHEET: &str = include_str!("../../templates/chart.css");

/// A rule of [`SHEET`].
struct Rule {
    /// The classes it styles; none for a rule every chart has.
    classes: Vec<Class>,
    /// Its declarations, between the braces; with no classes, the whole rule.
    text: &'static str,
}

/// [`SHEET`] read: its rules in light, its `@media` line and its dark rules.
struct Sheet {
    light: Vec<Rule>,
    media: &'static str,
    dark: Vec<Rule>,
}

static PARSED: LazyLock<Sheet> = LazyLock::new(|| parse(SHEET));

/// The rules of `sheet`; a line that is no rule (a comment, the `@media`
/// line and its closing brace) is none.
fn parse(sheet: &'static str) -> Sheet {
    let mut parsed = Sheet {
        light: Vec::new(),
        media: "",
        dark: Vec::new(),
    };
    let mut in_comment = false;
    for line in sheet.lines().map(str::trim) {
        if in_comment || line.starts_with("/*") {
            in_comment = !line.ends_with("*/");
        } else if line.starts_with("@media") {
            parsed.media = line;
        } else if let Some(rule) = rule(line) {
            if parsed.media.is_empty() {
                parsed.light.push(rule);
            } else {
                parsed.dark.push(rule);
            }
        }
    }
    parsed
}

/// A line's rule: `.ebc .g{…}` or `.ebc :is(.a,.b){…}` styles its classes,
/// any other `selector{…}` every chart.
fn rule(line: &'static str) -> Option<Rule> {
    let (selector, rest) = line.split_at(line.find('{')?);
    let names: Vec<&str> = match selector.strip_prefix(".ebc :is(") {
        Some(list) => list.strip_suffix(')')?.split(',').collect(),
        None => selector.strip_prefix(".ebc .").into_iter().collect(),
    };
    if names.is_empty() {
        return Some(Rule {
            classes: Vec::new(),
            text: line,
        });
    }
    let classes = names
        .iter()
        .map(|n| class_named(n.trim_start_matches('.')))
        .collect::<Option<Vec<Class>>>()?;
    let text = rest.strip_prefix('{')?.strip_suffix('}')?;
    Some(Rule { classes, text })
}

/// The class called `name`.
fn class_named(name: &str) -> Option<Class> {
    let mut buf = String::new();
    (0..CLASS_COUNT as u8).map(Class).find(|c| {
        buf.clear();
        c.push_name(&mut buf);
        buf == name
    })
}

/// The `<style>` for the classes used: light colours by default, dark ones
/// under `prefers-color-scheme: dark` ([`SHEET`]). Rules are scoped to
/// `.ebc`, the root class, so an SVG placed inline cannot restyle the page.
///
/// A chart shown as an `<img>` follows the page's theme switch by itself
/// (the browser gives an SVG image the `color-scheme` of its `<img>`, which
/// the page's `data-theme` sets). An inline chart, or one in an `<iframe>`,
/// is `themed`: its dark rules also follow a `data-theme` attribute, on the
/// page's root or on the chart's own.
pub(crate) fn css(used: Classes, themed: bool) -> String {
    let sheet = &*PARSED;
    let mut light = String::with_capacity(1536);
    let mut dark = String::with_capacity(768);
    for (out, rules) in [(&mut light, &sheet.light), (&mut dark, &sheet.dark)] {
        for r in rules {
            if r.classes.is_empty() {
                out.push_str(r.text);
            } else {
                css_rule(out, used, &r.classes, &[r.text]);
            }
        }
    }
    if !dark.is_empty() {
        light.push_str(sheet.media);
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

/// The scope of a themed chart's dark rules under a dark system scheme:
/// any page or chart root but one whose `data-theme` is light.
const THEME_SYSTEM_DARK: &str =
    ":is(:root:not([data-theme=light]) .ebc,:root.ebc:not([data-theme=light])) ";
/// The scope of a themed chart's dark rules whatever the system scheme:
/// a page or chart root whose `data-theme` is dark.
const THEME_DARK: &str = ":is(:root[data-theme=dark] .ebc,:root.ebc[data-theme=dark]) ";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule line of the stylesheet is read, none is dropped.
    #[test]
    fn every_rule_of_the_sheet_is_read() {
        let body = SHEET.split_once("*/").map_or(SHEET, |(_, rest)| rest);
        let rules = body
            .lines()
            .map(str::trim)
            .filter(|l| l.contains('{') && !l.starts_with("@media"))
            .count();
        let sheet = parse(SHEET);
        assert!(sheet.media.starts_with("@media"));
        assert_eq!(sheet.light.len() + sheet.dark.len(), rules);
        assert!(
            sheet
                .light
                .iter()
                .chain(&sheet.dark)
                .skip(1)
                .all(|r| !r.classes.is_empty())
        );
    }
}
