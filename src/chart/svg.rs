//! The published SVG, written in one pass. [`Canvas`] is the plotters
//! drawing backend the charts draw on: it writes each element as it is
//! drawn, with sentinel colours turned into classes and without attributes
//! that restate SVG's defaults (or the font, which the style sets once).
//! [`finish`] then wraps the body in a root with a `viewBox` but no fixed
//! size, `<title>` and `<desc>` first, and one `<style>` for the classes
//! used.

use std::fmt::Write as _;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use super::style::{self, Class, Classes, SENTINEL};

pub use crate::fmt::xml_escape;
pub(crate) use crate::fmt::{push_int, push_xml_escaped as push_escaped};

/// A chart being drawn: the body of the document and the classes it uses.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    body: String,
    used: Classes,
    size: (u32, u32),
}

impl Doc {
    /// An empty document of `size` pixels, with room for `capacity` bytes.
    pub(crate) fn new(size: (u32, u32), capacity: usize) -> Self {
        Doc {
            body: String::with_capacity(capacity),
            used: Classes::default(),
            size,
        }
    }
}

/// The plotters backend writing into a [`Doc`] (which cannot fail).
pub(crate) struct Canvas<'a> {
    doc: &'a mut Doc,
    /// Up to two classes of the element being written, in attribute order.
    classes: [Option<Class>; 2],
}

impl<'a> Canvas<'a> {
    pub(crate) fn new(doc: &'a mut Doc) -> Self {
        Canvas {
            doc,
            classes: [None; 2],
        }
    }
}

type Drawn = Result<(), DrawingErrorKind<std::io::Error>>;

impl Canvas<'_> {
    fn out(&mut self) -> &mut String {
        &mut self.doc.body
    }

    /// Writes `<tag`, then the attributes by `attrs`, which ends the
    /// element; nothing when `color` is invisible.
    #[allow(
        clippy::unnecessary_wraps,
        reason = "what every drawing method returns"
    )]
    fn element(&mut self, tag: &str, color: BackendColor, attrs: impl FnOnce(&mut Self)) -> Drawn {
        if color.alpha != 0.0 {
            self.classes = [None; 2];
            self.out().push_str(tag);
            attrs(self);
        }
        Ok(())
    }

    fn int_attrs(&mut self, attrs: &[(&str, i32)]) {
        let out = self.out();
        for (key, v) in attrs {
            out.push(' ');
            out.push_str(key);
            out.push_str("=\"");
            push_int(out, i64::from(*v));
            out.push('"');
        }
    }

    fn stroke_width(&mut self, w: u32) {
        if w != 1 {
            self.int_attrs(&[("stroke-width", i32::try_from(w).unwrap_or(i32::MAX))]);
        }
    }

    /// The opacity, ` fill="none"` for an `outline`, then a `fill` (or
    /// `stroke`) colour: a sentinel becomes a class, any other colour is
    /// written out.
    fn paint(&mut self, color: BackendColor, fill: bool, outline: bool) {
        if color.alpha != 1.0 {
            let _ = write!(self.out(), " opacity=\"{}\"", color.alpha);
        }
        if outline {
            self.out().push_str(" fill=\"none\"");
        }
        let (r, g, b) = color.rgb;
        match style::class_of(g, b, fill).filter(|_| r == SENTINEL) {
            Some(class) => match self.classes {
                [None, _] => self.classes[0] = Some(class),
                [Some(first), None] if first != class => self.classes[1] = Some(class),
                _ => {}
            },
            None => {
                let key = if fill { "fill" } else { "stroke" };
                let _ = write!(self.out(), " {key}=\"#{r:02X}{g:02X}{b:02X}\"");
            }
        }
    }

    /// Writes the class attribute and the end of the tag.
    fn close(&mut self, end: &str) {
        let doc = &mut *self.doc;
        for (k, c) in self.classes.iter().flatten().enumerate() {
            doc.body.push_str(if k == 0 { " class=\"" } else { " " });
            c.push_name(&mut doc.body);
            doc.used.insert(*c);
        }
        if self.classes[0].is_some() {
            doc.body.push('"');
        }
        doc.body.push_str(end);
    }

    /// A `<polyline>` (stroked) or `<polygon>` (`filled`) through `points`,
    /// opened by `open`; nothing when it is invisible or has under two
    /// points.
    fn poly<S: BackendStyle>(
        &mut self,
        open: &str,
        points: impl IntoIterator<Item = BackendCoord>,
        style: &S,
        filled: bool,
    ) -> Drawn {
        let start = self.out().len();
        self.element(open, style.color(), |s| {
            s.paint(style.color(), filled, false);
            if !filled {
                s.stroke_width(style.stroke_width());
            }
            let out = s.out();
            out.push_str(" points=\"");
            let mut n = 0;
            for (x, y) in points {
                if n > 0 {
                    out.push(' ');
                }
                push_int(out, i64::from(x));
                out.push(',');
                push_int(out, i64::from(y));
                n += 1;
            }
            out.push('"');
            if n < 2 {
                // A line needs two points.
                out.truncate(start);
            } else {
                s.close("/>\n");
            }
        })
    }
}

impl DrawingBackend for Canvas<'_> {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        self.doc.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        Ok(())
    }

    fn draw_pixel(&mut self, (x, y): BackendCoord, color: BackendColor) -> Drawn {
        self.draw_rect((x, y), (x + 1, y + 1), &color, true)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        self.element("<line", style.color(), |s| {
            s.paint(style.color(), false, false);
            s.stroke_width(style.stroke_width());
            s.int_attrs(&[("x1", from.0), ("y1", from.1), ("x2", to.0), ("y2", to.1)]);
            s.close("/>\n");
        })
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        (x, y): BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let (w, h) = (bottom_right.0 - x, bottom_right.1 - y);
        // A zero-size rectangle draws nothing.
        if w == 0 || h == 0 {
            return Ok(());
        }
        self.element("<rect", style.color(), |s| {
            s.int_attrs(&[("x", x), ("y", y), ("width", w), ("height", h)]);
            s.paint(style.color(), fill, !fill);
            s.close("/>\n");
        })
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.poly("<polyline fill=\"none\"", path, style, false)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.poly("<polygon", vert, style, true)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        (x, y): BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.element("<circle", style.color(), |s| {
            let r = i32::try_from(radius).unwrap_or(i32::MAX);
            s.int_attrs(&[("cx", x), ("cy", y), ("r", r)]);
            s.paint(style.color(), fill, !fill);
            s.stroke_width(style.stroke_width());
            s.close("/>\n");
        })
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        (x, y): BackendCoord,
    ) -> Drawn {
        if text.trim().is_empty() {
            return Ok(());
        }
        self.element("<text", style.color(), |s| {
            s.int_attrs(&[("x", x), ("y", y)]);
            let anchor = style.anchor();
            s.out().push_str(match anchor.v_pos {
                VPos::Top => " dy=\"0.76em\"",
                VPos::Center => " dy=\"0.5ex\"",
                VPos::Bottom => " dy=\"-0.5ex\"",
            });
            s.out().push_str(match anchor.h_pos {
                HPos::Left => "",
                HPos::Right => " text-anchor=\"end\"",
                HPos::Center => " text-anchor=\"middle\"",
            });
            // plotters asks for 1.24 times the size it draws; the charts'
            // sizes are whole pixels.
            s.out().push_str(" font-size=\"");
            push_int(s.out(), (style.size() / 1.24).round() as i64);
            s.out().push('"');
            s.paint(style.color(), true, false);
            match style.style() {
                FontStyle::Normal => {}
                FontStyle::Bold => s.out().push_str(" font-weight=\"bold\""),
                other => _ = write!(s.out(), " font-style=\"{}\"", other.as_str()),
            }
            let degrees = match style.transform() {
                FontTransform::None => 0,
                FontTransform::Rotate90 => 90,
                FontTransform::Rotate180 => 180,
                FontTransform::Rotate270 => 270,
            };
            if degrees != 0 {
                let _ = write!(s.out(), " transform=\"rotate({degrees}, {x}, {y})\"");
            }
            s.close(">");
            push_escaped(s.out(), text);
            s.out().push_str("</text>\n");
        })
    }
}

/// Markup written as it is into the document where it is drawn: the
/// opening or closing tag of a group (`<g class="m3">`), so a page can show
/// or hide one series with CSS. Made by the program, never from data.
pub(crate) struct Markup<'a>(pub &'a str);

impl<'b> plotters::element::PointCollection<'b, BackendCoord> for &'b Markup<'_> {
    type Point = &'b BackendCoord;
    type IntoIter = std::iter::Empty<&'b BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }
}

impl plotters::element::Drawable<Canvas<'_>> for Markup<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        _: I,
        backend: &mut Canvas<'_>,
        _: (u32, u32),
    ) -> Drawn {
        backend.out().push_str(self.0);
        Ok(())
    }
}

/// The start of the root of `doc`, up to its `viewBox`'s closing quote,
/// with room for `more` bytes besides the body.
fn open_root(doc: &Doc, more: usize) -> String {
    let mut out = String::with_capacity(doc.body.len() + more);
    out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
    push_int(&mut out, i64::from(doc.size.0));
    out.push(' ');
    push_int(&mut out, i64::from(doc.size.1));
    out
}

/// `doc` as a small inline SVG at its own size (a legend swatch), hidden
/// from assistive technology; a chart's `<style>` on the same page colours it.
pub(crate) fn bare(doc: &Doc) -> String {
    let mut out = open_root(doc, 120);
    out.push_str("\" width=\"");
    push_int(&mut out, i64::from(doc.size.0));
    out.push_str("\" height=\"");
    push_int(&mut out, i64::from(doc.size.1));
    out.push_str("\" class=\"ebc key\" aria-hidden=\"true\" focusable=\"false\">");
    out.push_str(doc.body.trim_end());
    out.push_str("</svg>");
    out
}

/// The finished document: see the module comment; its role is `img`, or
/// `graphics-document` when its points are links. A chart placed inline
/// or in an `<iframe>` is `themed`: its colours follow the page's theme
/// switch (see [`style::css`]), and it has the program's own CSS after
/// the classes'.
pub(crate) fn finish(doc: &Doc, title: &str, desc: &str, themed: Option<&str>) -> String {
    let mut css = style::css(doc.used, themed.is_some());
    css.insert_str(
        css.find("@media").unwrap_or(css.len()),
        themed.unwrap_or(""),
    );
    let mut out = open_root(doc, css.len() + title.len() + desc.len() + 160);
    // A chart whose points are links is a document of graphics: an `img`
    // would hide them, and axe counts links in an image as nested controls.
    let role = if doc.body.contains("<a ") {
        "graphics-document"
    } else {
        "img"
    };
    out.push_str("\" class=\"ebc\" role=\"");
    out.push_str(role);
    out.push_str("\">\n<title>");
    push_escaped(&mut out, title);
    out.push_str("</title>\n<desc>");
    push_escaped(&mut out, desc);
    out.push_str("</desc>\n<style>");
    out.push_str(&css);
    out.push_str("</style>\n");
    out.push_str(&doc.body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use plotters::prelude::{Circle, IntoDrawingArea, IntoFont, PathElement, RED, Rectangle};
    use plotters::style::Color as _;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    use super::{Canvas, Doc, finish, push_int, xml_escape};
    use crate::chart::style::Role;

    #[test]
    fn sentinel_colours_become_classes_and_defaults_go() {
        let mut doc = Doc::new((10, 20), 0);
        {
            let root = Canvas::new(&mut doc).into_drawing_area();
            root.draw(&Circle::new((1, 2), 3, Role::Point(2).color().filled()))
                .unwrap();
            let style = ("sans-serif", 12.9032 * 1.24)
                .into_font()
                .color(&Role::Ink.color())
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw_text("a < b", &style, (1, 2)).unwrap();
            root.draw_text("  ", &style, (1, 2)).unwrap();
            root.draw(&Rectangle::new([(1, 1), (1, 5)], RED.filled()))
                .unwrap();
            root.draw(&PathElement::new(vec![(1, 1)], RED)).unwrap();
            root.draw(&PathElement::new(vec![(1, 1), (2, 3)], RED.stroke_width(2)))
                .unwrap();
        }
        let out = finish(&doc, "T <x>", "D & d", None);
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
        assert_eq!(out.matches("<text").count(), 1, "no empty text: {out}");
        assert!(!out.contains("<rect"), "no zero-width rect: {out}");
        assert!(
            out.contains(
                "<polyline fill=\"none\" stroke=\"#FF0000\" stroke-width=\"2\" points=\"1,1 2,3\"/>"
            ),
            "{out}"
        );
        assert_eq!(out.matches("<polyline").count(), 1, "{out}");
        assert!(out.contains("<title>T &lt;x&gt;</title>\n<desc>D &amp; d</desc>"));
        assert!(out.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 20\" class=\"ebc\""
        ));
    }

    #[test]
    fn numbers_are_written_plainly() {
        let mut s = String::new();
        for v in [0, 7, -3, 10, 99, 100, 999, -1000, 1234, i64::MIN] {
            push_int(&mut s, v);
            s.push(' ');
        }
        assert_eq!(s, format!("0 7 -3 10 99 100 999 -1000 1234 {} ", i64::MIN));
        assert_eq!(xml_escape("a<b>&\"'é"), "a&lt;b&gt;&amp;&quot;&apos;é");
    }
}
