// Host build of the SSIMULACRA2 term header, so tests compare it with the Rust reference
// without a GPU. Compiled with -ffp-contract=off (no fused multiply-add), like the device.
#include "ssimulacra2_terms.cuh"

// Terms of every pixel of `channels` channels. `planes`: per channel SS2_PLANES planes of n
// floats (channel c at planes + c * SS2_PLANES * n). `out`: per channel SS2_TERMS planes of n
// doubles, term-major (term k of channel c, pixel i at out[(c * SS2_TERMS + k) * n + i]).
extern "C" void binade_ss2_host_terms(const float* planes, size_t n, size_t channels, double* out) {
    for (size_t c = 0; c < channels; ++c) {
        const float* p = planes + c * SS2_PLANES * n;
        double* o = out + c * SS2_TERMS * n;
        for (size_t i = 0; i < n; ++i) {
            double t[SS2_TERMS];
            ss2_pixel_terms(p, n, i, t);
            for (int k = 0; k < SS2_TERMS; ++k) {
                o[k * n + i] = t[k];
            }
        }
    }
}
