/* half_pairs.cu: the one-term rule on every (start, term) pair of f16 and bf16 against the
 * device's own add instruction (add.rn.f16, add.rn.bf16 on sm_90). Compiled by NVRTC with
 * kernels/binade.cuh prepended and --fmad=false, with BINADE_HP_BF16 0 (f16: 5 exponent, 10
 * fraction bits) or 1 (bf16: 8 and 7), and BINADE_MUTANT as the header takes it.
 *
 * Thread s takes the start with bits s (one of 65536) and, where it is a positive normal
 * (binade b = its exponent field; the rule is stated for sums in a binade), every term x of
 * the 65536:
 *   - the rule: unit = binade_term_unit_fmt(b, x), applied by binade_apply_fmt to s;
 *   - the reference: add.rn of s and x, as bits;
 *   - wrong: the rule applied and its bits are not the add's (where the rule applies the sum
 *     is finite or exactly the overflow to infinity, which both give as the same bits);
 *   - refused: the rule did not apply although it must: x is finite and non-negative (or -0)
 *     and the exact sum s + x stays at or below 2^(b+1), i.e. x <= (2^(p) - m) * u for the
 *     start's significand m and the binade's quantum u (compared as f32 values, in which every
 *     f16 and bf16 value and that room are exact).
 * Counts (pairs, applied, wrong, refused) are added with atomics; the lowest wrong and the
 * lowest refused pair ((s << 16) | x) are kept by atomicMin. */

#ifndef BINADE_HP_BF16
#error "compile with BINADE_HP_BF16 0 (f16) or 1 (bf16)"
#endif
#if BINADE_HP_BF16
#define HP_FRAC 7u
#define HP_EXP 8u
#define HP_BIAS 127
#else
#define HP_FRAC 10u
#define HP_EXP 5u
#define HP_BIAS 15
#endif

/* The device's add of two values given as bits. */
__device__ static inline unsigned short hp_add(unsigned short a, unsigned short b) {
    unsigned short r;
#if BINADE_HP_BF16
    asm("add.rn.bf16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
#else
    asm("add.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
#endif
    return r;
}

/* The value of bits x as an f32 (exact for both formats). */
__device__ static inline float hp_to_f32(unsigned short x) {
#if BINADE_HP_BF16
    return __uint_as_float((unsigned int)x << 16);
#else
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
    return f;
#endif
}

extern "C" __global__ void half_pairs(unsigned long long *counts, unsigned int *first_wrong,
                                      unsigned int *first_refused) {
    const unsigned int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= 65536u) return;
    const unsigned int exp_ones = (1u << HP_EXP) - 1u;
    const unsigned int field = (s >> HP_FRAC) & exp_ones;
    if ((s & 0x8000u) || field == 0u || field == exp_ones) return;
    const unsigned int hidden = 1u << HP_FRAC;
    const unsigned int m = (s & (hidden - 1u)) | hidden;
    /* Room to 2^(b+1): (2^(FRAC+1) - m) quanta of 2^(b - BIAS - FRAC). */
    const float room = ldexpf((float)((hidden << 1) - m), (int)field - HP_BIAS - (int)HP_FRAC);
    unsigned long long applied = 0ull, wrong = 0ull, refused = 0ull;
    for (unsigned int x = 0u; x < 65536u; x++) {
        binade_unit u = binade_term_unit_fmt(field, (unsigned long long)x, HP_FRAC, HP_EXP);
        unsigned long long out = 0ull;
        int ok = binade_apply_fmt(u, field, (unsigned long long)s, HP_FRAC, HP_EXP, &out);
        if (ok) {
            applied++;
            if ((unsigned short)out != hp_add((unsigned short)s, (unsigned short)x)) {
                wrong++;
                atomicMin(first_wrong, (s << 16) | x);
            }
        } else {
            const unsigned int xfield = (x >> HP_FRAC) & exp_ones;
            const int finite = xfield != exp_ones;
            const int non_negative = !(x & 0x8000u) || (x & 0x7fffu) == 0u;
            if (finite && non_negative && hp_to_f32((unsigned short)(x & 0x7fffu)) <= room) {
                refused++;
                atomicMin(first_refused, (s << 16) | x);
            }
        }
    }
    atomicAdd(counts + 0, 65536ull);
    atomicAdd(counts + 1, applied);
    atomicAdd(counts + 2, wrong);
    atomicAdd(counts + 3, refused);
}
