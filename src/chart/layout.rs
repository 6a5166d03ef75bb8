//! Text measurement and label placement. Browsers draw the text, so widths
//! are estimates: per-character advances of a wide sans-serif (DejaVu Sans),
//! which over-estimate narrower fonts and so stay on the safe side.

/// Estimated width in pixels of `text` at `px` pixels per em.
pub(crate) fn text_width(text: &str, px: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'I' => 0.30,
            ' ' | 'f' | 't' | 'r' | '(' | ')' | '-' | '/' => 0.38,
            'm' | 'w' => 0.95,
            'M' | 'W' => 1.0,
            '×' | '–' | '—' | '+' | '=' | '<' | '>' => 0.84,
            'A'..='Z' => 0.72,
            '0'..='9' => 0.64,
            _ => 0.62,
        })
        .sum();
    em * px
}

/// Splits `text` into lines no wider than `max` pixels, at spaces.
pub(crate) fn wrap(text: &str, px: f64, max: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, px) > max {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// An axis-aligned box in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// The box around a point, `r` pixels each way.
    pub(crate) fn around((x, y): (i32, i32), r: f64) -> Self {
        let (x, y) = (f64::from(x), f64::from(y));
        Rect {
            x0: x - r,
            y0: y - r,
            x1: x + r,
            y1: y + r,
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.x1 <= o.x1 && self.y0 >= o.y0 && self.y1 <= o.y1
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }

    /// Whether the segment `a`–`b` passes through the box.
    fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        if self.contains(a) || self.contains(b) {
            return true;
        }
        let edges = [
            ((self.x0, self.y0), (self.x1, self.y0)),
            ((self.x1, self.y0), (self.x1, self.y1)),
            ((self.x1, self.y1), (self.x0, self.y1)),
            ((self.x0, self.y1), (self.x0, self.y0)),
        ];
        edges.iter().any(|&(c, d)| segments_cross(a, b, c, d))
    }
}

fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Where a label goes: its anchor point and horizontal alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Start,
    Middle,
    End,
}

/// A placed label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Placement {
    pub x: i32,
    pub y: i32,
    pub align: Align,
}

/// The box a label occupies when drawn at `p` (vertically centred).
pub(crate) fn label_box(text: &str, px: f64, p: Placement) -> Rect {
    let w = text_width(text, px);
    let (x, y) = (f64::from(p.x), f64::from(p.y));
    let x0 = match p.align {
        Align::Start => x,
        Align::Middle => x - w / 2.0,
        Align::End => x - w,
    };
    Rect {
        x0,
        y0: y - 0.62 * px,
        x1: x0 + w,
        y1: y + 0.55 * px,
    }
}

/// Places labels next to their points so that they stay inside the plot
/// and clear of markers and of each other, crossing as few lines as
/// possible.
#[derive(Debug, Clone)]
pub(crate) struct Placer {
    bounds: Rect,
    taken: Vec<Rect>,
    labels: Vec<Rect>,
    segments: Vec<((f64, f64), (f64, f64))>,
}

impl Placer {
    /// A placer for labels inside `bounds`.
    pub(crate) fn new(bounds: Rect) -> Self {
        Placer {
            bounds,
            taken: Vec::new(),
            labels: Vec::new(),
            segments: Vec::new(),
        }
    }

    /// Marks a box as occupied by a marker.
    pub(crate) fn occupy(&mut self, r: Rect) {
        self.taken.push(r);
    }

    /// Marks a box as occupied by a label: never overlapped.
    pub(crate) fn occupy_label(&mut self, r: Rect) {
        self.labels.push(r);
    }

    /// Records a drawn line, to be crossed as little as possible.
    pub(crate) fn add_line(&mut self, points: &[(i32, i32)]) {
        for w in points.windows(2) {
            let f = |p: (i32, i32)| (f64::from(p.0), f64::from(p.1));
            self.segments.push((f(w[0]), f(w[1])));
        }
    }

    /// Chooses a spot for `text` near `at`, at least `gap` pixels from it,
    /// and marks it occupied. Returns the placement and, when the label
    /// ended up away from its point, the two ends of a leader line.
    pub(crate) fn place(
        &mut self,
        text: &str,
        px: f64,
        at: (i32, i32),
        gap: i32,
    ) -> (Placement, Option<[(i32, i32); 2]>) {
        let (x, y) = at;
        let mut candidates = Vec::new();
        for dx in [
            gap,
            gap + 10,
            gap + 24,
            gap + 40,
            gap + 60,
            gap + 90,
            gap + 130,
        ] {
            for k in 0..=40 {
                // 0, -6, +6, -12, +12, …: nearest rows first.
                let dy = if k % 2 == 0 {
                    -(k / 2) * 6
                } else {
                    (k + 1) / 2 * 6
                };
                candidates.push((x + dx, y + dy, Align::Start));
                candidates.push((x - dx, y + dy, Align::End));
            }
        }
        for dv in [
            gap + 2,
            gap + 12,
            gap + 26,
            gap + 42,
            gap + 60,
            gap + 84,
            gap + 110,
        ] {
            for (dx, align) in [(0, Align::Middle), (8, Align::End), (-8, Align::Start)] {
                candidates.push((x + dx, y - dv, align));
                candidates.push((x + dx, y + dv, align));
            }
        }
        let point = (f64::from(x), f64::from(y));
        let mut best: Option<(f64, Placement, Rect)> = None;
        for &(cx, cy, align) in &candidates {
            let p = Placement {
                x: cx,
                y: cy,
                align,
            };
            let b = label_box(text, px, p);
            let padded = Rect {
                x0: b.x0 - 2.0,
                y0: b.y0 - 1.0,
                x1: b.x1 + 2.0,
                y1: b.y1 + 1.0,
            };
            let mut score = 0.15 * b.distance_to(point);
            if !b.inside(&self.bounds) {
                score += 1e6;
            }
            score += 1e4 * self.taken.iter().filter(|t| t.overlaps(&padded)).count() as f64;
            score += 1e5 * self.labels.iter().filter(|t| t.overlaps(&padded)).count() as f64;
            score += 2.0
                * self
                    .segments
                    .iter()
                    .filter(|(a, c)| padded.crossed_by(*a, *c))
                    .count() as f64;
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, p, b));
            }
        }
        let (_, p, b) = best.expect("there are candidates");
        self.labels.push(Rect {
            x0: b.x0 - 2.0,
            y0: b.y0 - 1.0,
            x1: b.x1 + 2.0,
            y1: b.y1 + 1.0,
        });
        (p, leader(b, at, gap))
    }
}

/// The two ends of a line from the point `at` to its label box `b`, when
/// the label sits more than a few pixels beyond `gap`.
pub(crate) fn leader(b: Rect, at: (i32, i32), gap: i32) -> Option<[(i32, i32); 2]> {
    let point = (f64::from(at.0), f64::from(at.1));
    if b.distance_to(point) <= f64::from(gap) + 8.0 {
        return None;
    }
    let near = b.nearest(point);
    let (dx, dy) = (near.0 - point.0, near.1 - point.1);
    let len = dx.hypot(dy);
    let pt = |t: f64| {
        (
            (point.0 + dx * t).round() as i32,
            (point.1 + dy * t).round() as i32,
        )
    };
    Some([pt(f64::from(gap - 4) / len), pt((len - 2.0) / len)])
}

/// Whether two leader lines cross.
pub(crate) fn leaders_cross(a: [(i32, i32); 2], b: [(i32, i32); 2]) -> bool {
    let f = |p: (i32, i32)| (f64::from(p.0), f64::from(p.1));
    segments_cross(f(a[0]), f(a[1]), f(b[0]), f(b[1]))
}

impl Rect {
    /// The point of the box nearest to `p`.
    fn nearest(&self, p: (f64, f64)) -> (f64, f64) {
        (p.0.clamp(self.x0, self.x1), p.1.clamp(self.y0, self.y1))
    }

    /// Distance from `p` to the box (0 inside).
    fn distance_to(&self, p: (f64, f64)) -> f64 {
        let n = self.nearest(p);
        (n.0 - p.0).hypot(n.1 - p.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_within_width() {
        let lines = wrap("one two three four", 10.0, 60.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), "one two three four");
        assert_eq!(wrap("", 10.0, 60.0), vec![String::new()]);
    }

    #[test]
    fn placed_labels_do_not_overlap() {
        let mut p = Placer::new(Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 400.0,
            y1: 300.0,
        });
        let (a, _) = p.place("first label", 12.0, (200, 150), 10);
        let (b, _) = p.place("second label", 12.0, (200, 150), 10);
        let (ra, rb) = (
            label_box("first label", 12.0, a),
            label_box("second label", 12.0, b),
        );
        assert!(!ra.overlaps(&rb));
        assert!(ra.inside(&p.bounds) && rb.inside(&p.bounds));
    }
}
