//! The fixtures an experiment names, loaded from `fixtures/` under the working directory;
//! natural fixtures whose photographs are missing are reported, not fatal.

use std::path::Path;

use anyhow::Result;

use super::Context;
use crate::fixtures::{self, Dirs, Fixture, NotAvailable};

/// A fixture loaded, or why it is not here.
pub enum Loaded {
    /// The frames.
    Ready(Box<Fixture>),
    /// Its sources are missing (natural fixtures without `just fixtures`).
    Missing(String, String),
}

/// Loads the fixtures named by the `fixtures` parameter (default: every manifest), from
/// `fixtures/` under the working directory; missing photographs are reported, not fatal.
pub fn load_fixtures(ctx: &Context) -> Result<Vec<Loaded>> {
    let dirs = Dirs::under(Path::new("."));
    let names: Vec<String> = match ctx.get_or::<Option<Vec<String>>>("fixtures", None)? {
        Some(v) => v,
        None => fixtures::list(&dirs.manifests)?
            .iter()
            .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
            .collect(),
    };
    let mut out = Vec::new();
    for name in names {
        let path = dirs.manifests.join(format!("{name}.toml"));
        match fixtures::load(&path, &dirs) {
            Ok(f) => out.push(Loaded::Ready(Box::new(f))),
            Err(e) => match e.downcast_ref::<NotAvailable>() {
                Some(na) => out.push(Loaded::Missing(name, na.reason.clone())),
                None => return Err(e),
            },
        }
    }
    Ok(out)
}

/// `-log10(d)` for a positive difference (the decimal orders below 1 it lies), NaN for none
/// (a bar chart marks it `none`): a linear bar height for differences from 1e-17 to 1.
pub fn orders_below_one(d: f64) -> f64 {
    if d > 0.0 {
        -d.log10()
    } else {
        f64::NAN
    }
}
