//! Plans: names round-trip, shifted plans move every binade by one, seeded plans repeat.

use binade::format::F64;
use binade::plan::{make, tree_prefix, PlanKind};
use binade::unit::Binade;

#[test]
fn every_plan_name_parses_back() {
    let mut families = std::collections::BTreeSet::new();
    for kind in PlanKind::standard(42) {
        let name = kind.name();
        assert_eq!(name.parse::<PlanKind>(), Ok(kind.clone()), "{name}");
        assert_eq!(kind.to_string(), name);
        assert!(
            name.starts_with(kind.family()),
            "{name} vs {}",
            kind.family()
        );
        families.insert(kind.family());
    }
    assert_eq!(families.len(), 8, "families must be distinct: {families:?}");
    assert!("fixed:x".parse::<PlanKind>().is_err());
    assert_eq!("random".parse::<PlanKind>(), Ok(PlanKind::Random(1)));
    assert!("purple".parse::<PlanKind>().is_err());
}

#[test]
fn shifted_plans_move_every_planned_binade_by_one() {
    let sums: Vec<f64> = (0..40).map(|i| 0.75 * 1.9f64.powi(i)).collect();
    let base = tree_prefix::<F64>(&sums);
    let high = make::<F64>(&PlanKind::OneTooHigh, &sums, None);
    let low = make::<F64>(&PlanKind::OneTooLow, &sums, None);
    assert_eq!(base.binades[0], None, "an empty prefix plans term by term");
    for i in 1..sums.len() {
        let b = base.binades[i].unwrap();
        assert_eq!(high.binades[i].unwrap().0, b.0 + 1, "chunk {i}");
        assert_eq!(low.binades[i].unwrap().0, b.0 - 1, "chunk {i}");
        assert_eq!(Binade::from_exponent::<F64>(b.exponent::<F64>()), Some(b));
    }
    assert_eq!(
        make::<F64>(&PlanKind::AllZero, &sums, None).binades[3],
        Binade::from_exponent::<F64>(0)
    );
    assert_eq!(Binade::from_exponent::<F64>(0), Some(Binade(1023)));
    assert_eq!(
        make::<F64>(&PlanKind::Fixed(10), &sums, None).binades[5],
        Some(Binade(1033))
    );
    assert!(make::<F64>(&PlanKind::TermByTerm, &sums, None)
        .binades
        .iter()
        .all(Option::is_none));
    let stale = make::<F64>(&PlanKind::Stale, &sums, Some(&sums[..10]));
    assert_eq!(&stale.binades[..10], &base.binades[..10]);
    assert!(stale.binades[10..].iter().all(Option::is_none));
    let r1 = make::<F64>(&PlanKind::Random(5), &sums, None);
    assert_eq!(r1, make::<F64>(&PlanKind::Random(5), &sums, None), "seeded");
    assert_ne!(r1, make::<F64>(&PlanKind::Random(6), &sums, None));
}

#[test]
fn random_plans_send_about_one_chunk_in_eight_term_by_term() {
    let sums = vec![1.0f64; 8000];
    for seed in [1u64, 7, 99] {
        let plan = make::<F64>(&PlanKind::Random(seed), &sums, None);
        let none = plan.binades.iter().filter(|b| b.is_none()).count();
        assert!(
            (500..1500).contains(&none),
            "seed {seed}: {none} of 8000 chunks term by term, expected about 1000"
        );
        assert!(plan
            .binades
            .iter()
            .flatten()
            .all(|b| b.0 >= 1 && b.0 <= 2046));
    }
}
