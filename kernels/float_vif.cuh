/* Float VIF arithmetic shared by the device kernels (kernels/float_vif.cu) and the host
 * (kernels/float_vif_host.cpp): libvmaf's float_vif statistic, log2f_approx, the mirrored
 * separable filter steps and the ordered row sums, one output per call, over explicit
 * indices.
 *
 * Every rounding is explicit. On the device each operation is a round-to-nearest intrinsic
 * (__fmul_rn, __fadd_rn, __fsub_rn, __fdiv_rn, __dadd_rn, __ddiv_rn, __double2float_rn); on
 * the host the same macros are the plain operators, compiled with -ffp-contract=off. The
 * types are the CPU's: fp32 moments and terms, vif_sigma_nsq in fp64, both log arguments
 * formed in fp64 and rounded to fp32 once.
 *
 * Replay switches (for the experiment that reintroduces the differences one at a time):
 *   FVIF_DEVICE_LOG2  the device's log2f instead of log2f_approx (device only)
 *   FVIF_STAT_F32     vif_sigma_nsq rounded to fp32 and the quotients in fp32
 */
#ifndef FLOAT_VIF_CUH
#define FLOAT_VIF_CUH

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define FVIF_FN static inline __host__ __device__
#else
#define FVIF_FN static inline
#include <math.h>
#include <string.h>
#endif

#if defined(__CUDA_ARCH__)
#define FV_FMUL(a, b) __fmul_rn((a), (b))
#define FV_FADD(a, b) __fadd_rn((a), (b))
#define FV_FSUB(a, b) __fsub_rn((a), (b))
#define FV_FDIV(a, b) __fdiv_rn((a), (b))
#define FV_DADD(a, b) __dadd_rn((a), (b))
#define FV_DDIV(a, b) __ddiv_rn((a), (b))
#define FV_D2F(a) __double2float_rn(a)
#define FV_DMUL(a, b) __dmul_rn((a), (b))
#define FV_DSUB(a, b) __dsub_rn((a), (b))
#define FV_RINT(a) rint(a)
#else
#define FV_FMUL(a, b) ((a) * (b))
#define FV_FADD(a, b) ((a) + (b))
#define FV_FSUB(a, b) ((a) - (b))
#define FV_FDIV(a, b) ((a) / (b))
#define FV_DADD(a, b) ((a) + (b))
#define FV_DDIV(a, b) ((a) / (b))
#define FV_D2F(a) ((float)(a))
#define FV_DMUL(a, b) ((a) * (b))
#define FV_DSUB(a, b) ((a) - (b))
#define FV_RINT(a) nearbyint(a) /* round half to even in the default rounding mode */
#endif

/* The widest filter of any accepted kernel scale (scale 0 at 360/97). */
#define FVIF_MAX_TAPS 65

/* What the vertical pass multiplies by a tap. */
#define FVIF_PLAIN 0
#define FVIF_SQUARE 1
#define FVIF_PRODUCT 2

/* One scale's taps, handed in by value from the host routine that derives them. */
struct fvif_taps {
    int width;
    float tap[FVIF_MAX_TAPS];
};

/* The statistic's parameters as the CPU holds them. */
struct fvif_params {
    float gain_limit;    /* (float) vif_enhn_gain_limit */
    float sigma_max_inv; /* powf(sigma_nsq, 2) / (255 * 255), rounded to fp32 */
    double sigma_nsq;    /* vif_sigma_nsq, fp64 */
};

FVIF_FN unsigned int fvif_f2u(float x) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    unsigned int u;
    memcpy(&u, &x, sizeof u);
    return u;
#endif
}

FVIF_FN float fvif_u2f(unsigned int u) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
#endif
}

FVIF_FN double fvif_u64_to_double(unsigned long long u) {
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)u);
#else
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
#endif
}

/* libvmaf's log2f_approx: -inf for zero, the quiet NaN 0x7fc00000 for negative input, else
 * (exponent field - 127) plus Horner's rule in fp32 over the mantissa minus one, with the
 * nine fp32 coefficients (the reference's double literals rounded to fp32; the last is 0). */
FVIF_FN float fvif_log2_approx(float x) {
    if (x == 0.0f) return fvif_u2f(0xff800000u);
    if (x < 0.0f) return fvif_u2f(0x7fc00000u);
    const unsigned int poly[9] = {0xbc4f9cb1u, 0x3d84cb74u, 0xbe20d169u, 0x3e83ab7du, 0xbeb52559u,
                                  0x3ef5d3c9u, 0xbf38a80eu, 0x3fb8aa39u, 0x00000000u};
    unsigned int u = fvif_f2u(x);
    int exponent = (int)((u & 0x7f800000u) >> 23);
    float remain = fvif_u2f((u & 0x007fffffu) | 0x3f800000u);
    float log_base = (float)(exponent - 127);
    float r = FV_FSUB(remain, 1.0f);
    float v = 0.0f;
    for (int k = 0; k < 9; ++k) v = FV_FADD(FV_FMUL(v, r), fvif_u2f(poly[k]));
    return FV_FADD(log_base, v);
}

/* The logarithm the statistic uses: log2f_approx, or the device's log2f under the replay
 * switch FVIF_DEVICE_LOG2. */
FVIF_FN float fvif_log2(float x) {
#if defined(FVIF_DEVICE_LOG2) && defined(__CUDA_ARCH__)
    return log2f(x);
#else
    return fvif_log2_approx(x);
#endif
}

/* The reference's MAX and MIN: a > b ? a : b and a < b ? a : b. */
FVIF_FN float fvif_max(float a, float b) { return a > b ? a : b; }
FVIF_FN float fvif_min(float a, float b) { return a < b ? a : b; }

/* One pixel's numerator and denominator terms from its five filtered moments:
 * vif_statistic_s's loop body operation for operation. */
FVIF_FN void fvif_pixel_terms(float mu1, float mu2, float xx, float yy, float xy, const struct fvif_params *p,
                              float *num_out, float *den_out) {
    const float eps = 1.0e-10f;
    float mu1_sq = FV_FMUL(mu1, mu1);
    float mu2_sq = FV_FMUL(mu2, mu2);
    float mu1_mu2 = FV_FMUL(mu1, mu2);
    float sigma1_sq = FV_FSUB(xx, mu1_sq);
    float sigma2_sq = FV_FSUB(yy, mu2_sq);
    float sigma12 = FV_FSUB(xy, mu1_mu2);

    sigma1_sq = fvif_max(sigma1_sq, 0.0f);
    sigma2_sq = fvif_max(sigma2_sq, 0.0f);

    float g = FV_FDIV(sigma12, FV_FADD(sigma1_sq, eps));
    float sv_sq = FV_FSUB(sigma2_sq, FV_FMUL(g, sigma12));

    if (sigma1_sq < eps) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (sigma2_sq < eps) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (g < 0.0f) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = fvif_max(sv_sq, eps);
    g = fvif_min(g, p->gain_limit);

    float gain = FV_FMUL(FV_FMUL(g, g), sigma1_sq);
#if defined(FVIF_STAT_F32)
    float s = FV_D2F(p->sigma_nsq);
    float num_arg = FV_FADD(1.0f, FV_FDIV(gain, FV_FADD(sv_sq, s)));
    float den_arg = FV_FADD(1.0f, FV_FDIV(sigma1_sq, s));
    int below = sigma1_sq < s;
#else
    float num_arg = FV_D2F(FV_DADD(1.0, FV_DDIV((double)gain, FV_DADD((double)sv_sq, p->sigma_nsq))));
    float den_arg = FV_D2F(FV_DADD(1.0, FV_DDIV((double)sigma1_sq, p->sigma_nsq)));
    int below = (double)sigma1_sq < p->sigma_nsq;
#endif
    float num = fvif_log2(num_arg);
    float den = fvif_log2(den_arg);

    if (sigma12 < 0.0f) num = 0.0f;
    if (below) {
        num = FV_FSUB(1.0f, FV_FMUL(sigma2_sq, p->sigma_max_inv));
        den = 1.0f;
    }
    *num_out = num;
    *den_out = den;
}

/* reflect_101 of index i into [0, n): -i above, 2n - i - 2 below. */
FVIF_FN int fvif_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

/* The vertical pass at row i, column j of a w x h plane (row-major, no padding):
 * acc = 0; acc += tap[k] * v(k) in tap order, where v is a's sample (FVIF_PLAIN), its square
 * (FVIF_SQUARE) or the product of a's and b's samples (FVIF_PRODUCT). */
FVIF_FN float fvif_vertical(const struct fvif_taps *t, const float *a, const float *b, int kind, int w, int h, int i,
                            int j) {
    int radius = t->width / 2;
    float acc = 0.0f;
    for (int k = 0; k < t->width; ++k) {
        long long idx = (long long)fvif_mirror(i - radius + k, h) * w + j;
        float x = a[idx];
        float v = kind == FVIF_PLAIN ? x : (kind == FVIF_SQUARE ? FV_FMUL(x, x) : FV_FMUL(x, b[idx]));
        acc = FV_FADD(acc, FV_FMUL(t->tap[k], v));
    }
    return acc;
}

/* The horizontal pass at column j of one fp32 row of w samples. */
FVIF_FN float fvif_horizontal(const struct fvif_taps *t, const float *row, int w, int j) {
    int radius = t->width / 2;
    float acc = 0.0f;
    for (int k = 0; k < t->width; ++k) acc = FV_FADD(acc, FV_FMUL(t->tap[k], row[fvif_mirror(j - radius + k, w)]));
    return acc;
}

/* The five vertical passes at row i, column j of a scale: mu1 (r), mu2 (d), xx (r squared),
 * yy (d squared), xy (r times d), written to five consecutive w x h planes of v. */
FVIF_FN void fvif_vertical5_at(const struct fvif_taps *t, const float *r, const float *d, int w, int h, int i, int j,
                               float *v) {
    long long plane = (long long)w * h;
    long long at = (long long)i * w + j;
    v[at] = fvif_vertical(t, r, r, FVIF_PLAIN, w, h, i, j);
    v[plane + at] = fvif_vertical(t, d, d, FVIF_PLAIN, w, h, i, j);
    v[2 * plane + at] = fvif_vertical(t, r, r, FVIF_SQUARE, w, h, i, j);
    v[3 * plane + at] = fvif_vertical(t, d, d, FVIF_SQUARE, w, h, i, j);
    v[4 * plane + at] = fvif_vertical(t, r, d, FVIF_PRODUCT, w, h, i, j);
}

#if defined(FVIF_SEGMENTS)
/* The row pitch of the segment-interleaved layout (layout 2) for rows of w terms: the
 * segments' common length ceil(w / FVIF_SEGMENTS) (fvif_segment's) times FVIF_SEGMENTS, at
 * most FVIF_SEGMENTS - 1 slots more than w; the extra slots are never written or read. */
FVIF_FN long long fvif_interleaved_pitch(int w) {
    return (long long)((w + FVIF_SEGMENTS - 1) / FVIF_SEGMENTS) * FVIF_SEGMENTS;
}
#endif

/* Where pixel (i, j) of a w x h scale keeps its terms: column by column (layout 0, so that
 * one thread per row reads neighbouring addresses), row by row (layout 1), or in
 * segment-interleaved rows (layout 2, where the host passes FVIF_SEGMENTS): term j of row i
 * is term k = j % len of segment t = j / len (len = ceil(w / FVIF_SEGMENTS), the segments
 * fvif_segment cuts), kept at i * pitch + k * FVIF_SEGMENTS + t, so that the threads of a
 * row's block, a segment each, read neighbouring addresses when each reads its segment's k-th
 * term. A layout only moves terms: every sum reads them in the order it did. */
FVIF_FN long long fvif_term_index(int layout, int w, int h, int i, int j) {
#if defined(FVIF_SEGMENTS)
    if (layout == 2) {
        const int len = (w + FVIF_SEGMENTS - 1) / FVIF_SEGMENTS;
        return (long long)i * fvif_interleaved_pitch(w) + (long long)(j % len) * FVIF_SEGMENTS + j / len;
    }
#endif
    return layout == 0 ? (long long)j * h + i : (long long)i * w + j;
}

/* Pixel (i, j)'s terms from five vertical-pass planes (mu1, mu2, xx, yy, xy, each w x h,
 * consecutive in v): the five horizontal passes, then the statistic. */
FVIF_FN void fvif_compute_at(const struct fvif_taps *t, const struct fvif_params *p, const float *v, int w, int h,
                             int i, int j, float *num, float *den) {
    long long plane = (long long)w * h;
    long long row = (long long)i * w;
    float mu1 = fvif_horizontal(t, v + row, w, j);
    float mu2 = fvif_horizontal(t, v + plane + row, w, j);
    float xx = fvif_horizontal(t, v + 2 * plane + row, w, j);
    float yy = fvif_horizontal(t, v + 3 * plane + row, w, j);
    float xy = fvif_horizontal(t, v + 4 * plane + row, w, j);
    fvif_pixel_terms(mu1, mu2, xx, yy, xy, p, num, den);
}

/* n terms added in order, `stride` apart, into one fp32 accumulator starting at start. The
 * device unrolls the loop so that loads run ahead; the adds stay in order. */
FVIF_FN float fvif_add_run(float start, const float *terms, int n, long long stride) {
    float acc = start;
#if defined(__CUDA_ARCH__)
#pragma unroll 8
#endif
    for (int k = 0; k < n; ++k) acc = FV_FADD(acc, terms[(long long)k * stride]);
    return acc;
}

/* A row's sum as the CPU forms it: left to right from +0. */
FVIF_FN float fvif_row_sum(const float *terms, int w, long long stride) { return fvif_add_run(0.0f, terms, w, stride); }

/* Segment t of T of a row of w terms: [*lo, *hi). */
FVIF_FN void fvif_segment(int t, int nseg, int w, int *lo, int *hi) {
    int len = (w + nseg - 1) / nseg;
    int a = t * len;
    int b = a + len;
    *lo = a < w ? a : w;
    *hi = b < w ? b : w;
}

/* A segment's plan estimate: its terms added in fp64 (any order would do; the walk checks). */
FVIF_FN double fvif_segment_estimate(const float *terms, int lo, int hi, long long stride) {
    double acc = 0.0;
    for (int k = lo; k < hi; ++k) acc += (double)terms[(long long)k * stride];
    return acc;
}

#if defined(BINADE_CUH) && !defined(FVIF_WITH_BINADE)
#define FVIF_WITH_BINADE 1
#endif

#if defined(FVIF_WITH_BINADE)
/* The binade algebra (kernels/binade.cuh): a row's ordered fp32 sum from per-segment units.
 * A segment's unit is the composition, in order, of its terms' units for the binade planned
 * from the estimated prefix. The walk applies a segment's unit when the running sum is in
 * that binade and the unit applies there; otherwise it adds the segment term by term. Either
 * way the result is the left-to-right fp32 sum's bits. */

/* The binade planned for a segment whose estimated start is est_start (0: none, add term by
 * term). */
FVIF_FN unsigned int fvif_plan_binade(double est_start) { return binade_of_f32(fvif_f2u(FV_D2F(est_start))); }

/* The unit of a segment's terms for binade b, composed left to right. */
FVIF_FN binade_unit fvif_segment_unit(const float *terms, int lo, int hi, long long stride, unsigned int b) {
    binade_unit u = binade_unit_zero();
    if (b == 0u) return binade_unit_invalid();
    for (int k = lo; k < hi; ++k) u = binade_compose(u, binade_term_unit_f32(b, fvif_f2u(terms[(long long)k * stride])));
    return u;
}

/* Deliberate defects of the fast unit below, for the kill matrix (0: none). The kernels pass
 * FVIF_MUTANT (a compile-time constant, so the checks fold away); the host tests pass each. */
#define FVIF_M_TIE_IGNORED 1       /* the tie check removed: ties take rint's even choice */
#define FVIF_M_NEGATIVE_ACCEPTED 2 /* the sign check removed: a negative term counts as its magnitude */
#define FVIF_M_COUNT 3
#ifndef FVIF_MUTANT
#define FVIF_MUTANT 0
#endif

/* The same unit as fvif_segment_unit, cheaper where no term is a tie. For a binade b of f32
 * (1 <= b <= 254, quantum u = 2^(b - 150)) a non-negative term x has y = x / u =
 * x * 2^(150 - b) exactly in f64 (x has 24 significant bits and the scale, 2^-104 to 2^149,
 * keeps y a normal double or zero), and its unit for b is (rint(y), rint(y)) unless y is
 * k + 1/2: binade_term_unit_f32 rounds x / u to the nearest integer, and only a tie depends on
 * the start's parity (a term below u / 4 gives 0 both ways, as rint does). Units with equal
 * increments compose by adding them, so where no term is a tie the segment's unit is
 * (c, c) with c the sum of the rint(y): every partial sum is an integer, exact in f64 while
 * below 2^53, and non-negative terms keep the partial sums below the final one. A final sum at
 * or above 2^53 (an infinite or NaN term gives one too, or NaN, which fails the compare) is
 * stored saturated: the pair composition then also holds increments far above 2^23, which no
 * start of the binade can take (m + inc passes 2^24), so neither applies. (That bound guards
 * the conversion to an integer, not the result: any bound from 2^24 to 2^63 gives the same
 * sums, so it has no mutant of its own.) A tie, a negative term or b == 0 goes to the pair
 * composition, which handles them (negative: a unit that never applies). `mutant` is one of
 * FVIF_M_* (0 in the engine). */
FVIF_FN binade_unit fvif_segment_unit_fast_m(const float *terms, int lo, int hi, long long stride, unsigned int b,
                                             int mutant) {
    if (b == 0u) return binade_unit_invalid();
    const double scale = fvif_u64_to_double((unsigned long long)(1173u - b) << 52); /* 2^(150 - b) */
    double c = 0.0;
    int slow = 0;
    for (int k = lo; k < hi; ++k) {
        float x = terms[(long long)k * stride];
        if (mutant == FVIF_M_NEGATIVE_ACCEPTED && x < 0.0f) x = -x;
        const double y = FV_DMUL((double)x, scale);
        const double r = FV_RINT(y);
        const double d = FV_DSUB(y, r);
        const int tie = (d == 0.5 || d == -0.5) && mutant != FVIF_M_TIE_IGNORED;
        const int negative = x < 0.0f;
        slow |= tie | negative;
        c = FV_DADD(c, r);
    }
    if (slow) return fvif_segment_unit(terms, lo, hi, stride, b);
    if (c < 0x1p53) {
        const unsigned long long v = (unsigned long long)c;
        return binade_unit_make(v, v);
    }
    return binade_unit_invalid();
}

/* The engine's fast unit (FVIF_MUTANT in a kernel build, 0 otherwise). */
FVIF_FN binade_unit fvif_segment_unit_fast(const float *terms, int lo, int hi, long long stride, unsigned int b) {
    return fvif_segment_unit_fast_m(terms, lo, hi, stride, b, FVIF_MUTANT);
}

/* One step of the walk: the running sum after the segment [lo, hi); *fell_back is set to 1
 * when the segment was added term by term. */
FVIF_FN float fvif_walk_step(float s, binade_unit u, unsigned int b, const float *terms, int lo, int hi,
                             long long stride, int *fell_back) {
    unsigned int out = 0u;
    if (b != 0u && binade_of_f32(fvif_f2u(s)) == b && binade_apply_f32(u, b, fvif_f2u(s), &out)) {
        *fell_back = 0;
        return fvif_u2f(out);
    }
    *fell_back = 1;
    return fvif_add_run(s, terms + (long long)lo * stride, hi - lo, stride);
}
#endif /* FVIF_WITH_BINADE */

#endif /* FLOAT_VIF_CUH */
