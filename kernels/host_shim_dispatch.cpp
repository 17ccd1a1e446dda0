// Dispatch among the per-mutant host builds of kernels/binade.cuh (see host_shim.cpp).
// BINADE_SHIM_LIST(X) is defined by build.rs as X(0) X(1) ... one entry per mutant code.
#include "binade.cuh"

#ifndef BINADE_SHIM_LIST
#error "BINADE_SHIM_LIST must be defined"
#endif

#define BINADE_DECLARE(k)                                                                           \
    extern "C" binade_unit binade_shim_term_unit_f64_m##k(unsigned int, unsigned long long);         \
    extern "C" binade_unit binade_shim_term_unit_f32_m##k(unsigned int, unsigned int);               \
    extern "C" binade_unit binade_shim_compose_m##k(binade_unit, binade_unit);                       \
    extern "C" int binade_shim_apply_f64_m##k(binade_unit, unsigned int, unsigned long long,         \
                                              unsigned long long *);                                \
    extern "C" int binade_shim_apply_f32_m##k(binade_unit, unsigned int, unsigned int, unsigned int *);
BINADE_SHIM_LIST(BINADE_DECLARE)

typedef binade_unit (*binade_term_f64_fn)(unsigned int, unsigned long long);
typedef binade_unit (*binade_term_f32_fn)(unsigned int, unsigned int);
typedef binade_unit (*binade_compose_fn)(binade_unit, binade_unit);
typedef int (*binade_apply_f64_fn)(binade_unit, unsigned int, unsigned long long, unsigned long long *);
typedef int (*binade_apply_f32_fn)(binade_unit, unsigned int, unsigned int, unsigned int *);

#define BINADE_ENTRY_TERM_F64(k) binade_shim_term_unit_f64_m##k,
#define BINADE_ENTRY_TERM_F32(k) binade_shim_term_unit_f32_m##k,
#define BINADE_ENTRY_COMPOSE(k) binade_shim_compose_m##k,
#define BINADE_ENTRY_APPLY_F64(k) binade_shim_apply_f64_m##k,
#define BINADE_ENTRY_APPLY_F32(k) binade_shim_apply_f32_m##k,

static const binade_term_f64_fn term_f64[] = {BINADE_SHIM_LIST(BINADE_ENTRY_TERM_F64)};
static const binade_term_f32_fn term_f32[] = {BINADE_SHIM_LIST(BINADE_ENTRY_TERM_F32)};
static const binade_compose_fn compose[] = {BINADE_SHIM_LIST(BINADE_ENTRY_COMPOSE)};
static const binade_apply_f64_fn apply_f64[] = {BINADE_SHIM_LIST(BINADE_ENTRY_APPLY_F64)};
static const binade_apply_f32_fn apply_f32[] = {BINADE_SHIM_LIST(BINADE_ENTRY_APPLY_F32)};

static const unsigned int count = sizeof(compose) / sizeof(compose[0]);

extern "C" {

// Number of mutant codes compiled (0 is the correct algebra).
unsigned int binade_host_mutant_count(void) { return count; }

// The entry points below return 0 for a code that was not compiled and 1 otherwise.

int binade_host_term_unit_f64(unsigned int code, unsigned int binade, unsigned long long x, binade_unit *out) {
    if (code >= count) return 0;
    *out = term_f64[code](binade, x);
    return 1;
}

int binade_host_term_unit_f32(unsigned int code, unsigned int binade, unsigned int x, binade_unit *out) {
    if (code >= count) return 0;
    *out = term_f32[code](binade, x);
    return 1;
}

int binade_host_compose(unsigned int code, binade_unit a, binade_unit b, binade_unit *out) {
    if (code >= count) return 0;
    *out = compose[code](a, b);
    return 1;
}

// Writes 1 to *applied and the result to *out when the unit applies, 0 to *applied otherwise.
int binade_host_apply_f64(unsigned int code, binade_unit u, unsigned int binade, unsigned long long s,
                          int *applied, unsigned long long *out) {
    if (code >= count) return 0;
    *applied = apply_f64[code](u, binade, s, out);
    return 1;
}

int binade_host_apply_f32(unsigned int code, binade_unit u, unsigned int binade, unsigned int s, int *applied,
                          unsigned int *out) {
    if (code >= count) return 0;
    *applied = apply_f32[code](u, binade, s, out);
    return 1;
}

}  // extern "C"
