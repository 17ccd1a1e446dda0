//! Verdicts: how a claim's rule turns the document's figure and ours into "confirmed",
//! "differs" or "goes further".
//!
//! Guarantee: [`decide`] depends on the rule and the two figures only, so a verdict written
//! in a README can be recomputed from the cells it cites.

use serde::Deserialize;

use super::cells::Figure;

/// The document's figure: a value, with a total (`8 of 113`) or a range end (`9 to 27`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocFigure {
    /// The figure (the part, or the range's start).
    pub value: f64,
    /// The total the figure is a part of.
    pub of: Option<f64>,
    /// The end of the range.
    pub upto: Option<f64>,
}

/// Which side of the document's figure counts as going further.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Beyond {
    /// More than the document's figure (more samples, more kinds).
    More,
    /// Less than the document's figure.
    Less,
}

/// How a verdict follows from the two figures.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rule {
    /// Ours equals the document's figure exactly.
    Equal,
    /// Ours is within `factor` of the document's figure, either way (both zero: within).
    Within {
        /// The largest ratio, at least 1.
        factor: f64,
    },
    /// Ours is at most the document's figure (as shares of their totals when both have one).
    AtMost,
    /// Ours is at least the document's figure (as shares when both have totals).
    AtLeast,
    /// Ours is all of its total (`N of N`).
    All,
    /// Ours lies in the document's range, ends included.
    InRange,
    /// Ours is strictly beyond the document's figure on the side `than` names: goes further;
    /// equal: confirmed; on the other side: differs.
    GoesFurther {
        /// The side that counts as further.
        than: Beyond,
    },
}

/// A claim's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Our figure agrees with the document's under the claim's rule.
    Confirmed,
    /// It does not; the data file says why.
    Differs,
    /// Ours covers more than the document did.
    GoesFurther,
}

impl Verdict {
    /// The verdict as the READMEs and `claims.csv` write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::Differs => "differs",
            Verdict::GoesFurther => "goes further",
        }
    }

    /// The verdict written `s` (as [`Verdict::as_str`] writes it).
    pub fn parse(s: &str) -> Option<Verdict> {
        [Verdict::Confirmed, Verdict::Differs, Verdict::GoesFurther]
            .into_iter()
            .find(|v| v.as_str() == s)
    }
}

/// The figure to compare: the share of the total when both sides have totals, else the part.
fn shares(doc: &DocFigure, ours: &Figure) -> (f64, f64) {
    match (doc.of, ours.of) {
        (Some(d), Some(o)) if d > 0.0 && o > 0.0 => (doc.value / d, ours.value / o),
        _ => (doc.value, ours.value),
    }
}

/// The verdict of `rule` for the document's figure `doc` and ours.
pub fn decide(rule: &Rule, doc: &DocFigure, ours: &Figure) -> Verdict {
    let holds = |ok: bool| {
        if ok {
            Verdict::Confirmed
        } else {
            Verdict::Differs
        }
    };
    let (d, o) = shares(doc, ours);
    match *rule {
        Rule::Equal => holds(ours.value == doc.value),
        Rule::Within { factor } => {
            if doc.value == 0.0 && ours.value == 0.0 {
                Verdict::Confirmed
            } else if doc.value == 0.0
                || ours.value == 0.0
                || (doc.value < 0.0) != (ours.value < 0.0)
            {
                Verdict::Differs
            } else {
                let r = ours.value / doc.value;
                holds(r.max(1.0 / r) <= factor)
            }
        }
        Rule::AtMost => holds(o <= d),
        Rule::AtLeast => holds(o >= d),
        Rule::All => holds(ours.complete()),
        Rule::InRange => {
            holds(ours.value >= doc.value && doc.upto.is_some_and(|u| ours.value <= u))
        }
        Rule::GoesFurther { than } => {
            let (beyond, short) = match than {
                Beyond::More => (ours.value > doc.value, ours.value < doc.value),
                Beyond::Less => (ours.value < doc.value, ours.value > doc.value),
            };
            if beyond {
                Verdict::GoesFurther
            } else if short {
                Verdict::Differs
            } else {
                Verdict::Confirmed
            }
        }
    }
}
