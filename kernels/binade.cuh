/* binade.cuh: the per-binade integer algebra of ordered sums, written once for the device
 * (CUDA, NVRTC) and for host C++ (compiled by build.rs), in behaviour equal to src/unit.rs.
 *
 * A positive normal sum in binade b (its biased exponent field) is m * u with
 * u = 2^(b - BIAS - FRAC) and an integer m in [2^FRAC, 2^(FRAC+1)). Adding x >= 0 rounds to
 * (m + r) * u; on an exact tie r depends on the parity of m, so a run of terms is a unit: a
 * pair of increments for an even and for an odd start. No floating-point operation is used.
 *
 * BINADE_MUTANT selects one deliberate defect by its index in Rust's Mutant::ALL (0: none).
 */
#ifndef BINADE_CUH
#define BINADE_CUH

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define BINADE_FN static inline __host__ __device__
#else
#define BINADE_FN static inline
#endif

#ifndef BINADE_MUTANT
#define BINADE_MUTANT 0
#endif

/* Mutant codes: the order of Mutant::ALL in src/mutant.rs. */
#define BINADE_M_TIE_ALWAYS_UP 1
#define BINADE_M_TIE_ALWAYS_DOWN 2
#define BINADE_M_PARITY_IGNORED 3
#define BINADE_M_NO_BINADE_CHECK 4
#define BINADE_M_NO_UPPER_CHECK 5
#define BINADE_M_STICKY_IGNORED 6
#define BINADE_M_GAP_OFF_BY_ONE 7
#define BINADE_M_NO_SATURATION 8
#define BINADE_M_SUBNORMAL_IMPLICIT_BIT 9
#define BINADE_M_LANDING_REFUSED 10
#define BINADE_M_HALF_MISPLACED 11
#define BINADE_M_NEGATIVE_AS_POSITIVE 12

/* The pair of increments of a run of terms; BINADE_SATURATED in a slot: leaves the binade. */
struct binade_unit {
    unsigned long long even, odd;
};

/* Never applies in any format here (2^62 > 2^53), and two of them add without overflow. */
#define BINADE_SATURATED (1ull << 62)

/* A format: stored fraction bits and exponent bits. */
#define BINADE_F64_FRAC 52u
#define BINADE_F64_EXP 11u
#define BINADE_F32_FRAC 23u
#define BINADE_F32_EXP 8u

BINADE_FN binade_unit binade_unit_make(unsigned long long even, unsigned long long odd) {
    binade_unit u;
    u.even = even;
    u.odd = odd;
    return u;
}

/* The identity of composition (an empty run). */
BINADE_FN binade_unit binade_unit_zero(void) { return binade_unit_make(0ull, 0ull); }

/* A unit that applies to no start (negative, non-finite or too large runs). */
BINADE_FN binade_unit binade_unit_invalid(void) {
    return binade_unit_make(BINADE_SATURATED, BINADE_SATURATED);
}

/* The increment for a start of parity p (only p's lowest bit is read). */
BINADE_FN unsigned long long binade_pick(binade_unit u, unsigned long long p) {
    return (p & 1ull) ? u.odd : u.even;
}

/* Saturating add of two increments, each at most BINADE_SATURATED. */
BINADE_FN unsigned long long binade_sat_add(unsigned long long a, unsigned long long b) {
#if BINADE_MUTANT == BINADE_M_NO_SATURATION
    return a + b; /* wraps modulo 2^64 */
#else
    unsigned long long s = a + b;
    return s < BINADE_SATURATED ? s : BINADE_SATURATED;
#endif
}

/* mx << up, saturated at BINADE_SATURATED (mx >= 1). */
BINADE_FN unsigned long long binade_shl_sat(unsigned long long mx, unsigned long long up) {
#if BINADE_MUTANT == BINADE_M_NO_SATURATION
    return up >= 64 ? 0ull : (mx << up);
#else
    if (up >= 62 || mx > (BINADE_SATURATED >> up)) return BINADE_SATURATED;
    return mx << up;
#endif
}

/* mx / 2^g rounded to an integer, a tie resolved by the start's parity (1 <= g <= 63). */
BINADE_FN binade_unit binade_round_quotient(unsigned long long mx, unsigned int g) {
    unsigned long long q = mx >> g;
    unsigned long long rem = mx & ((1ull << g) - 1ull);
#if BINADE_MUTANT == BINADE_M_HALF_MISPLACED
    unsigned long long half = g >= 2 ? (1ull << (g - 2)) : (1ull << (g - 1));
#else
    unsigned long long half = 1ull << (g - 1);
#endif
#if BINADE_MUTANT == BINADE_M_STICKY_IGNORED
    int side = (rem & half) ? 0 : -1;
#else
    int side = rem < half ? -1 : (rem > half ? 1 : 0);
#endif
    if (side < 0) return binade_unit_make(q, q);
    if (side > 0) return binade_unit_make(q + 1ull, q + 1ull);
#if BINADE_MUTANT == BINADE_M_TIE_ALWAYS_UP
    return binade_unit_make(q + 1ull, q + 1ull);
#elif BINADE_MUTANT == BINADE_M_TIE_ALWAYS_DOWN
    return binade_unit_make(q, q);
#else
    /* m + r must come out even: an even start keeps q when q is even. */
    return binade_unit_make(q + (q & 1ull), q + 1ull - (q & 1ull));
#endif
}

/* The unit of one term x (bits of a format with `frac` fraction and `exp` exponent bits,
 * in the low bits of x) for sums in binade `binade`. */
BINADE_FN binade_unit binade_term_unit_fmt(unsigned int binade, unsigned long long x, unsigned int frac,
                                           unsigned int exp) {
    const unsigned long long frac_mask = (1ull << frac) - 1ull;
    const unsigned long long exp_ones = (1ull << exp) - 1ull;
    const unsigned long long sign = 1ull << (frac + exp);
    const unsigned long long hidden = 1ull << frac;
    unsigned long long magnitude = x & (sign - 1ull);
    if (magnitude == 0ull) return binade_unit_zero(); /* +0 and -0 add nothing */
    unsigned long long field = (x >> frac) & exp_ones;
    if (field == exp_ones) return binade_unit_invalid(); /* infinity, NaN */
#if BINADE_MUTANT != BINADE_M_NEGATIVE_AS_POSITIVE
    if (x & sign) return binade_unit_invalid();
#endif
    unsigned long long f = x & frac_mask;
    unsigned long long mx = field == 0ull ? f : (f | hidden);
    long long ex = field == 0ull ? 1 : (long long)field;
#if BINADE_MUTANT == BINADE_M_SUBNORMAL_IMPLICIT_BIT
    if (field == 0ull && f != 0ull) mx |= hidden;
#endif
    if (mx == 0ull) return binade_unit_zero();
    long long gap = (long long)binade - ex;
#if BINADE_MUTANT == BINADE_M_GAP_OFF_BY_ONE
    gap += 1;
#endif
    if (gap <= 0) {
        unsigned long long r = binade_shl_sat(mx, (unsigned long long)(-gap));
        return binade_unit_make(r, r);
    }
    if (gap > (long long)frac + 2) return binade_unit_zero(); /* below a quarter of u */
    return binade_round_quotient(mx, (unsigned int)gap);
}

/* Applies u (computed for `binade`) to the start s; returns 1 and the result's bits in *out,
 * or 0 when the unit does not apply (s not a positive normal in the binade, or the result
 * passes 2^(e+1)). Landing exactly on 2^(e+1) applies. */
BINADE_FN int binade_apply_fmt(binade_unit u, unsigned int binade, unsigned long long s, unsigned int frac,
                               unsigned int exp, unsigned long long *out) {
    const unsigned long long sign = 1ull << (frac + exp);
    const unsigned long long all = (sign << 1) - 1ull;
    const unsigned long long hidden = 1ull << frac;
    const unsigned long long top = hidden << 1; /* 2^(e+1) at this binade's quantum */
#if BINADE_MUTANT != BINADE_M_NO_BINADE_CHECK
    const unsigned long long exp_ones = (1ull << exp) - 1ull;
    unsigned long long field = (s >> frac) & exp_ones;
    int in_binade = !(s & sign) && field != 0ull && field != exp_ones && field == (unsigned long long)binade;
    if (!in_binade) return 0;
#endif
    unsigned long long m = (s & (hidden - 1ull)) | hidden;
    unsigned long long end = m + binade_pick(u, m);
#if BINADE_MUTANT == BINADE_M_NO_UPPER_CHECK
    (void)top;
#else
    if (end > top) return 0;
#endif
#if BINADE_MUTANT == BINADE_M_LANDING_REFUSED
    if (end == top) return 0;
#endif
    /* For end == top this carries into the exponent: exactly 2^(e+1). */
    *out = (((unsigned long long)binade << frac) + (end - hidden)) & all;
    return 1;
}

/* The unit of one f64 term (bits x_bits) for sums in binade `binade`: zeros give (0, 0),
 * negative, infinite and NaN terms give (SATURATED, SATURATED), terms at or above 2^e
 * saturate. Equal to term_unit::<F64> in src/unit.rs. */
BINADE_FN binade_unit binade_term_unit_f64(unsigned int binade, unsigned long long x_bits) {
    return binade_term_unit_fmt(binade, x_bits, BINADE_F64_FRAC, BINADE_F64_EXP);
}

/* The unit of one f32 term; equal to term_unit::<F32> in src/unit.rs. */
BINADE_FN binade_unit binade_term_unit_f32(unsigned int binade, unsigned int x_bits) {
    return binade_term_unit_fmt(binade, (unsigned long long)x_bits, BINADE_F32_FRAC, BINADE_F32_EXP);
}

/* a then b: for start parity p, a[p] + b[(p + a[p]) mod 2], saturating. Associative with
 * identity (0, 0); not commutative. Equal to compose in src/unit.rs. */
BINADE_FN binade_unit binade_compose(binade_unit a, binade_unit b) {
#if BINADE_MUTANT == BINADE_M_PARITY_IGNORED
    return binade_unit_make(binade_sat_add(a.even, b.even), binade_sat_add(a.odd, b.odd));
#else
    return binade_unit_make(binade_sat_add(a.even, binade_pick(b, a.even)),
                            binade_sat_add(a.odd, binade_pick(b, 1ull + a.odd)));
#endif
}

/* apply::<F64> of src/unit.rs: 1 and the bits of the exact result, or 0 (does not apply). */
BINADE_FN int binade_apply_f64(binade_unit u, unsigned int binade, unsigned long long s_bits,
                               unsigned long long *out) {
    return binade_apply_fmt(u, binade, s_bits, BINADE_F64_FRAC, BINADE_F64_EXP, out);
}

/* apply::<F32> of src/unit.rs. */
BINADE_FN int binade_apply_f32(binade_unit u, unsigned int binade, unsigned int s_bits, unsigned int *out) {
    unsigned long long r = 0ull;
    int ok = binade_apply_fmt(u, binade, (unsigned long long)s_bits, BINADE_F32_FRAC, BINADE_F32_EXP, &r);
    if (ok) *out = (unsigned int)r;
    return ok;
}

/* The binade of a positive normal f64 (its exponent field), 0 for anything else (zero,
 * subnormal, negative, infinite, NaN): the plan's "term by term". */
BINADE_FN unsigned int binade_of_f64(unsigned long long s_bits) {
    unsigned long long field = (s_bits >> BINADE_F64_FRAC) & 0x7ffull;
    if ((s_bits >> 63) || field == 0x7ffull) return 0u;
    return (unsigned int)field;
}

/* The binade of a positive normal f32, 0 for anything else. */
BINADE_FN unsigned int binade_of_f32(unsigned int s_bits) {
    unsigned int field = (s_bits >> BINADE_F32_FRAC) & 0xffu;
    if ((s_bits >> 31) || field == 0xffu) return 0u;
    return field;
}

/* Signed units (src/signed_unit.rs, whose argument this follows). For a start of each parity
 * a run of terms of either sign has a reach: its increment and the lowest and highest
 * increment after any of its terms (the running offsets). While every offset t keeps
 * 2^FRAC + 1 <= m + t <= 2^(FRAC+1) - 1, each exact partial sum lies within half a quantum
 * of (m + t) * u, inside the binade, rounded at u as modelled; so the run's end is m + inc.
 * A negative term's increment is the negation of its magnitude's (rounding to nearest, ties
 * to even, commutes with negation, and a tie's parity rule is the same either way). Offsets
 * saturate at +-BINADE_SIGNED_SAT, which never satisfies the bounds.
 *
 * BINADE_SIGNED_MUTANT selects one deliberate defect by its index in Rust's SignedFault::ALL
 * (0: none): 1 the bounds ignored in apply, 2 a negative term's sign dropped, 3 min and max
 * swapped in composition. */
#ifndef BINADE_SIGNED_MUTANT
#define BINADE_SIGNED_MUTANT 0
#endif
#define BINADE_SM_BOUNDS_IGNORED 1
#define BINADE_SM_SIGN_FLIPPED 2
#define BINADE_SM_MIN_MAX_SWAPPED 3

/* Offsets beyond this magnitude leave every binade (2^62 > 2^(FRAC+1) for every format
 * here); two of them add without overflowing a signed 64-bit integer. */
#define BINADE_SIGNED_SAT (1ll << 62)

/* One start parity's reach: the run's increment and its lowest and highest running offset
 * (lo = +SAT, hi = -SAT for the empty run). */
struct binade_reach {
    long long inc, lo, hi;
};

/* A signed run's reaches for an even and an odd start, and two flags: every term is
 * non-negative (zeros of either sign count as such), no term is NaN or infinite. */
struct binade_signed {
    binade_reach even, odd;
    unsigned int nonneg, valid;
};

BINADE_FN long long binade_ssat(long long v) {
    return v < -BINADE_SIGNED_SAT ? -BINADE_SIGNED_SAT : (v > BINADE_SIGNED_SAT ? BINADE_SIGNED_SAT : v);
}

/* a + b clamped to +-SAT, for |a|, |b| <= SAT: their sum lies in [-2^63, 2^63] and only
 * +2^63 (both +SAT) is not representable, so that case is caught before adding. */
BINADE_FN long long binade_ssat_add(long long a, long long b) {
    if (a > 0 && b > BINADE_SIGNED_SAT - a) return BINADE_SIGNED_SAT;
    return binade_ssat(a + b);
}

BINADE_FN binade_reach binade_reach_make(long long inc, long long lo, long long hi) {
    binade_reach r;
    r.inc = inc;
    r.lo = lo;
    r.hi = hi;
    return r;
}

/* The empty run: the identity of binade_signed_compose. */
BINADE_FN binade_signed binade_signed_zero(void) {
    binade_signed u;
    u.even = binade_reach_make(0, BINADE_SIGNED_SAT, -BINADE_SIGNED_SAT);
    u.odd = u.even;
    u.nonneg = 1u;
    u.valid = 1u;
    return u;
}

/* The reach for a start of parity p (only p's lowest bit is read; two's complement makes
 * (p & 1) the Euclidean remainder for negative p as well). */
BINADE_FN binade_reach binade_signed_pick(binade_signed u, long long p) { return (p & 1ll) ? u.odd : u.even; }

/* The signed unit of one term (bits of a format with `frac` fraction and `exp` exponent
 * bits) for sums in binade `binade`: its magnitude's unit (binade_term_unit_fmt), negated for
 * a negative non-zero term; a NaN or infinite term makes the unit invalid. */
BINADE_FN binade_signed binade_signed_term_fmt(unsigned int binade, unsigned long long x, unsigned int frac,
                                               unsigned int exp) {
    const unsigned long long sign = 1ull << (frac + exp);
    const unsigned long long exp_ones = (1ull << exp) - 1ull;
    binade_signed u = binade_signed_zero();
    if (((x >> frac) & exp_ones) == exp_ones) {
        u.valid = 0u;
        return u;
    }
    unsigned long long magnitude = x & (sign - 1ull);
    int negative = (x & sign) && magnitude != 0ull;
    binade_unit m = binade_term_unit_fmt(binade, magnitude, frac, exp);
    long long even = (long long)(m.even < (unsigned long long)BINADE_SIGNED_SAT ? m.even : BINADE_SIGNED_SAT);
    long long odd = (long long)(m.odd < (unsigned long long)BINADE_SIGNED_SAT ? m.odd : BINADE_SIGNED_SAT);
#if BINADE_SIGNED_MUTANT != BINADE_SM_SIGN_FLIPPED
    if (negative) {
        even = -even;
        odd = -odd;
    }
#endif
    u.even = binade_reach_make(even, even, even);
    u.odd = binade_reach_make(odd, odd, odd);
    u.nonneg = negative ? 0u : 1u;
    return u;
}

/* a's reach ra (for some start parity p), then b from the parity after a, p + ra.inc. */
BINADE_FN binade_reach binade_reach_then(binade_reach ra, long long p, binade_signed b) {
    binade_reach rb = binade_signed_pick(b, p + ra.inc);
    long long lo = binade_ssat_add(ra.inc, rb.lo), hi = binade_ssat_add(ra.inc, rb.hi);
#if BINADE_SIGNED_MUTANT == BINADE_SM_MIN_MAX_SWAPPED
    if (rb.lo != BINADE_SIGNED_SAT) {
        lo = binade_ssat_add(ra.inc, rb.hi);
        hi = binade_ssat_add(ra.inc, rb.lo);
    }
#endif
    return binade_reach_make(binade_ssat_add(ra.inc, rb.inc), ra.lo < lo ? ra.lo : lo, ra.hi > hi ? ra.hi : hi);
}

/* a then b: associative, the empty run its identity; equal to compose in src/signed_unit.rs. */
BINADE_FN binade_signed binade_signed_compose(binade_signed a, binade_signed b) {
    binade_signed u;
    u.even = binade_reach_then(a.even, 0, b);
    u.odd = binade_reach_then(a.odd, 1, b);
    u.nonneg = a.nonneg & b.nonneg;
    u.valid = a.valid & b.valid;
    return u;
}

/* Applies a signed unit (computed for `binade`) to the start s: 1 and the result's bits in
 * *out, or 0 when s is not a positive normal in the binade or the bounds do not hold. A
 * non-negative run keeps the unsigned rule (its end at most 2^(e+1), landing on it applies);
 * any other run needs every running offset a quantum inside the binade. Equal to apply in
 * src/signed_unit.rs. */
BINADE_FN int binade_signed_apply_fmt(binade_signed u, unsigned int binade, unsigned long long s, unsigned int frac,
                                      unsigned int exp, unsigned long long *out) {
    const unsigned long long sign = 1ull << (frac + exp);
    const unsigned long long all = (sign << 1) - 1ull;
    const unsigned long long hidden = 1ull << frac;
    const unsigned long long exp_ones = (1ull << exp) - 1ull;
    unsigned long long field = (s >> frac) & exp_ones;
    if (!u.valid || (s & sign) || field == 0ull || field == exp_ones || field != (unsigned long long)binade) return 0;
    const long long bottom = (long long)hidden, top = (long long)(hidden << 1);
    long long m = (long long)((s & (hidden - 1ull)) | hidden);
    binade_reach r = binade_signed_pick(u, m);
    long long end = m + r.inc;
    int inside;
#if BINADE_SIGNED_MUTANT == BINADE_SM_BOUNDS_IGNORED
    inside = end >= bottom && end <= top;
#else
    if (u.nonneg) {
        inside = end >= bottom && end <= top;
    } else {
        inside = (r.lo == BINADE_SIGNED_SAT || m + r.lo > bottom) && (r.hi == -BINADE_SIGNED_SAT || m + r.hi < top);
    }
#endif
    if (!inside) return 0;
    /* For end == top (non-negative runs only) this carries into the exponent: 2^(e+1). */
    *out = (((unsigned long long)binade << frac) + (unsigned long long)(end - bottom)) & all;
    return 1;
}

/* Signed plan codes need BINADE_PLAN_NEGATIVE from the layout defines
 * (src/layout_values.rs PLAN_NEGATIVE), which builds without them do not use. */
#ifdef BINADE_PLAN_NEGATIVE

/* A plan's code for the signed units: the binade field of |prefix| for a normal finite
 * prefix, with BINADE_PLAN_NEGATIVE set where the prefix is negative; 0 (term by term) for
 * zeros, subnormals, infinities and NaN. */
BINADE_FN unsigned int binade_plan_code_f64(unsigned long long s_bits) {
    unsigned int b = binade_of_f64(s_bits & 0x7fffffffffffffffull);
    if (b == 0u) return 0u;
    return (s_bits >> 63) ? (b | BINADE_PLAN_NEGATIVE) : b;
}

/* The sign bit a signed plan code flips in the terms and in the sum: a run from -|s| is the
 * negation of the run from |s| over the negated terms. */
BINADE_FN unsigned long long binade_plan_flip_f64(unsigned int code) {
    return (code & BINADE_PLAN_NEGATIVE) ? (1ull << 63) : 0ull;
}

/* Applies a signed f64 unit computed under plan `code` (its terms' signs flipped by
 * binade_plan_flip_f64) to s: 1 and the result's bits, or 0. */
BINADE_FN int binade_signed_apply_planned_f64(binade_signed u, unsigned int code, unsigned long long s,
                                              unsigned long long *out) {
    const unsigned long long flip = binade_plan_flip_f64(code);
    unsigned long long r = 0ull;
    if (code == 0u || !binade_signed_apply_fmt(u, code & ~BINADE_PLAN_NEGATIVE, s ^ flip, BINADE_F64_FRAC,
                                               BINADE_F64_EXP, &r))
        return 0;
    *out = r ^ flip;
    return 1;
}

#endif /* BINADE_PLAN_NEGATIVE */

#endif /* BINADE_CUH */
