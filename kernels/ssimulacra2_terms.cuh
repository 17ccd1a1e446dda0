// SSIMULACRA2 per-pixel terms, shared by the device kernels (NVRTC, --fmad=false) and the host
// test shim (C++ with -ffp-contract=off). The operation order and types are those of the Rust
// reference in src/ssimulacra2/terms.rs: float for the means and variances, double from the
// division on, no fused multiply-add. Six terms per pixel:
//   0 ssim, 1 ssim^4, 2 artifact, 3 artifact^4, 4 detail_lost, 5 detail_lost^4.
#ifndef BINADE_SSIMULACRA2_TERMS_CUH
#define BINADE_SSIMULACRA2_TERMS_CUH

#if defined(__CUDACC__)
#define SS2_HD __host__ __device__
#else
#define SS2_HD
#include <math.h>
#include <stddef.h>
#endif

#define SS2_TERMS 6
#define SS2_PLANES 7
#define SS2_C2 0.0009f

// x^4 as (x * x) * (x * x), one rounding per product.
SS2_HD inline double ss2_quartic(double x) {
    double x2 = x * x;
    return x2 * x2;
}

// The SSIM error max(0, 1 - num_m * num_s / denom_s) of one pixel.
SS2_HD inline double ss2_ssim_term(float mu1, float mu2, float s11, float s22, float s12) {
    float mu11 = mu1 * mu1;
    float mu22 = mu2 * mu2;
    float mu12 = mu1 * mu2;
    float diff = mu1 - mu2;
    float num_m = 1.0f - diff * diff;
    float num_s = 2.0f * (s12 - mu12) + SS2_C2;
    float denom_s = (s11 - mu11) + (s22 - mu22) + SS2_C2;
    double d = 1.0 - ((double)num_m * (double)num_s) / (double)denom_s;
    return d < 0.0 ? 0.0 : d;
}

// The edge ratio (1 + |img2 - mu2|) / (1 + |img1 - mu1|) - 1 split into its positive part
// (artifact) and its negated negative part (detail lost).
SS2_HD inline void ss2_edge_terms(float img1, float mu1, float img2, float mu2, double* artifact,
                                  double* detail_lost) {
    double ed1 = fabs((double)img1 - (double)mu1);
    double ed2 = fabs((double)img2 - (double)mu2);
    double d1 = (1.0 + ed2) / (1.0 + ed1) - 1.0;
    *artifact = d1 > 0.0 ? d1 : 0.0;
    *detail_lost = d1 < 0.0 ? -d1 : 0.0;
}

// The six terms of pixel i of one channel. `planes` holds SS2_PLANES planes of n floats each,
// in the order img1, img2, mu1, mu2, s11, s22, s12.
SS2_HD inline void ss2_pixel_terms(const float* planes, size_t n, size_t i, double* out) {
    float img1 = planes[0 * n + i];
    float img2 = planes[1 * n + i];
    float mu1 = planes[2 * n + i];
    float mu2 = planes[3 * n + i];
    float s11 = planes[4 * n + i];
    float s22 = planes[5 * n + i];
    float s12 = planes[6 * n + i];
    double d = ss2_ssim_term(mu1, mu2, s11, s22, s12);
    double a, l;
    ss2_edge_terms(img1, mu1, img2, mu2, &a, &l);
    out[0] = d;
    out[1] = ss2_quartic(d);
    out[2] = a;
    out[3] = ss2_quartic(a);
    out[4] = l;
    out[5] = ss2_quartic(l);
}

#endif
