//! Plain view structs the templates print, and the table and chart
//! fragments shared by several pages.

use anyhow::{Context, Result};
use askama::Template;

use crate::chart::Chart;

/// A column header.
#[derive(Debug, Clone, Default)]
pub struct Header {
    /// Label.
    pub label: String,
    /// Unit shown under the label.
    pub unit: String,
    /// Link to the column's definition.
    pub href: Option<String>,
    /// Numbers are right-aligned.
    pub num: bool,
    /// Machine key (for the sort script).
    pub key: String,
}

/// A table cell.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    /// The text shown.
    pub text: String,
    /// A link around the text.
    pub href: Option<String>,
    /// Raw value for sorting.
    pub sort: Option<String>,
    /// Right-aligned number.
    pub num: bool,
    /// A row header (`<th scope="row">`).
    pub header: bool,
}

/// An HTML attribute.
#[derive(Debug, Clone, Default)]
pub struct Attr {
    /// Name, e.g. `data-gpu`.
    pub name: String,
    /// Value (escaped by the template).
    pub value: String,
}

/// A table row.
#[derive(Debug, Clone, Default)]
pub struct Row {
    /// Anchor id.
    pub id: Option<String>,
    /// CSS classes.
    pub class: String,
    /// Extra attributes.
    pub attrs: Vec<Attr>,
    /// Cells.
    pub cells: Vec<Cell>,
}

/// A group of rows under an optional heading row.
#[derive(Debug, Clone, Default)]
pub struct RowGroup {
    /// Heading of the group.
    pub title: Option<String>,
    /// Rows.
    pub rows: Vec<Row>,
}

/// A whole table.
#[derive(Debug, Clone, Default)]
#[allow(clippy::struct_field_names)]
pub struct TableView {
    /// Element id.
    pub id: String,
    /// Caption.
    pub caption: String,
    /// Headers.
    pub headers: Vec<Header>,
    /// Row groups (`<tbody>` each).
    pub groups: Vec<RowGroup>,
    /// Whether the sort script may sort it.
    pub sortable: bool,
}

#[derive(Template)]
#[template(path = "table_head.html")]
struct TableHead<'a> {
    t: &'a TableView,
}

#[derive(Template)]
#[template(path = "table_group.html")]
struct TableGroup<'a> {
    title: Option<&'a String>,
    colspan: usize,
}

#[derive(Template)]
#[template(path = "table_row.html")]
struct TableRow<'a> {
    r: &'a Row,
    sortable: bool,
}

const TABLE_END: &str = "</table>\n</div>";

/// The table's HTML.
pub fn table_html(t: &TableView) -> Result<String> {
    let mut out = String::new();
    render_into(&mut out, &TableHead { t }, &t.id)?;
    for g in &t.groups {
        render_group(&mut out, t, g.title.as_ref(), g.rows.iter())?;
    }
    out.push_str(TABLE_END);
    Ok(out)
}

/// The HTML of a table whose rows (one group, no heading) are made one at
/// a time, so a table of 20,000 rows never holds all its cells at once.
/// `t.groups` is ignored.
pub fn table_html_from_rows(t: &TableView, rows: impl Iterator<Item = Row>) -> Result<String> {
    let mut out = String::new();
    render_into(&mut out, &TableHead { t }, &t.id)?;
    render_group(&mut out, t, None, rows)?;
    out.push_str(TABLE_END);
    Ok(out)
}

fn render_group(
    out: &mut String,
    t: &TableView,
    title: Option<&String>,
    rows: impl Iterator<Item = impl std::borrow::Borrow<Row>>,
) -> Result<()> {
    render_into(
        out,
        &TableGroup {
            title,
            colspan: t.headers.len(),
        },
        &t.id,
    )?;
    for r in rows {
        render_into(
            out,
            &TableRow {
                r: r.borrow(),
                sortable: t.sortable,
            },
            &t.id,
        )?;
    }
    out.push_str("</tbody>\n");
    Ok(())
}

fn render_into(out: &mut String, part: &impl Template, id: &str) -> Result<()> {
    part.render_into(out)
        .with_context(|| format!("rendering table {id}"))?;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(())
}

/// A chart as the page shows it.
#[derive(Debug, Clone)]
pub struct ChartView {
    /// Anchor id.
    pub id: String,
    /// Image URL relative to the page.
    pub src: String,
    /// Title.
    pub title: String,
    /// What it shows; also the alt text.
    pub description: String,
    /// Intrinsic width from the viewBox.
    pub width: u32,
    /// Intrinsic height from the viewBox.
    pub height: u32,
    /// The data table's HTML.
    pub table: String,
}

/// Width and height from an SVG's `viewBox`, or a 4:3 default.
fn view_box_size(svg: &str) -> (u32, u32) {
    let parse = || -> Option<(u32, u32)> {
        let start = svg.find("viewBox=\"")? + 9;
        let end = start + svg[start..].find('"')?;
        let nums: Vec<f64> = svg[start..end]
            .split([' ', ','])
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        (nums.len() == 4).then(|| (nums[2].round() as u32, nums[3].round() as u32))
    };
    parse().unwrap_or((800, 600))
}

/// The view of a chart placed in the same folder as its page.
pub fn chart_view(c: &Chart) -> ChartView {
    let (width, height) = view_box_size(&c.svg);
    let id = format!(
        "chart-{}",
        c.file_name.strip_suffix(".svg").unwrap_or(&c.file_name)
    );
    let table = TableView {
        id: format!("{id}-data"),
        caption: format!("Data of the chart: {}", c.title),
        headers: c
            .table
            .headers
            .iter()
            .map(|h| Header {
                label: h.clone(),
                ..Header::default()
            })
            .collect(),
        groups: vec![RowGroup {
            title: None,
            rows: c
                .table
                .rows
                .iter()
                .map(|r| Row {
                    cells: r
                        .iter()
                        .map(|v| Cell {
                            num: looks_numeric(v),
                            text: v.clone(),
                            ..Cell::default()
                        })
                        .collect(),
                    ..Row::default()
                })
                .collect(),
        }],
        sortable: false,
    };
    ChartView {
        id,
        src: c.file_name.clone(),
        title: c.title.clone(),
        description: c.description.clone(),
        width,
        height,
        table: table_html(&table).unwrap_or_default(),
    }
}

fn looks_numeric(v: &str) -> bool {
    let t = v.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e'))
}
