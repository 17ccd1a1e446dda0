/* ordered_sum.cu: the CPU loop's double sum, bit for bit, for many independent sums
 * (segments of one buffer) per launch sequence. Compiled by NVRTC with kernels/binade.cuh
 * prepended (no includes at run time) and --fmad=false.
 *
 * Layout: a chunk is 1024 terms, one block of 256 lanes, each lane 4 consecutive terms.
 * Segment k holds seg_len[k] terms from seg_start[k]; its chunks are the global chunk indices
 * chunk_base[k] .. chunk_base[k+1] (chunk_base has nseg + 1 entries).
 *
 * 1. chunk_sums: each chunk's terms added in a tree (lane i takes lane i + step).
 * 2. chunk_plan: the prefix of those sums, in order, gives each chunk's binade (0: term by term).
 * 3. chunk_units: each lane composes its terms in order, then lanes compose in the same tree.
 * 4. ordered_totals: lane 0 walks the chunks, staged through shared memory; a chunk whose unit
 *    does not apply is added term by term (the block stages its terms, lane 0 adds them).
 * Beyond the seed: group_units composes runs of 256 chunks planned for one binade and
 * ordered_totals_grouped steps over whole groups, descending into a group only where its unit
 * does not apply.
 * Signed units: the same stages carry binade.cuh's signed units where the host asks for them
 * (the *_signed kernels: chunk_plan_signed plans negative prefixes too, chunk_units_signed,
 * group_units_signed, ordered_totals_signed, ordered_totals_grouped_signed), through the same
 * templates with the signed_units policy; a chunk of terms of either sign then applies where
 * its running sum keeps a quantum inside the planned binade.
 * Baselines: loop_sums (one lane per segment, in order), and the tree sum, which is
 * chunk_sums applied again to the chunk sums until one value per segment is left.
 */

/* The layout comes from src/layout_values.rs as -D defines (crate::layout::defines): one
 * source for the host pipeline and the kernels. BINADE_STAGE: chunks staged per round of the
 * walk; BINADE_GROUP: chunks per group of the grouped walk. */
#if !defined(BINADE_LANES) || !defined(BINADE_PER_LANE) || !defined(BINADE_CHUNK) || !defined(BINADE_GROUP) || !defined(BINADE_STAGE) || !defined(BINADE_SIGNED_STAGE) || !defined(BINADE_PLAN_NEGATIVE)
#error "compile with the layout defines of crate::layout::defines (BINADE_LANES, BINADE_PER_LANE, BINADE_CHUNK, BINADE_GROUP, BINADE_STAGE, BINADE_SIGNED_STAGE, BINADE_PLAN_NEGATIVE)"
#endif
#if BINADE_CHUNK != BINADE_LANES * BINADE_PER_LANE || BINADE_LANES % 32 != 0 || BINADE_LANES > 1024
#error "inconsistent layout: BINADE_CHUNK must be BINADE_LANES * BINADE_PER_LANE, lanes whole warps of one block"
#endif

typedef unsigned long long u64;

/* The segment holding global chunk c: the last k with chunk_base[k] <= c. */
__device__ static inline unsigned int segment_of(const u64 *chunk_base, unsigned int nseg, u64 c) {
    unsigned int lo = 0, hi = nseg; /* chunk_base[lo] <= c < chunk_base[hi] */
    while (hi - lo > 1) {
        unsigned int mid = (lo + hi) / 2;
        if (chunk_base[mid] <= c) lo = mid; else hi = mid;
    }
    return lo;
}

/* Where chunk c's terms are: first term index and count (1..1024). */
__device__ static inline void chunk_span(const u64 *seg_start, const u64 *seg_len, const u64 *chunk_base,
                                         unsigned int nseg, u64 c, u64 *first, unsigned int *count) {
    unsigned int k = segment_of(chunk_base, nseg, c);
    u64 off = (c - chunk_base[k]) * BINADE_CHUNK;
    u64 left = seg_len[k] - off;
    *first = seg_start[k] + off;
    *count = left < BINADE_CHUNK ? (unsigned int)left : BINADE_CHUNK;
}

/* What the lane tree moves between lanes: doubles, and units as their two words. */
__device__ static inline double lane_shfl_down(double v, unsigned int step) {
    return __shfl_down_sync(0xffffffffu, v, step);
}
__device__ static inline binade_unit lane_shfl_down(binade_unit u, unsigned int step) {
    binade_unit o;
    o.even = __shfl_down_sync(0xffffffffu, u.even, step);
    o.odd = __shfl_down_sync(0xffffffffu, u.odd, step);
    return o;
}
__device__ static inline binade_reach lane_shfl_down(binade_reach r, unsigned int step) {
    binade_reach o;
    o.inc = __shfl_down_sync(0xffffffffu, r.inc, step);
    o.lo = __shfl_down_sync(0xffffffffu, r.lo, step);
    o.hi = __shfl_down_sync(0xffffffffu, r.hi, step);
    return o;
}
__device__ static inline binade_signed lane_shfl_down(binade_signed u, unsigned int step) {
    binade_signed o;
    o.even = lane_shfl_down(u.even, step);
    o.odd = lane_shfl_down(u.odd, step);
    o.nonneg = __shfl_down_sync(0xffffffffu, u.nonneg, step);
    o.valid = __shfl_down_sync(0xffffffffu, u.valid, step);
    return o;
}

/* The two kinds of unit the pipeline carries, as policies of its templates: the seed's
 * unsigned units (a pair of increments, 2 words; plan codes are binade fields) and the
 * signed units of binade.cuh (two reaches and the flags, 7 words; plan codes may carry
 * BINADE_PLAN_NEGATIVE). `apply` is 0 for plan code 0 (term by term). */
struct unsigned_units {
    typedef binade_unit unit;
    enum { WORDS = 2, STAGE = BINADE_STAGE };
    __device__ static unit zero() { return binade_unit_zero(); }
    __device__ static unit invalid() { return binade_unit_invalid(); }
    __device__ static unit compose(unit a, unit b) { return binade_compose(a, b); }
    __device__ static unit term(unsigned int code, u64 x) { return binade_term_unit_f64(code, x); }
    __device__ static unsigned int plan(u64 prefix) { return binade_of_f64(prefix); }
    __device__ static int apply(unit u, unsigned int code, u64 s, u64 *out) {
        return code != 0u && binade_apply_f64(u, code, s, out);
    }
    __device__ static unit load(const u64 *w) { return binade_unit_make(w[0], w[1]); }
    __device__ static void store(u64 *w, unit u) {
        w[0] = u.even;
        w[1] = u.odd;
    }
};
struct signed_units {
    typedef binade_signed unit;
    enum { WORDS = 7, STAGE = BINADE_SIGNED_STAGE };
    __device__ static unit zero() { return binade_signed_zero(); }
    __device__ static unit invalid() {
        unit u = binade_signed_zero();
        u.valid = 0u;
        return u;
    }
    __device__ static unit compose(unit a, unit b) { return binade_signed_compose(a, b); }
    __device__ static unit term(unsigned int code, u64 x) {
        return binade_signed_term_fmt(code & ~BINADE_PLAN_NEGATIVE, x ^ binade_plan_flip_f64(code), BINADE_F64_FRAC,
                                      BINADE_F64_EXP);
    }
    __device__ static unsigned int plan(u64 prefix) { return binade_plan_code_f64(prefix); }
    __device__ static int apply(unit u, unsigned int code, u64 s, u64 *out) {
        return binade_signed_apply_planned_f64(u, code, s, out);
    }
    /* Words: even inc, lo, hi, odd inc, lo, hi, then nonneg | valid << 1. */
    __device__ static unit load(const u64 *w) {
        unit u;
        u.even = binade_reach_make((long long)w[0], (long long)w[1], (long long)w[2]);
        u.odd = binade_reach_make((long long)w[3], (long long)w[4], (long long)w[5]);
        u.nonneg = (unsigned int)(w[6] & 1ull);
        u.valid = (unsigned int)((w[6] >> 1) & 1ull);
        return u;
    }
    __device__ static void store(u64 *w, unit u) {
        w[0] = (u64)u.even.inc;
        w[1] = (u64)u.even.lo;
        w[2] = (u64)u.even.hi;
        w[3] = (u64)u.odd.inc;
        w[4] = (u64)u.odd.lo;
        w[5] = (u64)u.odd.hi;
        w[6] = (u64)u.nonneg | ((u64)u.valid << 1);
    }
};

/* The two operations it combines with: the add (chunk sums) and the composition (units). */
struct lane_add {
    __device__ double operator()(double a, double b) const { return __dadd_rn(a, b); }
};
template <class P>
struct lane_compose {
    __device__ typename P::unit operator()(typename P::unit a, typename P::unit b) const { return P::compose(a, b); }
};

/* The ordered lane tree, one for sums and units: lane i takes lane i + step, step = 1, 2, ..,
 * LANES/2, first inside each warp by shuffles, then over the warps' results staged in
 * warp_vals (LANES/32 entries). Lane i always stands left of lane i + step, so for an
 * associative op the result is the lanes' values combined left to right (crate::walk's
 * lane_tree is the host's copy). Every thread of the block calls it; the result is valid on
 * lane 0. */
template <class T, class Op>
__device__ static inline T lane_tree(T v, T identity, T *warp_vals, Op op) {
    unsigned int lane = threadIdx.x;
    for (unsigned int step = 1; step < 32; step *= 2) {
        T other = lane_shfl_down(v, step);
        if ((lane & (2 * step - 1)) == 0) v = op(v, other);
    }
    if ((lane & 31) == 0) warp_vals[lane >> 5] = v;
    __syncthreads();
    if (lane < 32) {
        v = lane < BINADE_LANES / 32 ? warp_vals[lane] : identity;
        for (unsigned int step = 1; step < BINADE_LANES / 32; step *= 2) {
            T other = lane_shfl_down(v, step);
            if ((lane & (2 * step - 1)) == 0) v = op(v, other);
        }
    }
    return v;
}

/* Stage 1 (and the tree-sum baseline): sums[c] = chunk c's terms added in the lane tree. */
extern "C" __global__ void chunk_sums(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                                      const u64 *chunk_base, unsigned int nseg, double *__restrict__ sums) {
    __shared__ double warp_sums[BINADE_LANES / 32];
    u64 c = blockIdx.x + (u64)blockIdx.y * gridDim.x;
    if (c >= chunk_base[nseg]) return;
    u64 first;
    unsigned int count;
    chunk_span(seg_start, seg_len, chunk_base, nseg, c, &first, &count);
    unsigned int t0 = threadIdx.x * BINADE_PER_LANE;
    double s = 0.0;
    for (unsigned int j = 0; j < BINADE_PER_LANE; j++) {
        if (t0 + j < count) s = __dadd_rn(s, terms[first + t0 + j]);
    }
    s = lane_tree(s, 0.0, warp_sums, lane_add());
    if (threadIdx.x == 0) sums[c] = s;
}

/* Stage 2: one block per segment; the chunk sums are staged in shared memory and lane 0
 * follows their prefix in order: chunk c is planned for the binade of the sum of the chunks
 * before it (0 where that prefix is zero, subnormal, negative or not finite). Equal to
 * plan::tree_prefix. */
template <class P>
__device__ static inline void plan_chunks(const double *__restrict__ sums, const u64 *chunk_base, unsigned int nseg,
                                          unsigned int *__restrict__ binades) {
    __shared__ double st_sums[BINADE_STAGE];
    unsigned int k = blockIdx.x;
    if (k >= nseg) return;
    const u64 c0 = chunk_base[k], c1 = chunk_base[k + 1];
    double prefix = 0.0;
    for (u64 base = c0; base < c1; base += BINADE_STAGE) {
        unsigned int cnt = (c1 - base) < BINADE_STAGE ? (unsigned int)(c1 - base) : BINADE_STAGE;
        for (unsigned int i = threadIdx.x; i < cnt; i += blockDim.x) st_sums[i] = sums[base + i];
        __syncthreads();
        if (threadIdx.x == 0) {
#pragma unroll 8
            for (unsigned int i = 0; i < cnt; i++) {
                binades[base + i] = P::plan((u64)__double_as_longlong(prefix));
                prefix = __dadd_rn(prefix, st_sums[i]);
            }
        }
        __syncthreads();
    }
}
extern "C" __global__ void chunk_plan(const double *__restrict__ sums, const u64 *chunk_base, unsigned int nseg,
                                      unsigned int *__restrict__ binades) {
    plan_chunks<unsigned_units>(sums, chunk_base, nseg, binades);
}
/* The signed pipeline's plan: the prefix's code (binade_plan_code_f64), negative prefixes
 * included. */
extern "C" __global__ void chunk_plan_signed(const double *__restrict__ sums, const u64 *chunk_base,
                                             unsigned int nseg, unsigned int *__restrict__ binades) {
    plan_chunks<signed_units>(sums, chunk_base, nseg, binades);
}

/* Stage 3: chunk c's unit under its planned code, P::WORDS words from units[P::WORDS * c]
 * (INVALID where the plan says term by term). */
template <class P>
__device__ static inline void units_of_chunks(const double *__restrict__ terms, const u64 *seg_start,
                                              const u64 *seg_len, const u64 *chunk_base, unsigned int nseg,
                                              const unsigned int *__restrict__ binades, u64 *__restrict__ units) {
    __shared__ typename P::unit warp_units[BINADE_LANES / 32];
    u64 c = blockIdx.x + (u64)blockIdx.y * gridDim.x;
    if (c >= chunk_base[nseg]) return;
    unsigned int b = binades[c];
    if (b == 0u) {
        if (threadIdx.x == 0) P::store(units + P::WORDS * c, P::invalid());
        return;
    }
    u64 first;
    unsigned int count;
    chunk_span(seg_start, seg_len, chunk_base, nseg, c, &first, &count);
    unsigned int t0 = threadIdx.x * BINADE_PER_LANE;
    typename P::unit u = P::zero();
    for (unsigned int j = 0; j < BINADE_PER_LANE; j++) {
        if (t0 + j < count) {
            u64 x = (u64)__double_as_longlong(terms[first + t0 + j]);
            u = P::compose(u, P::term(b, x));
        }
    }
    u = lane_tree(u, P::zero(), warp_units, lane_compose<P>());
    if (threadIdx.x == 0) P::store(units + P::WORDS * c, u);
}
extern "C" __global__ void chunk_units(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                                       const u64 *chunk_base, unsigned int nseg,
                                       const unsigned int *__restrict__ binades, u64 *__restrict__ units) {
    units_of_chunks<unsigned_units>(terms, seg_start, seg_len, chunk_base, nseg, binades, units);
}
extern "C" __global__ void chunk_units_signed(const double *__restrict__ terms, const u64 *seg_start,
                                              const u64 *seg_len, const u64 *chunk_base, unsigned int nseg,
                                              const unsigned int *__restrict__ binades, u64 *__restrict__ units) {
    units_of_chunks<signed_units>(terms, seg_start, seg_len, chunk_base, nseg, binades, units);
}

/* Adds chunk c's terms to *s one by one, in order: the block stages them in shared memory and
 * lane 0 adds them with the format's add. Every thread of the block calls it; *s and
 * *fallback are meaningful on lane 0 only. */
__device__ static inline void add_chunk_terms(const double *__restrict__ terms, const u64 *seg_start,
                                              const u64 *seg_len, const u64 *chunk_base, unsigned int nseg, u64 c,
                                              double *st_terms, u64 *s, u64 *fallback) {
    u64 first;
    unsigned int count;
    chunk_span(seg_start, seg_len, chunk_base, nseg, c, &first, &count);
    for (unsigned int t = threadIdx.x; t < count; t += blockDim.x) st_terms[t] = terms[first + t];
    __syncthreads();
    if (threadIdx.x == 0) {
        double acc = __longlong_as_double((long long)*s);
#pragma unroll 8
        for (unsigned int t = 0; t < count; t++) acc = __dadd_rn(acc, st_terms[t]);
        *s = (u64)__double_as_longlong(acc);
        *fallback += 1;
    }
    __syncthreads();
}

/* The walk over `cnt` staged units (st_units: P::WORDS words each; st_binades: their plan
 * codes, 0 for term by term), for both walks: lane 0 applies units in order while each
 * applies, adding weight(j) chunks to *applied; at the first one that does not, the block
 * calls descend(j), which must bring *s past item j (term by term, or by walking the chunks of
 * a group), and lane 0 goes on after it. `next` is a shared slot of this level. Every thread
 * of the block calls it; *s and *applied are meaningful on lane 0 only. */
template <class P, class Weight, class Descend>
__device__ static inline void walk_window(const u64 *st_units, const unsigned int *st_binades, unsigned int cnt,
                                          unsigned int *next, u64 *s, u64 *applied, Weight weight,
                                          Descend descend) {
    unsigned int i = 0;
    while (i < cnt) {
        if (threadIdx.x == 0) {
            u64 sum = *s, done = 0; /* in registers through the stepping loop */
            unsigned int j = i;
            for (; j < cnt; j++) {
                u64 out;
                if (!P::apply(P::load(st_units + P::WORDS * j), st_binades[j], sum, &out)) break;
                sum = out;
                done += weight(j);
            }
            *s = sum;
            *applied += done;
            *next = j;
        }
        __syncthreads();
        unsigned int j = *next;
        if (j >= cnt) break;
        descend(j);
        i = j + 1;
    }
    __syncthreads();
}

/* One chunk counts one. */
struct one_chunk {
    __device__ u64 operator()(unsigned int) const { return 1ull; }
};

/* Stages `cnt` items' plan codes and units (P::WORDS words each) from index `first`. */
template <class P>
__device__ static inline void stage_units(const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                          u64 first, unsigned int cnt, unsigned int *st_binades, u64 *st_units) {
    for (unsigned int i = threadIdx.x; i < cnt; i += blockDim.x) st_binades[i] = binades[first + i];
    for (unsigned int i = threadIdx.x; i < cnt * P::WORDS; i += blockDim.x)
        st_units[i] = units[P::WORDS * first + i];
}

/* Stage 4: one block per segment walks its chunks from +0, staged P::STAGE at a time.
 * totals[k] is the loop's sum; counts[2k] chunks applied, counts[2k+1] chunks added term by
 * term. */
template <class P>
__device__ static inline void walk_chunks(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                                          const u64 *chunk_base, unsigned int nseg,
                                          const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                          double *__restrict__ totals, u64 *__restrict__ counts) {
    __shared__ u64 st_units[P::WORDS * P::STAGE];
    __shared__ unsigned int st_binades[P::STAGE];
    __shared__ double st_terms[BINADE_CHUNK];
    __shared__ unsigned int next_fail;
    unsigned int k = blockIdx.x;
    if (k >= nseg) return;
    const u64 c0 = chunk_base[k], c1 = chunk_base[k + 1];
    u64 s = 0ull, applied = 0ull, fallback = 0ull;
    for (u64 base = c0; base < c1; base += P::STAGE) {
        unsigned int cnt = (c1 - base) < P::STAGE ? (unsigned int)(c1 - base) : P::STAGE;
        stage_units<P>(binades, units, base, cnt, st_binades, st_units);
        __syncthreads();
        walk_window<P>(st_units, st_binades, cnt, &next_fail, &s, &applied, one_chunk(), [&](unsigned int j) {
            add_chunk_terms(terms, seg_start, seg_len, chunk_base, nseg, base + j, st_terms, &s, &fallback);
        });
    }
    if (threadIdx.x == 0) {
        totals[k] = __longlong_as_double((long long)s);
        counts[2 * k] = applied;
        counts[2 * k + 1] = fallback;
    }
}
extern "C" __global__ void ordered_totals(const double *__restrict__ terms, const u64 *seg_start,
                                          const u64 *seg_len, const u64 *chunk_base, unsigned int nseg,
                                          const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                          double *__restrict__ totals, u64 *__restrict__ counts) {
    walk_chunks<unsigned_units>(terms, seg_start, seg_len, chunk_base, nseg, binades, units, totals, counts);
}
extern "C" __global__ void ordered_totals_signed(const double *__restrict__ terms, const u64 *seg_start,
                                                 const u64 *seg_len, const u64 *chunk_base, unsigned int nseg,
                                                 const unsigned int *__restrict__ binades,
                                                 const u64 *__restrict__ units, double *__restrict__ totals,
                                                 u64 *__restrict__ counts) {
    walk_chunks<signed_units>(terms, seg_start, seg_len, chunk_base, nseg, binades, units, totals, counts);
}

/* Groups: BINADE_GROUP consecutive chunks of one segment; segment k's groups are the global
 * group indices group_base[k] .. group_base[k+1]. A group whose chunks are all planned for the
 * same code gets their units composed in order (the same lane tree); its code is 0
 * otherwise. */
template <class P>
__device__ static inline void units_of_groups(const u64 *chunk_base, const u64 *group_base, unsigned int nseg,
                                              const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                              unsigned int *__restrict__ gbinades, u64 *__restrict__ gunits) {
    __shared__ typename P::unit warp_units[BINADE_LANES / 32];
    u64 g = blockIdx.x + (u64)blockIdx.y * gridDim.x;
    if (g >= group_base[nseg]) return;
    unsigned int k = segment_of(group_base, nseg, g);
    u64 c0 = chunk_base[k] + (g - group_base[k]) * BINADE_GROUP;
    u64 c1 = chunk_base[k + 1] < c0 + BINADE_GROUP ? chunk_base[k + 1] : c0 + BINADE_GROUP;
    u64 c = c0 + threadIdx.x;
    unsigned int b0 = binades[c0];
    typename P::unit u = P::zero();
    int same = 1;
    if (c < c1) {
        same = binades[c] == b0;
        u = P::load(units + P::WORDS * c);
    }
    int all = __syncthreads_and(same);
    u = lane_tree(u, P::zero(), warp_units, lane_compose<P>());
    if (threadIdx.x == 0) {
        gbinades[g] = all ? b0 : 0u;
        P::store(gunits + P::WORDS * g, u);
    }
}
extern "C" __global__ void group_units(const u64 *chunk_base, const u64 *group_base, unsigned int nseg,
                                       const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                       unsigned int *__restrict__ gbinades, u64 *__restrict__ gunits) {
    units_of_groups<unsigned_units>(chunk_base, group_base, nseg, binades, units, gbinades, gunits);
}
extern "C" __global__ void group_units_signed(const u64 *chunk_base, const u64 *group_base, unsigned int nseg,
                                              const unsigned int *__restrict__ binades,
                                              const u64 *__restrict__ units, unsigned int *__restrict__ gbinades,
                                              u64 *__restrict__ gunits) {
    units_of_groups<signed_units>(chunk_base, group_base, nseg, binades, units, gbinades, gunits);
}

/* Stage 4 over groups: lane 0 steps over a whole group where its composed unit applies;
 * elsewhere the block stages the group's chunks and walks them as walk_chunks does. The bits
 * are the loop's for every plan: an unsigned group's unit applies only if the sum is in its
 * binade and the group's end stays at or below 2^(e+1), which bounds every chunk inside it;
 * a signed group's, only if every running offset of every chunk inside it stays a quantum
 * inside the binade (its composed lo and hi). */
template <class P>
__device__ static inline void walk_groups(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                                          const u64 *chunk_base, const u64 *group_base, unsigned int nseg,
                                          const unsigned int *__restrict__ binades, const u64 *__restrict__ units,
                                          const unsigned int *__restrict__ gbinades, const u64 *__restrict__ gunits,
                                          double *__restrict__ totals, u64 *__restrict__ counts) {
    __shared__ u64 st_gunits[P::WORDS * P::STAGE];
    __shared__ unsigned int st_gbinades[P::STAGE];
    __shared__ u64 st_units[P::WORDS * BINADE_GROUP];
    __shared__ unsigned int st_binades[BINADE_GROUP];
    __shared__ double st_terms[BINADE_CHUNK];
    __shared__ unsigned int next_fail, next_group;
    unsigned int k = blockIdx.x;
    if (k >= nseg) return;
    const u64 c0 = chunk_base[k], c1 = chunk_base[k + 1];
    const u64 g0 = group_base[k], g1 = group_base[k + 1];
    u64 s = 0ull, applied = 0ull, fallback = 0ull;
    for (u64 base = g0; base < g1; base += P::STAGE) {
        unsigned int cnt = (g1 - base) < P::STAGE ? (unsigned int)(g1 - base) : P::STAGE;
        stage_units<P>(gbinades, gunits, base, cnt, st_gbinades, st_gunits);
        __syncthreads();
        /* Chunks in group j of this window (the segment's last group may be short). */
        auto group_first = [&](unsigned int j) { return c0 + (base - g0 + j) * BINADE_GROUP; };
        auto group_chunks = [&](unsigned int j) -> u64 {
            u64 first = group_first(j);
            return (c1 - first) < BINADE_GROUP ? (c1 - first) : BINADE_GROUP;
        };
        /* A group whose unit does not apply: stage its chunks' units and walk them. */
        auto descend_group = [&](unsigned int j) {
            u64 first = group_first(j);
            unsigned int nch = (unsigned int)group_chunks(j);
            stage_units<P>(binades, units, first, nch, st_binades, st_units);
            __syncthreads();
            walk_window<P>(st_units, st_binades, nch, &next_fail, &s, &applied, one_chunk(), [&](unsigned int jj) {
                add_chunk_terms(terms, seg_start, seg_len, chunk_base, nseg, first + jj, st_terms, &s, &fallback);
            });
        };
        walk_window<P>(st_gunits, st_gbinades, cnt, &next_group, &s, &applied, group_chunks, descend_group);
    }
    if (threadIdx.x == 0) {
        totals[k] = __longlong_as_double((long long)s);
        counts[2 * k] = applied;
        counts[2 * k + 1] = fallback;
    }
}
extern "C" __global__ void ordered_totals_grouped(const double *__restrict__ terms, const u64 *seg_start,
                                                  const u64 *seg_len, const u64 *chunk_base, const u64 *group_base,
                                                  unsigned int nseg, const unsigned int *__restrict__ binades,
                                                  const u64 *__restrict__ units,
                                                  const unsigned int *__restrict__ gbinades,
                                                  const u64 *__restrict__ gunits, double *__restrict__ totals,
                                                  u64 *__restrict__ counts) {
    walk_groups<unsigned_units>(terms, seg_start, seg_len, chunk_base, group_base, nseg, binades, units, gbinades,
                                gunits, totals, counts);
}
extern "C" __global__ void ordered_totals_grouped_signed(const double *__restrict__ terms, const u64 *seg_start,
                                                         const u64 *seg_len, const u64 *chunk_base,
                                                         const u64 *group_base, unsigned int nseg,
                                                         const unsigned int *__restrict__ binades,
                                                         const u64 *__restrict__ units,
                                                         const unsigned int *__restrict__ gbinades,
                                                         const u64 *__restrict__ gunits, double *__restrict__ totals,
                                                         u64 *__restrict__ counts) {
    walk_groups<signed_units>(terms, seg_start, seg_len, chunk_base, group_base, nseg, binades, units, gbinades,
                              gunits, totals, counts);
}

/* Baseline: one lane per segment adds its terms in order (the CPU loop on one GPU lane). */
extern "C" __global__ void loop_sums(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                                     unsigned int nseg, double *__restrict__ totals) {
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nseg) return;
    double s = 0.0;
    const double *p = terms + seg_start[k];
    const u64 n = seg_len[k];
#pragma unroll 8
    for (u64 i = 0; i < n; i++) s = __dadd_rn(s, p[i]);
    totals[k] = s;
}

/* Counter-based uniform doubles in [0, 1): out[i] = (splitmix64(seed + (i + 1) * golden) >> 11)
 * * 2^-53, the generator experiments/peers/cupy_sum.py implements the same way. */
extern "C" __global__ void fill_hash(double *__restrict__ out, u64 n, u64 seed) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
        u64 z = seed + (i + 1ull) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z = z ^ (z >> 31);
        out[i] = (double)(z >> 11) * 0x1p-53;
    }
}

/* The sum modulo 2^64 of the bit patterns of x[0..n) (a checksum both sides can compute). */
extern "C" __global__ void bits_checksum(const double *__restrict__ x, u64 n, u64 *out) {
    u64 acc = 0ull;
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        acc += (u64)__double_as_longlong(x[i]);
    for (unsigned int step = 16; step >= 1; step /= 2) acc += __shfl_down_sync(0xffffffffu, acc, step);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}
