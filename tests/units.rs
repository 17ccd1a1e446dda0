//! Edges of units and binades that the pipeline rarely reaches: binade bounds, saturation of
//! long runs of units that do not apply, and a run of invalid terms inside one chunk.

use binade::algebra::Exact;
use binade::format::F64;
use binade::plan::PlanKind;
use binade::unit::{apply, compose, Binade, Unit};
use binade::walk::{chunk_sums, loop_sum, pipeline};

#[test]
fn binades_exist_only_for_normal_exponents() {
    assert_eq!(Binade::from_exponent::<F64>(-1022), Some(Binade(1)));
    assert_eq!(Binade::from_exponent::<F64>(1023), Some(Binade(2046)));
    for e in [-1023, -1100, 1024, 2000, i32::MIN / 2, i32::MAX / 2] {
        assert_eq!(Binade::from_exponent::<F64>(e), None, "exponent {e}");
    }
    assert_eq!(Binade::of::<F64>(0f64.to_bits()), None);
    assert_eq!(Binade::of::<F64>(5e-324f64.to_bits()), None);
    assert_eq!(Binade::of::<F64>((-1.0f64).to_bits()), None);
    assert_eq!(Binade::of::<F64>(f64::INFINITY.to_bits()), None);
}

#[test]
fn any_number_of_invalid_units_stays_invalid() {
    let mut u = Unit::ZERO;
    for k in 1..=4096u64 {
        u = compose(u, Unit::INVALID);
        assert!(
            u.even >= Unit::SATURATED && u.odd >= Unit::SATURATED,
            "after {k} invalid units: {u:?}"
        );
        assert_eq!(
            apply::<F64>(
                u,
                Binade::of::<F64>(1.0f64.to_bits()).unwrap(),
                1.0f64.to_bits()
            ),
            None
        );
    }
}

#[test]
fn chunks_full_of_negative_terms_fall_back() {
    // Every fourth term negative: each lane holds exactly one invalid term, so a wrapping
    // composition would bring a chunk's increment back to a small, wrong value.
    let terms: Vec<f64> = (0..8192)
        .map(|i| {
            if i % 4 == 3 {
                -0.25
            } else {
                1.0 + (i % 7) as f64
            }
        })
        .collect();
    let want = loop_sum::<F64>(&terms).to_bits();
    for plan in PlanKind::standard(3) {
        let sums = chunk_sums::<F64>(&terms);
        let got = pipeline::<F64, Exact>(&terms, &plan, Some(&sums), &Exact);
        assert_eq!(got.total.to_bits(), want, "plan {plan}");
        assert_eq!(
            got.applied, 0,
            "plan {plan}: chunks with negative terms must not apply"
        );
    }
}

#[test]
fn a_term_equal_to_the_start_lands_on_the_next_power() {
    // Exponent gap 0: x = s = 2^e gives exactly 2^(e+1), which the unit must apply.
    for e in [-1022, -3, 0, 1, 52, 1022] {
        let s = 2f64.powi(e);
        let b = Binade::of::<F64>(s.to_bits()).unwrap();
        let u = binade::unit::term_unit::<F64>(b, s.to_bits());
        assert_eq!(
            apply::<F64>(u, b, s.to_bits()),
            Some((s + s).to_bits()),
            "e = {e}"
        );
    }
}

#[test]
fn the_layout_is_one_set_of_numbers_given_to_the_kernels() {
    use binade::layout::{
        chunk_count, defines, CHUNK, GROUP, LANES, OP_PER_THREAD, OP_THREADS, OP_TILE, PER_LANE,
        PLAN_NEGATIVE, SIGNED_STAGE, STAGE,
    };
    let want: Vec<(&str, String)> = [
        ("BINADE_LANES", LANES),
        ("BINADE_PER_LANE", PER_LANE),
        ("BINADE_CHUNK", CHUNK),
        ("BINADE_GROUP", GROUP),
        ("BINADE_STAGE", STAGE),
        ("BINADE_OP_THREADS", OP_THREADS),
        ("BINADE_OP_PER_THREAD", OP_PER_THREAD),
        ("BINADE_OP_TILE", OP_TILE),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .chain([
        ("BINADE_SIGNED_STAGE", SIGNED_STAGE.to_string()),
        ("BINADE_PLAN_NEGATIVE", format!("{PLAN_NEGATIVE:#x}u")),
    ])
    .collect();
    assert_eq!(defines(), want);
    // Every f64 exponent field lies below the negative-plan bit.
    assert!(PLAN_NEGATIVE > 0x7ff && PLAN_NEGATIVE.is_power_of_two());
    assert_eq!(CHUNK, LANES * PER_LANE);
    assert_eq!(OP_TILE, OP_THREADS * OP_PER_THREAD);
    // The one-pass kernel refuses to compile without its own.
    let op_guard = binade::gpu::ordered_sum::onepass::SOURCE
        .lines()
        .find(|l| l.starts_with("#if !defined(BINADE_OP_THREADS)"))
        .expect("kernels/ordered_sum_onepass.cu guards its layout defines");
    for (name, _) in &want[5..8] {
        assert!(
            op_guard.contains(&format!("!defined({name})")),
            "{name} unguarded in the one-pass kernel"
        );
    }
    let want: Vec<_> = want[..5].iter().chain(&want[8..]).collect();
    // The kernels refuse to compile without each of them.
    let guard = binade::gpu::ordered_sum::SOURCE
        .lines()
        .find(|l| l.starts_with("#if !defined(BINADE_LANES)"))
        .expect("kernels/ordered_sum.cu guards its layout defines");
    for (name, _) in want {
        assert!(
            guard.contains(&format!("!defined({name})")),
            "{name} unguarded"
        );
    }
    for (n, chunks) in [(0, 0), (1, 1), (CHUNK - 1, 1), (CHUNK, 1), (CHUNK + 1, 2)] {
        assert_eq!(chunk_count(n), chunks, "{n} terms");
    }
}

#[test]
fn the_walk_counts_every_chunk_once() {
    // Start +0 is in no binade, so the first chunk is term by term; the rest apply.
    let terms = vec![0.5f64; 5 * binade::layout::CHUNK + 7];
    let w = pipeline::<F64, Exact>(&terms, &PlanKind::TreePrefix, None, &Exact);
    assert_eq!(w.total.to_bits(), loop_sum::<F64>(&terms).to_bits());
    assert_eq!((w.applied, w.fallback), (5, 1));
    let t = pipeline::<F64, Exact>(&terms, &PlanKind::TermByTerm, None, &Exact);
    assert_eq!((t.applied, t.fallback), (0, 6));
}
