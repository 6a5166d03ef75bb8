//! Turns plotters' SVG into the published file: sentinel colours become
//! classes, defaults and fonts move into one `<style>`, and the root gets a
//! `viewBox` without a fixed size plus `<title>` and `<desc>`.

use std::collections::BTreeSet;

use super::style::{self, SENTINEL};

/// Escapes text for XML content and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// One element of plotters' output: tag name and attributes in order.
struct Element<'a> {
    tag: &'a str,
    attrs: Vec<(&'a str, &'a str)>,
    self_closing: bool,
}

/// Parses one line of plotters' output, `<tag k="v" …/>` or `<tag …>`.
/// plotters escapes `"` inside values, so the next `"` ends a value.
fn parse_element(line: &str) -> Option<Element<'_>> {
    let body = line.strip_prefix('<')?;
    let (body, self_closing) = match body.strip_suffix("/>") {
        Some(b) => (b, true),
        None => (body.strip_suffix('>')?, false),
    };
    let (tag, mut rest) = body.split_once(' ').unwrap_or((body, ""));
    let mut attrs = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let (key, after) = rest.split_once("=\"")?;
        let (value, after) = after.split_once('"')?;
        attrs.push((key.trim(), value));
        rest = after;
    }
    Some(Element {
        tag,
        attrs,
        self_closing,
    })
}

/// The class of a sentinel colour such as `#EB0302`.
fn sentinel_class(value: &str, fill: bool) -> Option<String> {
    let hex = value.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    if byte(0)? != SENTINEL {
        return None;
    }
    style::class_of(byte(2)?, byte(4)?, fill)
}

/// Whether an attribute only restates SVG's default (or the font, set by
/// the style).
fn is_default(key: &str, value: &str) -> bool {
    matches!(
        (key, value),
        ("opacity" | "stroke-width", "1")
            | ("stroke", "none")
            | ("text-anchor", "start")
            | ("font-family", _)
    )
}

/// Rewrites one element, collecting the classes it uses.
fn rewrite(el: &Element<'_>, used: &mut BTreeSet<String>) -> String {
    let mut out = format!("<{}", el.tag);
    let mut classes: Vec<String> = Vec::new();
    for &(key, value) in &el.attrs {
        match key {
            // Defaults, and the font, which the style sets once.
            _ if is_default(key, value) => {}
            "fill" | "stroke" => match sentinel_class(value, key == "fill") {
                Some(c) => {
                    if !classes.contains(&c) {
                        classes.push(c);
                    }
                }
                None => out.push_str(&format!(" {key}=\"{value}\"")),
            },
            "font-size" => {
                let size: f64 = value.parse().unwrap_or(12.0);
                out.push_str(&format!(" font-size=\"{}\"", crate::fmt::fixed(size, 0)));
            }
            "points" => out.push_str(&format!(" points=\"{}\"", value.trim_end())),
            _ => out.push_str(&format!(" {key}=\"{value}\"")),
        }
    }
    if !classes.is_empty() {
        out.push_str(&format!(" class=\"{}\"", classes.join(" ")));
        used.extend(classes);
    }
    out.push_str(if el.self_closing { "/>" } else { ">" });
    out
}

/// Whether an element draws nothing: a zero-size rectangle or empty text.
fn is_invisible(el: &Element<'_>) -> bool {
    let attr = |k: &str| el.attrs.iter().find(|(key, _)| *key == k).map(|a| a.1);
    match el.tag {
        "rect" => attr("width") == Some("0") || attr("height") == Some("0"),
        "polyline" | "polygon" => attr("points").is_none_or(|p| p.split_whitespace().count() < 2),
        _ => false,
    }
}

/// Finishes a plotters document: see the module comment.
pub(crate) fn finish(raw: &str, title: &str, desc: &str) -> String {
    let mut lines = raw.lines();
    let Some(root) = lines.next().and_then(parse_element) else {
        return raw.to_owned();
    };
    let view_box = root
        .attrs
        .iter()
        .find(|(k, _)| *k == "viewBox")
        .map_or("0 0 100 100", |a| a.1);
    let mut used = BTreeSet::new();
    let mut body = String::with_capacity(raw.len());
    while let Some(line) = lines.next() {
        if line == "</svg>" {
            break;
        }
        let Some(el) = parse_element(line) else {
            continue;
        };
        if el.tag == "text" {
            // plotters writes the (escaped) text on its own line, then
            // `</text>`.
            let text = lines.next().unwrap_or_default();
            let _close = lines.next();
            if text.trim().is_empty() {
                continue;
            }
            body.push_str(&rewrite(&el, &mut used));
            body.push_str(text);
            body.push_str("</text>\n");
        } else if !is_invisible(&el) {
            body.push_str(&rewrite(&el, &mut used));
            body.push('\n');
        }
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{view_box}\" class=\"ebc\" role=\"img\">\n<title>{}</title>\n<desc>{}</desc>\n<style>{}</style>\n{body}</svg>\n",
        xml_escape(title),
        xml_escape(desc),
        style::css(&used),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinel_colours_become_classes_and_defaults_go() {
        let raw = "<svg width=\"10\" height=\"20\" viewBox=\"0 0 10 20\" xmlns=\"http://www.w3.org/2000/svg\">\n<circle cx=\"1\" cy=\"2\" r=\"3\" opacity=\"1\" fill=\"#EB0402\" stroke=\"none\" stroke-width=\"1\"/>\n<text x=\"1\" y=\"2\" dy=\"0.5ex\" text-anchor=\"start\" font-family=\"sans-serif\" font-size=\"12.9032\" opacity=\"1\" fill=\"#EB0100\">\na &lt; b\n</text>\n</svg>\n";
        let out = finish(raw, "T <x>", "D & d");
        assert!(
            out.contains("<circle cx=\"1\" cy=\"2\" r=\"3\" class=\"p2\"/>"),
            "{out}"
        );
        assert!(
            out.contains(
                "<text x=\"1\" y=\"2\" dy=\"0.5ex\" font-size=\"13\" class=\"t\">a &lt; b</text>"
            ),
            "{out}"
        );
        assert!(out.contains("<title>T &lt;x&gt;</title>\n<desc>D &amp; d</desc>"));
        assert!(out.contains("viewBox=\"0 0 10 20\""));
        assert!(!out.contains("width=\"10\""));
    }
}
