//! Carbon and cost of the measured energy, from optional settings in
//! `energyboard.toml`: a grid carbon intensity, an electricity price, and a
//! facility overhead factor (PUE), each with its source.
//!
//! The arithmetic is pure and stated once here (and on the about page):
//!
//! - facility energy (kWh) = GPU energy (Wh) × PUE (1 when not set) / 1,000;
//! - carbon (g CO₂e) = facility energy (kWh) × grid intensity (g CO₂e/kWh);
//! - cost = facility energy (kWh) × price (per kWh).
//!
//! So 1 Wh per million tokens at 400 g CO₂e/kWh is 0.4 g CO₂e per million
//! tokens (0.4 µg per token). The energy is the GPUs' alone, so every
//! figure is a floor.

use serde::Deserialize;

use crate::columns::{
    CARBON_INTENSITY, CARBON_INTENSITY_WORDS, FootprintColumn, PRICE_BASIS_WORDS,
};
use crate::load::limits::{MAX_NAME_CHARS, MAX_URL_CHARS};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarbonIntensity {
    /// Grams of CO₂ equivalent emitted per kWh of electricity used.
    pub g_co2e_per_kwh: f64,
    /// Where the figure comes from, e.g. "U.S. EIA, Electric Power Annual".
    pub source: String,
    /// The year the figure describes.
    pub year: u16,
    pub url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElectricityPrice {
    /// Price of one kWh in `currency`.
    pub per_kwh: f64,
    /// ISO 4217 code, e.g. "USD".
    pub currency: String,
    pub source: String,
    /// The year the figure describes.
    pub year: u16,
    pub url: Option<String>,
}

/// A facility overhead factor (power usage effectiveness) with its source.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FacilityOverhead {
    /// Total facility energy / IT energy; 1 or more.
    pub pue: f64,
    pub source: String,
    /// The year the figure describes, optional.
    pub year: Option<u16>,
    pub url: Option<String>,
}

/// The settings that turn energy into carbon and cost; at least one of
/// `carbon` and `price` is set (a PUE alone would change nothing shown).
#[derive(Debug, Clone, PartialEq)]
pub struct Footprint {
    pub carbon: Option<CarbonIntensity>,
    pub price: Option<ElectricityPrice>,
    pub overhead: Option<FacilityOverhead>,
}

/// An accepted range of one setting, as a message states it.
#[derive(Clone, Copy)]
struct Range {
    /// The setting's key.
    key: &'static str,
    /// The lowest value, accepted itself only when `lowest_accepted`.
    lowest: f64,
    lowest_accepted: bool,
    /// The highest value, accepted.
    highest: f64,
    /// The unit in a message ("" for none).
    unit: &'static str,
}
/// Grid intensities, g CO₂e/kWh: above zero, at most twice the dirtiest
/// grids' (lignite plants emit about 1,100).
const CARBON_RANGE: Range = Range {
    key: "g_co2e_per_kwh",
    lowest: 0.0,
    lowest_accepted: false,
    highest: 2000.0,
    unit: CARBON_INTENSITY_WORDS,
};
/// Prices per kWh, in any currency: above zero, at most 100,000 (a kWh
/// costs thousands in the currencies with the smallest units).
const PRICE_RANGE: Range = Range {
    key: "per_kwh",
    lowest: 0.0,
    lowest_accepted: false,
    highest: 100_000.0,
    unit: PRICE_BASIS_WORDS,
};
/// PUE: 1 (no overhead) to 5.
const PUE_RANGE: Range = Range {
    key: "pue",
    lowest: 1.0,
    lowest_accepted: true,
    highest: 5.0,
    unit: "",
};
/// The years a figure may describe, both included.
pub const YEAR_RANGE: std::ops::RangeInclusive<u16> = 1990..=2100;

/// Carbon and cost of one energy figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impact {
    /// g CO₂e, when a carbon intensity is set.
    pub grams_co2e: Option<f64>,
    /// Cost in the price's currency, when a price is set.
    pub cost: Option<f64>,
}

impl Footprint {
    /// Checks the three optional settings and combines them: `None` when
    /// neither a carbon intensity nor a price is set. Every problem is
    /// listed, each naming its key.
    pub fn from_settings(
        carbon: Option<CarbonIntensity>,
        price: Option<ElectricityPrice>,
        overhead: Option<FacilityOverhead>,
    ) -> Result<Option<Self>, Vec<String>> {
        let mut bad = Vec::new();
        if let Some(c) = &carbon {
            let at = "carbon_intensity";
            check_range(&mut bad, at, c.g_co2e_per_kwh, CARBON_RANGE);
            check_source(&mut bad, at, &c.source, Some(c.year), c.url.as_deref());
        }
        if let Some(p) = &price {
            let at = "electricity_price";
            check_range(&mut bad, at, p.per_kwh, PRICE_RANGE);
            if p.currency.len() != 3 || !p.currency.bytes().all(|b| b.is_ascii_uppercase()) {
                bad.push(format!(
                    "{at}.currency: must be a three-letter ISO 4217 code such as \"USD\" or \
                        \"EUR\", found {:?}",
                    p.currency
                ));
            }
            check_source(&mut bad, at, &p.source, Some(p.year), p.url.as_deref());
        }
        if let Some(o) = &overhead {
            let at = "facility_overhead";
            check_range(&mut bad, at, o.pue, PUE_RANGE);
            check_source(&mut bad, at, &o.source, o.year, o.url.as_deref());
            if carbon.is_none() && price.is_none() {
                bad.push(
                    "facility_overhead: needs carbon_intensity or electricity_price as well; it \
                        only scales those figures"
                        .to_owned(),
                );
            }
        }
        if !bad.is_empty() {
            return Err(bad);
        }
        Ok((carbon.is_some() || price.is_some()).then_some(Self {
            carbon,
            price,
            overhead,
        }))
    }

    /// The PUE applied: the setting, or 1.
    pub fn pue(&self) -> f64 {
        self.overhead.as_ref().map_or(1.0, |o| o.pue)
    }

    /// Carbon and cost of `wh` watt-hours of GPU energy.
    pub fn of_wh(&self, wh: f64) -> Impact {
        let kwh = wh * self.pue() / 1000.0;
        Impact {
            grams_co2e: self.carbon.as_ref().map(|c| kwh * c.g_co2e_per_kwh),
            cost: self.price.as_ref().map(|p| kwh * p.per_kwh),
        }
    }

    /// The same for `j` joules.
    pub fn of_joules(&self, j: f64) -> Impact {
        self.of_wh(j / 3600.0)
    }

    pub fn currency(&self) -> Option<&str> {
        self.price.as_ref().map(|p| p.currency.as_str())
    }

    /// A footprint column's unit per `per` (the headline's basis: "M tok",
    /// "image"); `None` when the settings do not give the figure.
    pub fn column_unit(&self, column: FootprintColumn, per: &str) -> Option<String> {
        match column {
            FootprintColumn::Carbon => self.carbon.as_ref().map(|_| column.unit("", per)),
            FootprintColumn::Cost => self.currency().map(|c| column.unit(c, per)),
        }
    }

    /// A footprint column's value for `wh` watt-hours of GPU energy; `None`
    /// when the settings do not give the figure.
    pub fn column_value(&self, column: FootprintColumn, wh: f64) -> Option<f64> {
        let impact = self.of_wh(wh);
        match column {
            FootprintColumn::Carbon => impact.grams_co2e,
            FootprintColumn::Cost => impact.cost,
        }
    }

    /// The assumptions in one sentence, e.g. "384 g CO₂e/kWh (U.S. EIA,
    /// 2023); 0.0813 USD/kWh (…, 2024); PUE 1.56 (…)".
    pub fn assumptions(&self) -> String {
        let carbon = self.carbon.as_ref().map(|c| {
            let g = crate::fmt::setting(c.g_co2e_per_kwh);
            format!(
                "grid carbon intensity {g} {CARBON_INTENSITY} ({}, {})",
                c.source, c.year
            )
        });
        let price = self.price.as_ref().map(|p| {
            let per_kwh = crate::fmt::setting(p.per_kwh);
            format!(
                "electricity price {per_kwh} {}/kWh ({}, {})",
                p.currency, p.source, p.year
            )
        });
        let overhead = self.overhead.as_ref().map_or_else(
            || "no facility overhead (PUE 1)".to_owned(),
            |o| {
                let year = o.year.map(|y| format!(", {y}")).unwrap_or_default();
                format!(
                    "facility overhead PUE {} ({}{year})",
                    crate::fmt::setting(o.pue),
                    o.source
                )
            },
        );
        [carbon, price, Some(overhead)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn check_range(bad: &mut Vec<String>, at: &str, v: f64, range: Range) {
    let Range {
        key,
        lowest: lo,
        lowest_accepted,
        highest: hi,
        unit,
    } = range;
    if !v.is_finite() || !(if lowest_accepted { v >= lo } else { v > lo }) || v > hi {
        let from = if lowest_accepted { "from" } else { "above" };
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        bad.push(format!(
            "{at}.{key}: must be a finite number {from} {lo} up to {hi}{unit}, found {v}"
        ));
    }
}

fn check_source(
    bad: &mut Vec<String>,
    at: &str,
    source: &str,
    year: Option<u16>,
    url: Option<&str>,
) {
    if source.trim().is_empty() {
        bad.push(format!(
            "{at}.source: must say where the figure comes from (publisher and publication), \
                found an empty string"
        ));
    } else if source.chars().count() > MAX_NAME_CHARS || source.chars().any(char::is_control) {
        bad.push(format!(
            "{at}.source: must be one line of at most {MAX_NAME_CHARS} characters without \
                control characters"
        ));
    }
    if let Some(year) = year
        && !YEAR_RANGE.contains(&year)
    {
        bad.push(format!(
            "{at}.year: must be the year the figure describes, {} to {}, found {year}",
            YEAR_RANGE.start(),
            YEAR_RANGE.end()
        ));
    }
    if let Some(url) = url {
        let lower = url.to_ascii_lowercase();
        let ok = (lower.starts_with("https://") || lower.starts_with("http://"))
            && url.len() <= MAX_URL_CHARS
            && !url
                .chars()
                .any(|c| c.is_control() || c.is_whitespace() || "\"<>\\^`{|}".contains(c));
        if !ok {
            bad.push(format!(
                "{at}.url: must be an http(s):// address without spaces or quotes, found {url:?}"
            ));
        }
    }
}
