//! What a configuration's carbon and cost are counted per: the energy
//! figures its footprint is computed from, the headline first. Render
//! names each basis in words (`render::kind::basis_words`).

use crate::model::{Configuration, Measure, OutputKind};

/// What a carbon or cost figure is counted per.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    MillionTokens,
    /// Per 1,000 responses, so a cost reads 0.00308 rather than 0.00000308
    /// (the about page's unit policy).
    ThousandResponses,
    Image,
    Video,
}

/// An energy figure carbon and cost are computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Basis {
    pub per: Per,
    /// The energy per `per`, Wh.
    pub wh: f64,
}

/// Responses in one [`Per::ThousandResponses`].
const RESPONSES_PER_BASIS: f64 = 1000.0;

/// What carbon and cost of `c` are counted per, headline first: per
/// million output tokens and per 1,000 responses, or per image or video.
/// A figure the configuration lacks is NaN.
pub fn footprint_bases(c: &Configuration) -> Vec<Basis> {
    match c.measure() {
        Measure::Tokens => vec![
            Basis {
                per: Per::MillionTokens,
                wh: c.energy(),
            },
            Basis {
                per: Per::ThousandResponses,
                wh: c.wh_per_response().unwrap_or(f64::NAN) * RESPONSES_PER_BASIS,
            },
        ],
        Measure::Diffusion(kind) => vec![Basis {
            per: if kind == OutputKind::Video {
                Per::Video
            } else {
                Per::Image
            },
            wh: c.wh_per_item().unwrap_or(f64::NAN),
        }],
    }
}
