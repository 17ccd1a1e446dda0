// Host C++ entry points for one mutant of kernels/binade.cuh. build.rs compiles this file once
// per mutant code with -DBINADE_MUTANT=k -DBINADE_SHIM_SUFFIX=_mk, so every symbol carries
// the code it was built with; host_shim_dispatch.cpp picks among them at run time.
#include "binade.cuh"

#ifndef BINADE_SHIM_SUFFIX
#error "BINADE_SHIM_SUFFIX must be defined"
#endif

#define BINADE_CAT2(a, b) a##b
#define BINADE_CAT(a, b) BINADE_CAT2(a, b)
#define BINADE_SHIM(name) BINADE_CAT(name, BINADE_SHIM_SUFFIX)

extern "C" {

binade_unit BINADE_SHIM(binade_shim_term_unit_f64)(unsigned int binade, unsigned long long x) {
    return binade_term_unit_f64(binade, x);
}

binade_unit BINADE_SHIM(binade_shim_term_unit_f32)(unsigned int binade, unsigned int x) {
    return binade_term_unit_f32(binade, x);
}

binade_unit BINADE_SHIM(binade_shim_compose)(binade_unit a, binade_unit b) { return binade_compose(a, b); }

int BINADE_SHIM(binade_shim_apply_f64)(binade_unit u, unsigned int binade, unsigned long long s,
                                       unsigned long long *out) {
    return binade_apply_f64(u, binade, s, out);
}

int BINADE_SHIM(binade_shim_apply_f32)(binade_unit u, unsigned int binade, unsigned int s, unsigned int *out) {
    return binade_apply_f32(u, binade, s, out);
}

}  // extern "C"
