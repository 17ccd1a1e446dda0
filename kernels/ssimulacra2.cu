// SSIMULACRA2 term kernels. Compiled by NVRTC with --fmad=false after ssimulacra2_terms.cuh
// (the sources are concatenated, so this file does not include it).
//
// Layout of one scale: `planes` holds, per channel, SS2_PLANES planes of n floats
// (img1, img2, mu1, mu2, s11, s22, s12); `out` receives, per channel, SS2_TERMS planes of n
// doubles, term-major: term k of channel c at out[(c * SS2_TERMS + k) * n + i]. Each of the
// channels * SS2_TERMS planes of `out` is one sum's terms, in the CPU's pixel order.

extern "C" __global__ void ssimulacra2_terms(const float* planes, unsigned long long n,
                                             unsigned int channels, double* out) {
    unsigned long long total = n * channels;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long g = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         g < total; g += stride) {
        unsigned long long c = g / n;
        unsigned long long i = g - c * n;
        double t[SS2_TERMS];
        ss2_pixel_terms(planes + c * SS2_PLANES * n, n, i, t);
        double* o = out + c * SS2_TERMS * n;
        for (int k = 0; k < SS2_TERMS; ++k) {
            o[k * n + i] = t[k];
        }
    }
}
