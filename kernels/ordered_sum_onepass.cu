/* ordered_sum_onepass.cu: the CPU loop's double sum, bit for bit, in one pass over the terms.
 * Compiled by NVRTC with kernels/binade.cuh prepended and --fmad=false; the tile layout comes
 * from src/layout_values.rs as -D defines (crate::layout::defines).
 *
 * A tile is BINADE_OP_TILE consecutive terms of one segment, one block of BINADE_OP_THREADS
 * threads, thread i answering for BINADE_OP_PER_THREAD consecutive terms (in shared memory). Tiles take their index from
 * a ticket counter in the order they start, so every tile a tile waits for has started
 * (forward progress without assumptions about the scheduler). A tile:
 *   1. loads its terms once (warp-striped, coalesced) and forms their tree sum; publishes it;
 *   2. finds an approximate prefix by look-back without waiting: the nearest earlier tile
 *      with an exact sum or an approximate inclusive prefix, plus the tree sums after it,
 *      this tile's own tree sum standing in for any not yet published. Its binade is the
 *      tile's plan; the plan may differ from run to run, the result's bits never do;
 *   3. forms its unit for the planned binade while the terms are on chip: where no term is a
 *      tie, both increments equal sum(rint(x * 2^(52-e))) computed in f64 (exact, see
 *      op_fast_increment); otherwise the pair composition of binade.cuh in term order;
 *      publishes it (one word: the two increments differ by at most one);
 *   4. finds the exact sum before it by look-back over its predecessors' units, composed while
 *      they were planned for the nearest predecessor's binade, down to the nearest
 *      predecessor whose exact sum is published; applies its unit and publishes its exact
 *      sum. Where a unit does not apply (the plan missed, or the sum leaves the binade inside
 *      the tile) the tile finishes from the exact sum before it: lanes form their units for
 *      the sum's binade (the fast path where a lane has no tie), the first lane whose end
 *      leaves the binade adds its terms natively, and the rest go on in the new binade
 *      (crossings cost one lane, not one tile).
 * Each look-back round reads BINADE_OP_LB_WAYS words per lane, issued together. With
 * prefetch (onepass_sums), a block copies its next tile into its buffer once step 3 is done,
 * so the copy overlaps step 4; a tile that then finishes lane by lane reads its terms again
 * from global memory.
 * Every path ends in a checked apply (binade_apply_f64) or in native adds, so no plan, race
 * or look-back outcome can change the bits.
 *
 * BINADE_OP_MUTANT selects one deliberate defect of this engine's own shortcuts (0: none);
 * the codes are OnePassMutant's in src/gpu/ordered_sum/onepass.rs.
 */

#if !defined(BINADE_OP_THREADS) || !defined(BINADE_OP_PER_THREAD) || !defined(BINADE_OP_TILE)
#error "compile with the layout defines of crate::layout::defines (BINADE_OP_THREADS, BINADE_OP_PER_THREAD, BINADE_OP_TILE)"
#endif
#if BINADE_OP_TILE != BINADE_OP_THREADS * BINADE_OP_PER_THREAD || BINADE_OP_THREADS % 32 != 0 || BINADE_OP_THREADS > 1024
#error "inconsistent one-pass layout"
#endif
#if !defined(BINADE_OP_LB_WAYS) || !defined(BINADE_OP_PLAN_WAITS) || !defined(BINADE_OP_LANE_FAST) || \
    !defined(BINADE_OP_HOLD_RISKY)
#error "compile with the defines of EngineOptions in src/gpu/ordered_sum/onepass.rs"
#endif
#ifndef BINADE_OP_MUTANT
#define BINADE_OP_MUTANT 0
#endif
#define OP_M_TIE_IGNORED 1
#define OP_M_LOOKBACK_TRUSTS_UNFINISHED 2
#define OP_M_BOUND_IGNORED 3
#define OP_M_BINADES_MIXED 4
#define OP_M_NEGATIVE_ACCEPTED 5
#define OP_M_ODD_DROPPED 6
#define OP_M_PLAN_UNPUBLISHED_ZERO 7 /* a plan fault: must change no bits */
#define OP_M_TIE_PARITY_SHARED 8
#define OP_M_STAGED_BUFFERS_SWAPPED 9 /* the staged loop works on the buffer its next tile is copied into */
#define OP_M_STAGED_BUFFER_REUSED 10  /* it copies the next tile into the buffer of the one it works on */
#define OP_M_DEFERRED_FROM_BUFFER 11  /* a deferred tile finishes from the buffer, which holds the next tile */
#define OP_M_DEFERRED_UNIT_OF_NEXT 12 /* a deferred tile applies the unit of the block's next tile */
#define OP_M_HELD_FINISH_FROM_REGISTERS 13 /* a held tile finishes with the terms the block holds: the next tile's */
#define OP_M_HELD_BUFFER_REUSED 14 /* the next tile's copy starts before the buffer's tile is read out */
/* BINADE_OP_CUMSUM 1 builds the running-sum kernel: every tile also writes the loop's running
 * sum at each of its positions (onepass_sums' cum_out). BINADE_OP_CUM_MUTANT selects one
 * deliberate defect of its own steps (0: none), the codes of CumsumMutant in
 * src/gpu/ordered_cumsum.rs. */
#ifndef BINADE_OP_CUMSUM
#define BINADE_OP_CUMSUM 0
#endif
/* The timed-only schedules are compiled only where a build asks for them (each one adds code
 * that NVRTC compiles: scripts/nvrtc-build-times.py on a 2-core machine measured 24.9 s a build
 * with both, 7.6 s with neither). BINADE_OP_STAGED 1 compiles onepass_sums_staged;
 * BINADE_OP_DEFERRED 1 compiles the deferred schedule (prefetch 2) into onepass_sums. The
 * host launches neither from a build without it. */
#ifndef BINADE_OP_STAGED
#define BINADE_OP_STAGED 0
#endif
#ifndef BINADE_OP_DEFERRED
#define BINADE_OP_DEFERRED 0
#endif
/* BINADE_OP_HELD 1 compiles the held schedule's kernel onepass_sums_held: each tile is read
 * out of its buffer into registers as it lands, so the next tile's copy is in flight during
 * all of the tile's work (see op_held_loop). Its own kernel: in onepass_sums, beside the
 * other schedules, ptxas (CUDA 13.5, sm_90) gave the kernel 255 registers (one block per
 * multiprocessor); alone it takes 128. Not with the running sums. */
#ifndef BINADE_OP_HELD
#define BINADE_OP_HELD 0
#endif
#if BINADE_OP_HELD && BINADE_OP_CUMSUM
#error "the held schedule has no running-sum build"
#endif
#ifndef BINADE_OP_CUM_MUTANT
#define BINADE_OP_CUM_MUTANT 0
#endif
#define OP_CM_LANES_AT_TILE_START 1
#define OP_CM_LANE_START_INCLUSIVE 2
#define OP_CM_START_SIGN_DROPPED 3
#define OP_CM_LAST_LANE_UNWRITTEN 4
/* Timing builds only (crate::gpu::ordered_sum::onepass::Phases): BINADE_OP_UNTIL 0 stops
 * each tile after publishing its tree sum (no look-back: what the schedule's loads and
 * barriers cost alone), 1 after its approximate prefix, 2 after publishing its unit; the
 * totals are then not sums. 3 (the default) is the engine. */
#ifndef BINADE_OP_UNTIL
#define BINADE_OP_UNTIL 3
#endif

typedef unsigned long long u64;
/* BINADE_OP_TRACE 1 (a timing build of the held schedule, crate::gpu::ordered_sum::onepass::
 * OnePassSum::traced): thread 0 of each tile's block writes OP_TRACE_WORDS words for tile t
 * at cum_out (read as u64) + OP_TRACE_WORDS * t: the device's %globaltimer (ns) when the
 * tile's tree sum was published (taken), when its plan was known, when its unit was
 * published and when its exact sum was (or it was finished), then the multiprocessor and
 * block that ran it (smid << 32 | blockIdx.x), the block's round (its tiles before this
 * one), and when its copy had landed in the block's buffer (before it was read out: the take
 * waits for the copy from there back to the stamp before), and the trips of its two
 * look-backs (OP_TR_TRIPS: as two 32-bit halves, the plan's in the low half, the exact
 * look-back's in the high; each half counts reads in its low 16 bits, one read being one
 * OP_WAYS x 32-word load of the records by warp 0, and sleeps of a wait in its high 16
 * bits, both saturating at 65,535). A segment's first tile, finished at once, has its unit
 * time equal to its plan time and no trips. Not with the running sums (they use cum_out).
 * The host gives the words per tile (BINADE_OP_TRACE_WORDS, crate::gpu::ordered_sum::
 * onepass::TRACE_WORDS), the slots below must fit in them. */
#ifndef BINADE_OP_TRACE
#define BINADE_OP_TRACE 0
#endif
#if BINADE_OP_TRACE && BINADE_OP_CUMSUM
#error "a trace build has no running sums"
#endif
#if BINADE_OP_TRACE && (!defined(BINADE_OP_TRACE_WORDS) || BINADE_OP_TRACE_WORDS != 8)
#error "a trace build needs BINADE_OP_TRACE_WORDS 8 (the slots OP_TR_* below)"
#endif
#define OP_TRACE_WORDS BINADE_OP_TRACE_WORDS
#define OP_TR_TAKEN 0
#define OP_TR_PLANNED 1
#define OP_TR_UNIT 2
#define OP_TR_EXACT 3
#define OP_TR_WHERE 4
#define OP_TR_ROUND 5
#define OP_TR_LANDED 6
#define OP_TR_TRIPS 7
#if BINADE_OP_TRACE
/* The trips of the block's look-backs since their last record (only thread 0, lane 0 of the
 * look-back warp, touches them): plan reads, plan sleeps, exact reads, exact sleeps. */
__shared__ unsigned int op_trips[4];
__device__ static inline void op_trip(unsigned int k) {
    if (threadIdx.x == 0 && op_trips[k] < 0xffffu) op_trips[k]++;
}
/* Thread 0 records trips k and k + 1 (a look-back's reads and sleeps) as half `half` of tile
 * t's OP_TR_TRIPS word, and starts them again from 0. */
__device__ static inline void op_trips_record(double *out, u64 t, unsigned int k, unsigned int half) {
    if (threadIdx.x != 0) return;
    ((unsigned int *)((u64 *)out + OP_TRACE_WORDS * t + OP_TR_TRIPS))[half] = op_trips[k] | (op_trips[k + 1] << 16);
    op_trips[k] = 0u;
    op_trips[k + 1] = 0u;
}
__device__ static inline u64 op_now() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
/* Thread 0 records `slot` of tile t now (every thread may call it). */
#define OP_TRACE(out, t, slot) \
    do { \
        if (threadIdx.x == 0) ((u64 *)(out))[OP_TRACE_WORDS * (t) + (slot)] = op_now(); \
    } while (0)
#else
#define OP_TRACE(out, t, slot) \
    do { \
    } while (0)
__device__ static inline void op_trip(unsigned int) {}
__device__ static inline void op_trips_record(double *, u64, unsigned int, unsigned int) {}
#endif
#define OP_WARPS (BINADE_OP_THREADS / 32)
#define OP_PER BINADE_OP_PER_THREAD
/* A tile lives in shared memory as OP_TILE/2 pairs of doubles (16-byte chunks, the unit of
 * cp.async). Row r is thread r's OP_PER consecutive terms (OP_PAIRS pairs); inside a row the
 * pairs are permuted by XOR with (r mod OP_PAIRS), so that a warp reading its threads' rows
 * (blocked order, pair s of every row) touches OP_PAIRS different bank groups, and a warp
 * reading consecutive pairs (striped order) touches consecutive slots of a row. */
#define OP_PAIRS (OP_PER / 2)
#if OP_PER % 2 != 0 || (OP_PAIRS & (OP_PAIRS - 1)) != 0
#error "BINADE_OP_PER_THREAD must be twice a power of two"
#endif
__device__ static inline unsigned int op_pair_slot(unsigned int k) {
    unsigned int row = k / OP_PAIRS;
    return row * OP_PAIRS + ((k % OP_PAIRS) ^ (row % OP_PAIRS));
}
/* Where term p of the tile sits in the tile's buffer (in doubles). */
__device__ static inline unsigned int op_slot(unsigned int p) { return 2u * op_pair_slot(p >> 1) + (p & 1u); }

/* What a tile publishes: two words, each a value and a tag in 16 bytes, written and read
 * whole (st/ld .relaxed.gpu .v2.u64: one access to 16 aligned bytes), so a reader that sees
 * this launch's tag sees the value written with it and no fence is needed to order them. A
 * word moves through its kinds in order and each write replaces the last, so each look-back
 * reads one word per tile (the status word of a single-pass scan). The tag's
 * low 32 bits are (epoch << 3) | kind, so a word of an earlier launch reads as unpublished.
 * The plan word (what the plan look-back reads): */
#define OP_AGG 1u    /* tree sum of the tile */
#define OP_APPROX 2u /* approximate inclusive prefix, formed from published words only */
/* The exact word (what the exact look-back reads): */
#define OP_UNIT 3u  /* the unit for the planned binade: planned binade and parity code in the tag */
#define OP_EXACT 4u /* exact inclusive sum */

struct __align__(16) op_word {
    u64 value, tag;
};

/* The per-tile words of one launch (arrays of ntiles words) and each tile's path code. */
struct op_records {
    op_word *plan;
    op_word *exact;
    unsigned int *path;
    const double *terms; /* the launch's terms (a tile's outputs sit at the same offsets) */
    /* Rounds a waiting plan look-back (BINADE_OP_PLAN_WAITS 1) may sleep before it estimates
     * what is still missing (OP_FULL: no bound). The deferred schedule bounds it: its
     * deadlock-freedom argument needs every wait on a tree sum to end (see onepass_sums). */
    unsigned int plan_wait_max;
};

__device__ static inline op_word op_read(const op_word *w) {
    op_word v;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.value), "=l"(v.tag) : "l"(w) : "memory");
    return v;
}
__device__ static inline void op_write(op_word *w, u64 value, u64 tag) {
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(w), "l"(value), "l"(tag) : "memory");
}
__device__ static inline u64 op_tag(unsigned int epoch, unsigned int kind) { return (u64)((epoch << 3) | kind); }
/* Whether w was published by this launch with this kind. */
__device__ static inline int op_has(op_word w, unsigned int epoch, unsigned int kind) {
    return (unsigned int)w.tag == ((epoch << 3) | kind);
}

/* A unit in one exact word: value = the even increment, tag bits 32..42 the planned binade,
 * bits 43..44 the code odd - even + 1. The two increments of a unit differ by at most one:
 * a single term's do (binade_round_quotient), and if a's do then a then b's do too: where
 * a.even = a.odd the two starts still differ in parity after a, so b contributes its even
 * and odd increments, which differ by at most one; where they differ by one, both starts
 * have the same parity after a and b contributes the same increment to each. A unit that
 * saturates on either side is written as saturated on both: it never applies, so a reader
 * that composes it waits for the exact sum instead (slower, never wrong). */
__device__ static inline u64 op_unit_tag(unsigned int epoch, unsigned int b, binade_unit u, u64 *value) {
    u64 code = 1ull, v = u.even;
    if (u.even >= BINADE_SATURATED || u.odd >= BINADE_SATURATED) v = BINADE_SATURATED;
    else if (u.odd == u.even + 1ull) code = 2ull;
    else if (u.odd + 1ull == u.even) code = 0ull;
    else if (u.odd != u.even) v = BINADE_SATURATED;
    *value = v;
    return op_tag(epoch, OP_UNIT) | ((u64)b << 32) | (code << 43);
}
/* The unit of an exact word of kind OP_UNIT. */
__device__ static inline binade_unit op_unit_of(op_word w) {
    u64 code = (w.tag >> 43) & 3ull;
#if BINADE_OP_MUTANT == OP_M_ODD_DROPPED
    code = 1ull;
#endif
    if (w.value >= BINADE_SATURATED) return binade_unit_invalid();
    return binade_unit_make(w.value, w.value + code - 1ull);
}
/* The binade a word of kind OP_UNIT was planned for (0: none). */
__device__ static inline unsigned int op_unit_binade(op_word w) { return (unsigned int)(w.tag >> 32) & 0x7ffu; }

/* The segment holding global tile t: the last k with tile_base[k] <= t. */
__device__ static inline unsigned int op_segment_of(const u64 *tile_base, unsigned int nseg, u64 t) {
    unsigned int lo = 0, hi = nseg;
    while (hi - lo > 1) {
        unsigned int mid = (lo + hi) / 2;
        if (tile_base[mid] <= t) lo = mid; else hi = mid;
    }
    return lo;
}

__device__ static inline binade_unit op_shfl_down(binade_unit u, unsigned int step) {
    return binade_unit_make(__shfl_down_sync(0xffffffffu, u.even, step), __shfl_down_sync(0xffffffffu, u.odd, step));
}
__device__ static inline binade_unit op_shfl_up(binade_unit u, unsigned int step) {
    return binade_unit_make(__shfl_up_sync(0xffffffffu, u.even, step), __shfl_up_sync(0xffffffffu, u.odd, step));
}

/* Block-wide sum of doubles (any order: it only feeds the plan); valid on thread 0. */
__device__ static inline double op_block_add(double v, double *scratch) {
    for (unsigned int s = 16; s >= 1; s /= 2) v = __dadd_rn(v, __shfl_down_sync(0xffffffffu, v, s));
    if ((threadIdx.x & 31u) == 0) scratch[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < OP_WARPS ? scratch[threadIdx.x] : 0.0;
        for (unsigned int s = 16; s >= 1; s /= 2) v = __dadd_rn(v, __shfl_down_sync(0xffffffffu, v, s));
    }
    __syncthreads();
    return v;
}

/* Ordered inclusive scan of units over the block's threads (thread i's result composes
 * threads 0..i in order); *excl gets threads 0..i-1. Every thread calls it. */
__device__ static inline binade_unit op_block_scan(binade_unit v, binade_unit *excl, binade_unit *scratch) {
    unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (unsigned int s = 1; s < 32; s *= 2) {
        binade_unit o = op_shfl_up(v, s);
        if (lane >= s) v = binade_compose(o, v);
    }
    if (lane == 31u) scratch[warp] = v;
    __syncthreads();
    binade_unit before = binade_unit_zero(); /* the earlier warps, in order */
    for (unsigned int w = 0; w < warp; w++) before = binade_compose(before, scratch[w]);
    binade_unit prev = op_shfl_up(v, 1);
    *excl = binade_compose(before, lane == 0 ? binade_unit_zero() : prev);
    __syncthreads();
    return binade_compose(before, v);
}

/* Ordered composition of the block's threads' units (thread 0 first); valid on thread 0. */
__device__ static inline binade_unit op_block_compose(binade_unit v, binade_unit *scratch) {
    unsigned int lane = threadIdx.x & 31u;
    for (unsigned int s = 1; s < 32; s *= 2) {
        binade_unit o = op_shfl_down(v, s);
        if ((lane & (2 * s - 1)) == 0) v = binade_compose(v, o);
    }
    if (lane == 0) scratch[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned int w = 1; w < OP_WARPS; w++) v = binade_compose(v, scratch[w]);
    __syncthreads();
    return v;
}

/* The fast unit of a thread's terms for binade b (52 <= b, so 2^(52-e) = 2^(1075-b) is a
 * normal double). For x >= 0, y = x * 2^(52-e) is exact (a power-of-two scaling; where it
 * would round, y < 2^-1022 and both y and its rounding are far below one half), and x / u
 * rounded to nearest even is rint(y). Where y - rint(y) is not +-1/2 (no tie) the increment
 * does not depend on the start's parity, so the unit is (rint(y), rint(y)); y - rint(y) is
 * exact for y < 2^53. Integers below 2^53 add exactly in f64, and a sum of non-negative
 * values that reaches 2^53 stays at or above it (rounding is monotone), so a final sum below
 * 2^53 is exact: the caller checks that bound. NaN and +inf terms make the sum NaN or +inf
 * and fail it; negative terms set *bad. */
__device__ static inline double op_fast_increment(const double *buf, unsigned int b, int *tie, int *bad) {
    const double scale = __longlong_as_double((long long)((u64)(2098u - b) << 52));
    double s = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < OP_PAIRS; j++) {
        double2 v = *(const double2 *)(buf + 2u * op_pair_slot(j * BINADE_OP_THREADS + threadIdx.x));
        double x[2] = {v.x, v.y};
#pragma unroll
        for (unsigned int h = 0; h < 2; h++) {
            double y = __dmul_rn(x[h], scale);
            double r = rint(y);
            double d = __dsub_rn(y, r);
#if BINADE_OP_MUTANT != OP_M_TIE_IGNORED
            *tie |= (d == 0.5) | (d == -0.5);
#endif
#if BINADE_OP_MUTANT != OP_M_NEGATIVE_ACCEPTED
            *bad |= x[h] < 0.0;
#endif
            s = __dadd_rn(s, r);
        }
    }
    return s;
}

/* The sum of this thread's pairs (striped order; any order serves the plan). Terms past the
 * tile's count are +0 in the buffer. */
__device__ static inline double op_thread_tree_sum(const double *buf) {
    double s = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < OP_PAIRS; j++) {
        double2 v = *(const double2 *)(buf + 2u * op_pair_slot(j * BINADE_OP_THREADS + threadIdx.x));
        s = __dadd_rn(s, __dadd_rn(v.x, v.y));
    }
    return s;
}

/* Where a tile's terms are read from when it finishes lane by lane: its buffer in shared
 * memory (term p at op_slot(p), +0 after the count), or the terms themselves in global memory
 * (the buffer already holds the block's next tile; term p at src[p] for p < count), each
 * thread's own OP_PER terms loaded once into registers, all loads issued together. own(j) is
 * the calling thread's term j; at(p) any term of the tile. */
struct op_shared_terms {
    double *buf;
    __device__ double at(unsigned int p) const { return buf[op_slot(p)]; }
    __device__ double own(unsigned int j) const { return buf[op_slot(threadIdx.x * OP_PER + j)]; }
};
struct op_global_terms {
    const double *src;
    unsigned int count;
    double x[OP_PER];
    __device__ double at(unsigned int p) const { return p < count ? src[p] : 0.0; }
    __device__ double own(unsigned int j) const { return x[j]; }
};
__device__ static inline void op_load_own(op_global_terms &g) {
    const unsigned int p0 = threadIdx.x * OP_PER;
#pragma unroll
    for (unsigned int j = 0; j < OP_PER; j++) g.x[j] = p0 + j < g.count ? __ldg(g.src + p0 + j) : 0.0;
}

/* A tile finished lane by lane straight from global memory, nothing of it held (the held
 * schedule: the registers hold the block's next tile by then). Term j of the calling thread
 * is read where it is used; mostly from L2, since the tile was copied a round before. */
struct op_streamed_terms {
    const double *src;
    unsigned int count;
    __device__ double at(unsigned int p) const {
        /* Plain loads, free to be issued together (asm volatile loads, one after another,
         * kept no register: ptxas gives the kernel 128 either way). gpu-timing measured the
         * held schedule's geometric stream at 18.5 ms against the engine's 8.3 at 2^30
         * terms with both (19e05be, cf969ae): these loads are not why. */
        return p < count ? __ldg(src + p) : 0.0;
    }
    __device__ double own(unsigned int j) const { return at(threadIdx.x * OP_PER + j); }
};

/* The tile a block holds in registers, seen through a pointer (op_exact takes its terms by
 * value; this copies no registers): the calling thread's own terms from the registers, any
 * other term of the tile from global memory. */
struct op_held_view {
    const op_global_terms *held;
    __device__ double at(unsigned int p) const { return held->at(p); }
    __device__ double own(unsigned int j) const { return held->own(j); }
};

/* The fast increment and the tree sum of a thread's terms wherever they are: in the tile's
 * buffer (op_fast_increment, op_thread_tree_sum: striped order) or held in registers (the
 * thread's own terms, tile order). Either order serves: the increment is a sum of integers
 * below 2^53 (exact in any order, see op_fast_increment) and the tree sum feeds only the
 * plan. */
__device__ static inline double op_fast_increment_of(const op_shared_terms &t, unsigned int b, int *tie, int *bad) {
    return op_fast_increment(t.buf, b, tie, bad);
}
__device__ static inline double op_fast_increment_of(const op_global_terms &g, unsigned int b, int *tie, int *bad) {
    const double scale = __longlong_as_double((long long)((u64)(2098u - b) << 52));
    double s = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < OP_PER; j++) {
        double y = __dmul_rn(g.x[j], scale);
        double r = rint(y);
        double d = __dsub_rn(y, r);
#if BINADE_OP_MUTANT != OP_M_TIE_IGNORED
        *tie |= (d == 0.5) | (d == -0.5);
#endif
#if BINADE_OP_MUTANT != OP_M_NEGATIVE_ACCEPTED
        *bad |= g.x[j] < 0.0;
#endif
        s = __dadd_rn(s, r);
    }
    return s;
}
__device__ static inline double op_tree_sum_of(const op_shared_terms &t) { return op_thread_tree_sum(t.buf); }
__device__ static inline double op_tree_sum_of(const op_global_terms &g) {
    double s = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < OP_PAIRS; j++) s = __dadd_rn(s, __dadd_rn(g.x[2 * j], g.x[2 * j + 1]));
    return s;
}

/* Thread i's unit for binade b over its terms i*OP_PER .. i*OP_PER + OP_PER - 1 that
 * lie below `count` (tile order): the pair composition of binade.cuh. */
template <class T>
__device__ static inline binade_unit op_thread_unit(const T &terms, unsigned int b, unsigned int count) {
    binade_unit u = binade_unit_zero();
    unsigned int p0 = threadIdx.x * OP_PER;
#pragma unroll
    for (unsigned int j = 0; j < OP_PER; j++) {
        unsigned int p = p0 + j;
        if (p < count) u = binade_compose(u, binade_term_unit_f64(b, (u64)__double_as_longlong(terms.own(j))));
    }
    return u;
}

/* The fast unit's bound: an f64 sum of the non-negative integers rint(x * 2^(52-e)) below
 * 2^53 is their exact sum (see op_fast_increment); at or above it, or NaN, the unit is
 * saturated and never applies. */
__device__ static inline u64 op_bounded(double inc) {
#if BINADE_OP_MUTANT == OP_M_BOUND_IGNORED
    return (u64)inc;
#else
    return inc < 0x1p53 ? (u64)inc : BINADE_SATURATED;
#endif
}

/* The parity of an integer-valued double in [0, 2^53). */
__device__ static inline unsigned int op_parity(double v) { return (unsigned int)((u64)v & 1ull); }

/* Thread i's unit for binade b over its own terms (tile order), equal to op_thread_unit's,
 * computed in f64 where b >= 52 and no term is negative (BINADE_OP_LANE_FAST 1; otherwise,
 * and always with BINADE_OP_LANE_FAST 0, by the pair composition).
 * The argument. With u = 2^(b-1075), y = x / u = x * 2^(1075-b) is exact (op_fast_increment).
 * A sum m * u in binade b plus x rounds to m' = round_ties_even(m + y). Where y is not a tie
 * (y - rint(y) is not +-1/2), m' = m + rint(y) for either parity of m. Where it is, y = k + 1/2
 * with k = y - 1/2 exact, and m' = m + k + ((m + k) mod 2): even. So the increments for an
 * even and an odd start, ce and co, add rint(y) on non-ties, and at a tie add k plus the
 * parity of (start + increment so far + k), which is ce + k for the even start and
 * 1 + co + k for the odd one. These are the per-term units of binade_term_unit_f64 composed
 * in order (binade_compose reads the same parity). Every partial sum is an integer below
 * 2^53 while the final ones are (the terms are non-negative), so the f64 adds are exact; a
 * final sum at or above 2^53 (or NaN, from a NaN or infinite term) gives a saturated unit. */
template <class T>
__device__ static inline binade_unit op_lane_unit(const T &terms, unsigned int b, unsigned int count) {
    if (BINADE_OP_LANE_FAST && b >= 52u) {
        const double scale = __longlong_as_double((long long)((u64)(2098u - b) << 52));
        double ce = 0.0, co = 0.0;
        int bad = 0;
#pragma unroll
        for (unsigned int j = 0; j < OP_PER; j++) {
            double x = terms.own(j);
            double y = __dmul_rn(x, scale);
            double rr = rint(y);
            double d = __dsub_rn(y, rr);
#if BINADE_OP_MUTANT != OP_M_NEGATIVE_ACCEPTED
            bad |= x < 0.0;
#endif
#if BINADE_OP_MUTANT == OP_M_TIE_IGNORED
            int tie = 0;
#else
            int tie = (d == 0.5) | (d == -0.5);
#endif
            if (tie) {
                double k = __dsub_rn(y, 0.5);
                unsigned int pk = op_parity(k);
                ce = __dadd_rn(ce, __dadd_rn(k, (double)((op_parity(ce) ^ pk) & 1u)));
#if BINADE_OP_MUTANT == OP_M_TIE_PARITY_SHARED
                co = __dadd_rn(co, __dadd_rn(k, (double)((op_parity(ce) ^ pk) & 1u)));
#else
                co = __dadd_rn(co, __dadd_rn(k, (double)((1u ^ op_parity(co) ^ pk) & 1u)));
#endif
            } else {
                ce = __dadd_rn(ce, rr);
                co = __dadd_rn(co, rr);
            }
        }
        if (!bad) return binade_unit_make(op_bounded(ce), op_bounded(co));
    }
    return op_thread_unit(terms, b, count);
}

/* Adds thread i's terms to s natively, in order. */
template <class T>
__device__ static inline u64 op_thread_add(const T &terms, unsigned int i, unsigned int count, u64 s) {
    double acc = __longlong_as_double((long long)s);
    unsigned int p0 = i * OP_PER;
    if (i == threadIdx.x) {
#pragma unroll
        for (unsigned int j = 0; j < OP_PER; j++)
            if (p0 + j < count) acc = __dadd_rn(acc, terms.own(j));
    } else {
        for (unsigned int j = 0; j < OP_PER && p0 + j < count; j++) acc = __dadd_rn(acc, terms.at(p0 + j));
    }
    return (u64)__double_as_longlong(acc);
}

/* Look-backs read OP_WAYS words per lane per round, all loads issued before any is used:
 * lane l of way k inspects tile hi - 32k - l, so one round covers OP_REACH tiles for the
 * latency of one load. */
#if BINADE_OP_LB_WAYS < 1 || BINADE_OP_LB_WAYS > 8
#error "BINADE_OP_LB_WAYS must be 1 to 8"
#endif
#define OP_WAYS BINADE_OP_LB_WAYS
#define OP_REACH (32ll * OP_WAYS)
/* BINADE_OP_PLAN_WAITS 1: the plan look-back waits until every nearer tile has published its
 * tree sum (a timed variant: the plan of the engine before); 0: it estimates them. */
#define OP_FULL 0xffffffffu

/* Loads the words `w` of tiles hi - 32k - lane (k < OP_WAYS) from `words`; +0 words (no
 * tag) below seg_first. */
__device__ static inline void op_load_ways(const op_word *words, long long hi, u64 seg_first, op_word *w) {
    const long long lane = threadIdx.x & 31u;
#pragma unroll
    for (unsigned int k = 0; k < OP_WAYS; k++) {
        long long p = hi - 32ll * k - lane;
        w[k].value = 0ull;
        w[k].tag = 0ull;
        if (p >= (long long)seg_first) w[k] = op_read(words + p);
    }
}

/* The plan of tile t: an approximate prefix, by warp 0. The nearest earlier tile of the
 * segment with an exact sum or an approximate inclusive prefix ends the look-back; each tile
 * after it contributes its tree sum, or, where that is not published yet, `own` (this tile's
 * tree sum) as an estimate: the plan never waits (BINADE_OP_PLAN_WAITS 1: it waits).
 * *estimated gets the part of the prefix that is estimates (0: none). Only a plan: its bits
 * may vary between runs and no total depends on them. Valid on lane 0. */
__device__ static inline double op_lookback_plan(const op_records &r, u64 t, u64 seg_first, unsigned int epoch,
                                                 double own, double *estimated) {
    const unsigned int lane = threadIdx.x & 31u;
    double acc = 0.0, est = 0.0;
    long long hi = (long long)t - 1;
    unsigned int waited = 0u;
    while (true) {
        op_word pw[OP_WAYS], ew[OP_WAYS];
        op_trip(0);
        op_load_ways(r.plan, hi, seg_first, pw);
        op_load_ways(r.exact, hi, seg_first, ew);
        int wait = 0;
#pragma unroll
        for (unsigned int k = 0; k < OP_WAYS; k++) {
            long long p = hi - 32ll * k - (long long)lane;
            int inside = p >= (long long)seg_first;
            int is_exact = inside && op_has(ew[k], epoch, OP_EXACT);
            int inclusive = is_exact || (inside && op_has(pw[k], epoch, OP_APPROX));
            unsigned int ended = __ballot_sync(OP_FULL, !inside || inclusive);
            unsigned int stop = ended ? (unsigned int)__ffs(ended) - 1u : 32u;
            int has_agg = inside && op_has(pw[k], epoch, OP_AGG);
            int missing = lane < stop && !has_agg;
#if BINADE_OP_PLAN_WAITS
            if (waited < r.plan_wait_max && __ballot_sync(OP_FULL, missing)) {
                hi -= 32ll * k;
                wait = 1;
                break;
            }
#endif
            double v = 0.0;
#if BINADE_OP_MUTANT == OP_M_PLAN_UNPUBLISHED_ZERO
            if (lane < stop) v = has_agg ? __longlong_as_double((long long)pw[k].value) : 0.0;
#else
            if (lane < stop) v = has_agg ? __longlong_as_double((long long)pw[k].value) : own;
#endif
            else if (lane == stop && inside) v = __longlong_as_double((long long)(is_exact ? ew[k].value : pw[k].value));
            double e = missing ? v : 0.0;
            for (unsigned int s = 16; s >= 1; s /= 2) {
                v = __dadd_rn(v, __shfl_down_sync(OP_FULL, v, s));
                e = __dadd_rn(e, __shfl_down_sync(OP_FULL, e, s));
            }
            acc = __dadd_rn(acc, v);
            est = __dadd_rn(est, e);
            if (stop < 32u) {
                *estimated = est;
                return acc;
            }
        }
        if (wait) {
            waited++;
            op_trip(1);
            __nanosleep(20);
            continue;
        }
        hi -= OP_REACH;
    }
}

/* Composes the units u of lanes 0..stop-1 (lane 0 the newest tile) in term order, oldest
 * first, onto the front of acc; valid on lane 0. */
__device__ static inline binade_unit op_compose_lanes(binade_unit u, unsigned int stop, binade_unit acc) {
    const unsigned int lane = threadIdx.x & 31u;
    if (lane >= stop) u = binade_unit_zero();
    for (unsigned int s = 1; s < 32; s *= 2) {
        binade_unit o = op_shfl_down(u, s);
        if ((lane & (2 * s - 1)) == 0) u = binade_compose(o, u);
    }
    return binade_compose(u, acc);
}

/* The exact sum before tile t (bits), by warp 0. b* is the binade the nearest predecessor
 * planned; predecessors that published a unit for b* and no exact sum yet are composable; the
 * nearest one that is not ends the look-back: once its exact sum is published, the
 * composition of the units after it is applied to that sum. Where that apply fails (the sum
 * left b* between them, or it was never in it), the tile waits for its predecessor's exact
 * sum instead. Valid on lane 0. */
__device__ static inline u64 op_lookback_exact(const op_records &r, u64 t, u64 seg_first, unsigned int epoch) {
    const unsigned int lane = threadIdx.x & 31u;
    binade_unit acc = binade_unit_zero(); /* units of the tiles already passed, in order */
    unsigned int bstar = 0u, passed = 0u;
    long long hi = (long long)t - 1;
    while (true) {
        op_word ew[OP_WAYS];
        op_trip(2);
        op_load_ways(r.exact, hi, seg_first, ew);
        int wait = 0;
#pragma unroll
        for (unsigned int k = 0; k < OP_WAYS; k++) {
            long long p = hi - 32ll * k - (long long)lane;
            int inside = p >= (long long)seg_first;
            int is_exact = inside && op_has(ew[k], epoch, OP_EXACT);
            int has_unit = inside && op_has(ew[k], epoch, OP_UNIT);
            unsigned int pb = has_unit ? op_unit_binade(ew[k]) : 0u;
            if (passed == 0u) bstar = __shfl_sync(OP_FULL, pb, 0);
#if BINADE_OP_MUTANT == OP_M_BINADES_MIXED
            int composable = has_unit && pb != 0u;
#else
            int composable = has_unit && pb != 0u && pb == bstar;
#endif
            unsigned int blockers = __ballot_sync(OP_FULL, !composable);
            unsigned int stop = blockers ? (unsigned int)__ffs(blockers) - 1u : 32u;
            int stop_exact = __shfl_sync(OP_FULL, is_exact, stop & 31u);
#if BINADE_OP_MUTANT == OP_M_LOOKBACK_TRUSTS_UNFINISHED
            stop_exact = 1; /* reads the exact sum whether or not it is published */
#endif
            if (stop < 32u && !stop_exact) {
                hi -= 32ll * k;
                wait = 1;
                break; /* the nearest tile that cannot be composed has not finished */
            }
            acc = op_compose_lanes(composable ? op_unit_of(ew[k]) : binade_unit_zero(), stop, acc);
            passed += stop;
            if (stop == 32u) continue;
            u64 start = __shfl_sync(OP_FULL, ew[k].value, stop);
            if (passed == 0u) return start; /* the predecessor's own exact sum */
            u64 out = 0ull;
            int ok = __shfl_sync(OP_FULL, binade_apply_f64(acc, bstar, start, &out), 0);
            if (ok) return out; /* acc and out are whole on lane 0 */
            /* The composition does not apply: wait for the predecessor's own exact sum. */
            if (lane == 0) {
                op_word prev = op_read(r.exact + (t - 1));
#if BINADE_OP_MUTANT != OP_M_LOOKBACK_TRUSTS_UNFINISHED
                while (!op_has(prev, epoch, OP_EXACT)) {
                    op_trip(3);
                    __nanosleep(20);
                    prev = op_read(r.exact + (t - 1));
                }
#endif
                out = prev.value;
            }
            return out;
        }
        if (wait) {
            op_trip(3);
            __nanosleep(20);
            continue;
        }
        hi -= OP_REACH;
    }
}

/* Finishes the tile (its terms in buf) from the exact sum s before it: each
 * round, the lanes not yet done compose their units for the binade of s, the first lane whose
 * composed end does not apply adds its terms natively, and the next round starts after it.
 * A start that is not a positive normal (zero, subnormal, negative) is left by one lane's
 * native adds; an infinite or NaN start takes the rest of the tile natively. Every thread
 * calls it; returns the tile's exact end on thread 0. *lanes_native counts lanes added
 * natively. */
template <class T>
__device__ static inline u64 op_finish(const T &buf, unsigned int count, u64 s, binade_unit *scratch,
                                       u64 *sh_s, unsigned int *sh_from, unsigned int *sh_fail, unsigned int *lanes_native,
                                       u64 *lane_start) {
    const unsigned int used = (count + OP_PER - 1) / OP_PER; /* threads with terms */
    if (threadIdx.x == 0) {
        *sh_s = s;
        *sh_from = 0;
    }
    __syncthreads();
    unsigned int native = 0;
    while (true) {
        u64 cur = *sh_s;
        unsigned int from = *sh_from;
        __syncthreads();
        if (from >= used) break;
        unsigned int b = binade_of_f64(cur);
        if (b == 0u) {
            u64 mag = cur & 0x7fffffffffffffffull;
            int tiny = (cur >> 63) == 0ull && mag < 0x0010000000000000ull; /* +-0 or positive subnormal */
            if ((cur >> 63) && mag == 0ull) tiny = 1;
            if (threadIdx.x == 0) {
                unsigned int last = tiny ? from + 1u : used;
                for (unsigned int i = from; i < last; i++) {
                    if (lane_start) lane_start[i] = cur;
                    cur = op_thread_add(buf, i, count, cur);
                }
                native += last - from;
                *sh_s = cur;
                *sh_from = last;
            }
            __syncthreads();
            continue;
        }
        binade_unit u = threadIdx.x >= from ? op_lane_unit(buf, b, count) : binade_unit_zero();
        binade_unit excl;
        binade_unit incl = op_block_scan(u, &excl, scratch);
        if (threadIdx.x == 0) *sh_fail = 0xffffffffu;
        __syncthreads();
        u64 out = 0ull;
        int ok = threadIdx.x < from || threadIdx.x >= used || binade_apply_f64(incl, b, cur, &out);
        if (!ok) atomicMin(sh_fail, threadIdx.x);
        __syncthreads();
        unsigned int fail = *sh_fail;
        /* Lanes from .. fail (or .. used - 1) now know their exact start: lane `from` starts at
         * cur, a later lane where the composition of the lanes before it leaves cur (it
         * applies: the lane before did). */
        if (lane_start && threadIdx.x >= from && threadIdx.x < used && threadIdx.x <= fail) {
            u64 st = cur;
#if BINADE_OP_CUM_MUTANT == OP_CM_LANE_START_INCLUSIVE
            if (!binade_apply_f64(incl, b, cur, &st)) st = cur;
#else
            if (threadIdx.x > from) binade_apply_f64(excl, b, cur, &st);
#endif
            lane_start[threadIdx.x] = st;
        }
        if (fail == 0xffffffffu) {
            if (threadIdx.x == used - 1u) *sh_s = out;
            if (threadIdx.x == 0) *sh_from = used;
        } else if (threadIdx.x == fail) {
            u64 at = cur;
            if (fail > from) binade_apply_f64(excl, b, cur, &at); /* applies: lane fail-1 did */
            *sh_s = op_thread_add(buf, fail, count, at);
            *sh_from = fail + 1u;
            native += 1;
        }
        __syncthreads();
    }
    if (native) atomicAdd(lanes_native, native);
    __syncthreads();
    return *sh_s;
}

/* Copies tile terms src[0..count) into buf (its slots), +0 after count, asynchronously
 * (cp.async, one commit group per call): 16-byte chunks where the tile is whole and 16-byte
 * aligned, 8-byte copies otherwise. Complete after cp.async.wait_group and __syncthreads. */
__device__ static inline void op_copy_tile(double *buf, const double *src, unsigned int count) {
    if (count == BINADE_OP_TILE && ((u64)src & 15ull) == 0ull) {
        for (unsigned int k = threadIdx.x; k < BINADE_OP_TILE / 2; k += BINADE_OP_THREADS) {
            unsigned int dst = (unsigned int)__cvta_generic_to_shared(buf + 2u * op_pair_slot(k));
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src + 2u * k) : "memory");
        }
    } else {
        for (unsigned int p = threadIdx.x; p < BINADE_OP_TILE; p += BINADE_OP_THREADS) {
            if (p < count) {
                unsigned int dst = (unsigned int)__cvta_generic_to_shared(buf + op_slot(p));
                asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(src + p) : "memory");
            } else {
                buf[op_slot(p)] = 0.0;
            }
        }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}

/* Path codes of a tile (records.path): bit 0 the tile had a tie (pair composition), bit 1
 * its unit did not apply (finished lane by lane), bit 2 the exact sum before it was not in
 * its planned binade (the plan missed), bit 3 its plan used an estimate for a tree sum not
 * yet published, bit 4 its plan said it may leave its binade (it held its terms); bits 8..
 * lanes added natively. */
#define OP_PATH_PAIR 1u
#define OP_PATH_FINISH 2u
#define OP_PATH_MISSED 4u
#define OP_PATH_ESTIMATED 8u
#define OP_PATH_RISKY 16u
/* bit 5 (running-sum kernel): the last lane's native running sum differs from the tile's
 * exact end. The argument says it cannot happen; the host refuses a result that has it. */
#define OP_PATH_CUM_MISMATCH 32u

/* Per-block shared state of the tile being processed. */
struct op_shared {
    double dscratch[OP_WARPS];
    binade_unit uscratch[OP_WARPS];
    u64 tile, next, s;
    unsigned int b, from, fail, native, planned, missed;
#if BINADE_OP_CUMSUM
    u64 lane_start[BINADE_OP_THREADS]; /* each lane's exact start, for the running sums */
    u64 before;                       /* the tile's exact start */
    unsigned int cum_native, cum_flag;
#endif
};
#if BINADE_OP_CUMSUM
#define OP_LANE_STARTS(sh) ((sh).lane_start)
#else
#define OP_LANE_STARTS(sh) ((u64 *)0)
#endif

/* Where a running sum goes. From shared terms (the tile's buffer), into the buffer slot of
 * the term it follows: each lane reads its own slots only, each just before overwriting it,
 * so no lane reads a running sum as a term; op_cum_flush then stores the whole tile with
 * coalesced 16-byte stores (a lane's own 32 consecutive outputs, stored by the lane, would
 * touch 32 sectors per warp instruction). From global terms (the buffer holds the next
 * tile), straight to the output. */
__device__ static inline void op_cum_put(const op_shared_terms &terms, double *, unsigned int p, double v) {
    terms.buf[op_slot(p)] = v;
}
__device__ static inline void op_cum_put(const op_global_terms &, double *out, unsigned int p, double v) { out[p] = v; }
/* Stores the running sums of a tile staged in its buffer (positions 0..count); every thread
 * calls it after a barrier that follows every op_cum_put. */
__device__ static inline void op_cum_flush(const op_shared_terms &terms, unsigned int count, double *out) {
    if (count == BINADE_OP_TILE && ((u64)out & 15ull) == 0ull) {
        for (unsigned int k = threadIdx.x; k < BINADE_OP_TILE / 2; k += BINADE_OP_THREADS)
            *(double2 *)(out + 2u * k) = *(const double2 *)(terms.buf + 2u * op_pair_slot(k));
    } else {
        for (unsigned int p = threadIdx.x; p < count; p += BINADE_OP_THREADS) out[p] = terms.buf[op_slot(p)];
    }
}
__device__ static inline void op_cum_flush(const op_global_terms &, unsigned int, double *) {}

/* The running sums of a tile (BINADE_OP_CUMSUM): every lane with terms adds its own terms
 * natively from its exact start (lane_start, from op_finish), writing the sum after each term
 * to out[p] (out is the tile's first output). The loop's running sum at a position is the
 * exact start of its lane plus the lane's terms before it added in order, so every output is
 * the loop's. Returns OP_PATH_CUM_MISMATCH where the last lane's end is not `s_end` (the
 * tile's exact end, NaN matching NaN). Every thread calls it. */
#if BINADE_OP_CUMSUM
template <class T>
__device__ static inline unsigned int op_cum_write(const T &terms, unsigned int count, double *out,
                                                   const u64 *lane_start, u64 s_end, unsigned int *flag) {
    const unsigned int used = (count + OP_PER - 1) / OP_PER;
    if (threadIdx.x == 0) *flag = 0u;
    __syncthreads();
    if (threadIdx.x < used) {
#if BINADE_OP_CUM_MUTANT == OP_CM_LANES_AT_TILE_START
        double acc = __longlong_as_double((long long)lane_start[0]);
#else
        double acc = __longlong_as_double((long long)lane_start[threadIdx.x]);
#endif
        const unsigned int p0 = threadIdx.x * OP_PER;
#if BINADE_OP_CUM_MUTANT == OP_CM_LAST_LANE_UNWRITTEN
        const int write = threadIdx.x + 1u < used;
#else
        const int write = 1;
#endif
#pragma unroll
        for (unsigned int j = 0; j < OP_PER; j++) {
            if (p0 + j < count) {
                acc = __dadd_rn(acc, terms.own(j));
                if (write) op_cum_put(terms, out, p0 + j, acc);
            }
        }
        if (threadIdx.x == used - 1u) {
            u64 end = (u64)__double_as_longlong(acc);
            int same = end == s_end || (acc != acc && __longlong_as_double((long long)s_end) != __longlong_as_double((long long)s_end));
            if (!same) *flag = OP_PATH_CUM_MISMATCH;
        }
    }
    __syncthreads();
    op_cum_flush(terms, count, out);
    return *flag;
}
#endif


/* Where tile t's terms are: segment k, its first tile, and the tile's count and source. */
struct op_tile_span {
    unsigned int k;
    u64 seg_first;
    unsigned int count;
    const double *src;
};
__device__ static inline op_tile_span op_span(const double *terms, const u64 *seg_start, const u64 *seg_len,
                                              const u64 *tile_base, unsigned int nseg, u64 t) {
    op_tile_span sp;
    sp.k = op_segment_of(tile_base, nseg, t);
    sp.seg_first = tile_base[sp.k];
    u64 local = t - sp.seg_first;
    u64 left = seg_len[sp.k] - local * BINADE_OP_TILE;
    sp.count = left < BINADE_OP_TILE ? (unsigned int)left : BINADE_OP_TILE;
    sp.src = terms + seg_start[sp.k] + local * BINADE_OP_TILE;
    return sp;
}

/* What the first part of a tile leaves for the second: its unit for its planned binade b,
 * its path bits so far, and, for a segment's first tile, its finished exact end. */
struct op_pending {
    binade_unit unit;
    unsigned int b, path;
    int done;  /* the tile is finished (a segment's first tile, or a timing build's stop) */
    int risky; /* it may leave its binade: it keeps its terms in shared memory until done */
    u64 s_end;
};

/* Tile t's tree sum (terms wherever T holds them), published at once: a segment's first
 * tile's is its inclusive prefix. Every thread calls it; the sum is valid on thread 0. */
template <class T>
__device__ static inline double op_publish_tree_sum(const op_records &r, op_shared &sh, const T &terms, u64 t,
                                                    const op_tile_span &sp, unsigned int epoch) {
    double ts = op_block_add(op_tree_sum_of(terms), sh.dscratch);
    if (threadIdx.x == 0) {
        u64 bits = (u64)__double_as_longlong(ts);
        op_write(r.plan + t, bits, op_tag(epoch, t == sp.seg_first ? OP_APPROX : OP_AGG));
    }
    return ts;
}

/* Tile t after its tree sum ts (valid on thread 0) is published, its terms in `terms`
 * (its buffer, or held in registers), up to its published unit: plan, unit. A segment's
 * first tile is finished here from +0 and its exact sum published. Every thread calls it. */
template <class T>
__device__ static inline op_pending op_plan_and_unit_of(const op_records &r, op_shared &sh, const T &terms,
                                                        double ts, u64 t, const op_tile_span &sp,
                                                        const u64 *tile_base, unsigned int epoch, double *totals,
                                                        u64 start, double *cum_out) {
    const u64 local = t - sp.seg_first;
    const unsigned int count = sp.count, k = sp.k;
    op_pending out;
    out.unit = binade_unit_invalid();
    out.b = 0u;
    out.path = 0u;
    out.done = 0;
    out.risky = 0;
    out.s_end = 0ull;
#if BINADE_OP_UNTIL == 0
    if (threadIdx.x == 0 && t + 1 == tile_base[k + 1]) totals[k] = ts;
    out.done = 1;
    return out;
#endif
    if (local == 0) {
        if (threadIdx.x == 0) sh.native = 0; /* ordered before the counts by op_finish's first barrier */
        /* The segment's first tile starts from `start` (+0 or -0), in no binade: finish
         * directly. */
#if BINADE_OP_CUM_MUTANT == OP_CM_START_SIGN_DROPPED
        start = 0ull;
#endif
        out.s_end = op_finish(terms, count, start, sh.uscratch, &sh.s, &sh.from, &sh.fail, &sh.native, OP_LANE_STARTS(sh));
        out.path = OP_PATH_FINISH;
        out.done = 1;
        if (threadIdx.x == 0) {
            op_write(r.exact + t, out.s_end, op_tag(epoch, OP_EXACT));
            if (t + 1 == tile_base[k + 1]) totals[k] = __longlong_as_double((long long)out.s_end);
        }
#if BINADE_OP_CUMSUM
        out.path |= op_cum_write(terms, count, cum_out + (sp.src - r.terms), sh.lane_start, out.s_end, &sh.cum_flag);
#endif
        if (threadIdx.x == 0) r.path[t] = out.path | (sh.native << 8);
        OP_TRACE(cum_out, t, OP_TR_PLANNED);
        OP_TRACE(cum_out, t, OP_TR_UNIT);
        return out;
    }
    /* The plan: an approximate prefix by look-back (its estimate of a missing tree sum is
     * this tile's, which only thread 0 holds). */
    if (threadIdx.x < 32) {
        double est = 0.0;
        double own = __shfl_sync(OP_FULL, ts, 0);
        double prefix = op_lookback_plan(r, t, sp.seg_first, epoch, own, &est);
        if (threadIdx.x == 0) {
            double end = __dadd_rn(prefix, ts);
            if (est == 0.0) op_write(r.plan + t, (u64)__double_as_longlong(end), op_tag(epoch, OP_APPROX));
            sh.b = binade_of_f64((u64)__double_as_longlong(prefix));
            /* Risky: the sum may leave its binade in this tile, or the plan may be off by
             * the estimates or by the difference of tree sums and the loop's (2^-20 of the
             * prefix is far beyond it). */
            double margin = __dadd_rn(est, __dmul_rn(prefix, 0x1p-20));
            unsigned int lo = binade_of_f64((u64)__double_as_longlong(__dsub_rn(prefix, margin)));
            unsigned int hi = binade_of_f64((u64)__double_as_longlong(__dadd_rn(end, margin)));
            sh.planned = (est == 0.0 ? 0u : OP_PATH_ESTIMATED) | (BINADE_OP_HOLD_RISKY && (lo != hi || sh.b == 0u) ? OP_PATH_RISKY : 0u);
        }
    }
    __syncthreads();
    OP_TRACE(cum_out, t, OP_TR_PLANNED);
    op_trips_record(cum_out, t, 0u, 0u);
    const unsigned int b = sh.b;
    out.b = b;
    out.path = sh.planned;
    out.risky = (sh.planned & OP_PATH_RISKY) != 0u;
#if BINADE_OP_UNTIL == 1
    if (threadIdx.x == 0 && t + 1 == tile_base[k + 1]) totals[k] = __longlong_as_double((long long)b);
    out.done = 1;
    return out;
#endif

    /* The unit for the planned binade, the terms still on chip. */
    binade_unit unit = binade_unit_invalid();
    if (b != 0u) {
        int tie = 0, bad = 0;
        double inc = 0.0;
        if (b >= 52u) inc = op_fast_increment_of(terms, b, &tie, &bad);
        else tie = 1; /* binades below 2^-971: the scale is not a normal double */
        inc = op_block_add(inc, sh.dscratch);
        int any_bad = __syncthreads_or(bad);
        int any_tie = __syncthreads_or(tie);
        if (!any_bad && !any_tie) {
            u64 v = op_bounded(inc);
            unit = binade_unit_make(v, v);
        } else if (!any_bad) {
            unit = op_block_compose(op_lane_unit(terms, b, count), sh.uscratch);
            out.path |= OP_PATH_PAIR;
        }
    }
    out.unit = unit;
    if (threadIdx.x == 0) {
        u64 value = 0ull;
        u64 tag = op_unit_tag(epoch, b, unit, &value);
        op_write(r.exact + t, value, tag);
#if BINADE_OP_UNTIL == 2
        if (t + 1 == tile_base[k + 1]) totals[k] = __longlong_as_double((long long)unit.even);
#endif
    }
    OP_TRACE(cum_out, t, OP_TR_UNIT);
#if BINADE_OP_UNTIL == 2
    out.done = 1;
#endif
    return out;
}

/* Tile t, its terms in buf, up to its published unit: tree sum, plan, unit (the schedules
 * that keep a tile in shared memory). Every thread calls it. */
__device__ static inline op_pending op_plan_and_unit(const op_records &r, op_shared &sh, double *buf, u64 t,
                                                     const op_tile_span &sp, const u64 *tile_base,
                                                     unsigned int epoch, double *totals, u64 start, double *cum_out) {
    op_shared_terms terms = {buf};
    double ts = op_publish_tree_sum(r, sh, terms, t, sp, epoch);
    return op_plan_and_unit_of(r, sh, terms, ts, t, sp, tile_base, epoch, totals, start, cum_out);
}

/* The rest of tile t after op_plan_and_unit: the exact sum before it by look-back, its unit
 * applied, or the tile finished lane by lane from `terms`; its exact sum published. Every
 * thread calls it; the unit is whole on thread 0. */
__device__ static inline void op_prepare(op_shared_terms &) {}
__device__ static inline void op_prepare(op_global_terms &g) { op_load_own(g); }
__device__ static inline void op_prepare(op_streamed_terms &) {}
__device__ static inline void op_prepare(op_held_view &) {}

template <class T>
__device__ static inline void op_exact(const op_records &r, op_shared &sh, T terms, u64 t,
                                       const op_tile_span &sp, const u64 *tile_base, unsigned int epoch,
                                       double *totals, op_pending pend, double *cum_out) {
    const unsigned int count = sp.count, k = sp.k;
    unsigned int path = pend.path;
    if (threadIdx.x < 32) {
        u64 before = op_lookback_exact(r, t, sp.seg_first, epoch);
        if (threadIdx.x == 0) {
#if BINADE_OP_CUMSUM
            sh.before = before;
#endif
            sh.native = 0u; /* this tile's count (a deferred tile follows another's work) */
            u64 out = 0ull;
            int ok = pend.b != 0u && binade_apply_f64(pend.unit, pend.b, before, &out);
            sh.s = ok ? out : before;
            sh.from = ok ? 1u : 0u;
            sh.missed = binade_of_f64(before) != pend.b ? OP_PATH_MISSED : 0u;
        }
    }
    __syncthreads();
    u64 s_end = sh.s;
    const int finished = sh.from == 0u;
    if (finished) {
        path |= sh.missed | OP_PATH_FINISH;
        __syncthreads();
        op_prepare(terms);
        s_end = op_finish(terms, count, s_end, sh.uscratch, &sh.s, &sh.from, &sh.fail, &sh.native, OP_LANE_STARTS(sh));
    }
    if (threadIdx.x == 0) {
        op_write(r.exact + t, s_end, op_tag(epoch, OP_EXACT));
        if (t + 1 == tile_base[k + 1]) totals[k] = __longlong_as_double((long long)s_end);
    }
#if BINADE_OP_CUMSUM
    /* The running sums, after the exact end is published (successors do not wait for them).
     * A tile whose unit applied finds its lanes' starts now, as op_finish does from its
     * exact start. */
    if (!finished) {
        __syncthreads(); /* every thread has read sh.s and sh.from */
        op_prepare(terms);
        if (threadIdx.x == 0) sh.cum_native = 0u;
        op_finish(terms, count, sh.before, sh.uscratch, &sh.s, &sh.from, &sh.fail, &sh.cum_native, sh.lane_start);
    }
    path |= op_cum_write(terms, count, cum_out + (sp.src - r.terms), sh.lane_start, s_end, &sh.cum_flag);
#endif
    if (threadIdx.x == 0) r.path[t] = path | (sh.native << 8);
}

/* The one-pass ordered sums. Segment k holds seg_len[k] terms from seg_start[k]; its tiles
 * are tile_base[k] .. tile_base[k+1]. Blocks of BINADE_OP_THREADS threads, each with one
 * tile of BINADE_OP_TILE doubles of dynamic shared memory, draw tiles from `ticket`
 * (counting over every launch on these records; this launch's first is ticket_base).
 * prefetch = 0: one block per tile, which copies its tile, processes it and exits. prefetch
 * = 1: as many blocks as stay resident, each looping: once its tile's unit is published its
 * terms are no longer needed unless the unit does not apply, so the block draws its next tile
 * and starts copying it into the same buffer before the exact look-back; a tile that then
 * has to finish lane by lane reads its terms again from global memory. prefetch = 2 (the
 * deferred schedule): resident blocks as with 1, but a tile's exact look-back waits a round:
 * the block draws its next tile and starts its copy as soon as the tile's unit is published,
 * then does the exact look-back of the tile before (its deferred tile), whose predecessors
 * have had a whole round to publish their units, then defers this one. The block never waits
 * for units with its own tile unpublished, and the copy overlaps the look-back. A deferred
 * tile finishes lane by lane, where it must, from global memory; a tile whose plan says it
 * may leave its binade is not deferred (it keeps its terms: the block resolves its deferred
 * tile first, then this one).
 * Deadlock-freedom of the deferred schedule (every block resident, the plan's waits bounded
 * by plan_wait_max): a block waits without bound only in an exact look-back of some tile r,
 * and only for a word of a tile w < r. If w lacks its unit, w is a tile whose block is
 * copying or planning it (bounded waits: it gets there), or a tile drawn by a block that is
 * itself in the exact look-back of a tile below w. If w lacks its exact sum, w's block is in
 * bounded work before resolving it, or resolving it (r' = w), or resolving a tile below w
 * before deferring w. So the blocked block with the lowest r depends only on blocks that make
 * progress: some block always moves. With prefetch 1 or 2 every block draws exactly one
 * ticket past the last tile; with prefetch = 0 none is drawn past it. `epoch` is this
 * launch's, non-zero, below 2^29. totals[k] is written for segments with at least one term
 * (others keep theirs). Every segment's loop starts from `start` (the bits of +0 or -0). With
 * BINADE_OP_CUMSUM 1, cum_out[i] gets the loop's running sum after term i for every term i of
 * a segment (cum_out is laid out as terms; a tile whose unit applied reads its terms a second
 * time, after publishing its end; with prefetch that read is of a tile copied moments before,
 * so mostly from L2); otherwise cum_out is unused. */
/* BINADE_OP_MIN_BLOCKS > 0 asks the compiler for that many resident blocks per
 * multiprocessor (it caps the registers per thread); 0 leaves the registers free. */
#ifndef BINADE_OP_MIN_BLOCKS
#define BINADE_OP_MIN_BLOCKS 0
#endif
#if BINADE_OP_MIN_BLOCKS > 0
#define OP_BOUNDS __launch_bounds__(BINADE_OP_THREADS, BINADE_OP_MIN_BLOCKS)
#else
#define OP_BOUNDS __launch_bounds__(BINADE_OP_THREADS)
#endif
/* Rounds a plan may wait under the deferred schedule before it estimates (about 20 ns of sleep
 * and one read each); any bound keeps the argument above, a large one keeps plans exact. */
#define OP_DEFERRED_PLAN_WAITS 256u

/* A tile waiting for its exact look-back (the deferred schedule). */
struct op_deferred {
    u64 t;
    op_tile_span sp;
    op_pending pend;
    int live;
};

/* The exact look-back and finish of the block's deferred tile d, if any; its terms are read
 * from global memory (the buffer holds a later tile). `next` is the pending state of the tile
 * the block works on (only the unit mutant reads it). Every thread calls it. */
__device__ static inline void op_resolve_deferred(const op_records &r, op_shared &sh, op_deferred &d, double *buf,
                                                  const u64 *tile_base, unsigned int epoch, double *totals,
                                                  const op_pending &next, double *cum_out) {
    if (!d.live) return;
    op_pending p = d.pend;
#if BINADE_OP_MUTANT == OP_M_DEFERRED_UNIT_OF_NEXT
    p.unit = next.unit;
#else
    (void)next;
#endif
#if BINADE_OP_MUTANT == OP_M_DEFERRED_FROM_BUFFER
    op_shared_terms st = {buf};
    op_exact(r, sh, st, d.t, d.sp, tile_base, epoch, totals, p, cum_out);
#else
    (void)buf;
    op_global_terms gt;
    gt.src = d.sp.src;
    gt.count = d.sp.count;
    op_exact(r, sh, gt, d.t, d.sp, tile_base, epoch, totals, p, cum_out);
#endif
    d.live = 0;
}

#if BINADE_OP_HELD
/* Where the held schedule finds the tiles of a launch and draws its tickets. */
struct op_draw {
    const double *terms;
    const u64 *seg_start, *seg_len, *tile_base;
    unsigned int nseg;
    u64 *ticket;
    u64 ticket_base, ntiles;
};

/* Reads tile k out of the buffer (its copy was started before) into the registers of `held`,
 * draws the block's next tile into *next (and its span into *next_sp) and starts copying it
 * into the buffer, then publishes tile k's tree sum, formed from the registers. The buffer is
 * free again once every thread has read its row, which the barrier before the draw ensures:
 * the copy of the next tile starts after it. Returns tile k's tree sum (valid on thread 0).
 * Every thread calls it. A trace build stamps there when tile k's copy had landed (`trace`:
 * the kernel's cum_out, unused otherwise). */
__device__ static inline double op_held_take(const op_records &r, op_shared &sh, double *buf, op_global_terms &held,
                                             u64 k, const op_tile_span &ksp, const op_draw &dr, unsigned int epoch,
                                             u64 *next, op_tile_span *next_sp, double *trace) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    OP_TRACE(trace, k, OP_TR_LANDED);
#if BINADE_OP_MUTANT == OP_M_HELD_BUFFER_REUSED
    /* The fault: the next tile is drawn and copied into the buffer first (and waited for, so
     * that timing never hides it); the registers then get the next tile's terms. */
    if (threadIdx.x == 0) sh.next = atomicAdd(dr.ticket, 1ull) - dr.ticket_base;
    __syncthreads();
    *next = sh.next;
    if (*next < dr.ntiles) {
        *next_sp = op_span(dr.terms, dr.seg_start, dr.seg_len, dr.tile_base, dr.nseg, *next);
        op_copy_tile(buf, next_sp->src, next_sp->count);
    }
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
#endif
#pragma unroll
    for (unsigned int j = 0; j < OP_PAIRS; j++) {
        double2 v = *(const double2 *)(buf + 2u * op_pair_slot(threadIdx.x * OP_PAIRS + j));
        held.x[2 * j] = v.x;
        held.x[2 * j + 1] = v.y;
    }
    held.src = ksp.src;
    held.count = ksp.count;
#if BINADE_OP_MUTANT != OP_M_HELD_BUFFER_REUSED
    if (threadIdx.x == 0) sh.next = atomicAdd(dr.ticket, 1ull) - dr.ticket_base;
    __syncthreads(); /* every thread has read its row: the buffer is free */
    *next = sh.next;
    if (*next < dr.ntiles) {
        *next_sp = op_span(dr.terms, dr.seg_start, dr.seg_len, dr.tile_base, dr.nseg, *next);
        op_copy_tile(buf, next_sp->src, next_sp->count);
    }
#endif
    return op_publish_tree_sum(r, sh, held, k, ksp, epoch);
}

/* The held schedule (onepass_sums_held): resident blocks, one tile buffer each, used only as the
 * landing place of copies. A block reads each tile out into registers (32 terms a thread) as
 * it lands and at once starts copying its next tile into the buffer, so a copy is in flight
 * during all of a tile's work: its plan and unit, and its exact look-back. The next tile's
 * tree sum is published as soon as its copy lands, after the current tile's unit and before
 * its exact look-back, so no plan waits on an exact sum (the chain that slowed the staged
 * schedule: there a drawn tile published its tree sum only once its block had finished the
 * tile before). A tile whose unit does not apply finishes lane by lane from global memory
 * (the registers hold the next tile by then), except a tile whose plan says it may leave its
 * binade (BINADE_OP_HOLD_RISKY): it does its exact look-back before the take, from its
 * registers, so that a crossing's exact sum, which every later tile waits for, is not late
 * by the next tile's copy (with the look-back after the take, gpu-timing at cf969ae measured
 * the geometric stream at 18.5 against the engine's 8.3 ms at 2^30 terms; the engine keeps
 * such tiles' terms the same way). Order of a block's round, tile t held:
 *   plan and unit of t; if t is risky, its exact look-back; take t+ (wait for its copy, read
 *   it out, draw and start copying t++, publish t+'s tree sum); if t is not risky, its exact
 *   look-back, its unit applied or t finished.
 * Forward progress: a block holds its current tile and at most one drawn tile, whose tree
 * sum it publishes without waiting for anything but its own copy and, for a risky current
 * tile, that tile's exact look-back. Exact look-backs wait on units, published after plans,
 * and on exact sums of lower tiles; the lowest unfinished tile's predecessors are all exact,
 * so it finishes, and so every exact look-back ends. Plans wait only on tree sums: the
 * lowest tile without one is a drawn tile whose block's current tile is below it and has
 * every tree sum it waits for, so that block reaches the take (its risky exact look-back, if
 * any, ends as just said). Every block draws exactly one ticket past the last tile. */
__device__ static inline void op_held_loop(const op_records &r, op_shared &sh, double *buf, u64 t, op_tile_span sp,
                                           const op_draw &dr, unsigned int epoch, double *totals, u64 start,
                                           double *cum_out) {
    op_global_terms held;
    u64 tn = 0;
    op_tile_span nsp = sp;
#if BINADE_OP_TRACE
    if (threadIdx.x == 0)
        for (unsigned int k = 0; k < 4u; k++) op_trips[k] = 0u;
#endif
    double ts = op_held_take(r, sh, buf, held, t, sp, dr, epoch, &tn, &nsp, cum_out);
#if BINADE_OP_TRACE
    u64 round = 0;
    OP_TRACE(cum_out, t, OP_TR_TAKEN);
#endif
    while (true) {
#if BINADE_OP_TRACE
        if (threadIdx.x == 0) {
            unsigned int smid;
            asm("mov.u32 %0, %%smid;" : "=r"(smid));
            ((u64 *)cum_out)[OP_TRACE_WORDS * t + OP_TR_WHERE] = ((u64)smid << 32) | blockIdx.x;
            ((u64 *)cum_out)[OP_TRACE_WORDS * t + OP_TR_ROUND] = round++;
        }
#endif
        op_pending pend = op_plan_and_unit_of(r, sh, held, ts, t, sp, dr.tile_base, epoch, totals, start, cum_out);
        if (!pend.done && pend.risky) {
            /* Before the take, with its terms still in the registers (risky is set only with
             * BINADE_OP_HOLD_RISKY). */
            op_held_view hv = {&held};
            op_exact(r, sh, hv, t, sp, dr.tile_base, epoch, totals, pend, cum_out);
            OP_TRACE(cum_out, t, OP_TR_EXACT);
            op_trips_record(cum_out, t, 2u, 1u);
            pend.done = 1;
            __syncthreads(); /* every thread is done with tile t's shared state */
        }
        u64 tnn = tn;
        op_tile_span nnsp = nsp;
#if BINADE_OP_TRACE
        const int finished = pend.done;
#endif
        if (tn < dr.ntiles) {
            ts = op_held_take(r, sh, buf, held, tn, nsp, dr, epoch, &tnn, &nnsp, cum_out);
            OP_TRACE(cum_out, tn, OP_TR_TAKEN);
        }
        if (!pend.done) {
#if BINADE_OP_MUTANT == OP_M_HELD_FINISH_FROM_REGISTERS
            op_exact(r, sh, held, t, sp, dr.tile_base, epoch, totals, pend, cum_out);
#else
            op_streamed_terms st = {sp.src, sp.count};
            op_exact(r, sh, st, t, sp, dr.tile_base, epoch, totals, pend, cum_out);
#endif
            OP_TRACE(cum_out, t, OP_TR_EXACT);
            op_trips_record(cum_out, t, 2u, 1u);
        }
#if BINADE_OP_TRACE
        /* A segment's first tile (finished in its plan and unit): its exact time is its unit's
         * (a risky tile's was recorded before the take). */
        if (threadIdx.x == 0 && finished && !(pend.path & OP_PATH_RISKY))
            ((u64 *)cum_out)[OP_TRACE_WORDS * t + OP_TR_EXACT] = ((u64 *)cum_out)[OP_TRACE_WORDS * t + OP_TR_UNIT];
#endif
        __syncthreads(); /* every thread is done with tile t's shared state */
        if (tn >= dr.ntiles) break;
        t = tn;
        sp = nsp;
        tn = tnn;
        nsp = nnsp;
    }
}
#endif /* BINADE_OP_HELD */

extern "C" __global__ void OP_BOUNDS
    onepass_sums(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len, const u64 *tile_base,
                 unsigned int nseg, op_word *plan, op_word *exact, unsigned int *paths, u64 *ticket,
                 u64 ticket_base, unsigned int epoch, unsigned int prefetch, double *__restrict__ totals,
                 u64 start, double *__restrict__ cum_out) {
    extern __shared__ __align__(16) double op_tiles[];
    __shared__ op_shared sh;
    const int deferring = BINADE_OP_DEFERRED && prefetch == 2u;
    op_records r = {plan, exact, paths, terms, deferring ? OP_DEFERRED_PLAN_WAITS : OP_FULL};
    const u64 ntiles = tile_base[nseg];

    if (threadIdx.x == 0) sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
    __syncthreads();
    u64 t = sh.tile;
    if (t >= ntiles) return;
    op_tile_span sp = op_span(terms, seg_start, seg_len, tile_base, nseg, t);
    op_copy_tile(op_tiles, sp.src, sp.count);
    op_deferred d;
    d.live = 0;
    while (true) {
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        op_pending pend = op_plan_and_unit(r, sh, op_tiles, t, sp, tile_base, epoch, totals, start, cum_out);
        if (!prefetch) {
            if (!pend.done) {
                op_shared_terms st = {op_tiles};
                op_exact(r, sh, st, t, sp, tile_base, epoch, totals, pend, cum_out);
            }
            return;
        }
        /* A tile whose plan says it may leave its binade keeps its terms through the exact
         * look-back (under the deferred schedule the deferred tile is resolved first, in tile
         * order); the others release the buffer now (every thread is done with it: the last
         * barrier of op_plan_and_unit), draw the next tile and start copying it there. */
        const int hold = !pend.done && pend.risky;
        if (hold) {
#if BINADE_OP_DEFERRED
            op_resolve_deferred(r, sh, d, op_tiles, tile_base, epoch, totals, pend, cum_out);
#endif
            op_shared_terms st = {op_tiles};
            op_exact(r, sh, st, t, sp, tile_base, epoch, totals, pend, cum_out);
        }
        __syncthreads();
        if (threadIdx.x == 0) sh.next = atomicAdd(ticket, 1ull) - ticket_base;
        __syncthreads();
        const u64 tn = sh.next;
        op_tile_span next_sp = sp;
        if (tn < ntiles) {
            next_sp = op_span(terms, seg_start, seg_len, tile_base, nseg, tn);
            op_copy_tile(op_tiles, next_sp.src, next_sp.count);
        }
#if BINADE_OP_DEFERRED
        if (deferring) {
            op_resolve_deferred(r, sh, d, op_tiles, tile_base, epoch, totals, pend, cum_out);
            if (!pend.done && !hold) {
                d.t = t;
                d.sp = sp;
                d.pend = pend;
                d.live = 1;
            }
            /* The last round: nothing is left to overlap, the tile is resolved now. */
            if (tn >= ntiles) op_resolve_deferred(r, sh, d, op_tiles, tile_base, epoch, totals, pend, cum_out);
        } else
#endif
        if (!pend.done && !hold) {
            op_global_terms gt;
            gt.src = sp.src;
            gt.count = sp.count;
            op_exact(r, sh, gt, t, sp, tile_base, epoch, totals, pend, cum_out);
        }
        __syncthreads(); /* every thread has read sh.next and the shared state of tile t */
        if (tn >= ntiles) break;
        t = tn;
        sp = next_sp;
    }
}

#if BINADE_OP_HELD
/* The held schedule's kernel (op_held_loop): resident blocks, one tile buffer of dynamic
 * shared memory each. Same arguments as onepass_sums (prefetch unused) and the same
 * BINADE_OP_MIN_BLOCKS. */
extern "C" __global__ void OP_BOUNDS
    onepass_sums_held(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                      const u64 *tile_base, unsigned int nseg, op_word *plan, op_word *exact, unsigned int *paths,
                      u64 *ticket, u64 ticket_base, unsigned int epoch, unsigned int prefetch,
                      double *__restrict__ totals, u64 start, double *__restrict__ cum_out) {
    extern __shared__ __align__(16) double op_tiles[];
    __shared__ op_shared sh;
    (void)prefetch;
    op_records r = {plan, exact, paths, terms, OP_FULL};
    const u64 ntiles = tile_base[nseg];
    if (threadIdx.x == 0) sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
    __syncthreads();
    const u64 t = sh.tile;
    if (t >= ntiles) return;
    op_tile_span sp = op_span(terms, seg_start, seg_len, tile_base, nseg, t);
    op_copy_tile(op_tiles, sp.src, sp.count);
    op_draw dr = {terms, seg_start, seg_len, tile_base, nseg, ticket, ticket_base, ntiles};
    op_held_loop(r, sh, op_tiles, t, sp, dr, epoch, totals, start, cum_out);
}
#endif /* BINADE_OP_HELD */

#if BINADE_OP_STAGED
/* Commits an empty cp.async group, so that every round of the staged loop commits one group
 * and cp.async.wait_group 1 always means "all but the newest". */
__device__ static inline void op_commit_nothing() { asm volatile("cp.async.commit_group;" ::: "memory"); }

/* The staged schedule: the same engine, resident blocks with two tile buffers each (dynamic
 * shared memory of 2 * BINADE_OP_TILE doubles). As a block starts a tile (its copy landed), it
 * draws its next tile and starts copying it into the other buffer, so the copy is in flight
 * during the whole of the tile's work, look-backs included; the tile keeps its terms until it
 * is done (no second read from global memory). A block holds at most one tile beyond the one
 * it works on, and draws it only when it starts work: a tile whose predecessor is held but
 * not started waits at most one tile's work of another block (drawing further ahead makes
 * chains: the first build drew two tickets at once, so block k held tiles 2k and 2k + 1 and
 * every tile waited on the one before it in a different block, 65 ms at 2^30 terms).
 * Forward progress: every tile a block holds is at or after the one it works on, so the
 * lowest unfinished tile is some block's current tile, with everything before it finished.
 * Every block draws exactly one ticket past the last tile. Same arguments as onepass_sums
 * (prefetch unused), and the same BINADE_OP_MIN_BLOCKS. */
extern "C" __global__ void OP_BOUNDS
    onepass_sums_staged(const double *__restrict__ terms, const u64 *seg_start, const u64 *seg_len,
                        const u64 *tile_base, unsigned int nseg, op_word *plan, op_word *exact, unsigned int *paths,
                        u64 *ticket, u64 ticket_base, unsigned int epoch, unsigned int prefetch,
                        double *__restrict__ totals, u64 start, double *__restrict__ cum_out) {
    extern __shared__ __align__(16) double op_tiles[];
    __shared__ op_shared sh;
    (void)prefetch;
    op_records r = {plan, exact, paths, terms, OP_FULL};
    const u64 ntiles = tile_base[nseg];

    if (threadIdx.x == 0) sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
    __syncthreads();
    u64 t = sh.tile;
    if (t >= ntiles) return;
    op_tile_span sp = op_span(terms, seg_start, seg_len, tile_base, nseg, t);
    op_copy_tile(op_tiles, sp.src, sp.count);
    unsigned int half = 0u;
    while (true) {
        if (threadIdx.x == 0) sh.next = atomicAdd(ticket, 1ull) - ticket_base;
        __syncthreads();
        const u64 tn = sh.next;
        op_tile_span nsp = sp;
        if (tn < ntiles) {
            nsp = op_span(terms, seg_start, seg_len, tile_base, nseg, tn);
#if BINADE_OP_MUTANT == OP_M_STAGED_BUFFER_REUSED
            op_copy_tile(op_tiles + half * BINADE_OP_TILE, nsp.src, nsp.count);
#else
            op_copy_tile(op_tiles + (half ^ 1u) * BINADE_OP_TILE, nsp.src, nsp.count);
#endif
        } else {
            op_commit_nothing();
        }
#if BINADE_OP_MUTANT == OP_M_STAGED_BUFFER_REUSED
        asm volatile("cp.async.wait_group 0;" ::: "memory"); /* the fault lands before the work */
#else
        asm volatile("cp.async.wait_group 1;" ::: "memory"); /* tile t's copy; tn's goes on */
#endif
        __syncthreads();
#if BINADE_OP_MUTANT == OP_M_STAGED_BUFFERS_SWAPPED
        double *buf = op_tiles + (half ^ 1u) * BINADE_OP_TILE;
#else
        double *buf = op_tiles + half * BINADE_OP_TILE;
#endif
        op_pending pend = op_plan_and_unit(r, sh, buf, t, sp, tile_base, epoch, totals, start, cum_out);
        if (!pend.done) {
            op_shared_terms st = {buf};
            op_exact(r, sh, st, t, sp, tile_base, epoch, totals, pend, cum_out);
        }
        __syncthreads(); /* every thread is done with buf, sh.next and tile t's shared state */
        if (tn >= ntiles) break;
        t = tn;
        sp = nsp;
        half ^= 1u;
    }
}
#endif /* BINADE_OP_STAGED */

/* Distributions for the timing experiments, made on the device from a counter hash h(i) (the
 * splitmix64 finaliser of seed + (i + 1) * golden), u(i) = (h >> 11) * 2^-53 in [0, 1):
 *   0 uniform: u(i) (the same values as fill_hash in ordered_sum.cu);
 *   1 log-normal, sigma 3: exp(3 z), z from Box-Muller on two hashes;
 *   2 SSIMULACRA2-like with ties: 1 - q, q uniform in [0.5, 1) on the grid of half the ulp the
 *     running sum (about i / 4) has at term i, so about half the terms are exact ties;
 *   3 geometric growth: (0.5 + u / 2) * 2^(i / 2^20 - 960), the sum crossing a binade about
 *     every 2^20 terms. */
__device__ static inline u64 op_hash(u64 seed, u64 i) {
    u64 z = seed + (i + 1ull) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Term i of distribution `kind` (the list above) in f64; with f32_grid the ties' grid is half
 * the ulp an f32 running sum has at term i, and the geometric stream grows a binade every 2^23
 * terms from 2^-120, so that an f32 stream of 2^30 terms stays inside f32's range (its 254
 * binades cannot hold the f64 stream's 1,024 crossings). */
__device__ static inline double op_fill_value(u64 seed, u64 i, unsigned int kind, bool f32_grid) {
    u64 h = op_hash(seed, i);
    double u = (double)(h >> 11) * 0x1p-53;
    if (kind == 1u) {
        double u2 = (double)(op_hash(seed ^ 0x5bd1e995ull, i) >> 11) * 0x1p-53;
        double z = sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * u2);
        return exp(3.0 * z);
    }
    if (kind == 2u) {
        double approx_sum = (double)(i + 4ull) * 0.25;
        int e = ilogb(approx_sum);
        double grid = ldexp(1.0, e - (f32_grid ? 24 : 53)); /* half an ulp of a sum in [2^e, 2^(e+1)) */
        double q = 0.5 + u * 0.5;
        double d = 1.0 - q;
        return rint(d / grid) * grid;
    }
    if (kind == 3u) {
        return f32_grid ? (0.5 + 0.5 * u) * exp2((double)i * 0x1p-23 - 120.0)
                        : (0.5 + 0.5 * u) * exp2((double)i * 0x1p-20 - 960.0);
    }
    return u;
}

extern "C" __global__ void fill_distribution(double *__restrict__ out, u64 n, u64 seed, unsigned int kind) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        out[i] = op_fill_value(seed, i, kind, false);
}

/* The f32 streams of the timing experiments: op_fill_value's f32 variant rounded to nearest
 * f32 (uniform: the f64 stream's values rounded, as `astype(float32)` rounds them; the ties'
 * values are multiples of a power of two below 2^-1 with at most 24 significant bits, so they
 * convert exactly, ties for an f32 running sum near i / 4). */
extern "C" __global__ void fill_distribution_f32(float *__restrict__ out, u64 n, u64 seed, unsigned int kind) {
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
        out[i] = __double2float_rn(op_fill_value(seed, i, kind, true));
}
