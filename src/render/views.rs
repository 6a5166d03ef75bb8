//! View structs the templates print, and table and chart fragments pages share.

use std::borrow::Cow;

use anyhow::{Context, Result};
use askama::Template;

use crate::chart::Chart;

#[derive(Debug, Clone, Default)]
pub struct Header {
    pub label: String,
    pub unit: String,
    pub href: Option<String>,
    /// Numbers are right-aligned.
    pub num: bool,
    /// Machine key (for the sort script).
    pub key: String,
    /// What the column means, shown on hover and focus (empty: none).
    pub title: String,
    /// The table is sorted by this column, lowest first, as built.
    pub sorted: bool,
}

impl Header {
    /// A column head with no definition to link to.
    pub fn plain(label: &str, unit: &str, num: bool, key: &str) -> Self {
        Self {
            label: label.to_owned(),
            unit: unit.to_owned(),
            num,
            key: key.to_owned(),
            ..Self::default()
        }
    }

    /// The head linked to its definition at `#anchor` on the about page,
    /// with `title` (its meaning) on hover.
    pub fn defined(self, root: &str, anchor: &str, title: &str) -> Self {
        Self {
            href: Some(format!("{root}about/index.html#{anchor}")),
            title: title.into(),
            ..self
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    pub sort: Option<String>,
    pub num: bool,
    /// A row header (`<th scope="row">`).
    pub header: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Row {
    pub id: Option<String>,
    pub class: String,
    pub cells: Vec<Cell>,
}

/// A group of rows under an optional heading row.
#[derive(Debug, Clone, Default)]
pub struct RowGroup {
    pub title: Option<String>,
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, Default)]
#[allow(clippy::struct_field_names)]
pub struct TableView {
    pub id: String,
    pub caption: String,
    pub headers: Vec<Header>,
    pub groups: Vec<RowGroup>,
    pub sortable: bool,
}

/// A table as `templates/table.html` prints it: the head, then each
/// group's rows, taken once as the template reaches them.
#[derive(Template)]
#[template(path = "table.html")]
struct TableHtml<'a> {
    t: &'a TableView,
    groups: Vec<GroupHtml<'a>>,
}

/// One `<tbody>`: an optional heading and its rows.
struct GroupHtml<'a> {
    title: Option<&'a str>,
    rows: std::cell::Cell<Option<Box<dyn Iterator<Item = Cow<'a, Row>> + 'a>>>,
}

impl<'a> GroupHtml<'a> {
    fn new(title: Option<&'a str>, rows: impl Iterator<Item = Cow<'a, Row>> + 'a) -> Self {
        Self {
            title,
            rows: std::cell::Cell::new(Some(Box::new(rows))),
        }
    }

    /// The rows; the template asks once.
    fn rows(&self) -> impl Iterator<Item = Cow<'a, Row>> + 'a {
        self.rows.take().into_iter().flatten()
    }
}

fn render(table: &TableHtml<'_>) -> Result<String> {
    table
        .render()
        .with_context(|| format!("rendering table {}", table.t.id))
}

pub fn table_html(t: &TableView) -> Result<String> {
    let groups = t
        .groups
        .iter()
        .map(|g| GroupHtml::new(g.title.as_deref(), g.rows.iter().map(Cow::Borrowed)))
        .collect();
    render(&TableHtml { t, groups })
}

/// The HTML of a table whose rows (one group, no heading, `t.groups`
/// ignored) are made one at a time, so 20,000 rows never sit in memory at once.
pub fn table_html_from_rows<'a>(
    t: &'a TableView,
    rows: impl Iterator<Item = Row> + 'a,
) -> Result<String> {
    let groups = vec![GroupHtml::new(None, rows.map(Cow::Owned))];
    render(&TableHtml { t, groups })
}

/// askama's escaper for `.svg` templates and `.snippet` templates (HTML
/// shown to readers as code), set in `askama.toml`: the chart backend's XML
/// escaper ([`crate::fmt::push_xml_escaped`]), so every SVG the site writes
/// escapes text alike (`'` as `&apos;`). HTML and XML pages use askama's
/// own escaper.
#[derive(Debug, Clone, Copy, Default)]
pub struct XmlEscaper;

impl askama::filters::Escaper for XmlEscaper {
    fn write_escaped_str<W: std::fmt::Write>(&self, mut dest: W, text: &str) -> std::fmt::Result {
        let mut out = String::with_capacity(text.len());
        crate::fmt::push_xml_escaped(&mut out, text);
        dest.write_str(&out)
    }
}

/// The escaper of the BibTeX entry (`templates/citation.bib`, set in
/// `askama.toml`): braces, `%`, `&`, `$`, `#` and `_` get a backslash, and
/// `\\`, `~`, `^` are spelled as LaTeX commands, so a name prints as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct BibEscaper;

impl askama::filters::Escaper for BibEscaper {
    fn write_escaped_str<W: std::fmt::Write>(&self, mut dest: W, text: &str) -> std::fmt::Result {
        for ch in text.chars() {
            match ch {
                '{' | '}' | '%' | '&' | '$' | '#' | '_' => {
                    dest.write_char('\\')?;
                    dest.write_char(ch)?;
                }
                '\\' => dest.write_str("\\textbackslash{}")?,
                '~' => dest.write_str("\\textasciitilde{}")?,
                '^' => dest.write_str("\\textasciicircum{}")?,
                _ => dest.write_char(ch)?,
            }
        }
        Ok(())
    }
}

/// A term and its value, as a `<dt>` and its `<dd>`: a fact of a model
/// page ("Parameters", "8 B") or a figure of a best configuration's card
/// ("Energy per million tokens", "12.3 Wh").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fact {
    pub term: String,
    pub value: String,
}

impl Fact {
    pub fn new(term: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            term: term.into(),
            value: value.into(),
        }
    }
}

/// A chart as the page shows it.
#[derive(Debug, Clone)]
pub struct ChartView {
    pub id: String,
    /// Image URL relative to the page.
    pub src: String,
    pub title: String,
    /// What it shows; also the alt text.
    pub description: String,
    pub width: u32,
    pub height: u32,
    pub table: String,
    /// Classes added to the figure's, each after a space (empty for
    /// none): on a page that mixes sources, which source the chart shows.
    pub class: String,
    /// The same chart drawn for a wide screen, shown instead from a 64rem
    /// window up.
    pub wide: Option<WideChart>,
}

/// The wide screen's drawing of a chart.
#[derive(Debug, Clone)]
pub struct WideChart {
    /// Its file, relative to the page.
    pub src: String,
    pub width: u32,
    pub height: u32,
}

/// Width and height from an SVG's `viewBox`.
fn view_box_size(svg: &str) -> Option<(u32, u32)> {
    let (_, rest) = svg.split_once("viewBox=\"")?;
    let nums: Vec<f64> = rest[..rest.find('"')?]
        .split([' ', ','])
        .filter_map(|s| s.parse().ok())
        .collect();
    (nums.len() == 4).then(|| (nums[2].round() as u32, nums[3].round() as u32))
}

/// The view of a chart placed in the same folder as its page.
pub fn chart_view(c: &Chart) -> ChartView {
    // A 4:3 default for an SVG without a `viewBox`.
    let (width, height) = view_box_size(&c.svg).unwrap_or((800, 600));
    let id = format!(
        "chart-{}",
        c.file_name.strip_suffix(".svg").unwrap_or(&c.file_name)
    );
    let headers = c.table.headers.iter().map(|h| Header {
        label: h.clone(),
        ..Header::default()
    });
    let table = TableView {
        id: format!("{id}-data"),
        caption: format!("Data of the chart: {}", c.title),
        headers: headers.collect(),
        ..TableView::default()
    };
    let rows = c.table.rows.iter().map(|r| Row {
        cells: r
            .iter()
            .map(|v| Cell {
                num: looks_numeric(v),
                text: v.clone(),
                ..Cell::default()
            })
            .collect(),
        ..Row::default()
    });
    ChartView {
        id,
        src: c.file_name.clone(),
        title: c.title.clone(),
        description: c.description.clone(),
        width,
        height,
        table: table_html_from_rows(&table, rows).unwrap_or_default(),
        class: String::new(),
        wide: None,
    }
}

/// `view` with `wide`, the same chart drawn for a wide screen, beside it.
pub fn with_wide(view: ChartView, wide: &Chart) -> ChartView {
    let (width, height) = view_box_size(&wide.svg).unwrap_or((960, 600));
    ChartView {
        wide: Some(WideChart {
            src: wide.file_name.clone(),
            width,
            height,
        }),
        ..view
    }
}

fn looks_numeric(v: &str) -> bool {
    let t = v.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e'))
}

/// A column a reader can show or hide with a table's column chooser.
#[derive(Debug, Clone)]
pub struct Choosable {
    /// The column's key (the checkbox's value, and in `?cols=`).
    pub key: String,
    /// Its head's label and unit.
    pub label: String,
    pub unit: String,
    /// Shown before the reader chooses.
    pub shown: bool,
    /// Shown before the reader chooses on a narrow screen too.
    pub narrow: bool,
}

/// The column chooser of a table: a `<details>` of checkboxes that show and
/// hide columns by CSS alone (`:has()`), so it works without JavaScript;
/// `table.js` keeps the choice in the address (`?cols=`).
#[derive(Debug, Clone)]
pub struct ColumnChooser {
    pub table: String,
    /// Every column but the first (the row's name is always shown).
    pub columns: Vec<Choosable>,
    /// The positions (from 1) of the figure columns, which the style
    /// aligns right (the rows' cells carry no class, for page weight).
    pub numeric: Vec<usize>,
}

/// The style of a column chooser (`templates/columns_chooser.css`).
#[derive(Template)]
#[template(path = "columns_chooser.css", escape = "none")]
struct ChooserStyle<'a> {
    table: &'a str,
    /// Every column with a box.
    columns: Vec<ChoosablePosition<'a>>,
    /// The positions of the columns shown at first but not on a phone.
    narrow: Vec<usize>,
    /// The positions of the figure columns.
    numeric: &'a [usize],
}

/// A column with a box, and its position (from 1, as CSS counts).
struct ChoosablePosition<'a> {
    key: &'a str,
    nth: usize,
}

/// The key of the source column, which tables have when their rows come
/// from two sources or more; it is always shown at first.
pub const SOURCE_KEY: &str = "source";

impl ColumnChooser {
    /// The chooser of table `table` with `headers`, the `essential` shown at
    /// first, of which only the `narrow` on a narrow screen.
    pub fn new(table: &str, headers: &[Header], essential: &[&str], narrow: &[&str]) -> Self {
        let columns = headers
            .iter()
            .skip(1)
            .map(|h| Choosable {
                key: h.key.clone(),
                label: h.label.clone(),
                unit: h.unit.clone(),
                shown: essential.contains(&h.key.as_str()) || h.key == SOURCE_KEY,
                narrow: narrow.contains(&h.key.as_str()),
            })
            .collect();
        let numeric = (1..=headers.len())
            .filter(|&n| headers[n - 1].num)
            .collect();
        Self {
            table: table.to_owned(),
            columns,
            numeric,
        }
    }

    /// CSS hiding each unticked column: one rule per column, by its
    /// position; on a narrow screen, while the box `#{table}-narrow` is
    /// ticked, also the columns shown at first but not on a phone
    /// (`templates/columns_chooser.css`).
    pub fn style(&self) -> askama::Result<String> {
        // The first column (the row's name) has no box: the others are
        // from the second on, as CSS counts.
        let nth = |i: usize| i + 2;
        ChooserStyle {
            table: &self.table,
            columns: self
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| ChoosablePosition {
                    key: &c.key,
                    nth: nth(i),
                })
                .collect(),
            narrow: self
                .columns
                .iter()
                .enumerate()
                .filter(|(_, c)| c.shown && !c.narrow)
                .map(|(i, _)| nth(i))
                .collect(),
            numeric: &self.numeric,
        }
        .render()
    }

    /// How many columns show before the reader chooses, the first included.
    pub fn shown(&self) -> usize {
        1 + self.columns.iter().filter(|c| c.shown).count()
    }

    /// The labels of the columns a phone shows at first, the first (the
    /// model) left out: "GPU, Energy per million tokens, Median ITL".
    pub fn narrow_labels(&self) -> String {
        let labels: Vec<&str> = self
            .columns
            .iter()
            .filter(|c| c.shown && c.narrow)
            .map(|c| c.label.as_str())
            .collect();
        labels.join(", ")
    }
}
