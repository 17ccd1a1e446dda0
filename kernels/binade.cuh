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

#endif /* BINADE_CUH */
