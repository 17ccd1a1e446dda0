/* Host build of kernels/float_vif.cuh: the header's functions and host loops that run the
 * kernels' bodies over every index in the kernels' layouts, for tests without a GPU.
 * Compiled as C++ with -ffp-contract=off by build.rs (build_vif). */
#if defined(FVIF_WITH_BINADE)
#include "binade.cuh"
#endif
#include "float_vif.cuh"

#include <vector>

extern "C" {

float fvif_host_log2_approx(float x) { return fvif_log2_approx(x); }

void fvif_host_log2_batch(long long n, const float *x, float *out) {
    for (long long k = 0; k < n; ++k) out[k] = fvif_log2_approx(x[k]);
}

/* n pixels' terms; m holds n groups of five moments (mu1, mu2, xx, yy, xy). */
void fvif_host_pixel_terms_batch(long long n, const float *m, float gain_limit, float sigma_max_inv, double sigma_nsq,
                                 float *num, float *den) {
    struct fvif_params p;
    p.gain_limit = gain_limit;
    p.sigma_max_inv = sigma_max_inv;
    p.sigma_nsq = sigma_nsq;
    for (long long k = 0; k < n; ++k) {
        const float *q = m + 5 * k;
        fvif_pixel_terms(q[0], q[1], q[2], q[3], q[4], &p, num + k, den + k);
    }
}

/* The filter-and-decimate kernels: vertical passes at the even rows into a (h/2) x w plane,
 * then horizontal passes at its even columns into dst ((h/2) x (w/2)). */
void fvif_host_filter_dec(const struct fvif_taps *t, const float *src, int w, int h, float *dst) {
    int oh = h / 2, ow = w / 2;
    std::vector<float> tmp((size_t)oh * w);
    for (int oi = 0; oi < oh; ++oi)
        for (int j = 0; j < w; ++j) tmp[(size_t)oi * w + j] = fvif_vertical(t, src, src, FVIF_PLAIN, w, h, 2 * oi, j);
    for (int oi = 0; oi < oh; ++oi)
        for (int oj = 0; oj < ow; ++oj) dst[(size_t)oi * ow + oj] = fvif_horizontal(t, &tmp[(size_t)oi * w], w, 2 * oj);
}

/* The vertical-pass kernel then the compute kernel over a w x h scale: terms stored in
 * `layout` (0 column by column, 1 row by row). */
void fvif_host_compute(const struct fvif_taps *t, float gain_limit, float sigma_max_inv, double sigma_nsq,
                       const float *r, const float *d, int w, int h, int layout, float *num, float *den) {
    struct fvif_params p;
    p.gain_limit = gain_limit;
    p.sigma_max_inv = sigma_max_inv;
    p.sigma_nsq = sigma_nsq;
    std::vector<float> v((size_t)5 * w * h);
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) fvif_vertical5_at(t, r, d, w, h, i, j, v.data());
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            long long at = fvif_term_index(layout, w, h, i, j);
            fvif_compute_at(t, &p, v.data(), w, h, i, j, num + at, den + at);
        }
}

/* The row-sum kernel: one sum per row, left to right, terms in `layout`. */
void fvif_host_row_sums(const float *terms, int w, int h, int layout, float *rows) {
    for (int i = 0; i < h; ++i) {
        long long first = fvif_term_index(layout, w, h, i, 0);
        long long stride = layout == 0 ? h : 1;
        rows[i] = fvif_row_sum(terms + first, w, stride);
    }
}

/* 1 when the header was built with the binade algebra (kernels/binade.cuh present). */
int fvif_host_has_binade(void) {
#if defined(FVIF_WITH_BINADE)
    return 1;
#else
    return 0;
#endif
}

/* The row-parallel kernel's steps for every row (terms row by row): nseg segments per row,
 * fp64 estimates, their exclusive prefix as the plan, one unit per segment (units: -1 the
 * pair composition, 0 the fast unit, k the fast unit with mutant FVIF_M_* k), the walk.
 * Returns the number of segments added term by term, or -1 without the binade algebra. */
long long fvif_host_row_sums_binade(const float *terms, int w, int h, int nseg, int units_by, float *rows) {
#if defined(FVIF_WITH_BINADE)
    long long fallbacks = 0;
    std::vector<double> est(nseg);
    std::vector<unsigned int> plan(nseg);
    std::vector<binade_unit> units(nseg);
    for (int i = 0; i < h; ++i) {
        const float *row = terms + (long long)i * w;
        for (int t = 0; t < nseg; ++t) {
            int lo, hi;
            fvif_segment(t, nseg, w, &lo, &hi);
            est[t] = fvif_segment_estimate(row, lo, hi, 1);
        }
        double prefix = 0.0;
        for (int t = 0; t < nseg; ++t) {
            int lo, hi;
            fvif_segment(t, nseg, w, &lo, &hi);
            plan[t] = fvif_plan_binade(prefix);
            prefix += est[t];
            units[t] = units_by < 0 ? fvif_segment_unit(row, lo, hi, 1, plan[t])
                                    : fvif_segment_unit_fast_m(row, lo, hi, 1, plan[t], units_by);
        }
        float s = 0.0f;
        for (int t = 0; t < nseg; ++t) {
            int lo, hi, fell = 0;
            fvif_segment(t, nseg, w, &lo, &hi);
            s = fvif_walk_step(s, units[t], plan[t], row, lo, hi, 1, &fell);
            fallbacks += fell;
        }
        rows[i] = s;
    }
    return fallbacks;
#else
    (void)terms;
    (void)w;
    (void)h;
    (void)nseg;
    (void)units_by;
    (void)rows;
    return -1;
#endif
}

} /* extern "C" */
