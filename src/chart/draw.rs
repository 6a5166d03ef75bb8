//! Drawing on a plotters SVG canvas: text, markers, lines, the header with
//! title and legend, and the frame of an x–y chart.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Axis, tick_label};
use super::layout::{Align, Placer, Rect, text_width, wrap};
use super::style::Role;
use super::svg::{Canvas, Doc, Markup};
use crate::columns::Words;

pub(crate) type Root<'a> = DrawingArea<Canvas<'a>, Shift>;
/// What drawing can fail with. Drawing into a `String` cannot fail, but
/// plotters' API is fallible.
pub type DrawError = DrawingAreaErrorKind<std::io::Error>;
/// What drawing returns.
pub(crate) type Draw = Result<(), DrawError>;

/// Width of every chart drawn for a phone, in SVG user units (the SVG
/// scales to its box).
pub(crate) const WIDTH: i32 = 400;
/// Width of a chart drawn for a wide screen, shown at its own size
/// (60rem) from a 64rem window up.
pub(crate) const WIDE: i32 = 960;
/// Narrowest legend column beside a wide chart's plot.
pub(crate) const LEGEND_COLUMN: i32 = 200;
/// Left and right margin of the header.
pub(crate) const PAD: i32 = 14;
/// Font sizes in pixels as drawn.
pub(crate) const TITLE_PX: f64 = 16.0;
pub(crate) const TEXT_PX: f64 = 13.0;
pub(crate) const DESC_PX: f64 = 14.0;
/// Radius of the ring around a best point.
pub(crate) const RING: i32 = 9;

/// A count as a pixel multiplier (counts here are small).
pub(crate) fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// plotters divides font sizes by 1.24; ask for that much more.
fn font(px: f64, bold: bool) -> FontDesc<'static> {
    let style = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    ("sans-serif", px * 1.24, style).into_font()
}

/// How a line of text is drawn: its size in pixels, its alignment on its
/// anchor, its colour's role and its weight.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextStyle {
    pub px: f64,
    pub align: Align,
    pub role: Role,
    pub bold: bool,
}

impl TextStyle {
    /// Text of the chart's size from its anchor on, in ink.
    pub(crate) const INK: Self = Self {
        px: TEXT_PX,
        align: Align::Start,
        role: Role::Ink,
        bold: false,
    };

    /// A label of a point or line, of the chart's size, aligned `align`.
    pub(crate) const fn label(align: Align) -> Self {
        Self {
            px: TEXT_PX,
            align,
            role: Role::Label,
            bold: false,
        }
    }
}

/// Draws one line of text, vertically centred on `at`.
pub(crate) fn text(root: &Root<'_>, s: &str, at: (i32, i32), style: TextStyle) -> Draw {
    let TextStyle {
        px,
        align,
        role,
        bold,
    } = style;
    let h = match align {
        Align::Start => HPos::Left,
        Align::Middle => HPos::Center,
        Align::End => HPos::Right,
    };
    let style = font(px, bold)
        .color(&role.color())
        .pos(Pos::new(h, VPos::Center));
    root.draw_text(s, &style, at)
}

/// A line through `points`; nothing under two points ([`super::svg`] drops it).
pub(crate) fn line(root: &Root<'_>, points: &[(i32, i32)], role: Role, width: u32) -> Draw {
    root.draw(&PathElement::new(
        points.to_vec(),
        role.color().stroke_width(width),
    ))
}

/// A marker's shape. Colours repeat every
/// [`PALETTE_SIZE`](super::style::PALETTE_SIZE) series; shapes then shift by
/// one, so up to 49 series no two share both colour and shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Plus,
    TriangleRight,
}

impl Shape {
    /// Every shape, in the order series take them.
    const ALL: [Shape; 7] = [
        Shape::Circle,
        Shape::Square,
        Shape::TriangleUp,
        Shape::Diamond,
        Shape::TriangleDown,
        Shape::Plus,
        Shape::TriangleRight,
    ];

    /// The shape of series `idx`, the same for any colour.
    fn of(idx: usize) -> Self {
        let n = Self::ALL.len();
        Self::ALL[(idx + idx / n) % n]
    }
}

/// Opacity of a faded marker: a configuration over the deadline.
pub(crate) const FADED: f64 = 0.3;

/// Draws the marker of series `idx` at `c`: filled, or hollow (an outline
/// two pixels wide); at [`FADED`] opacity when `faded`.
pub(crate) fn marker(
    root: &Root<'_>,
    c: (i32, i32),
    idx: usize,
    role: Role,
    filled: bool,
    faded: bool,
) -> Draw {
    let color = role.color().mix(if faded { FADED } else { 1.0 });
    let style = if filled {
        color.filled()
    } else {
        color.stroke_width(2)
    };
    let (x, y) = c;
    // The polygons' outlines around (0, 0), each symmetric in its bounding
    // box, so the box's centre is the data point.
    let outline: &[(i32, i32)] = match Shape::of(idx) {
        Shape::Circle => return root.draw(&Circle::new(c, 5, style)),
        Shape::Square => {
            return root.draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], style));
        }
        Shape::TriangleUp => &[(0, -5), (5, 5), (-5, 5)],
        Shape::Diamond => &[(0, -6), (6, 0), (0, 6), (-6, 0)],
        Shape::TriangleDown => &[(0, 5), (5, -5), (-5, -5)],
        Shape::Plus => &[
            (-2, -5),
            (2, -5),
            (2, -2),
            (5, -2),
            (5, 2),
            (2, 2),
            (2, 5),
            (-2, 5),
            (-2, 2),
            (-5, 2),
            (-5, -2),
            (-2, -2),
        ],
        Shape::TriangleRight => &[(5, 0), (-5, -5), (-5, 5)],
    };
    let mut pts: Vec<_> = outline.iter().map(|(dx, dy)| (x + dx, y + dy)).collect();
    if filled {
        root.draw(&Polygon::new(pts, style))
    } else {
        pts.push(pts[0]);
        root.draw(&PathElement::new(pts, style))
    }
}

/// Draws the ring that marks a best point.
pub(crate) fn ring(root: &Root<'_>, c: (i32, i32)) -> Draw {
    root.draw(&Circle::new(c, RING, Role::Best.color().stroke_width(2)))
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    /// A series: its marker, after its line sample when `line`, hollow
    /// when `open` (another source's, [`super::Whose`]).
    Series {
        idx: usize,
        label: String,
        line: bool,
        open: bool,
    },
    /// A bar colour.
    Bar(usize, String),
    /// Open markers are repeated runs.
    Repeat,
    /// The ring around best points.
    Best,
    /// The Pareto frontier line.
    Frontier,
    /// p90 dot and p99 cap above the median.
    Spread,
    /// Faded markers are over the deadline, with the deadline's text.
    Over(String),
    /// A panel's name, bold, without a sample.
    Name(String),
    /// A source of measurements: how its bars (`bar`) or markers are
    /// drawn, filled or `open`, and its name.
    Source {
        bar: bool,
        open: bool,
        name: String,
        /// Its key: the entry's group gets the class `from-<key>`, so a
        /// page showing one source alone hides the others' entries.
        key: String,
    },
}

impl Key {
    fn label(&self) -> &str {
        match self {
            Key::Series { label: l, .. }
            | Key::Bar(_, l)
            | Key::Over(l)
            | Key::Name(l)
            | Key::Source { name: l, .. } => l,
            Key::Repeat => "repeated run (open marker)",
            Key::Best => "best: lowest energy within deadline, per GPU",
            Key::Frontier => "Pareto frontier",
            Key::Spread => "p90 (dot) and p99 (bar) ITL",
        }
    }

    /// Room for the sample before the label.
    fn sample_width(&self) -> i32 {
        if matches!(self, Key::Name(_)) { 0 } else { 30 }
    }

    fn draw_sample(&self, root: &Root<'_>, (x, y): (i32, i32)) -> Draw {
        let mid = (x + 12, y);
        let bar = |role: Role| {
            root.draw(&Rectangle::new(
                [(x + 2, y - 6), (x + 22, y + 6)],
                role.color().filled(),
            ))
        };
        match self {
            &Key::Series {
                idx,
                line: with_line,
                open,
                ..
            } => {
                if with_line {
                    line(root, &[(x, y), (x + 24, y)], Role::Line(idx), 2)?;
                }
                marker(root, mid, idx, Role::Swatch(idx), !open, false)
            }
            Key::Bar(i, _) => {
                bar(Role::Swatch(*i))?;
                marker(root, mid, *i, Role::Ink, true, false)
            }
            Key::Repeat => root.draw(&Circle::new(mid, 5, Role::Ink.color().stroke_width(2))),
            Key::Best => ring(root, mid),
            Key::Over(_) => marker(root, mid, 0, Role::Ink, true, true),
            Key::Name(_) => Ok(()),
            Key::Source {
                bar: true,
                open: true,
                ..
            } => root.draw(&Rectangle::new(
                [(x + 3, y - 5), (x + 21, y + 5)],
                Role::Ink.color().stroke_width(2),
            )),
            Key::Source {
                bar: true,
                open: false,
                ..
            } => bar(Role::Ink),
            Key::Source {
                bar: false, open, ..
            } => marker(root, mid, 0, Role::Ink, !*open, false),
            Key::Frontier => line(root, &[(x, y), (x + 24, y)], Role::Frontier, 3),
            Key::Spread => {
                line(root, &[(x + 12, y + 8), (x + 12, y - 7)], Role::Ink, 1)?;
                root.draw(&Circle::new((x + 12, y - 1), 2, Role::Ink.color().filled()))?;
                line(root, &[(x + 7, y - 7), (x + 17, y - 7)], Role::Ink, 2)
            }
        }
    }
}

/// The chart's visible title and legend: the legend in rows under the
/// title, or in a column beside the plot ([`Header::beside`]).
#[derive(Debug, Clone)]
pub(crate) struct Header {
    title: Vec<TitleLine>,
    keys: Vec<Placed>,
    /// Height of the header above the plot, in pixels.
    pub height: i32,
    /// Width of the whole chart.
    width: i32,
    /// Width of the plot: the chart's, or less the legend's column.
    plot_width: i32,
    /// The lowest pixel of a legend beside the plot (0 for one above it).
    bottom: i32,
}

impl Header {
    /// Lays out `title` (wrapped) and the legend `keys` (wrapped into
    /// rows), [`WIDTH`] wide.
    pub(crate) fn new(title: &str, keys: Vec<Key>) -> Self {
        let (lines, y) = Self::title_lines(title, WIDTH);
        let (placed, height) = lay_out(keys, y, PAD, WIDTH - PAD);
        Header {
            title: lines,
            keys: placed,
            height,
            width: WIDTH,
            plot_width: WIDTH,
            bottom: 0,
        }
    }

    /// `title` across the top of a chart `width` wide, the plot as wide
    /// under it, and no legend (the page gives it).
    pub(crate) fn across(title: &str, width: i32) -> Self {
        let (lines, y) = Self::title_lines(title, width);
        Header {
            title: lines,
            keys: Vec::new(),
            height: y - 6,
            width,
            plot_width: width,
            bottom: 0,
        }
    }

    /// `title` across the top of a chart `width` wide, and the legend
    /// `keys` in a column right of the plot, as wide as its widest key
    /// (at least [`LEGEND_COLUMN`], at most half the chart).
    pub(crate) fn beside(title: &str, keys: Vec<Key>, width: i32) -> Self {
        let (lines, y) = Self::title_lines(title, width);
        // As wide as its widest key, with room for the estimate's error
        // (system fonts run wider than `text_width` guesses).
        let widest = keys
            .iter()
            .map(|k| k.sample_width() + (text_width(k.label(), TEXT_PX) * 1.15).ceil() as i32)
            .max()
            .unwrap_or(0);
        let plot_width = width - (widest + 2 * PAD).clamp(LEGEND_COLUMN, width / 2);
        // Each key on a row of its own: a column reads down.
        let mut bottom = y + 10;
        let mut placed = Vec::new();
        for key in keys {
            let (mut rows, end) = lay_out(vec![key], bottom, plot_width + PAD, width - PAD);
            placed.append(&mut rows);
            bottom = end + 7;
        }
        Header {
            title: lines,
            keys: placed,
            height: y - 6,
            width,
            plot_width,
            bottom,
        }
    }

    /// `title` wrapped to `width`, each line with its y, and the y under it.
    fn title_lines(title: &str, width: i32) -> (Vec<TitleLine>, i32) {
        // Bold text runs about a tenth wider.
        let lines = wrap(title, TITLE_PX * 1.1, f64::from(width - 2 * PAD));
        let y = 18 + 21 * count(lines.len());
        let lines = lines
            .into_iter()
            .zip((16..).step_by(21))
            .map(|(text, y)| TitleLine { text, y })
            .collect();
        (lines, y)
    }

    /// A panel's header: its name (e.g. "B200") and its legend, in
    /// [`TEXT_PX`] bold on one line with the keys after it.
    pub(crate) fn panel(name: &str, mut keys: Vec<Key>) -> Self {
        keys.insert(0, Key::Name(name.to_owned()));
        // Clear of the axis title of the panel above.
        let (placed, height) = lay_out(keys, 26, PAD, WIDTH - PAD);
        Header {
            title: Vec::new(),
            keys: placed,
            height,
            width: WIDTH,
            plot_width: WIDTH,
            bottom: 0,
        }
    }

    pub(crate) fn draw(&self, root: &Root<'_>) -> Draw {
        for TitleLine { text: l, y } in &self.title {
            let title = TextStyle {
                px: TITLE_PX,
                bold: true,
                ..TextStyle::INK
            };
            text(root, l, (PAD, *y), title)?;
        }
        for Placed { key, at: (x, y) } in &self.keys {
            // A group per legend entry, so a test (or a reader's tool) can
            // tell entries apart.
            root.draw(&Markup(&match key {
                Key::Source { key, .. } => {
                    format!("<g class=\"key from-{}\">", super::svg::xml_escape(key))
                }
                _ => "<g class=\"key\">".to_owned(),
            }))?;
            key.draw_sample(root, (*x, *y))?;
            let (at, bold) = ((x + key.sample_width(), *y), matches!(key, Key::Name(_)));
            text(
                root,
                key.label(),
                at,
                TextStyle {
                    bold,
                    ..TextStyle::INK
                },
            )?;
            root.draw(&Markup("</g>\n"))?;
        }
        Ok(())
    }
}

/// A line of a chart's wrapped title, and the y it is drawn at.
#[derive(Debug, Clone)]
struct TitleLine {
    text: String,
    y: i32,
}

/// A legend key and its place.
#[derive(Debug, Clone)]
struct Placed {
    key: Key,
    /// Where its sample is drawn (its label follows it).
    at: (i32, i32),
}

/// Places the legend `keys` in rows from `y`, between `x0` and `x1`;
/// returns them and the height they take down to.
fn lay_out(keys: Vec<Key>, mut y: i32, x0: i32, x1: i32) -> (Vec<Placed>, i32) {
    let mut placed = Vec::new();
    let mut x = x0;
    for key in keys {
        // A name is bold, about a tenth wider.
        let px = if matches!(key, Key::Name(_)) {
            TEXT_PX * 1.1
        } else {
            TEXT_PX
        };
        let w = key.sample_width() + text_width(key.label(), px).ceil() as i32;
        if x > x0 && x + w > x1 {
            x = x0;
            y += 21;
        }
        placed.push(Placed { key, at: (x, y) });
        x += w + 18;
    }
    let height = if placed.is_empty() { y - 6 } else { y + 14 };
    (placed, height)
}

/// A label `text` at `at`, aligned by `align`, kept clear of labels placed later.
pub(crate) fn label_at(p: &mut Plot<'_, '_>, text: &str, at: (i32, i32), align: Align) -> Draw {
    p.placer.occupy_label(super::layout::label_box(
        text,
        TEXT_PX,
        super::layout::Placement {
            x: at.0,
            y: at.1,
            align,
        },
    ));
    self::text(p.root, text, at, TextStyle::label(align))
}

/// "deadline 500 ms".
fn deadline_text(words: &Words, deadline: f64) -> String {
    format!(
        "deadline {} {}",
        crate::fmt::limit_ms(deadline),
        words.latency_unit
    )
}

/// Each deadline as a vertical line with its label at the top, the labels
/// stacked, and kept clear of labels placed later.
pub(crate) fn deadlines(p: &mut Plot<'_, '_>, words: &Words, deadlines: &[f64]) -> Draw {
    let (y0, y1) = (p.area.y0 as i32, p.area.y1 as i32);
    for (k, &d) in deadlines.iter().enumerate() {
        let (x, _) = p.px(d, 1.0);
        line(p.root, &[(x, y0), (x, y1)], Role::Deadline, 2)?;
        // Left of the line, or right of it where the left side has no room.
        let (text, y) = (deadline_text(words, d), y0 + 12 + 18 * count(k));
        let left = f64::from(x - 6) - text_width(&text, TEXT_PX) >= p.area.x0;
        let (x, align) = if left {
            (x - 6, Align::End)
        } else {
            (x + 6, Align::Start)
        };
        label_at(p, &text, (x, y), align)?;
    }
    Ok(())
}

/// The deadline as a horizontal line across the plot, labelled at its right end.
pub(crate) fn deadline_across(p: &mut Plot<'_, '_>, words: &Words, deadline: f64) -> Draw {
    let (_, y) = p.px(1.0, deadline);
    let (x0, x1) = (p.area.x0 as i32, p.area.x1 as i32);
    line(p.root, &[(x0, y), (x1, y)], Role::Deadline, 2)?;
    label_at(
        p,
        &deadline_text(words, deadline),
        (x1 - 6, y - 12),
        Align::End,
    )
}

/// The plot area of an x–y chart, ready for data.
pub(crate) struct Plot<'r, 'b> {
    /// The whole canvas; draw in absolute pixels.
    pub root: &'r Root<'b>,
    /// The plotting area in pixels.
    pub area: Rect,
    pub placer: Placer,
    map: &'r dyn Fn(f64, f64) -> (i32, i32),
}

impl Plot<'_, '_> {
    /// The pixel position of a data point.
    pub(crate) fn px(&self, x: f64, y: f64) -> (i32, i32) {
        (self.map)(x, y)
    }
}

/// An x–y chart's frame: header, axes and their titles.
pub(crate) struct Frame {
    pub header: Header,
    pub x: Axis,
    pub y: Axis,
    pub x_desc: String,
    pub y_desc: String,
    /// Height below the header, axis labels included.
    pub body: i32,
    /// Width of the y label area, when not sized to the tick labels.
    pub y_area: Option<i32>,
    pub x_ticks: fn(f64) -> String,
}

impl Frame {
    /// A frame whose y label area fits its tick labels, with the x ticks
    /// labelled by [`tick_label`].
    pub(crate) fn new(
        header: Header,
        x: Axis,
        y: Axis,
        x_desc: String,
        y_desc: String,
        body: i32,
    ) -> Self {
        Frame {
            header,
            x,
            y,
            x_desc,
            y_desc,
            body,
            y_area: None,
            x_ticks: tick_label,
        }
    }
}

/// Draws the frame's header, then, one under the other, a panel per
/// header in `panels` (its legend, then the frame's axes over `frame.body`
/// pixels), each filled by `data(panel index, plot)`; with no panel
/// headers, one plot under the frame's header. Panels share their axes,
/// so they read as small multiples; each is a `<g class="panel">`.
/// `capacity` is a guess at the bytes drawn. Drawing into a string does
/// not fail, but plotters' API says it may, and the error is handed on.
pub(crate) fn render(
    frame: &Frame,
    panels: &[Header],
    capacity: usize,
    mut data: impl FnMut(usize, &mut Plot<'_, '_>) -> Draw,
) -> Result<Doc, DrawError> {
    let heads: Vec<Option<&Header>> = if panels.is_empty() {
        vec![None]
    } else {
        panels.iter().map(Some).collect()
    };
    let header = &frame.header;
    let total = header.height
        + heads
            .iter()
            .map(|h| h.map_or(0, |h| h.height) + frame.body)
            .sum::<i32>();
    let total = total.max(header.bottom + 10);
    let mut doc = Doc::new(
        (header.width.unsigned_abs(), total.unsigned_abs()),
        capacity,
    );
    let result: Draw = (|| {
        let root = Canvas::new(&mut doc).into_drawing_area();
        header.draw(&root)?;
        let (_, mut rest) = root.split_vertically(header.height);
        if header.plot_width < header.width {
            rest = rest.split_horizontally(header.plot_width).0;
        }
        for (k, head) in heads.iter().enumerate() {
            if let Some(h) = head {
                rest.draw(&Markup("<g class=\"panel\">\n"))?;
                let (top, below) = rest.split_vertically(h.height);
                h.draw(&top)?;
                rest = below;
            }
            let (body, below) = rest.split_vertically(frame.body);
            rest = below;
            plot_on(frame, &root, &body, |p| data(k, p))?;
            if head.is_some() {
                rest.draw(&Markup("</g>\n"))?;
            }
        }
        root.present()
    })();
    result?;
    Ok(doc)
}

/// The axes of `frame` on `body`, then the data through `data`.
fn plot_on(
    frame: &Frame,
    root: &Root<'_>,
    body: &Root<'_>,
    data: impl FnOnce(&mut Plot<'_, '_>) -> Draw,
) -> Draw {
    let widest = frame
        .y
        .ticks
        .iter()
        .map(|t| text_width(&tick_label(*t), TEXT_PX))
        .fold(0.0, f64::max);
    let x_label = |t: f64| text_width(&(frame.x_ticks)(t), TEXT_PX);
    let half = |t: Option<&f64>| t.map_or(0.0, |t| x_label(*t) / 2.0);
    // Room for half the first x tick label, centred on the plot's start,
    // where the frame asks for a narrow y area (horizontal bars).
    let first = half(frame.x.ticks.first());
    let y_area = frame.y_area.map_or(widest.ceil() as i32 + 34, |a| {
        a.max(first.ceil() as i32 - 2)
    });
    // Room for half the last x tick label, centred on the plot's end.
    let margin_right = 20.max(half(frame.x.ticks.last()).ceil() as i32 + 2);
    let span = f64::from(frame.header.plot_width - 4 - margin_right - y_area);
    let x = frame.x.thinned(span, x_label);
    let mut chart = ChartBuilder::on(body)
        .margin_top(10)
        .margin_right(margin_right)
        .margin_left(4)
        .x_label_area_size(46)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x, frame.y.clone())?;
    // Labels plotters draws itself: ticks and axis titles.
    let ink = |px| font(px, false).color(&Role::Ink.color());
    chart
        .configure_mesh()
        .x_labels(32)
        .y_labels(32)
        .x_label_formatter(&|v| (frame.x_ticks)(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .x_desc(frame.x_desc.as_str())
        .y_desc(frame.y_desc.as_str())
        .label_style(ink(TEXT_PX))
        .axis_desc_style(ink(DESC_PX))
        .axis_style(Role::Ink.color())
        .bold_line_style(Role::Muted.color())
        .draw()?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let area = Rect {
        x0: f64::from(xr.start),
        y0: f64::from(yr.start),
        x1: f64::from(xr.end),
        y1: f64::from(yr.end),
    };
    let map = |x: f64, y: f64| chart.backend_coord(&(x, y));
    let mut plot = Plot {
        root,
        area,
        placer: Placer::new(area),
        map: &map,
    };
    data(&mut plot)
}
