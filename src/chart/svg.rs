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

/// Appends `v` rounded to a whole number, as `fmt::fixed(v, 0)` writes it.
pub(crate) fn push_rounded(out: &mut String, v: f64) {
    let r = v.round();
    // Away from a tie, rounding the printed decimal gives the same integer.
    if (v - r).abs() < 0.49 && r.abs() < 1e15 {
        push_int(out, r as i64);
    } else {
        out.push_str(&crate::fmt::fixed(v, 0));
    }
}

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
        Doc { body: String::with_capacity(capacity), used: Classes::default(), size }
    }
}

/// The plotters backend writing into a [`Doc`] (which cannot fail).
pub(crate) struct Canvas<'a> {
    doc: &'a mut Doc,
}

impl<'a> Canvas<'a> {
    pub(crate) fn new(doc: &'a mut Doc) -> Self {
        Canvas { doc }
    }
}

/// Up to two classes of the element being written, in attribute order.
#[derive(Default)]
struct Pending {
    classes: [Option<Class>; 2],
}

impl Pending {
    fn add(&mut self, c: Class) {
        match self.classes {
            [None, _] => self.classes[0] = Some(c),
            [Some(a), None] if a != c => self.classes[1] = Some(c),
            _ => {}
        }
    }
}

type Drawn = Result<(), DrawingErrorKind<std::io::Error>>;

impl Canvas<'_> {
    fn out(&mut self) -> &mut String {
        &mut self.doc.body
    }

    fn int_attr(&mut self, key: &str, v: i32) {
        let out = self.out();
        out.push(' ');
        out.push_str(key);
        out.push_str("=\"");
        push_int(out, i64::from(v));
        out.push('"');
    }

    fn opacity(&mut self, c: BackendColor) {
        if c.alpha != 1.0 {
            let _ = write!(self.out(), " opacity=\"{}\"", c.alpha);
        }
    }

    fn stroke_width(&mut self, w: u32) {
        if w != 1 {
            self.int_attr("stroke-width", i32::try_from(w).unwrap_or(i32::MAX));
        }
    }

    /// A `fill` (or `stroke`) colour: a sentinel becomes a class, any other
    /// colour is written out.
    fn paint(&mut self, c: BackendColor, fill: bool, pending: &mut Pending) {
        let (r, g, b) = c.rgb;
        if r == SENTINEL {
            if let Some(class) = style::class_of(g, b, fill) {
                pending.add(class);
                return;
            }
        }
        let key = if fill { "fill" } else { "stroke" };
        let _ = write!(self.out(), " {key}=\"#{r:02X}{g:02X}{b:02X}\"");
    }

    /// A filled shape's fill, or an outline's stroke without a fill.
    fn fill_or_outline(&mut self, c: BackendColor, fill: bool, pending: &mut Pending) {
        if !fill {
            self.out().push_str(" fill=\"none\"");
        }
        self.paint(c, fill, pending);
    }

    /// Writes the class attribute and the end of the tag.
    fn close(&mut self, pending: &Pending, end: &str) {
        let doc = &mut *self.doc;
        for (k, c) in pending.classes.iter().flatten().enumerate() {
            doc.body.push_str(if k == 0 { " class=\"" } else { " " });
            c.push_name(&mut doc.body);
            doc.used.insert(*c);
        }
        if pending.classes[0].is_some() {
            doc.body.push('"');
        }
        doc.body.push_str(end);
    }

    /// Writes ` points="x,y x,y …"`; returns how many points there were.
    fn points(&mut self, path: impl IntoIterator<Item = BackendCoord>) -> usize {
        let out = self.out();
        out.push_str(" points=\"");
        let mut n = 0;
        for (x, y) in path {
            if n > 0 {
                out.push(' ');
            }
            push_int(out, i64::from(x));
            out.push(',');
            push_int(out, i64::from(y));
            n += 1;
        }
        out.push('"');
        n
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
    ) {
        let color = style.color();
        if color.alpha == 0.0 {
            return;
        }
        let start = self.out().len();
        let mut pending = Pending::default();
        self.out().push_str(open);
        self.opacity(color);
        self.paint(color, filled, &mut pending);
        if !filled {
            self.stroke_width(style.stroke_width());
        }
        if self.points(points) < 2 {
            // A line needs two points.
            self.out().truncate(start);
            return;
        }
        self.close(&pending, "/>\n");
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
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let mut pending = Pending::default();
        self.out().push_str("<line");
        self.opacity(color);
        self.paint(color, false, &mut pending);
        self.stroke_width(style.stroke_width());
        self.int_attr("x1", from.0);
        self.int_attr("y1", from.1);
        self.int_attr("x2", to.0);
        self.int_attr("y2", to.1);
        self.close(&pending, "/>\n");
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let color = style.color();
        let (w, h) = (bottom_right.0 - upper_left.0, bottom_right.1 - upper_left.1);
        // A zero-size rectangle draws nothing.
        if color.alpha == 0.0 || w == 0 || h == 0 {
            return Ok(());
        }
        let mut pending = Pending::default();
        self.out().push_str("<rect");
        self.int_attr("x", upper_left.0);
        self.int_attr("y", upper_left.1);
        self.int_attr("width", w);
        self.int_attr("height", h);
        self.opacity(color);
        self.fill_or_outline(color, fill, &mut pending);
        self.close(&pending, "/>\n");
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.poly("<polyline fill=\"none\"", path, style, false);
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.poly("<polygon", vert, style, true);
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let mut pending = Pending::default();
        self.out().push_str("<circle");
        self.int_attr("cx", center.0);
        self.int_attr("cy", center.1);
        self.int_attr("r", i32::try_from(radius).unwrap_or(i32::MAX));
        self.opacity(color);
        self.fill_or_outline(color, fill, &mut pending);
        self.stroke_width(style.stroke_width());
        self.close(&pending, "/>\n");
        Ok(())
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        (x, y): BackendCoord,
    ) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 || text.trim().is_empty() {
            return Ok(());
        }
        let mut pending = Pending::default();
        self.out().push_str("<text");
        self.int_attr("x", x);
        self.int_attr("y", y);
        let anchor = style.anchor();
        self.out().push_str(match anchor.v_pos {
            VPos::Top => " dy=\"0.76em\"",
            VPos::Center => " dy=\"0.5ex\"",
            VPos::Bottom => " dy=\"-0.5ex\"",
        });
        self.out().push_str(match anchor.h_pos {
            HPos::Left => "",
            HPos::Right => " text-anchor=\"end\"",
            HPos::Center => " text-anchor=\"middle\"",
        });
        // plotters asks for 1.24 times the size it draws.
        self.out().push_str(" font-size=\"");
        push_rounded(self.out(), style.size() / 1.24);
        self.out().push('"');
        self.opacity(color);
        self.paint(color, true, &mut pending);
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => self.out().push_str(" font-weight=\"bold\""),
            other => _ = write!(self.out(), " font-style=\"{}\"", other.as_str()),
        }
        let degrees = match style.transform() {
            FontTransform::None => 0,
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
        };
        if degrees != 0 {
            let _ = write!(self.out(), " transform=\"rotate({degrees}, {x}, {y})\"");
        }
        self.close(&pending, ">");
        push_escaped(self.out(), text);
        self.out().push_str("</text>\n");
        Ok(())
    }
}

/// Markup written as it is into the document where it is drawn: the
/// opening or closing tag of a group (`<g class="m3">`), so a page can show
/// or hide one series with CSS. Made by the program, never from data.
pub(crate) struct Markup(pub String);

impl<'b> plotters::element::PointCollection<'b, BackendCoord> for &'b Markup {
    type Point = &'b BackendCoord;
    type IntoIter = std::iter::Empty<&'b BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }
}

impl plotters::element::Drawable<Canvas<'_>> for Markup {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        _: I,
        backend: &mut Canvas<'_>,
        _: (u32, u32),
    ) -> Drawn {
        backend.out().push_str(&self.0);
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

/// The finished document: see the module comment. A chart placed inline
/// or in an `<iframe>` is `themed`: its colours follow the page's theme
/// switch (see [`style::css`]), and it has the program's own CSS after
/// the classes'.
pub(crate) fn finish(doc: &Doc, title: &str, desc: &str, themed: Option<&str>) -> String {
    let mut css = style::css(doc.used, themed.is_some());
    css.insert_str(css.find("@media").unwrap_or(css.len()), themed.unwrap_or(""));
    let mut out = open_root(doc, css.len() + title.len() + desc.len() + 160);
    out.push_str("\" class=\"ebc\" role=\"img\">\n<title>");
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

    use super::{Canvas, Doc, finish, push_int, push_rounded, xml_escape};
    use crate::chart::style::Role;

    #[test]
    fn sentinel_colours_become_classes_and_defaults_go() {
        let mut doc = Doc::new((10, 20), 0);
        {
            let root = Canvas::new(&mut doc).into_drawing_area();
            root.draw(&Circle::new((1, 2), 3, Role::Point(2).color().filled())).unwrap();
            let style = ("sans-serif", 12.9032 * 1.24)
                .into_font()
                .color(&Role::Ink.color())
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw_text("a < b", &style, (1, 2)).unwrap();
            root.draw_text("  ", &style, (1, 2)).unwrap();
            root.draw(&Rectangle::new([(1, 1), (1, 5)], RED.filled())).unwrap();
            root.draw(&PathElement::new(vec![(1, 1)], RED)).unwrap();
            root.draw(&PathElement::new(vec![(1, 1), (2, 3)], RED.stroke_width(2))).unwrap();
        }
        let out = finish(&doc, "T <x>", "D & d", None);
        assert!(out.contains("<circle cx=\"1\" cy=\"2\" r=\"3\" class=\"p2\"/>"), "{out}");
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
        for v in [12.9999, 13.0001, -0.2, 2.5, 1e20] {
            let mut s = String::new();
            push_rounded(&mut s, v);
            assert_eq!(s, crate::fmt::fixed(v, 0), "{v}");
        }
        assert_eq!(xml_escape("a<b>&\"'é"), "a&lt;b&gt;&amp;&quot;&apos;é");
    }
}
