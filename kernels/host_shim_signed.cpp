// Host C++ entry points for the signed units of kernels/binade.cuh, one build per signed
// mutant code: build.rs compiles this file with -DBINADE_SIGNED_MUTANT=k and
// -DBINADE_SHIM_SUFFIX=_sk, and src/verify/device_header_signed.rs picks among the builds.
// Units cross by pointer (a binade_signed is 56 bytes).
#include "binade.cuh"

#ifndef BINADE_SHIM_SUFFIX
#error "BINADE_SHIM_SUFFIX must be defined"
#endif

#define BINADE_CAT2(a, b) a##b
#define BINADE_CAT(a, b) BINADE_CAT2(a, b)
#define BINADE_SHIM(name) BINADE_CAT(name, BINADE_SHIM_SUFFIX)

extern "C" {

void BINADE_SHIM(binade_shim_signed_term)(unsigned int binade, unsigned long long x, unsigned int frac,
                                          unsigned int exp, binade_signed *out) {
    *out = binade_signed_term_fmt(binade, x, frac, exp);
}

void BINADE_SHIM(binade_shim_signed_compose)(const binade_signed *a, const binade_signed *b, binade_signed *out) {
    *out = binade_signed_compose(*a, *b);
}

int BINADE_SHIM(binade_shim_signed_apply)(const binade_signed *u, unsigned int binade, unsigned long long s,
                                          unsigned int frac, unsigned int exp, unsigned long long *out) {
    return binade_signed_apply_fmt(*u, binade, s, frac, exp, out);
}

int BINADE_SHIM(binade_shim_signed_apply_planned_f64)(const binade_signed *u, unsigned int code,
                                                      unsigned long long s, unsigned long long *out) {
    return binade_signed_apply_planned_f64(*u, code, s, out);
}

unsigned int BINADE_SHIM(binade_shim_plan_code_f64)(unsigned long long s) { return binade_plan_code_f64(s); }

}  // extern "C"
