//! The options of libvmaf's `float_vif` extractor that change its arithmetic, with the
//! reference's defaults and ranges.

use super::taps::kernelscale_is_valid;

/// The options of the `float_vif` extractor (prescaling is not modelled: it is 1.0 here).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VifOptions {
    /// `vif_enhn_gain_limit`, in `[1, 100]`; default 100.
    pub enhn_gain_limit: f64,
    /// `vif_kernelscale`, in `[0.1, 4]` and within 1e-3 of an accepted scale; default 1.
    pub kernelscale: f64,
    /// `vif_sigma_nsq`, in `[0, 5]`; default 2.
    pub sigma_nsq: f64,
    /// `vif_skip_scale0`: scale 0 is not computed and scale 1 filters the input.
    pub skip_scale0: bool,
    /// `vif_scale1_min_val`, `vif_scale2_min_val`, `vif_scale3_min_val`, each in `[0, 1]`.
    pub min_val: [f64; 3],
    /// `debug`: also publish the ratio, its sums and each scale's num and den.
    pub debug: bool,
}

impl Default for VifOptions {
    fn default() -> VifOptions {
        VifOptions {
            enhn_gain_limit: 100.0,
            kernelscale: 1.0,
            sigma_nsq: 2.0,
            skip_scale0: false,
            min_val: [0.0; 3],
            debug: true,
        }
    }
}

/// An option outside the range the reference accepts.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("float_vif option `{name}` = {value}: {reason}")]
pub struct OptionError {
    /// The option's name as libvmaf spells it.
    pub name: &'static str,
    /// The value given.
    pub value: f64,
    /// Why it is refused.
    pub reason: &'static str,
}

fn in_range(name: &'static str, value: f64, lo: f64, hi: f64) -> Result<(), OptionError> {
    if value >= lo && value <= hi {
        Ok(())
    } else {
        Err(OptionError {
            name,
            value,
            reason: "out of the extractor's range",
        })
    }
}

impl VifOptions {
    /// Checks every option against the extractor's range (and the kernel scale against its
    /// list of accepted scales).
    pub fn validate(&self) -> Result<(), OptionError> {
        in_range("vif_enhn_gain_limit", self.enhn_gain_limit, 1.0, 100.0)?;
        in_range("vif_kernelscale", self.kernelscale, 0.1, 4.0)?;
        in_range("vif_sigma_nsq", self.sigma_nsq, 0.0, 5.0)?;
        let names = [
            "vif_scale1_min_val",
            "vif_scale2_min_val",
            "vif_scale3_min_val",
        ];
        for (name, v) in names.into_iter().zip(self.min_val) {
            in_range(name, v, 0.0, 1.0)?;
        }
        if !kernelscale_is_valid(self.kernelscale as f32) {
            return Err(OptionError {
                name: "vif_kernelscale",
                value: self.kernelscale,
                reason: "not within 1e-3 of an accepted kernel scale",
            });
        }
        Ok(())
    }

    /// The first scale computed: 1 when scale 0 is skipped.
    pub fn first_scale(&self) -> usize {
        usize::from(self.skip_scale0)
    }

    /// The kernel scale as the filter routines take it (fp32).
    pub fn kernelscale_f32(&self) -> f32 {
        self.kernelscale as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_are_named() {
        assert_eq!(VifOptions::default().validate(), Ok(()));
        let bad = VifOptions {
            kernelscale: 1.3,
            ..VifOptions::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.name), Err("vif_kernelscale"));
        let bad = VifOptions {
            sigma_nsq: 6.0,
            ..VifOptions::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.name), Err("vif_sigma_nsq"));
    }
}
