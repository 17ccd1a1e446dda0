/* ordered_sum_walked.cu: the CPU loop's double sum (or, built with BINADE_WK_F32, its float
 * sum of f32 terms), bit for bit, with the terms read once by producers that never wait on an
 * exact sum, and one walker block that composes their units.
 * Compiled by NVRTC with kernels/binade.cuh prepended and --fmad=false; the shape comes from
 * WalkedShape in src/gpu/ordered_sum/walked.rs as -D defines.
 *
 * A tile is WK_TILE consecutive terms. Block 0 is the walker; every other block is a producer
 * that takes tiles by ticket (so every tile a producer waits for has been taken by a running
 * block) and, for each:
 *   1. loads its terms once (striped, coalesced) into registers, forms their tree sum and
 *      publishes it (the plan word; an f32 build with BINADE_WK_MOVES publishes the tile's
 *      moves in two binades instead, where it knows roughly where its prefix lies);
 *   2. plans its binade: from the walker's hint where a margin allows (BINADE_WK_HINT), else
 *      by look-back over the plan words (the nearest earlier tile with an approximate
 *      inclusive prefix, plus the tree sums after it, waiting for any not yet published:
 *      they are published without waiting on anything; or, BINADE_WK_LOOKBACK, bounding the
 *      missing ones and waiting only where the bounds straddle a binade), and publishes its
 *      own approximate inclusive prefix where the look-back saw every tree sum; the plan may
 *      vary from run to run; no bit of the result depends on it;
 *   3. forms its unit for that binade while the terms are in registers: where no term is a
 *      tie, both increments are the f64 sum of rint(x * 2^(52-e)), exact below 2^53;
 *      otherwise the lanes' units in term order (each lane's terms from the registers through
 *      shared memory, BINADE_WK_TRANSPOSE; else read again, from L1 or L2) composed in order;
 *      publishes it in one word (the unit word) and takes its next tile.
 * No producer waits on an exact sum, so a producer's round is load, tree sum, plan, unit.
 * The walker holds the exact sum S before tile w and, each step, reads the unit words of the
 * next WK_STEP * WK_THREADS tiles: the longest run of published units planned for S's binade
 * is composed by an ordered block scan and applied to S as far as it stays in the binade
 * (for non-negative terms the sum only grows, so the applied prefix of a run is one piece);
 * with BINADE_WK_SEG_STEP every run of published units planned for one binade is composed by
 * one segmented scan and one thread applies the runs in turn, ending the crossings between
 * them by their split words, so that one step ends many crossings.
 * A tile whose unit cannot be used (its plan is another binade, the sum leaves the binade
 * inside it, a term is negative or not finite, its unit saturates, or it is a sum's first
 * tile, planned from +0) is ended by its split words where its producer published them and
 * they hold (BINADE_WK_SPLIT: two checked applies around one lane's native adds), else
 * finished by the walker from S (a sum's first tile, with BINADE_WK_FIRST, by its own
 * producer from the sum's start, the walker waiting for the exact sum after it): each round
 * the lanes form their
 * units for S's binade, the first lane whose composed end does not apply adds its terms
 * natively, the rest go on from there. Every path ends in a checked apply (wk_apply)
 * or in native adds, so no plan, race or timing can change the bits.
 * Producers never wait on the walker and the walker waits only for unit words, so the kernel
 * finishes for any number of resident blocks above the walkers'.
 *
 * Many sums in one launch: the sums come in groups (wk_group), group j holding count_j sums
 * of n_j terms, its sum k at terms_j + k * pitch_j; the launch's sums are numbered group by
 * group, each from `start` into its own out words (WK_OUT_STRIDE apart). Blocks 0..nsums-1
 * are the walkers, block s walking sum s. Tickets go out group by group; within group j
 * ticket tickets_before_j + r is tile r / count_j of its sum r % count_j (the group's sums'
 * tiles interleaved, so all its walkers are fed from the start). A sum's plan, unit and path
 * words are its own ntiles-word run. Within a sum tickets still go out in tile order, so every
 * tile a plan waits for has been taken by a running block. A sum is a sum on its own: its
 * first tile starts from `start`, its look-backs end at its first tile, its producers read
 * its own walker's hint. One sum is one group of one.
 *
 * BINADE_WK_MUTANT selects one deliberate defect of this engine's own shortcuts (0: none);
 * the codes are WalkedMutant's in src/gpu/ordered_sum/walked.rs.
 */

#if !defined(BINADE_WK_THREADS) || !defined(BINADE_WK_PER_THREAD) || !defined(BINADE_WK_STEP) || \
    !defined(BINADE_WK_MIN_BLOCKS)
#error "compile with the defines of WalkedShape (src/gpu/ordered_sum/walked.rs)"
#endif
#if BINADE_WK_THREADS % 32 != 0 || BINADE_WK_THREADS > 1024 || BINADE_WK_PER_THREAD % 2 != 0
#error "inconsistent walked layout"
#endif
/* BINADE_WK_PRODUCERS_ONLY 1: a timing build whose walker does nothing (its total is not the
 * sum): the producers' time alone. */
#ifndef BINADE_WK_PRODUCERS_ONLY
#define BINADE_WK_PRODUCERS_ONLY 0
#endif
/* BINADE_WK_PHASES (with BINADE_WK_PRODUCERS_ONLY): the producer's steps a timing build keeps:
 * 1 the load and the tree sum, 2 and the plan, 3 (the engine) and the unit. */
#ifndef BINADE_WK_PHASES
#define BINADE_WK_PHASES 3
#endif
#if BINADE_WK_PHASES < 3 && !BINADE_WK_PRODUCERS_ONLY
#error "BINADE_WK_PHASES below 3 is a timing build of the producers only"
#endif
/* BINADE_WK_PREFETCH 1: a producer starting tile t asks L2 for the lines of tile t plus the
 * producers' count, the tile drawn about a round later (a hint: no bit depends on it).
 * BINADE_WK_TRANSPOSE 1: a lane's terms in term order come from the striped registers through
 * shared memory, not from a second, strided read of global memory. */
#ifndef BINADE_WK_PREFETCH
#define BINADE_WK_PREFETCH 0
#endif
#ifndef BINADE_WK_TRANSPOSE
#define BINADE_WK_TRANSPOSE 0
#endif
/* BINADE_WK_HINT 1: the walker publishes its exact sum and position (the hint word, out[8..10])
 * each step, and a producer plans its tile from it without a look-back where that is safe by
 * a margin (wk_plan_from_hint); every WK_HINT_ANCHOR-th tile still looks back, so the
 * approximate prefixes that look-backs stop at stay a few tiles apart. A hint, like any plan:
 * no bit depends on it. BINADE_WK_HINT 2 is a plan mutant for the tests: the margin ignored
 * (every tile but the anchors planned in the hint's binade), which must change no bit. */
#ifndef BINADE_WK_HINT
#define BINADE_WK_HINT 0
#endif
#define WK_HINT_ANCHOR 8u
/* BINADE_WK_FAR D (with BINADE_WK_HINT, D a multiple of WK_HINT_ANCHOR, 0: off): where the
 * walker's hint gives no plan (the walker is far behind, as after a stream's early
 * crossings), a producer plans from the approximate inclusive prefix of the anchor about D
 * tiles back (read with its terms, so its trip overlaps theirs; anchors always publish one)
 * by the same margin: the prefix before t is taken to lie in [P_a, P_a + 4 (t - a - 1) u],
 * u the margin's per-tile bound (BINADE_WK_MARGIN), and where both ends lie in one binade
 * that is the plan (wk_plan_from_far). BINADE_WK_HINT
 * 3 is a plan mutant for the tests: the walker's hint with its margin, the far anchor's
 * margin ignored; it must change no bit. BINADE_WK_HINT 4 is a plan mutant of segments: the
 * producers of every segment read segment 0's hint (another sum's), which must change no
 * bit. */
#ifndef BINADE_WK_FAR
#define BINADE_WK_FAR 0
#endif
/* BINADE_WK_MARGIN (WalkedShape::margin, Margin): the per-tile bound u of the plans' guess.
 * A plan from a known prefix P (the walker's hint, a far anchor's approximate prefix, a
 * look-back's published tree sums) takes each of the k tiles between P and tile t to sum to
 * at most 4 u, and takes P's binade where P + 4 k u stays in it. 0: u = ts, the tile's own
 * tree sum. 1: u = max(ts, P / n), n the tiles P covers. Either is a guess (a plan: no bit
 * depends on it); with 0 a tile that sums to little after tiles that summed to much plans
 * across the crossing those tiles make. */
#ifndef BINADE_WK_MARGIN
#define BINADE_WK_MARGIN 0
#endif
#if BINADE_WK_FAR % 8 != 0
#error "BINADE_WK_FAR is a multiple of the anchors' spacing"
#endif
/* BINADE_WK_LOOKBACK 1: a plan look-back that finds earlier tree sums not yet published does
 * not wait for them (except on every WK_HINT_ANCHOR-th tile, whose prefixes later look-backs
 * stop at): each missing one counts as anything in [0, 4 u], u the margin's per-tile bound
 * (BINADE_WK_MARGIN: this tile's tree sum ts, or the larger of ts and the mean), and
 * where both ends of the prefix's range lie in one binade that binade is the plan; else the
 * look-back waits as with 0. Such a prefix holds guesses, so it is not published as an
 * approximate inclusive prefix. A plan: no bit depends on it. BINADE_WK_LOOKBACK 2 is a plan
 * mutant for the tests: the range ignored (the plan from the published part alone), which
 * must change no bit. */
#ifndef BINADE_WK_LOOKBACK
#define BINADE_WK_LOOKBACK 0
#endif
/* BINADE_WK_EARLY 1: warp 0 reads the plan words of the 32 tiles before its tile (the first
 * window of a plan look-back, wk_lookback_plan's first round) with the tile's terms, as the
 * hint and the far anchor are read, so that round's trip overlaps theirs; the tile's first
 * look-back takes its first round from those words, read before the tree sum, and any
 * later round or a round after a wait reads the words again. Older words only show fewer
 * tiles published: a tree sum missing counts as missing (ranged: within the margin; else the
 * look-back waits and reads again), an inclusive prefix missing lets the look-back go further
 * back. Where the hint or the far anchor plans the tile, the words go unused. A plan: no bit
 * depends on it. BINADE_WK_EARLY 2 is a plan mutant for the tests: the words read one tile
 * late (lane i holds tile t - i's, the tile's own in lane 0), so each tree sum stands one
 * place off in the first round, which must change no bit. On an H100 at 62e5e97
 * (reports/walked-early) the engine with the window took 0.937 to 0.97 of its time without it
 * on uniform, log-normal and geometric terms at 10^8 and 2^30, 1.011 on half ties at 2^30. */
#ifndef BINADE_WK_EARLY
#define BINADE_WK_EARLY 0
#endif
/* A tile's path word (paths[t]), counted by the host, one bit each, defined by the host (the
 * PATH_* constants of src/gpu/ordered_sum/walked.rs): WK_PATH_TIE a tie (the lanes' units),
 * WK_PATH_HINTED planned from the hint, WK_PATH_RANGED planned from a range with tree sums
 * missing (no wait), WK_PATH_WAITED its look-back waited for a tree sum, WK_PATH_FAR planned
 * from a far anchor (BINADE_WK_FAR), WK_PATH_SPLIT its split words published
 * (BINADE_WK_SPLIT), WK_PATH_REREAD its look-back read its span again (BINADE_WK_MOVES 5) or
 * would have (6). */
#if !defined(WK_PATH_TIE) || !defined(WK_PATH_HINTED) || !defined(WK_PATH_RANGED) || !defined(WK_PATH_WAITED) || \
    !defined(WK_PATH_FAR) || !defined(WK_PATH_SPLIT) || !defined(WK_PATH_REREAD)
#error "compile with the WK_PATH_* bits (PATH_* in src/gpu/ordered_sum/walked.rs)"
#endif
/* BINADE_WK_FINISH_IN_STEP 1: the tile that ends a step's applied run is finished in that step
 * (else the next step reads the words again and finds it first). */
#ifndef BINADE_WK_FINISH_IN_STEP
#define BINADE_WK_FINISH_IN_STEP 0
#endif
/* BINADE_WK_FAST_FINISH 1 (needs BINADE_WK_TRANSPOSE): a finish's rounds on a positive normal
 * sum first go by fast rounds (wk_ff_round): each lane's increments for every binade the rest
 * of the tile may reach at once, their prefix sums over the lanes, and one warp that walks the
 * crossings lane by lane from them; the pair units' rounds take over where a lane has a tie or
 * a negative term. */
#ifndef BINADE_WK_FAST_FINISH
#define BINADE_WK_FAST_FINISH 0
#endif
/* BINADE_WK_TRACE 1: a timing build whose walker stamps the device's %globaltimer (out[10]
 * its start, out[11] its end, out[12] ns in finishes) and whose producers keep the latest
 * time a unit word of the sum was published (out[13]). Its bits are the engine's. */
#ifndef BINADE_WK_TRACE
#define BINADE_WK_TRACE 0
#endif
#if BINADE_WK_FAST_FINISH && !BINADE_WK_TRANSPOSE
#error "the fast finish keeps its prefixes in the transposed tile's shared memory"
#endif
/* BINADE_WK_SPLIT 1 (needs BINADE_WK_TRANSPOSE): a producer whose tile's approximate prefix P
 * is known (a look-back that saw every tree sum, or the walker's hint standing at this very
 * tile) and whose tile's tree sum carries P from binade b into b + 1 also publishes the tile's
 * split words: the lane L where the approximate running sum reaches b's top, the composed
 * unit of the lanes before L for b and that of the lanes after L for b + 1 (wk_split). A walker
 * about to finish that tile from its exact sum S first tries the split (wk_split_end): A
 * applied to S (checked: the sum stays in b through lane L - 1), lane L added natively,
 * then B applied (checked: the sum after lane L is in b + 1 and stays there). Each step is
 * exact where its check holds (the walker's own argument for a run of units), and where one
 * fails, or a split word is not this launch's, the tile is finished from S as before: the
 * split is a plan, its lane a guess, and no bit depends on either. A crossing then costs the
 * walker two word reads and one lane's native adds instead of a finish's load and rounds. */
#ifndef BINADE_WK_SPLIT
#define BINADE_WK_SPLIT 0
#endif
#if BINADE_WK_SPLIT && !BINADE_WK_TRANSPOSE
#error "the split reads its lanes from the transposed tile's shared memory"
#endif
/* BINADE_WK_PLANNED 1 (needs BINADE_WK_TRANSPOSE, not with BINADE_WK_FAST_FINISH): a finish
 * first tries one planned pass over the tile (wk_planned_finish): the walker's exact sum S
 * before the tile plus an f64 scan of the lanes' sums gives each lane an approximate start and
 * end; a lane whose start and end, widened by WK_PL_MARGIN, lie in one binade c forms its unit
 * for c, every other lane is native; a segmented ordered scan composes each run of lanes
 * planned for one binade; one thread then walks the tile in order, each run by one checked
 * apply and each native lane by its native adds. Where a check fails, or more than
 * WK_PL_NATIVE_MAX lanes are native, the rounds finish the tile as before. The plan only
 * chooses the path: every run's apply is checked (the walker's argument for a run of units:
 * S in c, the end no higher than c's top, the terms non-negative), so no bit depends on it. */
#ifndef BINADE_WK_PLANNED
#define BINADE_WK_PLANNED 0
#endif
#if BINADE_WK_PLANNED && (!BINADE_WK_TRANSPOSE || BINADE_WK_FAST_FINISH)
#error "the planned finish reads native lanes from the transposed tile, which the fast finish overwrites"
#endif
/* BINADE_WK_SEG_STEP 1 (needs BINADE_WK_FINISH_IN_STEP and BINADE_WK_PLANNED, whose
 * segmented scan and masks it uses): a walker step groups its positions into segments of
 * consecutive units planned for one binade, composes every position's unit from its
 * segment's start by one segmented ordered scan into shared memory, and thread 0 walks the
 * segments in order: a segment by one checked apply of its composed unit; where that
 * fails, the longest prefix of it that applies (a search over the stored prefixes, each a
 * checked apply) and the tile after that prefix ended by its split words (wk_split_end), the
 * walk going on from the next segment. Where a split fails, or the sum is not in a
 * segment's binade, the step ends at that tile, which is finished from the walk's exact sum
 * as before. A step ends many crossings (the producers plan the tiles after a crossing for
 * the next binade) instead of one, without reading its words again. Every path is a checked
 * apply or native adds: no bit depends on the segments or the search. */
#ifndef BINADE_WK_SEG_STEP
#define BINADE_WK_SEG_STEP 0
#endif
#if BINADE_WK_SEG_STEP && (!BINADE_WK_FINISH_IN_STEP || !BINADE_WK_PLANNED || !BINADE_WK_SPLIT)
#error "the segmented step finishes its stop in the step, ends crossings by split words and uses the planned pass's segmented scan"
#endif
/* BINADE_WK_FETCH_SPLITS 1 (needs BINADE_WK_SEG_STEP): a producer that wrote split words marks
 * its unit word (WK_UNIT_SPLIT, with the split lane), and the step's thread that reads that
 * word fetches the split words and the lane's terms into shared memory before the step's scan
 * (up to WK_SS_SLOTS crossings a step), so the walk's split ends read no memory (else each
 * reads the split words, then the lane's terms: two dependent trips). A fetched split is used
 * only where its words are this launch's and name the lane fetched: no bit depends on it. */
#ifndef BINADE_WK_FETCH_SPLITS
#define BINADE_WK_FETCH_SPLITS 0
#endif
/* BINADE_WK_LAST_FIRST 1 (used by BINADE_WK_SEG_STEP's walk, ignored without it): where a
 * segment's composed unit does not apply, the walk first tries the prefix that stops one
 * position short of the segment's end, before any bisection. A producer whose tile carries
 * the sum into the next binade publishes split words, and the tiles after it plan for that
 * binade, so a segment's crossing is most often its last position: one checked apply then
 * finds it, where the bisection takes about log2 of the segment's length (a trace at
 * 5c2f826 on an H100: 0.45 to 1.1 µs between one split end and the next at 8,294,400
 * uniform terms, growing with the segment). Where that prefix does not apply either, the
 * bisection runs over the positions before it. With non-negative terms each prefix ends no
 * lower than the one before, so both find the same position; and every prefix taken is a
 * checked apply and every split end checks its words, so no bit depends on which is found. */
#ifndef BINADE_WK_LAST_FIRST
#define BINADE_WK_LAST_FIRST 0
#endif
#if BINADE_WK_FETCH_SPLITS && !BINADE_WK_SEG_STEP
#error "splits are fetched by a segmented step's scan"
#endif
/* BINADE_WK_FIRST 1 (its job has split words, which it uses, with or without
 * BINADE_WK_SPLIT: a first tile never has a split of its own): a sum's first tile, which
 * starts from +-0 and so is always finished from its terms (no unit composes onto a sum of
 * binade 0), is finished by its own producer, from the sum's start, as soon as it has
 * published its words; the producer publishes the exact sum after it in the tile's first
 * split word (kind WK_EXACT, this launch's epoch) and the finish's counts in the second. The
 * walker waits for that word instead of for the tile's unit word and finishes nothing there:
 * its first step starts at tile 1 about as soon as the first producer is done, not after the
 * walker's own first steps (a trace at bc9ee39 on an H100: a finish from 15.9 to 37.9 µs of a
 * 65 µs walk of 8,294,400 uniform terms). The same finish from the same start: the same bits. */
#ifndef BINADE_WK_FIRST
#define BINADE_WK_FIRST 0
#endif
/* BINADE_WK_AHEAD 1 (needs BINADE_WK_FIRST and BINADE_WK_SEG_STEP): the walker composes its
 * first step (tiles 1 on) before it has the first tile's exact sum, and takes that sum only
 * for the step's walk. A segmented step's compose reads the unit words and scans them into
 * segments: nothing in it depends on the exact sum S, which only the walk applies (every
 * apply checked against S there). So the compose runs while the first tile's producer
 * finishes it, where it ran after (a trace at d600150 on an H100, 8,294,400 uniform terms:
 * the first tile's sum taken at 30.3 µs, step 1 composed at 39.0). Thread 0 waits first for
 * the step's last word or the first tile's sum, whichever comes first, so that the compose
 * does not stop at a word not yet published. The same positions applied from the same sum
 * in the same order: the same bits. The walker's hint (BINADE_WK_HINT) is written once the
 * sum is taken, not before. Off in the engine's shape: on an H100 at 6a3e598 it took 1.01 to
 * 1.07 of the time without it at 8,294,400 terms (reports/walked-ahead: the compose, 7 to 11
 * µs under the producers' load, ended after the first tile's sum was already there). */
#ifndef BINADE_WK_AHEAD
#define BINADE_WK_AHEAD 0
#endif
#if BINADE_WK_AHEAD && (!BINADE_WK_FIRST || !BINADE_WK_SEG_STEP)
#error "the walker composes ahead only a segmented step, and only of a first tile its producer finishes"
#endif
/* BINADE_WK_TIE_PARITY 1: a tile with a tie (its binade's scale a normal double) takes its
 * unit from the first pass's sum R of rint(y) and each start parity's count of tie
 * corrections, counted in integers by the lanes over their terms in term order and composed
 * by an ordered block reduction (wk_tie_parity_unit); else (0) each lane forms its pair unit
 * in f64, with conversions for the parities, and an ordered block scan composes them. The
 * same units: no bit depends on the choice. */
#ifndef BINADE_WK_TIE_PARITY
#define BINADE_WK_TIE_PARITY 0
#endif
/* BINADE_WK_BUFFER 1: a producer takes its tickets two ahead and, while it works on one
 * tile, the next one's terms come into a shared-memory buffer by asynchronous copies
 * (cp.async.cg, 16 bytes each, no register held); the tile after that is drawn meanwhile.
 * Each thread copies and later reads only its own 16-byte pairs of the tile (wk_load's
 * striped pairs), so no barrier orders the buffer: its own wait for its own copies does. A
 * tile that is not whole or whose terms are not 16-byte aligned is loaded from global memory
 * as without the buffer. The same terms in the same registers: no bit depends on it. Every
 * producer block draws exactly two tickets past the last (the host counts them). The buffer is
 * the launch's dynamic shared memory (WK_TILE doubles, WalkedShape::dynamic_shared_bytes). */
#ifndef BINADE_WK_BUFFER
#define BINADE_WK_BUFFER 0
#endif
#if BINADE_WK_BUFFER && (BINADE_WK_PREFETCH || BINADE_WK_F32)
#error "the buffered producers take f64 terms, without the L2 prefetch"
#endif
#ifndef BINADE_WK_MUTANT
#define BINADE_WK_MUTANT 0
#endif
#define WK_M_TIE_IGNORED 1        /* the producer's tie check removed: ties take the fast path */
#define WK_M_BOUND_IGNORED 2      /* the fast unit's 2^53 bound ignored */
#define WK_M_BINADES_MIXED 3      /* the walker composes units planned for another binade */
#define WK_M_NEGATIVE_ACCEPTED 4  /* negative terms take the fast path */
#define WK_M_ODD_DROPPED 5        /* a unit word read back with the odd increment equal to the even */
#define WK_M_RUN_END_UNCHECKED 6  /* a composed run applied without checking it stays in the binade */
#define WK_M_UNPUBLISHED_READ 7   /* the walker takes a word of an earlier launch as published */
#define WK_M_NATIVE_FROM_ROUND 8  /* a finish's native lane starts from the round's start */
#define WK_M_LANE_UNPADDED 9      /* a transposed lane read at the unpadded stride */
#define WK_M_SEGMENT_UNITS 10     /* every segment's walker reads the unit words of segment 0 */
#define WK_M_FF_TIE_IGNORED 11    /* a fast round's lanes with a tie take rint's increment */
#define WK_M_FF_BASE_IGNORED 12   /* a fast round's run after a crossing counted from lane 0 */
#define WK_M_FF_BOUND_IGNORED 13  /* a fast round's crossing search ignores the binade's top */
#define WK_M_SPLIT_LANE_SKIPPED 14    /* a split's crossing lane not added */
#define WK_M_SPLIT_FIRST_UNCHECKED 15 /* a split's first unit applied without its check */
#define WK_M_SPLIT_SECOND_UNCHECKED 16 /* a split's second unit applied without its check */
#define WK_M_PLAN_RUN_UNCHECKED 17    /* a planned finish's run applied without its check */
#define WK_M_PLAN_NATIVE_SKIPPED 18   /* a planned finish's native lane not added */
#define WK_M_PLAN_HEADS_IGNORED 19    /* a planned finish's runs composed across their starts */
#define WK_M_STEP_SEARCH_UNCHECKED 20 /* a segmented step takes a failing segment's crossing to be its last tile */
#define WK_M_STEP_SLOT_MIXED 21       /* a segmented step's split end takes the first fetched slot's lane terms */
#define WK_M_FIRST_UNFINISHED 22      /* the walker takes the first tile's exact word of any launch as finished */
#define WK_M_FIRST_START_IGNORED 23   /* the first tile's producer finishes it from +0 whatever the start */
#define WK_M_TIE_PARITY_KEPT 24       /* a tie's correction leaves the parity as it was, not even */
#define WK_M_TIE_CARRY_IGNORED 25     /* a lane's tie corrections composed as if the lanes before ended even */
#define WK_M_STEP_LAST_TRUSTED 26     /* a segmented step whose last-position try fails takes that position from the segment's start */
#define WK_M_AHEAD_UNAWAITED 27       /* a step composed ahead walks from the sum's start, the first tile's sum not taken */
#define WK_M_BUFFER_TILE_BEHIND 28    /* a buffered producer's next tile copied from the tile before it */

typedef unsigned long long u64;

/* The terms' format. BINADE_WK_F32 1: f32 terms summed in f32, the bits of
 * `float s = 0; for (x : terms) s += x;`; else f64 terms summed in f64. A term is held in
 * registers as a double either way (an f32 widens exactly), so the loads' consumers, the tree
 * sums, the plans and the fast unit are one code: y = x * 2^(P - e) (P the format's fraction
 * bits, e the sum's exponent) is exact in f64 for an f32 term too (its 24 significant bits
 * times a power of two inside f64's range: every f32 binade's scale 2^(150 - b) is a normal
 * double), and its rint sums below 2^53 exactly. What the format decides is the sum's own:
 * its binades and their top, its checked apply (binade_apply_fmt at the format's widths), its
 * native add (__fadd_rn or __dadd_rn from the sum's bits) and its special values. The sum's
 * bits sit in the low bits of a 64-bit word (the walker's S, the hint word, out[0]). */
#ifndef BINADE_WK_F32
#define BINADE_WK_F32 0
#endif
#if BINADE_WK_F32
typedef float wk_term;
#define WK_FRAC_BITS BINADE_F32_FRAC
#define WK_EXP_BITS BINADE_F32_EXP
#define WK_FAST_MIN_B 1u             /* every binade's scale is a normal double */
#define WK_TOP_BINADE 0xfeu          /* the largest finite binade */
#define WK_SIGN 0x80000000ull
#define WK_MAG 0x7fffffffull
#define WK_INF 0x7f800000ull
#define WK_QNAN 0x7fc00000ull
#define WK_MIN_NORMAL 0x00800000ull
#define WK_TERMS_PER_LINE 32u        /* f32 terms in a 128-byte line */
#else
typedef double wk_term;
#define WK_FRAC_BITS BINADE_F64_FRAC
#define WK_EXP_BITS BINADE_F64_EXP
#define WK_FAST_MIN_B 52u            /* binades below: the scale 2^(1075 - b) is not a normal double */
#define WK_TOP_BINADE 0x7feu
#define WK_SIGN 0x8000000000000000ull
#define WK_MAG 0x7fffffffffffffffull
#define WK_INF 0x7ff0000000000000ull
#define WK_QNAN 0x7ff8000000000000ull
#define WK_MIN_NORMAL 0x0010000000000000ull
#define WK_TERMS_PER_LINE 16u
#endif
#if BINADE_WK_F32 && BINADE_WK_FAST_FINISH
#error "the fast finish is written for f64 sums"
#endif

/* BINADE_WK_STALL_CAP 1 (f32 builds): plans know where the loop's sum stops growing. A float
 * sum S in binade E (2^E <= S < 2^(E+1)) has half an ulp 2^(E-24); a term below that leaves
 * S as it is (it rounds back to S). So a tile whose largest term m lies in [2^k, 2^(k+1))
 * leaves every sum at or above its cap C = 2^(k+25) unchanged (there half an ulp is at least
 * 2^(k+1) > m): the loop that reaches C stays there for as long as such tiles follow, while
 * the tree sums (exact-ish, in f64) go on growing. 2^25 uniform [0, 1) terms bring the f32
 * loop to 2^24, where it stays; plans from uncapped tree sums then miss on every later tile,
 * and the walker finishes each from its terms, one after another. With the cap a tile's
 * effect on an approximate prefix P is max(P, min(P + ts, C)) (wk_capped): the sum grows by
 * the tree sum until it meets the cap, and not past it. Published tree sums carry their
 * tile's cap; a look-back composes the tiles after its base as their summed tree sums under
 * the least of their caps (exact where the caps are equal, as in a stationary stream; a guess
 * otherwise). The hint's and the far anchor's margins are capped by the tile's own cap. A
 * plan: no bit depends on it (every path ends in a checked apply or native adds). f64 sums
 * stall the same way only after about 2^53 terms of one size, so the f64 build has no cap.
 * BINADE_WK_STALL_CAP 2 is a plan mutant for the tests: every cap taken four binades low,
 * which must change no bit. */
#ifndef BINADE_WK_STALL_CAP
#define BINADE_WK_STALL_CAP 0
#endif
#if BINADE_WK_STALL_CAP && !BINADE_WK_F32
#error "the stall cap is a plan of f32 sums"
#endif
#if BINADE_WK_STALL_CAP && !defined(BINADE_WK_STALL_CAP_SHIFT)
#error "compile with BINADE_WK_STALL_CAP_SHIFT (STALL_CAP_SHIFT in src/gpu/ordered_sum/walked.rs)"
#endif

/* BINADE_WK_MOVES 1 (f32 builds with the stall cap and the hint): plans follow the loop's
 * rounding, not the tree sums. A float sum S in binade b (its exponent field; ulp
 * u_b = 2^(b - bias - 23)) is a multiple of u_b, so while it stays in b a term x moves it by
 * rint(x / u_b) u_b (the even start's rounding; an odd start moves a tie the other way): the
 * tile's move in b is m_b = u_b sum rint(x / u_b), an exact f64 sum of integers. Where terms
 * are small against u_b, m_b is far from the tree sum (below it for log-normal terms at 2^30,
 * whose small terms round away; about 1.3x it for the geometric stream's terms just under an
 * ulp, which round up), and plans that add tree sums leave the loop's binade for runs of
 * tiles: at 10^8 log-normal f32 terms a chain of tree sums misses the loop's binade on
 * 2,100 of 24,414 tiles and a chain of moves from a two-binade window on 50
 * (scripts/f32-moves-plan-model.py). A producer takes its window's base mb from what it
 * reads with its terms, the walker's exact sum (its hint) and the far anchor's approximate
 * prefix, the larger binade of the two (each is at or below the tile's prefix where the terms
 * are non-negative and the plans hold), forms m_mb and m_(mb+1) with its tree sum, and
 * publishes them as two floats in its plan word's value with mb in tag bits 43..50 (mb 0:
 * no window, the value is the tree sum). A look-back moves a prefix in binade bb by a tile's
 * m_mb where bb <= mb, by its m_(mb+1) above (each under the tiles' least cap), bb the
 * binade of the look-back's base (a look-back longer than 32 tiles sums its passes before the
 * base both ways, from mb and mb + 1, and keeps the base's). A plan: no bit depends on it.
 * BINADE_WK_MOVES 2 and 3 are plan mutants for the tests, which must change no bit: 2 swaps
 * the window's two moves; 3 takes the passes before the base at the window base alone (the
 * rule before the fix of reports/walked-moves, calls 12 and 13).
 * BINADE_WK_MOVES 4 is 1 with each thread's moves carried through its terms in order (each
 * thread's sum in ulps, M = rint(M + n); walked_model::parity_move_f32 and chained_move_f32):
 * a tie x = (k + 1/2) u_b moves a sum m u_b to whichever of (m + k) u_b and (m + k + 1) u_b
 * is even, so after a tie the sum is even; from an even sum a tie goes where rint takes it
 * (the even one of k and k + 1), from an odd sum the other way, and rint's per-term rounding
 * takes every tie as if from an even sum. Each thread starts its chain even (its true start
 * parity is its predecessors').
 * On the half-ties f32 stream at about 10^8 terms the model's plans then miss 63 tiles
 * against 1,023 (reports/walked-ties). A plan: no bit depends on it.
 * BINADE_WK_MOVES 5 is 4 with a look-back that moves each tile from the binade of the running
 * prefix before it instead of the base's (wk_rescan_plan): where the prefix a look-back finds
 * lies in another binade than its base, the span crossed a binade, and its tiles after the
 * crossing were moved at the binade below (half the quantum: on the geometric f32 stream,
 * whose terms are about an ulp, each rounds to a finer grid), so the look-back reads the span
 * again forward. In the model (walked_model::lookback_plans_f32, EarlyPasses::Running against
 * BaseBinade) look-backs of 1,024 tiles on that stream miss 16 tiles at 2^25 terms (4
 * crossings) against 66; on an H100 the geometric f32 stream at 2^30 took 6.08 ms against
 * 28.2 (fb0be33, reports/walked-crossings). Only where a tile of the span has its two moves
 * apart (WK_MOVES_APART): the first build re-read every crossing look-back and took uniform
 * f32 terms at 2^30 from 3.14 to 3.49 ms (7fd0c3c); with the bit 3.40 against 3.15 (fb0be33),
 * so the sum's first tiles, whose sum doubles tile by tile (about 1,800 of the first 8,448
 * re-read at 256 tiles back in a throwaway copy of the model), are not the cause, or not
 * all of it. A plan: no bit depends on it.
 * BINADE_WK_MOVES 6 is 5 with the re-read compiled out: the tag bit formed and each look-back's
 * ballot of it taken, its plans 4's. A diagnostic build that prices 5's code apart from the
 * re-reads it does (examples/walked_f32_paths, time mode). On an H100 at 3818228
 * (reports/walked-blocks) it split 5's cost row by row: uniform at 2^30 3.369 ms against 5's
 * 3.416 and 4's 3.162 (the tag and its ballot), half ties at 10^8 1.303 against 1.463 and
 * 1.297 (the re-read's code); and 5 at three blocks a multiprocessor (80 registers a thread)
 * was faster than 5 at four on every f32 row, and than 4 at four on seven of eight: the f32
 * engine's shape since (WalkedShape::DEFAULT_F32). */
#ifndef BINADE_WK_MOVES
#define BINADE_WK_MOVES 0
#endif
#if BINADE_WK_MOVES && (!BINADE_WK_STALL_CAP || !BINADE_WK_HINT)
#error "the moves are a plan of f32 sums with the stall cap and the walker's hint"
#endif

/* The binade of a sum's bits s (a positive normal's exponent field), 0 for anything else. */
__device__ static inline unsigned int wk_binade(u64 s) {
#if BINADE_WK_F32
    return binade_of_f32((unsigned int)s);
#else
    return binade_of_f64(s);
#endif
}

/* The binade a plan takes from an approximate sum v (a double): v in the sum's format, as the
 * loop's running sum would round near it. A plan: no bit depends on it. */
__device__ static inline unsigned int wk_plan_binade(double v) {
#if BINADE_WK_F32
    return binade_of_f32(__float_as_uint(__double2float_rn(v)));
#else
    return binade_of_f64((u64)__double_as_longlong(v));
#endif
}

/* The sum s (bits) as a double, exactly. */
__device__ static inline double wk_value(u64 s) {
#if BINADE_WK_F32
    return (double)__uint_as_float((unsigned int)s);
#else
    return __longlong_as_double((long long)s);
#endif
}

/* 2^(e + 1) of binade b (b <= WK_TOP_BINADE) as a double: the binade's top. */
__device__ static inline double wk_top(unsigned int b) {
#if BINADE_WK_F32
    return __longlong_as_double((long long)((u64)(b + 897u) << 52));
#else
    return __longlong_as_double((long long)((u64)(b + 1u) << 52));
#endif
}

#if BINADE_WK_STALL_CAP
/* The cap of a tile whose largest term is m (BINADE_WK_STALL_CAP): 2^(k + 25) for m in
 * [2^k, 2^(k+1)) (25 is BINADE_WK_STALL_CAP_SHIFT, f32's fraction bits plus 2; m an f32 widened, so a normal double: k is its exponent field less 1023);
 * 0 where m is 0 (the tile adds nothing anywhere); +inf (none) where m is not a positive
 * finite value or the cap would pass f32's largest binade. The plan mutant takes it four
 * binades low. */
__device__ static inline double wk_cap(double m) {
    if (m == 0.0) return 0.0;
    if (!(m > 0.0) || m > 3.4028234663852886e38) return __longlong_as_double(0x7ff0000000000000ll);
    const u64 field = (u64)__double_as_longlong(m) >> 52;
#if BINADE_WK_STALL_CAP == 2
    const u64 cap = field + (u64)BINADE_WK_STALL_CAP_SHIFT - 4u;
#else
    const u64 cap = field + (u64)BINADE_WK_STALL_CAP_SHIFT;
#endif
    if (cap > 1023u + 127u) return __longlong_as_double(0x7ff0000000000000ll);
    return __longlong_as_double((long long)(cap << 52));
}

/* An approximate prefix p after a run of tiles whose tree sums add to a and whose least cap
 * is c: the sum grows by a until it meets c, and never falls. +inf as c is no cap. */
__device__ static inline double wk_capped(double p, double a, double c) {
    return fmax(p, fmin(__dadd_rn(p, a), c));
}

/* A cap in a plan word's tag bits 32..42 (its double's exponent field: 0 for 0, 0x7ff for
 * +inf), and back. */
__device__ static inline u64 wk_cap_bits(double c) { return ((u64)__double_as_longlong(c) >> 52) << 32; }
__device__ static inline double wk_cap_of(u64 tag) {
    return __longlong_as_double((long long)(((tag >> 32) & 0x7ffull) << 52));
}
#define WK_REACH(p, a, c) wk_capped((p), (a), (c))
#else
/* Without the cap an approximate prefix grows by every tree sum. */
#define WK_REACH(p, a, c) __dadd_rn((p), (a))
#endif

/* apply of src/unit.rs for the sum's format: 1 and the exact result's bits in *out, or 0. */
__device__ static inline int wk_apply(binade_unit u, unsigned int b, u64 s, u64 *out) {
    return binade_apply_fmt(u, b, s, WK_FRAC_BITS, WK_EXP_BITS, out);
}

/* A unit applied to s at binade b without the check that s is in b and the end stays there:
 * the mutants' shortcut (the formula binade_apply_fmt uses once its checks pass). */
__device__ static inline u64 wk_apply_unchecked(binade_unit u, unsigned int b, u64 s) {
    const u64 hidden = 1ull << WK_FRAC_BITS;
    const u64 m = (s & (hidden - 1ull)) | hidden;
    return (((u64)b << WK_FRAC_BITS) + (m + binade_pick(u, m) - hidden)) & WK_MAG;
}

/* The unit of one term x (a widened term of the format) for binade b: term_unit of
 * src/unit.rs in the sum's format. */
__device__ static inline binade_unit wk_term_unit(unsigned int b, double x) {
#if BINADE_WK_F32
    return binade_term_unit_f32(b, __float_as_uint((float)x));
#else
    return binade_term_unit_f64(b, (u64)__double_as_longlong(x));
#endif
}

#define WK_THREADS BINADE_WK_THREADS
#define WK_PER BINADE_WK_PER_THREAD
#define WK_TILE (WK_THREADS * WK_PER)
#define WK_WARPS (WK_THREADS / 32)
#define WK_STEP BINADE_WK_STEP
#define WK_FULL 0xffffffffu
#define WK_NONE 0xffffffffu
/* Waits longer than this many sleeps are stalls (a defect): reported in out[5..8], never
 * silent (about a second of sleeping). */
#define WK_WAIT_LIMIT (1u << 24)
/* Words of a sum's out (the host's OUT_WORDS, passed as BINADE_WK_OUT_STRIDE): the total and
 * counts (0..5), a stall (5..8), the hint word (8..10, 16-byte aligned: the stride is even),
 * the trace (10..14, BINADE_WK_TRACE), the finishes' fast rounds (14) and pair-unit rounds
 * (15), the tiles ended by their split words (16), the finishes ended by a planned pass (17),
 * the split ends inside a segmented step's walk (18), a trace build's events counted (19) and
 * its event log (20 on, WK_EV_AT). */
#if !defined(BINADE_WK_OUT_STRIDE) || BINADE_WK_OUT_STRIDE < 20 || BINADE_WK_OUT_STRIDE % 2 != 0
#error "compile with the host's BINADE_WK_OUT_STRIDE (even, at least 20)"
#endif
#define WK_OUT_STRIDE ((u64)BINADE_WK_OUT_STRIDE)

/* A group of sums of one length (the host's WalkedGroup; eight 64-bit words): count sums of
 * n terms, sum k at terms + k * pitch; its tickets start at tickets_before (count * ntiles of
 * them), sum k's plan, unit and path words at words_before + k * ntiles, its number in the
 * launch first_sum + k. */
struct wk_group {
    const wk_term *terms;
    u64 n, pitch, ntiles, tickets_before, words_before, count, first_sum;
};

/* Groups a block keeps in shared memory (wk_group_cache): a launch of at most this many groups
 * looks its tickets up there, not in global memory behind the tiles' streaming loads. */
#define WK_GROUP_CACHE 8u

/* The group holding sum s, or ticket x (byticket): a scan of the launch's groups (few), from
 * the block's shared copy where they fit in it, else from global memory. */
__device__ static inline wk_group wk_group_of(const wk_group *groups, unsigned int ngroups, u64 x, int byticket) {
    unsigned int j = 0;
    while (j + 1u < ngroups) {
        const u64 first = byticket ? groups[j + 1u].tickets_before : groups[j + 1u].first_sum;
        if (x < first) break;
        j++;
    }
    return groups[j];
}

/* Copies the launch's groups into the block's shared cache where they fit; returns the table
 * to look them up in. Every thread calls it. */
__device__ static inline const wk_group *wk_group_cache(const wk_group *groups, unsigned int ngroups,
                                                        wk_group *cache) {
    if (ngroups > WK_GROUP_CACHE) return groups;
    const unsigned int words = ngroups * (unsigned int)(sizeof(wk_group) / sizeof(u64));
    for (unsigned int i = threadIdx.x; i < words; i += WK_THREADS)
        ((u64 *)cache)[i] = __ldg((const u64 *)groups + i);
    __syncthreads();
    return cache;
}

/* Ticket r of a group of `count` sums (count < 2^32: the host's u32): tile *t of sum *k
 * (r = t count + k), in 32 bits where r fits (a 64-bit division is a long routine on the
 * device) and with no division for one sum. */
__device__ static inline void wk_ticket_split(u64 r, u64 count, u64 *t, u64 *k) {
    if (count == 1ull) {
        *t = r;
        *k = 0ull;
    } else if (r <= 0xffffffffull) {
        const unsigned int q = (unsigned int)r / (unsigned int)count;
        *t = q;
        *k = r - (u64)q * count;
    } else {
        *t = r / count;
        *k = r - *t * count;
    }
}

/* A published word: a value and a tag in 16 bytes, written and read whole (one 16-byte
 * relaxed access), so a reader that sees this launch's tag sees the value written with it.
 * Tag bits 0..31: (epoch << 2) | kind, so a word of an earlier launch reads as unpublished. */
#define WK_AGG 1u    /* plan word: the tile's tree sum */
#define WK_APPROX 2u /* plan word: an approximate inclusive prefix */
#define WK_UNIT 3u   /* unit word: the even increment; tag bits 32..42 the binade, 43..44 odd - even + 1 */
#define WK_HINT 0u   /* hint word: the walker's exact sum; tag bits 32..63 the tile it stands before */
#define WK_EXACT 0u  /* a sum's first tile's first split word (BINADE_WK_FIRST): the exact sum after it */
/* A tile's split words (BINADE_WK_SPLIT) are unit words: the first (the lanes before the split
 * lane, for the plan's binade) has the split lane in tag bits 45..55, the second (the lanes
 * after it, for the next binade) none. */
#define WK_SPLIT_LANE_SHIFT 45
/* With BINADE_WK_SEG_STEP a tile's unit word whose producer wrote split words says so: bit 56
 * of its tag, and the split lane in bits 45..55 as the first split word has it, so a walker
 * step can fetch the split words and the lane's terms with the unit words' positions (a
 * plan: the split words' own tags and checks decide). */
#define WK_UNIT_SPLIT (1ull << 56)

struct __align__(16) wk_word {
    u64 value, tag;
};

__device__ static inline wk_word wk_read(const wk_word *w) {
    wk_word v;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.value), "=l"(v.tag) : "l"(w) : "memory");
    return v;
}
__device__ static inline void wk_write(wk_word *w, u64 value, u64 tag) {
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(w), "l"(value), "l"(tag) : "memory");
}
__device__ static inline u64 wk_tag(unsigned int epoch, unsigned int kind) { return (u64)((epoch << 2) | kind); }
__device__ static inline int wk_has(wk_word w, unsigned int epoch, unsigned int kind) {
#if BINADE_WK_MUTANT == WK_M_UNPUBLISHED_READ
    if (kind == WK_UNIT) return ((unsigned int)w.tag & 3u) == kind; /* any launch's unit */
#endif
    return (unsigned int)w.tag == ((epoch << 2) | kind);
}

/* A unit in one word. Its two increments differ by at most one (a term's do, and composing
 * keeps it: where a's increments are equal the two starts keep different parities and b adds
 * its even and its odd increment; where they differ by one both starts reach the same parity
 * and b adds the same increment to each); a unit saturated on either side is stored
 * saturated on both (it never applies: the walker finishes that tile from its terms). */
__device__ static inline u64 wk_unit_tag(unsigned int epoch, unsigned int b, binade_unit u, u64 *value) {
    u64 code = 1ull, v = u.even;
    if (u.even >= BINADE_SATURATED || u.odd >= BINADE_SATURATED) v = BINADE_SATURATED;
    else if (u.odd == u.even + 1ull) code = 2ull;
    else if (u.odd + 1ull == u.even) code = 0ull;
    else if (u.odd != u.even) v = BINADE_SATURATED;
    *value = v;
    return wk_tag(epoch, WK_UNIT) | ((u64)b << 32) | (code << 43);
}
__device__ static inline binade_unit wk_unit_of(wk_word w) {
    u64 code = (w.tag >> 43) & 3ull;
#if BINADE_WK_MUTANT == WK_M_ODD_DROPPED
    code = 1ull;
#endif
    if (w.value >= BINADE_SATURATED) return binade_unit_invalid();
    return binade_unit_make(w.value, w.value + code - 1ull);
}
__device__ static inline unsigned int wk_unit_binade(wk_word w) { return (unsigned int)(w.tag >> 32) & 0x7ffu; }

/* ---- block-wide helpers (every thread calls them) ---- */

/* What the walker takes from the first tile's producer: the exact sum after the tile, the
 * finish's counts, and the sleeps it waited (wk_first_wait). */
struct wk_first_taken {
    u64 s;
    unsigned int native, planned, fast, pairs, sleeps, stalled;
    unsigned int taken; /* BINADE_WK_AHEAD: the walk took it (wk_ahead_take) */
};

struct wk_shared {
    u64 tile;
#if BINADE_WK_BUFFER
    u64 next_tile; /* a buffered producer's ticket after sh.tile (BINADE_WK_BUFFER) */
#endif
    u64 s;            /* the walker's exact sum (and the finish's running start) */
    u64 w;            /* the walker's next tile */
    unsigned int from, fail, b, flag;
    double cross; /* a producer's exact-enough prefix for its split, NaN where it has none */
    double dred[WK_WARPS];
#if BINADE_WK_STALL_CAP
    double dmax[WK_WARPS];
#endif
#if BINADE_WK_MOVES
    double dm0[WK_WARPS], dm1[WK_WARPS];
    unsigned int dmb[WK_WARPS]; /* each warp's window base (wk_moves_binade) */
#endif
    binade_unit ured[WK_WARPS];
#if BINADE_WK_TIE_PARITY
    int tp[2 * WK_WARPS]; /* each warp's tie corrections (wk_tp_block_reduce) */
#endif
#if BINADE_WK_EARLY
    wk_word early[32]; /* the look-back's first window, copied with the terms (BINADE_WK_EARLY) */
#endif
#if BINADE_WK_TRANSPOSE
    union {
        double lanes[WK_TILE + WK_THREADS]; /* a tile in term order, a gap after each lane */
        u64 words[WK_TILE + WK_THREADS];    /* a fast round's prefixes (wk_ff_round) */
    };
#endif
#if BINADE_WK_PLANNED
    /* A planned pass keeps each lane's key in the gap after its terms in sh.lanes and a run's
     * composed unit in its last lane's first two slots (wk_pl_key_slot, wk_pl_unit_slot): a
     * planned lane's terms are not read again, so the pass adds only these masks. */
    unsigned int pl_ends[WK_WARPS];    /* bit l % 32 of word l / 32: lane l ends a run */
    unsigned int pl_natives[WK_WARPS]; /* the same for native lanes */
    unsigned int pl_heads[WK_WARPS];   /* a warp holds a run's start (the segmented scan) */
#endif
#if BINADE_WK_SEG_STEP
#if BINADE_WK_FETCH_SPLITS
    unsigned int ss_slots; /* a segmented step's fetched splits (wk_ss_compose), reset by its walk */
#endif
#endif
#if BINADE_WK_AHEAD
    unsigned int halt;    /* the walker's wait for the first tile's sum stalled (wk_walk) */
    wk_first_taken first; /* what the walker took from the first tile's producer (wk_ahead_take) */
#endif
#if BINADE_WK_TRACE
    /* A trace build's stamps of one finish's phases (WK_FIN_STAMP), thread 0's: ns of
     * %globaltimer and clock64 cycles, 0 where the phase did not run. */
    u64 fin_ns[3];
    long long fin_cyc[3];
#endif
};

#if BINADE_WK_TRACE
__device__ static inline u64 wk_now(void) {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
/* A trace build's event log (the host's WalkerEvent): thread 0 of the walker writes up to
 * WK_EVENTS events of three words from out[WK_EV_AT]: kind | aux << 8 | tile << 32, ns since
 * the walker's start (%globaltimer), and the walker's multiprocessor's cycles since then
 * (clock64, finer where the global timer ticks coarsely); out[19] counts the events, kept or
 * not. The counter stays in a register of thread 0 until the walk ends. */
#if !defined(BINADE_WK_EVENTS) || BINADE_WK_OUT_STRIDE < 20 + 3 * BINADE_WK_EVENTS
#error "a trace build's out words hold its event log (the host's TRACE_EVENTS and out_words)"
#endif
#define WK_EVENTS ((unsigned int)BINADE_WK_EVENTS)
#define WK_EV_AT 20u
struct wk_log {
    u64 t0;
    long long c0;
    unsigned int n;
};
__device__ static inline void wk_event(wk_log *lg, u64 *out, unsigned int kind, u64 tile, unsigned int aux) {
    if (lg->n < WK_EVENTS) {
        u64 *e = out + WK_EV_AT + 3u * lg->n;
        e[0] = (u64)kind | ((u64)(aux & 0xffffffu) << 8) | (tile << 32);
        e[1] = wk_now() - lg->t0;
        e[2] = (u64)(clock64() - lg->c0);
    }
    lg->n++;
}
#define WK_EV(lgp, kind, tile, aux) wk_event((lgp), out, (kind), (tile), (aux))
/* A finish's phase i stamped by thread 0 (wk_finish's WK_FIN_* phases): the walker logs the
 * stamps after the finish returns (wk_fin_events), so the finish itself, which the producer
 * of a sum's first tile runs too (BINADE_WK_FIRST), takes no log. */
#define WK_FIN_LOADED 0u /* the tile's terms in the lanes' registers (after the transpose's sync; without
                          * the transpose, thread 0's own loads) */
#define WK_FIN_KEYED 1u  /* a planned pass's keys, runs and scanned units in shared memory */
#define WK_FIN_WALKED 2u /* thread 0's walk of the planned runs and native lanes done */
#define WK_FIN_STAMP(shr, i)                                                                          \
    do {                                                                                           \
        if (threadIdx.x == 0u) {                                                                   \
            (shr).fin_ns[i] = wk_now();                                                            \
            (shr).fin_cyc[i] = clock64();                                                          \
        }                                                                                          \
    } while (0)
#else
struct wk_log {
    unsigned int n;
};
#define WK_EV(lgp, kind, tile, aux) ((void)(lgp))
#define WK_FIN_STAMP(shr, i) ((void)0)
#endif
/* The events' kinds (the host's WalkerEventKind): a step begins (tile: its first), its words
 * are composed (aux: composable positions), its walk ends (aux: the position it stopped at),
 * a split end inside the walk begins and ends (aux: 1 where it held), the walker sleeps
 * (the first of a run of sleeps), a split end outside the walk begins and ends (aux: 1 where
 * it held), a finish begins and ends (aux: the finishes ended by a planned pass so far), the
 * first tile's exact sum taken from its producer (BINADE_WK_FIRST; aux: the sleeps it took). */
#define WK_EV_STEP 1u
#define WK_EV_COMPOSED 2u
#define WK_EV_WALKED 3u
#define WK_EV_WALK_SPLIT 4u
#define WK_EV_WALK_SPLIT_END 5u
#define WK_EV_SLEEP 6u
#define WK_EV_SPLIT 7u
#define WK_EV_SPLIT_END 8u
#define WK_EV_FINISH 9u
#define WK_EV_FINISH_END 10u
#define WK_EV_FIRST 11u
#define WK_EV_FIN_LOADED 12u /* a finish's phases (WK_FIN_*; the walker's finishes only) */
#define WK_EV_FIN_KEYED 13u
#define WK_EV_FIN_WALKED 14u

#if BINADE_WK_TRACE
/* The finish's stamps (thread 0, after the finish) as events WK_EV_FIN_LOADED + i, in order,
 * each with its own stamp; a phase that did not run (stamp 0) is not logged. */
__device__ static inline void wk_fin_events(wk_log *lg, u64 *out, u64 tile, const wk_shared &sh) {
    for (unsigned int i = 0; i < 3u; i++) {
        if (sh.fin_ns[i] == 0ull) continue;
        if (lg->n < WK_EVENTS) {
            u64 *e = out + WK_EV_AT + 3u * lg->n;
            e[0] = (u64)(WK_EV_FIN_LOADED + i) | (tile << 32);
            e[1] = sh.fin_ns[i] - lg->t0;
            e[2] = (u64)(sh.fin_cyc[i] - lg->c0);
        }
        lg->n++;
    }
}
#endif

/* The sum of v over the block (any order: it serves the plan and sums of integers below
 * 2^53); the same value on every thread. */
__device__ static inline double wk_block_add(double v, wk_shared &sh) {
    for (unsigned int s = 16; s >= 1; s /= 2) v = __dadd_rn(v, __shfl_xor_sync(WK_FULL, v, s));
    if ((threadIdx.x & 31u) == 0) sh.dred[threadIdx.x >> 5] = v;
    __syncthreads();
    double t = 0.0;
    for (unsigned int k = 0; k < WK_WARPS; k++) t = __dadd_rn(t, sh.dred[k]);
    __syncthreads();
    return t;
}

#if BINADE_WK_STALL_CAP
/* wk_block_add of v, and the largest m over the block in *mx (fmax: a NaN is passed over);
 * one pair of barriers for both. The same values on every thread. */
__device__ static inline double wk_block_add_max(double v, double m, wk_shared &sh, double *mx) {
    for (unsigned int s = 16; s >= 1; s /= 2) {
        v = __dadd_rn(v, __shfl_xor_sync(WK_FULL, v, s));
        m = fmax(m, __shfl_xor_sync(WK_FULL, m, s));
    }
    if ((threadIdx.x & 31u) == 0) {
        sh.dred[threadIdx.x >> 5] = v;
        sh.dmax[threadIdx.x >> 5] = m;
    }
    __syncthreads();
    double t = 0.0, big = 0.0;
    for (unsigned int k = 0; k < WK_WARPS; k++) {
        t = __dadd_rn(t, sh.dred[k]);
        big = fmax(big, sh.dmax[k]);
    }
    __syncthreads();
    *mx = big;
    return t;
}
#endif

#if BINADE_WK_MOVES
/* wk_block_add_max, and the sums of a0 and a1 over the block in *s0 and *s1 (sums of integers
 * below 2^53: exact in any order), each warp's window base *mb in, the block's out (0 where
 * the warps' differ: their moves are of different binades); one pair of barriers for all. A
 * warp none of whose threads formed a move (a0 is 0 on every lane: below half an ulp of mb
 * every term adds 0 in both binades) skips their shuffles: on uniform f32 terms at 2^30, where
 * the sum stalls at 2^24 and almost every tile forms none, that and the multiply below (in
 * place of a division) took the engine from 3.50 to 3.13 ms, the multiply alone to 3.18
 * (reports/walked-moves, calls 13 and 14: variants A, V2 and V4). Combining the sums on
 * warp 0 alone as well cost more in spills than it saved (3.28). */
__device__ static inline double wk_block_add_max_moves(double v, double m, double a0, double a1, wk_shared &sh,
                                                       double *mx, double *s0, double *s1, unsigned int *mb) {
    for (unsigned int s = 16; s >= 1; s /= 2) {
        v = __dadd_rn(v, __shfl_xor_sync(WK_FULL, v, s));
        m = fmax(m, __shfl_xor_sync(WK_FULL, m, s));
    }
    if (__any_sync(WK_FULL, a0 != 0.0)) {
        for (unsigned int s = 16; s >= 1; s /= 2) {
            a0 = __dadd_rn(a0, __shfl_xor_sync(WK_FULL, a0, s));
            a1 = __dadd_rn(a1, __shfl_xor_sync(WK_FULL, a1, s));
        }
    }
    if ((threadIdx.x & 31u) == 0) {
        sh.dred[threadIdx.x >> 5] = v;
        sh.dmax[threadIdx.x >> 5] = m;
        sh.dm0[threadIdx.x >> 5] = a0;
        sh.dm1[threadIdx.x >> 5] = a1;
        sh.dmb[threadIdx.x >> 5] = *mb;
    }
    __syncthreads();
    double t = 0.0, big = 0.0, t0 = 0.0, t1 = 0.0;
    for (unsigned int k = 0; k < WK_WARPS; k++) {
        t = __dadd_rn(t, sh.dred[k]);
        big = fmax(big, sh.dmax[k]);
        t0 = __dadd_rn(t0, sh.dm0[k]);
        t1 = __dadd_rn(t1, sh.dm1[k]);
        if (sh.dmb[k] != sh.dmb[0]) *mb = 0u;
    }
    if (*mb != 0u) *mb = sh.dmb[0];
    __syncthreads();
    *mx = big;
    *s0 = t0;
    *s1 = t1;
    return t;
}
#endif

/* The sum of v over the threads before this one (any order within a warp's shuffles: it
 * serves a plan); 0 on thread 0. */
__device__ static inline double wk_block_excl_add(double v, wk_shared &sh) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    double inc = v;
    for (unsigned int d = 1; d < 32; d *= 2) {
        const double o = __shfl_up_sync(WK_FULL, inc, d);
        if (lane >= d) inc = __dadd_rn(inc, o);
    }
    if (lane == 31u) sh.dred[warp] = inc;
    __syncthreads();
    double before = 0.0;
    for (unsigned int k = 0; k < warp; k++) before = __dadd_rn(before, sh.dred[k]);
    const double prev = __shfl_up_sync(WK_FULL, inc, 1);
    __syncthreads();
    return lane == 0u ? before : __dadd_rn(before, prev);
}

__device__ static inline binade_unit wk_shfl_up(binade_unit u, unsigned int step) {
    return binade_unit_make(__shfl_up_sync(WK_FULL, u.even, step), __shfl_up_sync(WK_FULL, u.odd, step));
}

/* Ordered scan of units over the block's threads: returns the composition of threads 0..i in
 * order, *excl that of threads 0..i-1. */
__device__ static inline binade_unit wk_block_scan(binade_unit v, binade_unit *excl, wk_shared &sh) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (unsigned int s = 1; s < 32; s *= 2) {
        binade_unit o = wk_shfl_up(v, s);
        if (lane >= s) v = binade_compose(o, v);
    }
    if (lane == 31u) sh.ured[warp] = v;
    __syncthreads();
    binade_unit before = binade_unit_zero();
    for (unsigned int k = 0; k < warp; k++) before = binade_compose(before, sh.ured[k]);
    binade_unit prev = wk_shfl_up(v, 1);
    *excl = binade_compose(before, lane == 0 ? binade_unit_zero() : prev);
    __syncthreads();
    return binade_compose(before, v);
}

/* ---- units ---- */

/* The scale 2^(P - e) as a double for binade b >= WK_FAST_MIN_B (a normal double): f64
 * 2^(52 - e) = 2^(1075 - b), f32 2^(23 - e) = 2^(150 - b). */
__device__ static inline double wk_scale(unsigned int b) {
#if BINADE_WK_F32
    return __longlong_as_double((long long)((u64)(1173u - b) << 52));
#else
    return __longlong_as_double((long long)((u64)(2098u - b) << 52));
#endif
}

/* An f64 sum of non-negative integers below 2^53 is exact, and one that reaches 2^53 stays at
 * or above it (rounding is monotone): a final sum below 2^53 is the exact increment, anything
 * else (NaN from an infinite or NaN term included) saturates. */
__device__ static inline u64 wk_bounded(double inc) {
#if BINADE_WK_MUTANT == WK_M_BOUND_IGNORED
    return (u64)inc;
#else
    return inc < 0x1p53 ? (u64)inc : BINADE_SATURATED;
#endif
}

__device__ static inline unsigned int wk_parity(double v) { return (unsigned int)((u64)v & 1ull); }

/* Lane `lane`'s terms src[lane * WK_PER + j] in term order, +0 past the count. */
__device__ static inline void wk_lane_load(const wk_term *src, unsigned int count, unsigned int lane, double *x) {
    const unsigned int p0 = lane * WK_PER;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) x[j] = p0 + j < count ? (double)__ldg(src + p0 + j) : 0.0;
}

/* A lane's unit for binade b over its terms x (term order; +0 terms add nothing). With
 * b >= 52 and no negative term, in f64: y = x * 2^(52-e) is exact; a sum m * u plus x rounds
 * to m + rint(y) for either parity of m where y is not a tie, and where y = k + 1/2 to the
 * even one of m + k and m + k + 1, so the even start's increment ce gains
 * k + ((ce + k) mod 2) and the odd start's co gains k + ((1 + co + k) mod 2): the per-term
 * units of binade.cuh composed in order. Every partial increment is an integer below 2^53
 * while the final ones are (the terms are non-negative), so these adds are exact. Otherwise
 * the pair composition of binade.cuh, term by term. */
__device__ static inline binade_unit wk_lane_unit(const double *x, unsigned int b) {
    if (b >= WK_FAST_MIN_B) {
        const double scale = wk_scale(b);
        double ce = 0.0, co = 0.0;
        int bad = 0;
#pragma unroll
        for (unsigned int j = 0; j < WK_PER; j++) {
            double y = __dmul_rn(x[j], scale);
            double r = rint(y);
            double d = __dsub_rn(y, r);
#if BINADE_WK_MUTANT != WK_M_NEGATIVE_ACCEPTED
            bad |= x[j] < 0.0;
#endif
#if BINADE_WK_MUTANT == WK_M_TIE_IGNORED
            int tie = 0;
#else
            int tie = (d == 0.5) | (d == -0.5);
#endif
            if (tie) {
                double k = __dsub_rn(y, 0.5);
                unsigned int pk = wk_parity(k);
                ce = __dadd_rn(ce, __dadd_rn(k, (double)((wk_parity(ce) ^ pk) & 1u)));
                co = __dadd_rn(co, __dadd_rn(k, (double)((1u ^ wk_parity(co) ^ pk) & 1u)));
            } else {
                ce = __dadd_rn(ce, r);
                co = __dadd_rn(co, r);
            }
        }
        if (!bad) return binade_unit_make(wk_bounded(ce), wk_bounded(co));
    }
    binade_unit u = binade_unit_zero();
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) u = binade_compose(u, wk_term_unit(b, x[j]));
    return u;
}

#if BINADE_WK_TIE_PARITY
/* ---- a tile's tie corrections (BINADE_WK_TIE_PARITY) ----
 *
 * A sum M u in binade b (M its significand, u its ulp) plus a term x >= 0, y = x / u, rounds
 * (while it stays in b) to (M + rint(y)) u where y is not a tie. Where y = k + 1/2 it rounds
 * to the even one of M + k and M + k + 1; rint(y) is the even one of k and k + 1, so that is
 * M + rint(y) where M is even, and where M is odd M + rint(y) + c, c = +1 where rint rounded
 * down (y - rint(y) = +1/2) and -1 where it rounded up. So after a tie M is even, whatever it
 * was before, and after any other term its parity has flipped with rint(y)'s low bit. A run of
 * terms moves M by R + C_p: R the sum of rint(y) (the first pass's, exact below 2^53) and C_p
 * the corrections from a start of parity p, which a lane counts with one parity state q per
 * start: at a tie C += (q ? c : 0) and q = 0, at any other term q ^= rint(y) & 1. Runs compose
 * as units do: C_p(A then B) = C_p(A) + C_{q'}(B) and q_p(A then B) = q_{q'}(B), q' = q_p(A).
 * Each start's state is one int, v = 2 C + q, and the composition is (v_A & ~1) + v_B[v_A & 1].
 *
 * rint(y) by two adds, no conversion: for 0 <= y < 2^52, y + 2^52 lies in [2^52, 2^53), where
 * the doubles are the integers, so the add rounds y to an integer as rint does (to nearest, ties
 * to even) and taking 2^52 away is exact; the sum's low word holds rint(y)'s low bits. A term
 * with y >= 2^52 is an integer: y = 2^52 gives 2^53, whose low bit is y's; y > 2^52 may get a
 * wrong parity here, but every term adds R + C at least 0 (a tie's c = -1 comes with rint(y) =
 * k + 1 >= 1), so such a tile's increments are above 2^52 and its unit never applies (a start M
 * is at least 2^52 and the end must stay at or below 2^53). Nothing here decides a path: the
 * unit is the same pair of increments as the lanes' pair units composed (the else branch). */
#define WK_RINT_ADD 0x1p52

struct wk_tp {
    int even, odd; /* 2 C + q from an even start and from an odd start */
};

__device__ static inline wk_tp wk_tp_compose(wk_tp a, wk_tp b) {
#if BINADE_WK_MUTANT == WK_M_TIE_CARRY_IGNORED
    return {(a.even & ~1) + b.even, (a.odd & ~1) + b.even};
#else
    return {(a.even & ~1) + ((a.even & 1) ? b.odd : b.even), (a.odd & ~1) + ((a.odd & 1) ? b.odd : b.even)};
#endif
}

/* One start's state v after a tie whose correction from an odd M is s2 / 2. */
__device__ static inline int wk_tp_tie(int v, int s2) {
    const int q = v & 1;
#if BINADE_WK_MUTANT == WK_M_TIE_PARITY_KEPT
    return v + (q ? s2 : 0);
#else
    return (v - q) + (q ? s2 : 0);
#endif
}

/* A lane's tie corrections over its terms x (term order) for binade b >= WK_FAST_MIN_B; the
 * tile has no negative term (wk_tile_unit returned before). */
__device__ static inline wk_tp wk_lane_tie_parity(const double *x, unsigned int b) {
    const double scale = wk_scale(b);
    int ve = 0, vo = 1;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) {
        const double y = __dmul_rn(x[j], scale);
        const double t = __dadd_rn(y, WK_RINT_ADD);
        const double d = __dsub_rn(y, __dsub_rn(t, WK_RINT_ADD));
        const int flip = __double2loint(t) & 1;
        const int s2 = d > 0.0 ? 2 : -2;
        if (fabs(d) == 0.5) {
            ve = wk_tp_tie(ve, s2);
            vo = wk_tp_tie(vo, s2);
        } else {
            ve ^= flip;
            vo ^= flip;
        }
    }
    return {ve, vo};
}

/* The composition of every thread's v in thread order (an ordered tree in each warp, then
 * the warps in order from shared memory); the same on all threads. Every thread calls it.
 * sh.tp is written again only after the next tile's barriers. */
__device__ static inline wk_tp wk_tp_block_reduce(wk_tp v, wk_shared &sh) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (unsigned int s = 1; s < 32; s *= 2) {
        const wk_tp o = {__shfl_down_sync(WK_FULL, v.even, s), __shfl_down_sync(WK_FULL, v.odd, s)};
        if ((lane & (2u * s - 1u)) == 0u) v = wk_tp_compose(v, o);
    }
    if (lane == 0u) {
        sh.tp[2u * warp] = v.even;
        sh.tp[2u * warp + 1u] = v.odd;
    }
    __syncthreads();
    wk_tp all = {sh.tp[0], sh.tp[1]};
    for (unsigned int k = 1; k < WK_WARPS; k++) all = wk_tp_compose(all, {sh.tp[2u * k], sh.tp[2u * k + 1u]});
    return all;
}
#endif

/* ---- the producers ---- */

/* The terms of tile t of a sum of n terms (t below the sum's tiles): WK_TILE, or fewer in
 * the last tile. */
__device__ static inline unsigned int wk_tile_count(u64 n, u64 t) {
    const u64 left = n - t * (u64)WK_TILE;
    return left < WK_TILE ? (unsigned int)left : WK_TILE;
}

/* Thread i's terms of the tile, striped: pair k of the tile (terms 2k, 2k + 1) is thread
 * k mod WK_THREADS's pair k / WK_THREADS; +0 past the count. Coalesced 16-byte loads where
 * the tile is whole and aligned. */
__device__ static inline void wk_load(const wk_term *src, unsigned int count, double *x) {
#if BINADE_WK_F32
    typedef float2 wk_pair; /* 8-byte loads of f32 pairs, widened */
#else
    typedef double2 wk_pair;
#endif
    if (count == WK_TILE && ((u64)src & (sizeof(wk_pair) - 1u)) == 0ull) {
#pragma unroll
        for (unsigned int j = 0; j < WK_PER / 2; j++) {
            wk_pair v = __ldg((const wk_pair *)src + (j * WK_THREADS + threadIdx.x));
            x[2 * j] = (double)v.x;
            x[2 * j + 1] = (double)v.y;
        }
    } else {
#pragma unroll
        for (unsigned int j = 0; j < WK_PER / 2; j++) {
            unsigned int p = 2u * (j * WK_THREADS + threadIdx.x);
            x[2 * j] = p < count ? (double)__ldg(src + p) : 0.0;
            x[2 * j + 1] = p + 1u < count ? (double)__ldg(src + p + 1u) : 0.0;
        }
    }
}

#if BINADE_WK_TRANSPOSE
/* Term p of the tile sits at p + p / WK_PER in sh.lanes: lane i's terms start at
 * i * (WK_PER + 1), an odd number of 8-byte words apart for consecutive lanes (WK_PER is
 * even), so a half-warp's 8-byte reads of one position of 16 lanes fall in 16 different
 * bank pairs. */
__device__ static inline unsigned int wk_lane_slot(unsigned int p) {
#if BINADE_WK_MUTANT == WK_M_LANE_UNPADDED
    return p;
#else
    return p + p / WK_PER;
#endif
}

/* Stores this thread's share of the tile's striped registers x (wk_load's layout) in sh.lanes,
 * term p at p + p / WK_PER (wk_lane_slot's layout). Every thread calls it; a barrier must
 * follow before any thread reads (wk_stage_read). */
__device__ static inline void wk_stage_striped(const double *x, wk_shared &sh) {
#pragma unroll
    for (unsigned int j = 0; j < WK_PER / 2; j++) {
        const unsigned int p = 2u * (j * WK_THREADS + threadIdx.x);
        sh.lanes[p + p / WK_PER] = x[2 * j];
        sh.lanes[p + 1u + (p + 1u) / WK_PER] = x[2 * j + 1];
    }
}

/* Lane `threadIdx.x`'s terms in term order from the staged tile (wk_stage_striped). */
__device__ static inline void wk_stage_read(double *lane, const wk_shared &sh) {
    const unsigned int q = threadIdx.x * WK_PER;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) lane[j] = sh.lanes[wk_lane_slot(q + j)];
}

/* Lane `threadIdx.x`'s terms in term order from the tile's striped registers x (wk_load's
 * layout), through shared memory; +0 past the count, as x. Every thread calls it. */
__device__ static inline void wk_lanes_from_striped(const double *x, double *lane, wk_shared &sh) {
    wk_stage_striped(x, sh);
    __syncthreads();
    wk_stage_read(lane, sh);
    __syncthreads(); /* sh.lanes is read by all before it is written again */
}
#endif

/* Lane `threadIdx.x`'s terms of the tile at src (count terms) in term order, +0 past the
 * count: through shared memory from a coalesced read where BINADE_WK_TRANSPOSE, else each
 * thread reads its own terms. Every thread calls it. */
__device__ static inline void wk_lane_terms(const wk_term *src, unsigned int count, double *lane, wk_shared &sh) {
#if BINADE_WK_TRANSPOSE
    double x[WK_PER];
    wk_load(src, count, x);
    wk_lanes_from_striped(x, lane, sh);
#else
    wk_lane_load(src, count, threadIdx.x, lane);
#endif
}

#if BINADE_WK_MOVES
/* 2^(bias + fraction bits - b) as a double: 1 / u_b for f32 binade b in 1..0xfe (a normal
 * double, 2^-104 to 2^149), so x * wk_move_scale(b) is exact for a widened f32 x. */
__device__ static inline double wk_move_scale(unsigned int b) {
    const u64 bias = (1ull << (WK_EXP_BITS - 1u)) - 1ull;
    return __longlong_as_double((long long)((1023ull + bias + (u64)WK_FRAC_BITS - (u64)b) << 52));
}

/* u_b = 2^(b - bias - fraction bits) as a double: the ulp of an f32 in binade b (1..0xfe), a
 * normal double (2^-149 to 2^104), so a sum of ulps times it is exact where it is below 2^53. */
__device__ static inline double wk_move_ulp(unsigned int b) {
    const u64 bias = (1ull << (WK_EXP_BITS - 1u)) - 1ull;
    return __longlong_as_double((long long)((1023ull + (u64)b - bias - (u64)WK_FRAC_BITS) << 52));
}

/* The window's base for tile t: the larger binade of the walker's hint h (this launch's, at a
 * tile at or before t) and the far anchor's approximate prefix f (anchor a < t; FAR builds),
 * or 0 (no window) where neither is known or b + 1 would pass the largest binade. */
__device__ static inline unsigned int wk_moves_binade(wk_word h, u64 t, unsigned int epoch, wk_word f, u64 a) {
    unsigned int b = 0u;
    if ((unsigned int)h.tag == ((epoch << 2) | WK_HINT) && (h.tag >> 32) <= t) b = wk_binade(h.value);
    if (a < t && wk_has(f, epoch, WK_APPROX)) b = max(b, wk_plan_binade(__longlong_as_double((long long)f.value)));
    return b + 1u <= WK_TOP_BINADE ? b : 0u;
}


/* A tile's move on a prefix in binade bb from its window (base mb, moves m0 for mb and m1 for
 * mb + 1) or its tree sum ts where it has none (mb 0). */
__device__ static inline double wk_move_at(unsigned int bb, unsigned int mb, double m0, double m1, double ts) {
    if (mb == 0u) return ts;
#if BINADE_WK_MOVES == 2
    return bb > mb ? m0 : m1;
#else
    return bb > mb ? m1 : m0;
#endif
}

/* A plan word's value with its window: the two moves as floats (m0 low), or the tree sum. */
__device__ static inline u64 wk_moves_value(unsigned int mb, double m0, double m1, double ts) {
    if (mb == 0u) return (u64)__double_as_longlong(ts);
    return ((u64)__float_as_uint(__double2float_rn(m1)) << 32) | (u64)__float_as_uint(__double2float_rn(m0));
}

/* A published tree-sum word's move on a prefix in binade bb. */
__device__ static inline double wk_word_move(wk_word w, unsigned int bb) {
    const unsigned int mb = (unsigned int)(w.tag >> 43) & 0xffu;
    if (mb == 0u) return __longlong_as_double((long long)w.value);
    return wk_move_at(bb, mb, (double)__uint_as_float((unsigned int)w.value),
                      (double)__uint_as_float((unsigned int)(w.value >> 32)), 0.0);
}
#endif

#if BINADE_WK_MOVES >= 5
/* A plan word's tag bit 51 (BINADE_WK_MOVES 5 and 6): the tile's two moves differ by more than
 * 2^-WK_MOVES_APART_EXP of the larger (wk_moves_apart), so which of them a look-back takes
 * matters. Where no tile of a look-back's span has it, moving the tiles after a crossing from
 * the binade below changes the prefix by less than that fraction of their moves, and the
 * look-back is not read again (on uniform terms, where the running sum grows by doublings
 * in its first tiles, the two moves differ by rounding alone). */
#define WK_MOVES_APART (1ull << 51)
#define WK_MOVES_APART_EXP 6

__device__ static inline bool wk_moves_apart(double m0, double m1) {
    return fabs(__dsub_rn(m1, m0)) > ldexp(fmax(m0, m1), -WK_MOVES_APART_EXP);
}
#endif

#if BINADE_WK_MOVES == 5

/* Rounds of a re-scan's binades per 32 words: a lane's binade rises once per crossing before
 * it in its round (the prefix of non-negative moves never falls). */
#define WK_RESCAN_ROUNDS 4u

/* The approximate prefix before tile t from `base`, the approximate inclusive prefix of tile
 * first - 1 (or the sum's start), with each tile after it moved from the binade of the
 * running prefix before it (not the base's; BINADE_WK_MOVES 5), read forward 32 words a
 * round. Each lane's binade comes from the running prefix plus the lanes before it (a warp
 * scan of the moves), taken again until no lane's binade changes (at most
 * WK_RESCAN_ROUNDS); each move is one of its window's two (wk_word_move). A tile that has
 * since published its approximate inclusive prefix starts the sum again from it; a word not
 * yet published counts +0, as the look-back counted it. The sum grows under the least cap of
 * the tiles after its start (wk_capped). Called by all 32 lanes of warp 0; the same value on
 * all. A plan: no bit depends on it. */
__device__ static inline double wk_rescan_plan(const wk_word *plan, long long first, u64 t, unsigned int epoch,
                                               double base) {
    const unsigned int lane = threadIdx.x & 31u;
    const double none = __longlong_as_double(0x7ff0000000000000ll);
    double start = base, r = base, least = none;
    for (long long lo = first; lo < (long long)t; lo += 32) {
        const long long k = lo + (long long)lane;
        wk_word w;
        w.value = 0ull;
        w.tag = 0ull;
        if (k < (long long)t) w = wk_read(plan + k);
        const unsigned int approx = __ballot_sync(WK_FULL, wk_has(w, epoch, WK_APPROX));
        const int last = approx ? 31 - __clz((int)approx) : -1;
        if (approx) {
            start = r = __shfl_sync(WK_FULL, __longlong_as_double((long long)w.value), (unsigned int)last);
            least = none;
        }
        const int agg = (int)lane > last && wk_has(w, epoch, WK_AGG);
        unsigned int b = wk_plan_binade(r);
        double v = 0.0;
        for (unsigned int round = 0; round < WK_RESCAN_ROUNDS; round++) {
            v = agg ? wk_word_move(w, b) : 0.0;
            double in = v;
            for (unsigned int s = 1; s < 32u; s *= 2) {
                const double o = __shfl_up_sync(WK_FULL, in, s);
                if (lane >= s) in = __dadd_rn(in, o);
            }
            double before = __shfl_up_sync(WK_FULL, in, 1);
            if (lane == 0u) before = 0.0;
            const unsigned int nb = wk_plan_binade(__dadd_rn(r, before));
            if (!__any_sync(WK_FULL, agg && nb != b)) break;
            b = nb;
        }
        double c = agg ? wk_cap_of(w.tag) : none;
        for (unsigned int s = 16; s >= 1; s /= 2) {
            v = __dadd_rn(v, __shfl_down_sync(WK_FULL, v, s));
            c = fmin(c, __shfl_down_sync(WK_FULL, c, s));
        }
        r = __dadd_rn(r, __shfl_sync(WK_FULL, v, 0));
        least = fmin(least, __shfl_sync(WK_FULL, c, 0));
    }
    return wk_capped(start, __dsub_rn(r, start), least);
}
#endif

/* The approximate prefix before tile t (t >= 1) by warp 0: the nearest earlier tile with an
 * approximate inclusive prefix ends the look-back, each tile after it adds its tree sum. A
 * tree sum not yet published is waited for (its producer publishes it before any wait of
 * its own), unless `ranged`: then it counts as +0 here and *missing counts it (the caller
 * bounds it). *waited gets whether it slept; *reread is set where it read its span again
 * (BINADE_WK_MOVES 5) or would have (6), else left. Valid on lane 0; *missing, *waited and
 * *reread on all lanes. */
__device__ static inline double wk_lookback_plan(const wk_word *plan, u64 t, unsigned int epoch, u64 *out, int ranged,
                                                 unsigned int *missing_out, int *waited, int *reread,
                                                 unsigned int bref, const wk_word *early, int use_early) {
    const unsigned int lane = threadIdx.x & 31u;
#if !BINADE_WK_EARLY
    (void)early;
    (void)use_early;
#endif
    double acc = 0.0;
#if BINADE_WK_STALL_CAP
    double least = __longlong_as_double(0x7ff0000000000000ll); /* the least cap seen: none yet */
#endif
#if BINADE_WK_MOVES
    double acc_up = 0.0; /* passes without the base, their moves from binade bref + 1 */
#endif
#if BINADE_WK_MOVES >= 5
    unsigned int apart = 0u; /* a tile of the span whose two moves are apart */
#endif
#if BINADE_WK_MOVES != 5
    (void)reread;
#endif
    long long hi = (long long)t - 1;
    unsigned int waits = 0u, unknown = 0u;
    while (true) {
        long long p = hi - (long long)lane;
        wk_word w;
        w.value = 0ull;
        w.tag = 0ull;
#if BINADE_WK_EARLY
        /* The first round from the words read with the terms (BINADE_WK_EARLY), once. */
        if (p >= 0) w = use_early ? early[lane] : wk_read(plan + p);
        use_early = 0;
#else
        if (p >= 0) w = wk_read(plan + p);
#endif
        int inclusive = p < 0 || wk_has(w, epoch, WK_APPROX);
        unsigned int ended = __ballot_sync(WK_FULL, inclusive);
        unsigned int stop = ended ? (unsigned int)__ffs(ended) - 1u : 32u;
        int missing = lane < stop && !wk_has(w, epoch, WK_AGG);
        unsigned int missed = __ballot_sync(WK_FULL, missing);
        if (missed && !ranged && waits < WK_WAIT_LIMIT) {
            waits++;
            __nanosleep(32);
            continue;
        }
        if (missed && !ranged && lane == 0) {
            /* A tree sum never came: a defect (every taken tile publishes one before it
             * waits on anything). The plan goes on without it (a plan cannot change bits);
             * the launch reports the first such stall. */
            if ((atomicMax(out + 5, ((u64)epoch << 2) | 2ull) >> 2) < epoch) {
                out[6] = t;
                out[7] = (u64)(hi - (long long)(__ffs(missed) - 1u));
            }
        }
        unknown += __popc(missed);
#if BINADE_WK_STALL_CAP
        /* The base (the approximate inclusive prefix at `stop`, or the start) apart from the
         * tree sums after it, which compose as their sum under their least cap. */
        const int agg = lane < stop && !missing;
#if BINADE_WK_MOVES
        /* Each tile moves the prefix as the loop would from the base's binade. A pass that
         * holds the base takes that binade; a pass before it (a look-back longer than 32
         * tiles) cannot know it yet, so it sums its tiles' moves both ways, from the caller's
         * window base bref and from bref + 1 (the two binades the window says the prefix is
         * in), and the pass that finds the base keeps the sum for its binade. Taking bref
         * alone moved every such tile by its move one binade low where the prefix was in
         * bref + 1: on the geometric f32 stream, where look-backs of 60 tiles are common,
         * the chains ran off the loop's by up to 11% (reports/walked-moves, call 12's
         * trace: prefixes equal to their base plus the tiles' moves at bref, exactly). */
        double base = lane == stop && p >= 0 ? __longlong_as_double((long long)w.value) : 0.0;
        const double found = __shfl_sync(WK_FULL, base, stop < 32u ? stop : 0u);
        const unsigned int bb = stop < 32u ? wk_plan_binade(found) : bref;
        double v = agg ? wk_word_move(w, bb) : 0.0;
        double c = agg ? wk_cap_of(w.tag) : __longlong_as_double(0x7ff0000000000000ll);
#if BINADE_WK_MOVES >= 5
        apart |= __ballot_sync(WK_FULL, agg && (w.tag & WK_MOVES_APART) != 0ull);
#endif
        if (stop == 32u) { /* warp-uniform: no base in this pass */
            double vu = agg ? wk_word_move(w, bref + 1u) : 0.0;
            for (unsigned int s = 16; s >= 1; s /= 2) vu = __dadd_rn(vu, __shfl_down_sync(WK_FULL, vu, s));
            acc_up = __dadd_rn(acc_up, vu);
        }
#else
        (void)bref;
        double v = agg ? __longlong_as_double((long long)w.value) : 0.0;
        double c = agg ? wk_cap_of(w.tag) : __longlong_as_double(0x7ff0000000000000ll);
        double base = lane == stop && p >= 0 ? __longlong_as_double((long long)w.value) : 0.0;
#endif
        for (unsigned int s = 16; s >= 1; s /= 2) {
            v = __dadd_rn(v, __shfl_down_sync(WK_FULL, v, s));
            c = fmin(c, __shfl_down_sync(WK_FULL, c, s));
            base = __dadd_rn(base, __shfl_down_sync(WK_FULL, base, s));
        }
#if BINADE_WK_MOVES
        least = fmin(least, c);
        if (stop < 32u) {
            *missing_out = unknown;
            *waited = waits > 0u;
            /* The earlier passes' sum for the base's binade (bb above bref: bref + 1's). */
#if BINADE_WK_MOVES == 3
            (void)acc_up;
            return wk_capped(base, __dadd_rn(acc, v), least);
#elif BINADE_WK_MOVES == 5
            /* A prefix in another binade than its base's: the span crossed; read it again where
             * a tile's two moves are apart. */
            const double found_prefix = __shfl_sync(WK_FULL, wk_capped(base, __dadd_rn(bb > bref ? acc_up : acc, v), least), 0);
            if (apart != 0u && wk_plan_binade(found_prefix) != bb) {
                *reread = 1;
                return wk_rescan_plan(plan, hi - (long long)stop + 1, t, epoch, found);
            }
            return found_prefix;
#elif BINADE_WK_MOVES == 6
            /* 5's test, the re-read compiled out. */
            const double found_prefix = __shfl_sync(WK_FULL, wk_capped(base, __dadd_rn(bb > bref ? acc_up : acc, v), least), 0);
            if (apart != 0u && wk_plan_binade(found_prefix) != bb) *reread = 1;
            return found_prefix;
#else
            return wk_capped(base, __dadd_rn(bb > bref ? acc_up : acc, v), least);
#endif
        }
        acc = __dadd_rn(acc, v);
#else
        acc = __dadd_rn(acc, v);
        least = fmin(least, c);
        if (stop < 32u) {
            *missing_out = unknown;
            *waited = waits > 0u;
            return wk_capped(base, acc, least);
        }
#endif
#else
        (void)bref;
        const int take = (lane < stop && !missing) || (lane == stop && p >= 0);
        double v = take ? __longlong_as_double((long long)w.value) : 0.0;
        for (unsigned int s = 16; s >= 1; s /= 2) v = __dadd_rn(v, __shfl_down_sync(WK_FULL, v, s));
        acc = __dadd_rn(acc, v);
        if (stop < 32u) {
            *missing_out = unknown;
            *waited = waits > 0u;
            return acc;
        }
#endif
        hi -= 32;
    }
}

/* Tile t's unit for binade b (b != 0), its terms striped in x and at src in global memory:
 * the fast unit where no term is a tie or negative, else the lanes' units composed in term
 * order. *tied gets whether a term is a tie. Every thread calls it; the same on all. */
__device__ static inline binade_unit wk_tile_unit(const double *x, const wk_term *src, unsigned int count,
                                                  unsigned int b, wk_shared &sh, int *tied) {
    int tie = 0, bad = 0;
    double inc = 0.0;
    if (b >= WK_FAST_MIN_B) {
        const double scale = wk_scale(b);
#pragma unroll
        for (unsigned int j = 0; j < WK_PER; j++) {
            double y = __dmul_rn(x[j], scale);
            double r = rint(y);
            double d = __dsub_rn(y, r);
#if BINADE_WK_MUTANT != WK_M_TIE_IGNORED
            tie |= (d == 0.5) | (d == -0.5);
#endif
#if BINADE_WK_MUTANT != WK_M_NEGATIVE_ACCEPTED
            bad |= x[j] < 0.0;
#endif
            inc = __dadd_rn(inc, r);
        }
    } else {
        tie = 1; /* binades below 2^-971: the scale is not a normal double */
    }
    inc = wk_block_add(inc, sh);
    const int any_bad = __syncthreads_or(bad);
    const int any_tie = __syncthreads_or(tie);
    *tied = any_tie;
    if (any_bad) return binade_unit_invalid();
    if (!any_tie) {
        u64 v = wk_bounded(inc);
        return binade_unit_make(v, v);
    }
    double lane_terms[WK_PER];
#if BINADE_WK_TRANSPOSE
    wk_lanes_from_striped(x, lane_terms, sh);
#else
    wk_lane_load(src, count, threadIdx.x, lane_terms);
#endif
#if BINADE_WK_TIE_PARITY
    if (b >= WK_FAST_MIN_B) {
        /* inc is R, the sum of rint(y) over the tile (exact below 2^53; at or above it, or
         * NaN, R + C saturates or lies above 2^52: never applied). */
        const wk_tp c = wk_tp_block_reduce(wk_lane_tie_parity(lane_terms, b), sh);
        return binade_unit_make(wk_bounded(__dadd_rn(inc, (double)(c.even >> 1))),
                                wk_bounded(__dadd_rn(inc, (double)(c.odd >> 1))));
    }
#endif
    binade_unit excl;
    binade_unit all = wk_block_scan(wk_lane_unit(lane_terms, b), &excl, sh);
    if (threadIdx.x == WK_THREADS - 1) sh.ured[0] = all;
    __syncthreads();
    binade_unit u = sh.ured[0];
    __syncthreads();
    return u;
}

#if BINADE_WK_SPLIT
/* The prefix p a tile splits from (BINADE_WK_SPLIT): p where the tile carries it to the
 * approximate end `end` (p plus its tree sum, WK_REACH) from its binade b (a positive
 * normal's, below the top binade) into b + 1, else NaN (no split). A plan. */
__device__ static inline double wk_split_prefix(double p, double end) {
    const unsigned int b = wk_plan_binade(p);
    const int carried = b != 0u && b < WK_TOP_BINADE && wk_plan_binade(end) == b + 1u;
    return carried ? p : __longlong_as_double(0x7ff8000000000000ll);
}

/* Tile t's split words at sp (BINADE_WK_SPLIT), its terms staged in sh.lanes: from the
 * approximate prefix before it (sh.cross, wk_split_prefix's, in its plan's binade b), the split
 * lane L is the first lane whose approximate running end (prefix, the lanes before it and its
 * own terms, summed in doubles) reaches b's top; sp[0] gets the lanes before L composed for b with L in its tag,
 * sp[1] the lanes after L composed for b + 1. Both by wk_lane_unit, so a tie takes the pair
 * composition and a negative or non-finite term saturates the unit (it never applies). None
 * where no lane reaches the top. Then, by thread 0, the tile's unit word (value, tag) and its
 * path word (path, with WK_PATH_SPLIT where the split words were written), so the walker that
 * sees the unit word likely sees the split words too (it checks their tags either way). Every
 * thread calls it. A plan: the walker checks each part against its exact sum (wk_split_end).
 * Not inlined, given the tile through shared memory and left to publish the unit word itself,
 * so its registers are its own and few are live across the call. ptxas (CUDA 13.5, sm_90,
 * under the producers' cap of 64 registers; `MODULE=walked scripts/nvrtc-build-times.py`)
 * gives the producers' kernel 76 bytes of spill stores as here, 8 without the split, 248 with
 * the tile staged after the unit (914e6f9); the producers alone measured about 5% slower as
 * here (reports/walked-split/67044ea). */
__device__ static __noinline__ void wk_split(unsigned int b, unsigned int count, wk_word *sp,
                                             wk_word *unit_word, u64 value, u64 tag, unsigned int *path_word,
                                             unsigned int path, unsigned int epoch, wk_shared &sh) {
    double lane[WK_PER];
    wk_stage_read(lane, sh);
    double mine = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) mine = __dadd_rn(mine, lane[j]);
    const double before = __dadd_rn(sh.cross, wk_block_excl_add(mine, sh));
    const unsigned int used = (count + WK_PER - 1u) / WK_PER;
    if (threadIdx.x == 0) sh.fail = WK_NONE;
    __syncthreads();
    if (threadIdx.x < used && __dadd_rn(before, mine) >= wk_top(b)) atomicMin(&sh.fail, threadIdx.x);
    __syncthreads();
    const unsigned int at = sh.fail;
    if (at != WK_NONE) {
        binade_unit excl;
        const binade_unit a =
            wk_block_scan(threadIdx.x < at ? wk_lane_unit(lane, b) : binade_unit_zero(), &excl, sh);
        const binade_unit c =
            wk_block_scan(threadIdx.x > at ? wk_lane_unit(lane, b + 1u) : binade_unit_zero(), &excl, sh);
        if (threadIdx.x == WK_THREADS - 1) {
            u64 va = 0ull, vc = 0ull;
            const u64 ta = wk_unit_tag(epoch, b, a, &va) | ((u64)at << WK_SPLIT_LANE_SHIFT);
            const u64 tc = wk_unit_tag(epoch, b + 1u, c, &vc);
            wk_write(sp, va, ta);
            wk_write(sp + 1, vc, tc);
            __threadfence();
        }
        __syncthreads(); /* the split words are written (and fenced) before the unit word */
    }
    if (threadIdx.x == 0) {
#if BINADE_WK_FETCH_SPLITS
        if (at != WK_NONE) tag |= WK_UNIT_SPLIT | ((u64)at << WK_SPLIT_LANE_SHIFT);
#endif
        wk_write(unit_word, value, tag);
        *path_word = path | (at != WK_NONE ? WK_PATH_SPLIT : 0u);
    }
    __syncthreads(); /* sh.fail and sh.lanes are read by all before the next tile's use */
}

#endif

/* The per-tile bound u of a plan's guess (BINADE_WK_MARGIN) for a tile of tree sum ts, from
 * a known prefix p over n tiles. A NaN or negative mean leaves ts (fmax takes the number, and
 * the larger). */
__device__ static inline double wk_margin_unit(double ts, double p, double n) {
#if BINADE_WK_MARGIN == 1
    if (n > 0.0) return fmax(ts, __ddiv_rn(p, n));
#else
    (void)p;
    (void)n;
#endif
    return ts;
}

#if BINADE_WK_HINT
/* Tile t's plan from the walker's hint word without a look-back, or 0 (look back). The hint is
 * the exact sum S before tile w <= t of this launch, S a positive normal in binade b. For
 * non-negative terms the prefix before t is at least S; it is taken to be below
 * S + 4 (t - w) u, u the margin's per-tile bound (BINADE_WK_MARGIN: ts, this tile's tree
 * sum, or the larger of ts and S / w: four times the tiles between at that size), and
 * where that bound is below the top of b the plan is b. The bound is a guess
 * (a tile between may be larger): a guess that fails makes a wrong plan, which costs the
 * walker a finish and changes no bit. */
__device__ static inline unsigned int wk_plan_from_hint(wk_word h, u64 t, double ts, double cap,
                                                       unsigned int epoch) {
    const u64 w = h.tag >> 32;
    if ((unsigned int)h.tag != ((epoch << 2) | WK_HINT) || w > t || !(ts >= 0.0)) return 0u;
    const unsigned int b = wk_binade(h.value);
    if (b == 0u || b >= WK_TOP_BINADE) return 0u;
    const double top = wk_top(b);
    const double u = wk_margin_unit(ts, wk_value(h.value), (double)w);
    const double reach = WK_REACH(wk_value(h.value), __dmul_rn(4.0, __dmul_rn((double)(t - w), u)), cap);
    (void)cap;
#if BINADE_WK_HINT == 2
    (void)reach;
    (void)top;
    return b;
#else
    return reach < top ? b : 0u;
#endif
}

#if BINADE_WK_FAR
/* The anchor tile a whose approximate inclusive prefix tile t (t % WK_HINT_ANCHOR != 0) may
 * plan from: the anchor at or below t - BINADE_WK_FAR, or none (returns t). */
__device__ static inline u64 wk_far_anchor(u64 t) {
    return t >= (u64)BINADE_WK_FAR ? (t - (u64)BINADE_WK_FAR) / WK_HINT_ANCHOR * WK_HINT_ANCHOR : t;
}

/* Tile t's plan from anchor a's word f without a look-back, or 0 (look back). f, once it is
 * an approximate inclusive prefix P_a (the tree sums through a), puts the prefix before t at
 * P_a plus the tree sums of tiles a+1..t-1, taken (a guess, as the hint's) to lie in
 * [0, 4 (t - a - 1) u] (u as the hint's): where both ends are in one binade, that is the plan. */
__device__ static inline unsigned int wk_plan_from_far(wk_word f, u64 a, u64 t, double ts, double cap,
                                                      unsigned int epoch) {
    if (a >= t || !wk_has(f, epoch, WK_APPROX) || !(ts >= 0.0)) return 0u;
    const double lo = __longlong_as_double((long long)f.value);
    const double u = wk_margin_unit(ts, lo, (double)(a + 1u));
    const double hi = WK_REACH(lo, __dmul_rn(4.0, __dmul_rn((double)(t - a - 1u), u)), cap);
    (void)cap;
    const unsigned int bl = wk_plan_binade(lo);
    const unsigned int bh = wk_plan_binade(hi);
#if BINADE_WK_HINT == 3
    (void)bh;
    return bl;
#else
    return bl == bh ? bl : 0u;
#endif
}
#endif
#endif

/* Asks for the lines of tile t (below ntiles) to be brought into L2: one 128-byte line (16
 * doubles) a thread at a time. A hint; nothing waits on it. */
__device__ static inline void wk_prefetch_tile(const wk_term *terms, u64 n, u64 t) {
    const wk_term *src = terms + t * (u64)WK_TILE;
    const unsigned int count = wk_tile_count(n, t);
    for (unsigned int p = threadIdx.x * WK_TERMS_PER_LINE; p < count; p += WK_THREADS * WK_TERMS_PER_LINE)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(src + p));
}

#if BINADE_WK_EARLY
/* Warp 0 starts copying the look-back's first window for tile t into sh.early
 * (BINADE_WK_EARLY): lane i tile t - 1 - i's plan word (with the plan mutant 2 tile t - i's),
 * where there is one. An asynchronous copy from L2 (cp.async.cg, 16 bytes, no register held
 * across the terms' loads: a word read into registers here was spilled by ptxas, and the
 * spill's store waited for the read ahead of the terms' loads). The copy is a weak read, so
 * its word may be older than a relaxed read's (fewer tiles published) or, in principle, its
 * value and tag from two writes: a plan reads it, and no bit depends on a plan.
 * wk_early_wait before sh.early is read. */
__device__ static inline void wk_early_copy(const wk_word *plan, u64 t, wk_shared &sh) {
#if BINADE_WK_EARLY == 2
    const u64 back = (u64)threadIdx.x;
#else
    const u64 back = (u64)threadIdx.x + 1ull;
#endif
    if (threadIdx.x < 32u && t >= back) {
        const unsigned int dst = (unsigned int)__cvta_generic_to_shared(&sh.early[threadIdx.x]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(plan + (t - back)) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}

/* The copies of wk_early_copy are done (each thread waits for its own). */
__device__ static inline void wk_early_wait() { asm volatile("cp.async.wait_all;" ::: "memory"); }
#endif

#if BINADE_WK_BUFFER
/* The next tile's terms (BINADE_WK_BUFFER): the launch's dynamic shared memory, WK_TILE
 * doubles, pair k of the tile at pair k as in global memory. */
extern __shared__ __align__(16) double wk_buffer[];

/* Whether tile src of count terms comes through the buffer: whole and 16-byte aligned (the
 * same on every thread). */
__device__ static inline int wk_bufferable(const wk_term *src, unsigned int count) {
    return count == WK_TILE && ((u64)src & 15ull) == 0ull;
}

/* Issues this thread's copies of its pairs of the whole tile at src into the buffer and commits
 * them as one group (an empty group where copy is 0, so every thread commits as many). */
__device__ static inline void wk_buffer_copy(const wk_term *src, int copy) {
    if (copy) {
#pragma unroll
        for (unsigned int j = 0; j < WK_PER / 2; j++) {
            const unsigned int k = j * WK_THREADS + threadIdx.x;
            const unsigned int dst = (unsigned int)__cvta_generic_to_shared(wk_buffer + 2u * k);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src + 2u * k) : "memory");
        }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}

/* This thread's pairs of the buffered tile in x, wk_load's layout, once its own copies of it
 * are done: called with one group committed after them (the early copy's, empty without
 * BINADE_WK_EARLY), which may stay pending. */
__device__ static inline void wk_buffer_take(double *x) {
    asm volatile("cp.async.wait_group 1;" ::: "memory");
#pragma unroll
    for (unsigned int j = 0; j < WK_PER / 2; j++) {
        const double2 v = *(const double2 *)(wk_buffer + 2u * (j * WK_THREADS + threadIdx.x));
        x[2 * j] = v.x;
        x[2 * j + 1] = v.y;
    }
}
#endif

/* The first window's words for the look-back (sh.early), or none. */
__device__ static inline const wk_word *wk_early_words(wk_shared &sh) {
#if BINADE_WK_EARLY
    return sh.early;
#else
    (void)sh;
    return nullptr;
#endif
}

/* One producer tile (tile t of the sum whose terms, words and out these are; hint_word its
 * walker's hint): load, tree sum, plan, unit, published. With BINADE_WK_PREFETCH it also asks
 * L2 for the lines of tile ahead_t of the sum at ahead_terms (the ticket a round later, where
 * it is of this group: tickets go out in order, one a round a producer, so every tile from the
 * producers' count on is asked for once, a round ahead, whichever block takes it; none where
 * ahead_t >= ntiles). */
#if BINADE_WK_FIRST
__device__ static __noinline__ u64 wk_finish(const wk_term *src, unsigned int count, u64 s, wk_shared &sh,
                                             unsigned int *native, unsigned int *fast_rounds,
                                             unsigned int *pair_rounds, unsigned int *planned);

/* A sum's first tile finished by its producer from the sum's start (BINADE_WK_FIRST), every
 * thread of the block: the finish's counts in the second split word, then (after a fence, so
 * a walker that sees the first word sees them) the exact sum in the first, kind WK_EXACT. */
__device__ static __noinline__ void wk_first_finish(const wk_term *src, unsigned int count, u64 start,
                                                    wk_word *splits, unsigned int epoch, wk_shared &sh) {
    unsigned int native = 0u, fast = 0u, pairs = 0u, planned = 0u;
    __syncthreads(); /* every thread is done with the tile's shared words before the finish stages it */
#if BINADE_WK_MUTANT == WK_M_FIRST_START_IGNORED
    start = 0ull;
#endif
    const u64 e = wk_finish(src, count, start, sh, &native, &fast, &pairs, &planned);
    if (threadIdx.x == 0) {
        wk_write(splits + 1u, (u64)native | ((u64)planned << 32), (u64)fast | ((u64)pairs << 32));
        __threadfence();
        wk_write(splits, e, wk_tag(epoch, WK_EXACT));
    }
}
#endif

__device__ static inline void wk_produce(const wk_term *terms, u64 n, u64 ntiles, u64 t, wk_word *plan,
                                         wk_word *units, wk_word *splits, unsigned int *paths, unsigned int epoch,
                                         u64 *out,
                                         const wk_word *hint_word, const wk_term *ahead_terms, u64 ahead_t,
                                         u64 start, double *xb, int taken, const wk_term *next_src, int next_copy,
                                         wk_shared &sh) {
    const wk_term *src = terms + t * (u64)WK_TILE;
    const unsigned int count = wk_tile_count(n, t);
#if BINADE_WK_BUFFER
    double *x = xb; /* the caller's registers, the buffered tile in them where taken */
#else
    double x[WK_PER];
    (void)xb;
    (void)taken;
    (void)next_src;
    (void)next_copy;
#endif
#if BINADE_WK_HINT
    /* Read with the terms, so its trip overlaps theirs; used by thread 0 alone. */
    wk_word hint;
    hint.value = 0ull;
    hint.tag = 0ull;
#if BINADE_WK_MOVES
    /* Each warp's lane 0 reads it: the moves' window base is a warp's own (no barrier). */
    if ((threadIdx.x & 31u) == 0u) hint = wk_read(hint_word);
#else
    if (threadIdx.x == 0) hint = wk_read(hint_word);
#endif
#if BINADE_WK_FAR
    const u64 fa = wk_far_anchor(t);
    wk_word far;
    far.value = 0ull;
    far.tag = 0ull;
#if BINADE_WK_MOVES
    if ((threadIdx.x & 31u) == 0u && fa < t) far = wk_read(plan + fa);
#else
    if (threadIdx.x == 0 && fa < t) far = wk_read(plan + fa);
#endif
#endif
#else
    (void)hint_word;
#endif
#if BINADE_WK_EARLY
    wk_early_copy(plan, t, sh);
#elif BINADE_WK_BUFFER
    asm volatile("cp.async.commit_group;" ::: "memory"); /* empty, in the early copy's place */
#endif
#if BINADE_WK_BUFFER
    if (taken)
        wk_buffer_take(x);
    else
        wk_load(src, count, x);
#else
    wk_load(src, count, x);
#endif
#if BINADE_WK_MOVES
    /* The moves' window base from the hint and the far anchor, by each warp from its lane 0's
     * reads (issued before the terms'); warps that read the words at different times may
     * differ, and the block's reduction then drops the moves (wk_block_add_max_moves). */
    unsigned int wmb = 0u;
    if ((threadIdx.x & 31u) == 0u && t != 0) {
#if BINADE_WK_FAR
        wmb = wk_moves_binade(hint, t, epoch, far, fa);
#else
        wmb = wk_moves_binade(hint, t, epoch, hint, t);
#endif
    }
    wmb = __shfl_sync(WK_FULL, wmb, 0);
    const double ms = wmb != 0u ? wk_move_scale(wmb) : 0.0; /* 1 / u_mb */
#endif
#if BINADE_WK_PREFETCH
    if (ahead_t < ntiles) wk_prefetch_tile(ahead_terms, n, ahead_t);
#else
    (void)ntiles;
    (void)ahead_terms;
    (void)ahead_t;
#endif
    double mine = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) mine = __dadd_rn(mine, x[j]);
#if BINADE_WK_BUFFER
    /* The next tile's copies overwrite the slots this thread has just read its tile from:
     * issued only once every read value is in (the empty asm takes mine, which needs them all,
     * and keeps its place before the copies), and after the early copy's group, so that the
     * early wait below can leave this one pending. */
    asm volatile("" ::"d"(mine) : "memory");
    wk_buffer_copy(next_src, next_copy);
#endif
#if BINADE_WK_STALL_CAP
    double big = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) big = fmax(big, x[j]);
#if BINADE_WK_MOVES
    /* The tile's moves in its window's two binades, by the threads whose largest term does
     * not round away at mb (below half an ulp of mb every term adds 0 in both binades, so a
     * stalled tile forms none). */
    double m0 = 0.0, m1 = 0.0;
    if (wmb != 0u && __dmul_rn(big, ms) >= 0.5) {
#if BINADE_WK_MOVES >= 4
        /* The thread's terms added as the loop adds them, in units of the binade's ulp: from
         * an even sum M (an integer, the thread's chain starts at 0) a term of n ulps takes it
         * to rint(M + n), which is M + rint(n) where n is not k + 1/2 (M is an integer) and
         * where it is, the even one of M + k and M + k + 1, the loop's tie (so the parity is
         * carried without being tracked: walked_model::parity_move_f32's steps, two operations a
         * term).
         * M + n is rounded to a double first, which moves a term just off a tie onto it where
         * its fraction needs more than 53 - log2(M) bits: a plan, which no bit depends on.
         * The parity chain this replaced (a floor, two products and compares a term, twice)
         * took log-normal f32 terms at 2^30 from 3.96 to 4.93 ms on an H100 (3426936); this
         * form 4.02 (fb0be33).
         * x[j] is in term order within the thread (wk_load's pairs, 2 * WK_THREADS apart). */
#pragma unroll
        for (unsigned int j = 0; j < WK_PER; j++) {
            m0 = rint(__dadd_rn(m0, __dmul_rn(x[j], ms)));
            m1 = rint(__dadd_rn(m1, __dmul_rn(x[j], 0.5 * ms)));
        }
#else
#pragma unroll
        for (unsigned int j = 0; j < WK_PER; j++) {
            m0 = __dadd_rn(m0, rint(__dmul_rn(x[j], ms)));
            m1 = __dadd_rn(m1, rint(__dmul_rn(x[j], 0.5 * ms)));
        }
#endif
    }
    unsigned int mb = wmb;
    const double ts = wk_block_add_max_moves(mine, big, m0, m1, sh, &big, &m0, &m1, &mb);
    if (mb != 0u) {
        /* Times u_mb and u_(mb+1), powers of two: the moves exactly. */
        const double ulp = wk_move_ulp(mb);
        m0 = __dmul_rn(m0, ulp);
        m1 = __dmul_rn(m1, 2.0 * ulp);
    }
    const double cap = wk_cap(big);
#if BINADE_WK_MOVES >= 5
    const u64 apart = mb != 0u && wk_moves_apart(m0, m1) ? WK_MOVES_APART : 0ull;
#else
    const u64 apart = 0ull;
#endif
    if (threadIdx.x == 0)
        wk_write(plan + t,
                 t == 0 ? (u64)__double_as_longlong(wk_capped(0.0, ts, cap)) : wk_moves_value(mb, m0, m1, ts),
                 wk_tag(epoch, t == 0 ? WK_APPROX : WK_AGG) | wk_cap_bits(cap) | ((u64)mb << 43) | apart);
#else
    const double ts = wk_block_add_max(mine, big, sh, &big);
    const double cap = wk_cap(big);
    if (threadIdx.x == 0)
        wk_write(plan + t, (u64)__double_as_longlong(t == 0 ? wk_capped(0.0, ts, cap) : ts),
                 wk_tag(epoch, t == 0 ? WK_APPROX : WK_AGG) | wk_cap_bits(cap));
#endif
#else
    const double ts = wk_block_add(mine, sh);
    const double cap = 0.0; /* no cap: WK_REACH adds the whole tree sum */
    (void)cap;
    if (threadIdx.x == 0) wk_write(plan + t, (u64)__double_as_longlong(ts), wk_tag(epoch, t == 0 ? WK_APPROX : WK_AGG));
#endif
#if BINADE_WK_EARLY
    /* The terms are in (the tree sum read them), and the window's copy was issued before
     * them, from L2: this wait is about free, and no copy is left pending into the next tile
     * (but the buffer's copy of the next tile, committed after it). */
#if BINADE_WK_BUFFER
    asm volatile("cp.async.wait_group 1;" ::: "memory");
#else
    wk_early_wait();
#endif
#endif
#if BINADE_WK_PHASES < 2
    return;
#endif
    if (t == 0) {
        /* The first tile starts from the sum's start (+0 or -0), in no binade: the walker
         * finishes it from its terms, or with BINADE_WK_FIRST this producer does (t is the
         * block's: no thread diverges). */
        if (threadIdx.x == 0) {
            u64 value = 0ull;
            u64 tag = wk_unit_tag(epoch, 0u, binade_unit_invalid(), &value);
            wk_write(units + t, value, tag);
            paths[t] = 0u;
        }
#if BINADE_WK_FIRST
        wk_first_finish(src, count, start, splits, epoch, sh);
#endif
        return;
    }
    unsigned int path = 0u; /* thread 0's */
#if BINADE_WK_SPLIT
    if (threadIdx.x == 0) sh.cross = __longlong_as_double(0x7ff8000000000000ll); /* none yet */
#else
    (void)splits;
#endif
#if BINADE_WK_HINT
    if (threadIdx.x == 0) {
        unsigned int hb = t % WK_HINT_ANCHOR == 0u ? 0u : wk_plan_from_hint(hint, t, ts, cap, epoch);
        if (hb != 0u) path |= WK_PATH_HINTED;
#if BINADE_WK_SPLIT
        /* The walker's hint standing at this tile is its exact prefix. */
        if (hb != 0u && (hint.tag >> 32) == t) sh.cross = wk_split_prefix(wk_value(hint.value), WK_REACH(wk_value(hint.value), ts, cap));
#endif
#if BINADE_WK_FAR
        if (hb == 0u && t % WK_HINT_ANCHOR != 0u) {
            hb = wk_plan_from_far(far, fa, t, ts, cap, epoch);
            if (hb != 0u) path |= WK_PATH_FAR;
        }
#endif
        sh.b = hb;
    }
    __syncthreads();
    const unsigned int hinted = sh.b;
    __syncthreads(); /* sh.b is read by all before the plan below may rewrite it */
    if (hinted == 0u && threadIdx.x < 32) {
#else
    if (threadIdx.x < 32) {
#endif
        unsigned int missing = 0u;
        int waited = 0, reread = 0;
        const int ranged = BINADE_WK_LOOKBACK != 0 && t % WK_HINT_ANCHOR != 0u;
#if BINADE_WK_MOVES
        const unsigned int bref = mb;
#else
        const unsigned int bref = 0u;
#endif
        double prefix = wk_lookback_plan(plan, t, epoch, out, ranged, &missing, &waited, &reread, bref, wk_early_words(sh), 1);
        if (missing != 0u) {
            /* Tree sums of non-negative terms are >= 0: the prefix lies in [prefix, prefix +
             * 4 missing u] where the guess holds; one binade at both ends is the plan. */
            const double lo = __shfl_sync(WK_FULL, prefix, 0);
            const double u = wk_margin_unit(ts, lo, (double)(t - missing));
            const double hi = WK_REACH(lo, __dmul_rn(4.0 * (double)missing, u), cap);
            const unsigned int bl = wk_plan_binade(lo);
            const unsigned int bh = wk_plan_binade(hi);
#if BINADE_WK_LOOKBACK == 2
            (void)bh;
            const int one = bl != 0u;
#else
            const int one = bl != 0u && bl == bh;
#endif
            if (one) {
                if (threadIdx.x == 0) sh.b = bl;
                path |= WK_PATH_RANGED;
            } else {
                prefix = wk_lookback_plan(plan, t, epoch, out, 0, &missing, &waited, &reread, bref, wk_early_words(sh), 0);
                missing = 0u;
            }
        }
        if (waited) path |= WK_PATH_WAITED;
        if (reread) path |= WK_PATH_REREAD;
        if (missing == 0u && threadIdx.x == 0) {
#if BINADE_WK_MOVES
            /* The tile's own move from the prefix's binade, as a look-back's. */
            const double own = wk_move_at(wk_plan_binade(prefix), mb, m0, m1, ts);
#else
            const double own = ts;
#endif
            wk_write(plan + t, (u64)__double_as_longlong(WK_REACH(prefix, own, cap)), wk_tag(epoch, WK_APPROX));
            sh.b = wk_plan_binade(prefix);
#if BINADE_WK_SPLIT
            sh.cross = wk_split_prefix(prefix, WK_REACH(prefix, ts, cap));
#endif
        }
    }
    __syncthreads();
    const unsigned int b = sh.b;
    __syncthreads(); /* sh.b is read by all before the next tile's plan rewrites it */
#if BINADE_WK_PHASES < 3
    return;
#endif
    binade_unit u = binade_unit_invalid();
    int tied = 0;
#if BINADE_WK_SPLIT
    /* The tile staged for wk_split before the unit, while x is live anyway: staged after it, x
     * stayed live across the unit's tie path and ptxas spilled 248 bytes (914e6f9). The
     * unit's barriers order these writes before wk_split's reads, and its tie path stages the
     * same values again. A prefix in sh.cross comes with b != 0, so the unit runs. */
    if (sh.cross == sh.cross) wk_stage_striped(x, sh);
#endif
    if (b != 0u) u = wk_tile_unit(x, src, count, b, sh, &tied);
    u64 value = 0ull;
    const u64 tag = wk_unit_tag(epoch, b, u, &value);
    path |= tied ? WK_PATH_TIE : 0u; /* thread 0's is the tile's */
#if BINADE_WK_SPLIT
    /* A tile whose known prefix the tree sum carries into the next binade (wk_split_prefix,
     * in sh.cross since the plan: read from there, so nothing more is live across the unit):
     * its split words, then its unit word. The same decision on every thread. */
    if (sh.cross == sh.cross)
        wk_split(b, count, splits + 2u * t, units + t, value, tag, paths + t, path, epoch, sh);
    else
#endif
        if (threadIdx.x == 0) {
        wk_write(units + t, value, tag);
        paths[t] = path;
    }
#if BINADE_WK_TRACE
    if (threadIdx.x == 0) atomicMax(out + 13, wk_now());
#endif
#if !BINADE_WK_FIRST
    (void)start;
#endif
}

/* ---- the walker ---- */

/* Adds this thread's lane `lane` of terms x (below the tile's count) to s natively, in order. */
__device__ static inline u64 wk_lane_add(const double *x, unsigned int count, unsigned int lane, u64 s) {
#if BINADE_WK_F32
    float acc = __uint_as_float((unsigned int)s);
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++)
        if (lane * WK_PER + j < count) acc = __fadd_rn(acc, (float)x[j]);
    return (u64)__float_as_uint(acc);
#else
    double acc = __longlong_as_double((long long)s);
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++)
        if (lane * WK_PER + j < count) acc = __dadd_rn(acc, x[j]);
    return (u64)__double_as_longlong(acc);
#endif
}

#if BINADE_WK_SPLIT

/* A split end in two halves, one thread: wk_split_first applies the first split word a to the
 * exact sum s before the tile (s is in its binade and the lanes before the split lane keep it
 * there: exact, as a run's apply), 1 and the sum in *before, or 0 (the tile is finished from
 * s); wk_split_rest adds the split lane's terms x natively to that sum and applies the second
 * word c to the result (it is in the next binade and the lanes after keep it there): 1 and
 * the tile's exact end in *end, or 0. */
__device__ static inline int wk_split_first(wk_word a, u64 s, u64 *before) {
#if BINADE_WK_MUTANT == WK_M_SPLIT_FIRST_UNCHECKED
    *before = wk_apply_unchecked(wk_unit_of(a), wk_unit_binade(a), s);
    return 1;
#else
    return wk_apply(wk_unit_of(a), wk_unit_binade(a), s, before);
#endif
}
__device__ static inline int wk_split_rest(wk_word c, const double *x, unsigned int count, unsigned int lane,
                                           u64 before, u64 *end) {
#if BINADE_WK_MUTANT == WK_M_SPLIT_LANE_SKIPPED
    const u64 after = before;
    (void)x;
    (void)count;
    (void)lane;
#else
    const u64 after = wk_lane_add(x, count, lane, before);
#endif
#if BINADE_WK_MUTANT == WK_M_SPLIT_SECOND_UNCHECKED
    *end = wk_apply_unchecked(wk_unit_of(c), wk_unit_binade(c), after);
    return 1;
#else
    return wk_apply(wk_unit_of(c), wk_unit_binade(c), after, end);
#endif
}

/* The tile at src (count terms) ended from the exact sum s before it by its split words sp
 * (wk_split), by one thread: where both words are this launch's and name a lane of the
 * tile, wk_split_first, the lane's terms read, wk_split_rest: 1 and the tile's exact end in
 * *end. Else 0, and the tile is finished from s. */
__device__ static inline int wk_split_end(const wk_word *sp, const wk_term *src, unsigned int count, u64 s,
                                          unsigned int epoch, u64 *end) {
    const wk_word a = wk_read(sp), c = wk_read(sp + 1);
    if (!wk_has(a, epoch, WK_UNIT) || !wk_has(c, epoch, WK_UNIT)) return 0;
    const unsigned int lane = (unsigned int)(a.tag >> WK_SPLIT_LANE_SHIFT) & 0x7ffu;
    if (lane * WK_PER >= count) return 0;
    u64 before = s;
    if (!wk_split_first(a, s, &before)) return 0;
    double x[WK_PER];
    wk_lane_load(src, count, lane, x);
    return wk_split_rest(c, x, count, lane, before, end);
}
#endif

#if BINADE_WK_FAST_FINISH
#if WK_PER > 32 || WK_PER < 3
#error "a fast round's native lane is read by one warp, a term a thread, and its prefixes need WK_PER >= 3"
#endif
/* Binades a fast round covers at most. Its words in sh.words: binade j's inclusive prefixes
 * over the lanes at j * WK_THREADS (j < WK_FF_K), the warps' totals of binade j at
 * WK_FF_TOTALS + j * WK_WARPS, each lane's mask (bit j: the lane has a tie or a negative term
 * for binade b + j) at WK_FF_MASKS: (WK_PER + 1) * WK_THREADS words in all, the tile's. */
#define WK_FF_K (WK_PER - 1u)
#define WK_FF_TOTALS (WK_FF_K * WK_THREADS)
#define WK_FF_MASKS (WK_PER * WK_THREADS)
#define WK_HIDDEN 0x0010000000000000ull
#define WK_FRAC 0x000fffffffffffffull

/* The increment of a lane's terms x for binade b (52 <= b <= 2046) where no term is a tie or
 * negative: the f64 sum of rint(x * 2^(1075 - b)), exact below 2^53, saturated at or above
 * (wk_lane_unit's fast path, one binade). *usable says whether it holds (no tie, no negative
 * term); a NaN or infinite term saturates it. */
__device__ static inline u64 wk_ff_increment(const double *x, unsigned int b, int *usable) {
    const double scale = wk_scale(b);
    double c = 0.0;
    int bad = 0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) {
        const double y = __dmul_rn(x[j], scale);
        const double r = rint(y);
        const double d = __dsub_rn(y, r);
        bad |= x[j] < 0.0;
#if BINADE_WK_MUTANT != WK_M_FF_TIE_IGNORED
        bad |= (d == 0.5) | (d == -0.5);
#endif
        c = __dadd_rn(c, r);
    }
    *usable = !bad;
    return wk_bounded(c);
}

/* Lane l's terms (count in the tile at src) added natively to s, in order, by one warp: a
 * term a thread, passed round by shuffles; the same bits on every thread of the warp. */
__device__ static inline u64 wk_warp_lane_add(const double *src, unsigned int count, unsigned int l, u64 s) {
    const unsigned int lane = threadIdx.x & 31u, p0 = l * WK_PER;
    const double t = lane < WK_PER && p0 + lane < count ? __ldg(src + p0 + lane) : 0.0;
    double acc = __longlong_as_double((long long)s);
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) {
        const double y = __shfl_sync(WK_FULL, t, j);
        if (p0 + j < count) acc = __dadd_rn(acc, y);
    }
    return (u64)__double_as_longlong(acc);
}

/* The binades a fast round computes from a start cur before lane `from`: from cur's binade b
 * up to the binade of (cur + the rest's f64 sum)(1 + 2^-30), which the exact running sum of
 * non-negative terms never passes (each of at most 2^12 roundings adds at most 2^-53 of it),
 * at most WK_FF_K and never past binade 2046. A count only: a crossing beyond them ends the
 * round, and the next round starts there. */
__device__ static inline unsigned int wk_ff_binades(const double *x, unsigned int mine, u64 cur, unsigned int b,
                                                    wk_shared &sh) {
    double part = 0.0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) part = __dadd_rn(part, mine ? x[j] : 0.0);
    const double rest = wk_block_add(part, sh);
    const double hi = __dmul_rn(__dadd_rn(__longlong_as_double((long long)cur), rest), 1.0 + 0x1p-30);
    const unsigned int top = binade_of_f64((u64)__double_as_longlong(hi));
    unsigned int k = top >= b ? top - b + 1u : 1u;
    if (top == 0u || k > WK_FF_K) k = WK_FF_K;
    if (b + k > 2047u) k = 2047u - b;
    return k;
}

/* Binade b + j's inclusive prefixes of the lanes' increments over the block (saturating sums of
 * integers below 2^62: exact below 2^62, 2^62 from there), and each lane's mask, into sh.words
 * (layout at WK_FF_K). Lanes outside [from, used) add nothing and have no mask bit. */
__device__ static inline void wk_ff_prefixes(const double *x, int mine, unsigned int b, unsigned int k,
                                             wk_shared &sh) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned int mask = 0u;
    for (unsigned int j = 0; j < k; j++) {
        int usable = 1;
        u64 v = mine ? wk_ff_increment(x, b + j, &usable) : 0ull;
        if (!usable) mask |= 1u << j;
        for (unsigned int d = 1; d < 32; d *= 2) {
            const u64 o = __shfl_up_sync(WK_FULL, v, d);
            if (lane >= d) v = binade_sat_add(o, v);
        }
        sh.words[j * WK_THREADS + threadIdx.x] = v;
        if (lane == 31u) sh.words[WK_FF_TOTALS + j * WK_WARPS + warp] = v;
    }
    sh.words[WK_FF_MASKS + threadIdx.x] = mask;
    __syncthreads();
    for (unsigned int j = 0; j < k; j++) {
        u64 before = 0ull;
        for (unsigned int q = 0; q < warp; q++) before = binade_sat_add(before, sh.words[WK_FF_TOTALS + j * WK_WARPS + q]);
        sh.words[j * WK_THREADS + threadIdx.x] = binade_sat_add(before, sh.words[j * WK_THREADS + threadIdx.x]);
    }
    __syncthreads();
}

/* The first lane in [f, used) that does not go by binade b + jo's prefixes from the mantissa m
 * (the sum before lane f, at that binade's quantum): one with a mask bit, or whose prefix from
 * f saturates or passes room = 2^53 - m, the binade's top; WK_NONE if none. By warp 0. */
__device__ static inline unsigned int wk_ff_first_stop(const wk_shared &sh, unsigned int jo, unsigned int f,
                                                       unsigned int used, u64 base, u64 room) {
    const unsigned int lane = threadIdx.x & 31u;
    const u64 *pre = sh.words + jo * WK_THREADS;
    unsigned int first = WK_NONE;
    for (unsigned int q = 0; q < WK_WARPS; q++) {
        const unsigned int l = q * 32u + lane;
        if (first != WK_NONE || l < f || l >= used) continue;
        const u64 p = pre[l];
        const int bad = (unsigned int)(sh.words[WK_FF_MASKS + l] >> jo) & 1u;
#if BINADE_WK_MUTANT == WK_M_FF_BOUND_IGNORED
        const int over = p >= BINADE_SATURATED;
        (void)room;
#else
        const int over = p >= BINADE_SATURATED || p - base > room;
#endif
        if (bad || over) first = l;
    }
    return __reduce_min_sync(WK_FULL, first);
}

/* One fast round of a finish: the exact sum cur (a positive normal in binade b >= 52) stands
 * before lane `from`. Where lanes f..l of the rest (all without a tie or a negative term for
 * binade c) start from a sum with mantissa m in binade c, their increments are equal for
 * either parity and add as integers, so they end at m + (P_c[l] - P_c[f - 1]) (P_c binade c's
 * prefixes) wherever that is at most 2^53 (landing on 2^53 is exactly 2^(e + 1), and the
 * partial ends, never larger, stay in the binade): binade_apply_f64's argument for the unit
 * (d, d). So warp 0 finds the first lane where that fails; the lanes before it apply at once;
 * that lane, if it crosses, is added natively and the walk goes on from the next lane in the
 * new sum's binade; at a lane with a tie or a negative term the round stops. Leaves the running
 * sum in sh.s and the next lane in sh.from. Returns (on every thread) bit 0: the rest of the
 * tile should go by pair units (the round stopped at such a lane, or moved nowhere); above it
 * the lanes it added natively. */
__device__ static inline int wk_ff_round(const double *x, const double *src, unsigned int count, unsigned int used,
                                         u64 cur, unsigned int from, unsigned int b, wk_shared &sh) {
    const int mine = threadIdx.x >= from && threadIdx.x < used;
    const unsigned int k = wk_ff_binades(x, (unsigned int)mine, cur, b, sh);
    wk_ff_prefixes(x, mine, b, k, sh);
    if (threadIdx.x < 32) {
        u64 s = cur;
        unsigned int f = from, natives = 0u;
        int pairs = 0;
        while (f < used) {
            const unsigned int c = binade_of_f64(s);
            if (c < b || c >= b + k) break; /* left the round's binades (or not a positive normal) */
            const unsigned int jo = c - b;
            const u64 *pre = sh.words + jo * WK_THREADS;
#if BINADE_WK_MUTANT == WK_M_FF_BASE_IGNORED
            const u64 base = 0ull;
#else
            const u64 base = f > 0u ? pre[f - 1u] : 0ull;
#endif
            if (base >= BINADE_SATURATED) break;
            const u64 m = (s & WK_FRAC) | WK_HIDDEN;
            const unsigned int stop = wk_ff_first_stop(sh, jo, f, used, base, (WK_HIDDEN << 1) - m);
            const unsigned int end = stop == WK_NONE ? used : stop;
            if (end > f) s = ((u64)c << 52) + (m + (pre[end - 1u] - base) - WK_HIDDEN);
            f = end;
            if (stop == WK_NONE) break;
            if ((unsigned int)(sh.words[WK_FF_MASKS + stop] >> jo) & 1u) {
                pairs = 1;
                break;
            }
            s = wk_warp_lane_add(src, count, stop, s); /* the crossing lane */
            natives++;
            f = stop + 1u;
        }
        if (threadIdx.x == 0) {
            sh.flag = (unsigned int)(pairs || (f == from && s == cur)) | (natives << 1);
            sh.s = s;
            sh.from = f;
        }
    }
    __syncthreads();
    const unsigned int flag = sh.flag;
    __syncthreads();
    return (int)flag;
}
#endif

#if BINADE_WK_PLANNED
/* A planned lane's key past the binades (a native lane) and past the tile (no lane). */
#define WK_PL_NATIVE 0xfffeu
#define WK_PL_NONE 0xffffu
/* Native lanes a planned finish takes at most (each costs one thread WK_PER native adds):
 * PLAN_NATIVE_MAX of src/gpu/ordered_sum/walked.rs. */
#if !defined(BINADE_WK_PL_NATIVE_MAX) || !defined(BINADE_WK_PL_MARGIN_EXP)
#error "compile with the planned finish's defines of WalkedShape (src/gpu/ordered_sum/walked.rs)"
#endif
#define WK_PL_NATIVE_MAX ((unsigned int)BINADE_WK_PL_NATIVE_MAX)
/* The relative margin 2^-BINADE_WK_PL_MARGIN_EXP by which a lane's approximate start and end
 * are widened before their binades are compared (PLAN_MARGIN_EXP_F64 or _F32 of walked.rs).
 * The loop's running sum over one tile differs from the real sum of its terms by at most
 * count roundings of half a quantum each, about 2^-41 of the sum for 4,096 f64 terms (2^-12
 * for f32); ordinary data drifts far less (a random walk), so the margin is set a little
 * above the typical drift, not at the bound. A lane planned wrongly fails its run's check and
 * the rounds finish the tile: the margin sets how often that happens, never a bit. */
#define WK_PL_MARGIN (1.0 / (double)(1ull << BINADE_WK_PL_MARGIN_EXP))

/* Ordered scan of units over the block's threads, restarted at every thread whose `head` is
 * set: returns the composition, in order, of the threads from the nearest head at or before
 * this one through this one (thread 0 counts as a head). The operator on (head, unit) pairs,
 * (h1, u1) then (h2, u2) giving (h1 | h2, h2 ? u2 : u1 . u2), is associative, so the
 * shuffle steps and the warps' totals combine as in wk_block_scan. */
__device__ static inline binade_unit wk_block_seg_scan(binade_unit v, unsigned int head, wk_shared &sh) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned int f = head | (threadIdx.x == 0u);
    for (unsigned int d = 1; d < 32; d *= 2) {
        const binade_unit o = wk_shfl_up(v, d);
        const unsigned int of = __shfl_up_sync(WK_FULL, f, d);
        if (lane >= d) {
#if BINADE_WK_MUTANT != WK_M_PLAN_HEADS_IGNORED
            if (!f)
#endif
                v = binade_compose(o, v);
            f |= of;
        }
    }
    if (lane == 31u) {
        sh.ured[warp] = v;
        sh.pl_heads[warp] = f;
    }
    __syncthreads();
#if BINADE_WK_MUTANT == WK_M_PLAN_HEADS_IGNORED
    f = 0u;
#endif
    for (unsigned int k = warp; !f && k-- > 0;) {
        v = binade_compose(sh.ured[k], v);
#if BINADE_WK_MUTANT != WK_M_PLAN_HEADS_IGNORED
        f = sh.pl_heads[k];
#endif
    }
    __syncthreads();
    return v;
}

/* Where lane l's key sits in sh.words during a planned pass: the gap after its terms
 * (wk_lane_slot leaves one after each lane). */
__device__ static inline unsigned int wk_pl_key_slot(unsigned int l) { return l * (WK_PER + 1u) + WK_PER; }
/* Where a run's composed unit sits, at its last lane l: that lane's first two slots (a
 * planned lane, whose terms the walk never reads). */
__device__ static inline unsigned int wk_pl_unit_slot(unsigned int l) { return l * (WK_PER + 1u); }

/* Lane `lane`'s terms from the staged tile (sh.lanes, term order) added natively to s. */
__device__ static inline u64 wk_staged_lane_add(const wk_shared &sh, unsigned int count, unsigned int lane, u64 s) {
    double x[WK_PER];
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) x[j] = sh.lanes[wk_lane_slot(lane * WK_PER + j)];
    return wk_lane_add(x, count, lane, s);
}

/* The last lane at or after l whose bit is set in the block's lane masks m (one word a warp):
 * the end of the run lane l is in. Every run has a last lane, so one is found. */
__device__ static inline unsigned int wk_pl_next(const unsigned int *m, unsigned int l) {
    unsigned int w = l >> 5;
    unsigned int bits = m[w] & (WK_FULL << (l & 31u));
    while (bits == 0u && w + 1u < WK_WARPS) bits = m[++w];
    return w * 32u + (unsigned int)__ffs((int)bits) - 1u;
}

/* Lane threadIdx.x's key (its planned binade, or WK_PL_NATIVE) and, for a planned lane, its
 * unit for that binade in *u: planned where its terms x are non-negative and finite, its
 * approximate start and end (S plus the f64 sums of the lanes before it, then of its own
 * terms, each widened by WK_PL_MARGIN) lie in one binade c at or above the fast units' lowest,
 * and its unit for c does not saturate. Lanes past `used` get WK_PL_NONE. *special is set
 * where the lane has an infinite or NaN term: the pass leaves such tiles to the rounds, whose
 * special values are the engine's contract (native adds would give the device's own NaN). */
__device__ static inline unsigned int wk_pl_lane(const double *x, unsigned int used, u64 s, binade_unit *u,
                                                 int *special, wk_shared &sh) {
    const int mine = threadIdx.x < used;
    double part = 0.0;
    int negative = 0, inf_nan = 0;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) {
        part = __dadd_rn(part, x[j]);
        negative |= x[j] < 0.0;
        inf_nan |= !(fabs(x[j]) < __longlong_as_double(0x7ff0000000000000ll));
    }
    const double start = __dadd_rn(wk_value(s), wk_block_excl_add(mine ? part : 0.0, sh));
    const unsigned int c = wk_plan_binade(__dmul_rn(start, 1.0 - WK_PL_MARGIN));
    const int same = c == wk_plan_binade(__dmul_rn(__dadd_rn(start, part), 1.0 + WK_PL_MARGIN));
    *u = binade_unit_zero();
    *special = mine && inf_nan;
    if (!mine) return WK_PL_NONE;
    if (negative || inf_nan || !same || c < WK_FAST_MIN_B) return WK_PL_NATIVE;
    *u = wk_lane_unit(x, c);
    if (u->even >= BINADE_SATURATED || u->odd >= BINADE_SATURATED) {
        *u = binade_unit_zero();
        return WK_PL_NATIVE;
    }
    return c;
}

/* One planned pass over the tile (count terms, `used` lanes, lane threadIdx.x's terms x in
 * term order and the tile staged in sh.lanes) from the exact sum s before it (the
 * BINADE_WK_PLANNED comment). Runs are the maximal stretches of consecutive lanes planned for
 * one binade c; each run's unit is its lanes' units for c composed in order. Thread 0 walks:
 * a run applies by wk_apply (s in c, and the end not past c's top: with non-negative terms
 * every partial sum of the run lies between s and the end, so each of the loop's adds stays in
 * c and is the unit's increment, the argument of the walker's runs), a native lane by its
 * adds in order. Returns 1 (on every thread) and the tile's exact end in *end where every
 * run applied, else 0 (nothing changed: the caller finishes the tile from s). */
__device__ static inline int wk_planned_finish(const double *x, unsigned int count, unsigned int used, u64 s,
                                               wk_shared &sh, u64 *end, unsigned int *native) {
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    binade_unit u;
    int special = 0;
    const unsigned int key = wk_pl_lane(x, used, s, &u, &special, sh);
    sh.words[wk_pl_key_slot(threadIdx.x)] = key;
    if (__syncthreads_or(special) || (s & WK_MAG) >= WK_INF) return 0;
    const unsigned int prev =
        threadIdx.x > 0u ? (unsigned int)sh.words[wk_pl_key_slot(threadIdx.x - 1u)] : WK_PL_NONE;
    const unsigned int next =
        threadIdx.x + 1u < WK_THREADS ? (unsigned int)sh.words[wk_pl_key_slot(threadIdx.x + 1u)] : WK_PL_NONE;
    const int planned = key < WK_PL_NATIVE;
    const unsigned int ends = __ballot_sync(WK_FULL, planned && next != key);
    const unsigned int natives = __ballot_sync(WK_FULL, key == WK_PL_NATIVE);
    if (lane == 0u) {
        sh.pl_ends[warp] = ends;
        sh.pl_natives[warp] = natives;
    }
    const binade_unit run = wk_block_seg_scan(u, (unsigned int)(!planned || prev != key), sh);
    if (planned && next != key) { /* its own terms' slots: no other thread reads them */
        sh.words[wk_pl_unit_slot(threadIdx.x)] = run.even;
        sh.words[wk_pl_unit_slot(threadIdx.x) + 1u] = run.odd;
    }
    __syncthreads();
    WK_FIN_STAMP(sh, WK_FIN_KEYED);
    if (threadIdx.x == 0u) {
        unsigned int nat = 0u;
        for (unsigned int k = 0; k < WK_WARPS; k++) nat += (unsigned int)__popc((int)sh.pl_natives[k]);
        int ok = nat <= WK_PL_NATIVE_MAX;
        u64 cur = s;
        unsigned int l = 0u;
        while (ok && l < used) {
            if ((sh.pl_natives[l >> 5] >> (l & 31u)) & 1u) {
#if BINADE_WK_MUTANT != WK_M_PLAN_NATIVE_SKIPPED
                cur = wk_staged_lane_add(sh, count, l, cur);
#endif
                l++;
                continue;
            }
            const unsigned int e = wk_pl_next(sh.pl_ends, l);
            const unsigned int c = (unsigned int)sh.words[wk_pl_key_slot(e)];
            const binade_unit run_unit =
                binade_unit_make(sh.words[wk_pl_unit_slot(e)], sh.words[wk_pl_unit_slot(e) + 1u]);
#if BINADE_WK_MUTANT == WK_M_PLAN_RUN_UNCHECKED
            cur = wk_apply_unchecked(run_unit, c, cur);
#else
            u64 out = 0ull;
            ok = wk_apply(run_unit, c, cur, &out);
            cur = out;
#endif
            l = e + 1u;
        }
        sh.flag = (unsigned int)ok;
        sh.s = cur;
        if (ok) *native += nat;
    }
    WK_FIN_STAMP(sh, WK_FIN_WALKED);
    __syncthreads();
    const int ok = (int)sh.flag;
    *end = sh.s;
    __syncthreads();
    return ok;
}
#endif

/* Finishes the tile at src (count terms) from the exact sum s before it, by the walker
 * block: each round the lanes not yet done form their units for the binade of the running
 * sum, the first lane whose composed end does not apply adds its terms natively, and the
 * next round starts after it. Each thread holds its lane's terms in registers, read once.
 * A start that is not a positive normal is left by native adds (one lane from +-0 or a
 * positive subnormal, the rest of the tile from a negative sum); an infinite or NaN sum
 * changes only to NaN, where a later term is NaN or the other infinity. Returns the tile's
 * exact end (on every thread); *native counts lanes added natively. Not inlined: inlined with
 * the planned pass it made wk_walk spill 28 bytes (ptxas, CUDA 13.5, sm_90, under the
 * kernel's cap of 64 registers), which every step and split end paid (the geometric stream
 * 10% slower at 2^30 on an H100, 9f93b99); as a function of its own neither spills. */
__device__ static __noinline__ u64 wk_finish(const wk_term *src, unsigned int count, u64 s, wk_shared &sh,
                                       unsigned int *native, unsigned int *fast_rounds, unsigned int *pair_rounds,
                                       unsigned int *planned) {
    const unsigned int used = (count + WK_PER - 1) / WK_PER;
    double x[WK_PER];
#if BINADE_WK_TRACE
    if (threadIdx.x == 0u) sh.fin_ns[WK_FIN_KEYED] = sh.fin_ns[WK_FIN_WALKED] = 0ull;
#endif
    wk_lane_terms(src, count, x, sh); /* +0 for threads past the count */
    WK_FIN_STAMP(sh, WK_FIN_LOADED);
#if BINADE_WK_PLANNED
    {
        u64 end = 0ull;
        if (wk_planned_finish(x, count, used, s, sh, &end, native)) {
            if (threadIdx.x == 0) *planned += 1u;
            return end;
        }
    }
#else
    (void)planned;
#endif
    if (threadIdx.x == 0) {
        sh.s = s;
        sh.from = 0u;
    }
    __syncthreads();
#if BINADE_WK_FAST_FINISH
    int pairs_only = 0; /* a fast round met a tie or a negative term: pair units from there */
#endif
    while (true) {
        const u64 cur = sh.s;
        const unsigned int from = sh.from;
        __syncthreads();
        if (from >= used) break;
        const unsigned int b = wk_binade(cur);
#if BINADE_WK_FAST_FINISH
        if (!pairs_only && b >= 52u) {
            const int r = wk_ff_round(x, src, count, used, cur, from, b, sh);
            pairs_only = r & 1;
            if (threadIdx.x == 0) {
                *native += (unsigned int)r >> 1;
                *fast_rounds += 1u;
            }
            continue;
        }
#endif
        if (b == 0u) {
            const u64 mag = cur & WK_MAG;
            if (mag >= WK_INF) {
                /* An infinite or NaN sum: NaN stays NaN, an infinity stays itself unless a
                 * later term is NaN or the other infinity (then NaN); no other term changes
                 * it. The lanes look at their own terms at once. */
                const double c = wk_value(cur);
                int hit = 0;
#pragma unroll
                for (unsigned int j = 0; j < WK_PER; j++)
                    hit |= threadIdx.x >= from && threadIdx.x * WK_PER + j < count && (x[j] != x[j] || x[j] == -c);
                hit = __syncthreads_or(hit);
                if (threadIdx.x == 0) {
                    if (hit && mag == WK_INF) sh.s = WK_QNAN;
                    sh.from = used;
                }
                __syncthreads();
                continue;
            }
            /* +-0, a subnormal or a negative sum: native adds, each lane by its own thread in
             * turn (one lane from +-0 or a positive subnormal, the rest of the tile from a
             * negative sum). */
            const int tiny = mag < WK_MIN_NORMAL && ((cur & WK_SIGN) == 0ull || mag == 0ull);
            const unsigned int last = tiny ? from + 1u : used;
            for (unsigned int i = from; i < last; i++) {
                if (threadIdx.x == i) sh.s = wk_lane_add(x, count, i, sh.s);
                __syncthreads();
            }
            if (threadIdx.x == 0) {
                *native += last - from;
                sh.from = last;
            }
            __syncthreads();
            continue;
        }
        if (threadIdx.x == 0) *pair_rounds += 1u;
        const int mine = threadIdx.x >= from && threadIdx.x < used;
        binade_unit u = mine ? wk_lane_unit(x, b) : binade_unit_zero();
        binade_unit excl;
        binade_unit incl = wk_block_scan(u, &excl, sh);
        if (threadIdx.x == 0) sh.fail = WK_NONE;
        __syncthreads();
        u64 out = 0ull;
        const int ok = !mine || wk_apply(incl, b, cur, &out);
        if (!ok) atomicMin(&sh.fail, threadIdx.x);
        __syncthreads();
        const unsigned int fail = sh.fail;
        if (fail == WK_NONE) {
            if (threadIdx.x == used - 1u) sh.s = out;
            if (threadIdx.x == 0) sh.from = used;
        } else if (threadIdx.x == fail) {
            u64 at = cur;
#if BINADE_WK_MUTANT != WK_M_NATIVE_FROM_ROUND
            if (fail > from) wk_apply(excl, b, cur, &at); /* applies: the lane before did */
#endif
            sh.s = wk_lane_add(x, count, fail, at);
            sh.from = fail + 1u;
        }
        if (fail != WK_NONE && threadIdx.x == 0) *native += 1u; /* thread 0 keeps the counts */
        __syncthreads();
    }
    const u64 end = sh.s;
    __syncthreads();
    return end;
}

#if BINADE_WK_SEG_STEP
/* A segmented step's words in sh.words (free during a step: only finishes stage tiles there):
 * position p's unit composed from its segment's start at WK_SS_UNITS + 2p (even, odd), its
 * planned binade at WK_SS_KEYS + p, and one bit a position, set where a segment starts, in
 * the words from WK_SS_HEADS. */
#define WK_SS_POS (WK_STEP * WK_THREADS)
#define WK_SS_UNITS 0u
#define WK_SS_KEYS (2u * WK_SS_POS)
#define WK_SS_HEADS (3u * WK_SS_POS)
#define WK_SS_HEAD_WORDS ((WK_SS_POS + 63u) / 64u)
#if 3 * WK_STEP * WK_THREADS + (WK_STEP * WK_THREADS + 63) / 64 > WK_TILE + WK_THREADS
#error "a segmented step's words do not fit the transposed tile's shared memory"
#endif
#if BINADE_WK_FETCH_SPLITS
/* Split words and lane terms fetched with the step's words, for up to WK_SS_SLOTS crossings a
 * step: slot k's two split words (value, tag each) then its lane's WK_PER terms (as doubles)
 * at WK_SS_FETCHED + k * WK_SS_SLOT_WORDS, its position and (shifted by 32) its lane at
 * WK_SS_FETCHED_POS + k. */
#ifndef BINADE_WK_SS_SLOTS
#error "compile with the host's BINADE_WK_SS_SLOTS (walked::SEG_STEP_SLOTS)"
#endif
#define WK_SS_SLOTS ((unsigned int)BINADE_WK_SS_SLOTS)
#define WK_SS_SLOT_WORDS (4u + WK_PER)
#define WK_SS_FETCHED (WK_SS_HEADS + WK_SS_HEAD_WORDS)
#define WK_SS_FETCHED_POS (WK_SS_FETCHED + WK_SS_SLOTS * WK_SS_SLOT_WORDS)
#if 3 * WK_STEP * WK_THREADS + (WK_STEP * WK_THREADS + 63) / 64 + BINADE_WK_SS_SLOTS * (5 + WK_PER) > \
    WK_TILE + WK_THREADS
#error "a segmented step's words and fetched splits do not fit the transposed tile's shared memory"
#endif
#endif
#if 64 % WK_STEP != 0
#error "a thread's head bits lie in one 64-bit word: WK_STEP divides 64"
#endif

__device__ static inline binade_unit wk_ss_unit(const wk_shared &sh, unsigned int p) {
    return binade_unit_make(sh.words[WK_SS_UNITS + 2u * p], sh.words[WK_SS_UNITS + 2u * p + 1u]);
}
__device__ static inline void wk_ss_store(wk_shared &sh, unsigned int p, binade_unit u) {
    sh.words[WK_SS_UNITS + 2u * p] = u.even;
    sh.words[WK_SS_UNITS + 2u * p + 1u] = u.odd;
}

/* The first segment start after position p, or f where none is before f. */
__device__ static inline unsigned int wk_ss_next_head(const wk_shared &sh, unsigned int p, unsigned int f) {
    for (unsigned int q = p + 1u; q < f;) {
        const u64 m = sh.words[WK_SS_HEADS + q / 64u] >> (q % 64u);
        if (m != 0ull) {
            const unsigned int h = q + (unsigned int)(__ffsll((long long)m) - 1);
            return h < f ? h : f;
        }
        q = (q / 64u + 1u) * 64u;
    }
    return f;
}

/* Whether position k of this thread's words is composable: published in this launch, planned
 * (a binade, not +0's 0), not saturated. */
__device__ static inline int wk_ss_composable(wk_word d, u64 t, u64 ntiles, unsigned int epoch) {
    return t < ntiles && wk_has(d, epoch, WK_UNIT) && wk_unit_binade(d) != 0u && d.value < BINADE_SATURATED;
}

#if BINADE_WK_FETCH_SPLITS
/* Tile t's split words and the terms of its lane `lane` into fetched slot `slot` for position
 * p (wk_ss_compose). Not inlined: its loads' registers are its own, not the walker's. */
__device__ static __noinline__ void wk_ss_fetch(u64 t, unsigned int lane, u64 n, const wk_term *terms,
                                                const wk_word *splits, unsigned int slot, unsigned int p,
                                                wk_shared &sh) {
    const unsigned int count = wk_tile_count(n, t);
    const wk_word a = wk_read(splits + 2u * t), c = wk_read(splits + 2u * t + 1u);
    double x[WK_PER];
    wk_lane_load(terms + t * (u64)WK_TILE, count, lane, x);
    u64 *slotw = &sh.words[WK_SS_FETCHED + slot * WK_SS_SLOT_WORDS];
    slotw[0] = a.value;
    slotw[1] = a.tag;
    slotw[2] = c.value;
    slotw[3] = c.tag;
#pragma unroll
    for (unsigned int j = 0; j < WK_PER; j++) slotw[4u + j] = (u64)__double_as_longlong(x[j]);
    sh.words[WK_SS_FETCHED_POS + slot] = (u64)p | ((u64)lane << 32);
}
#endif

/* Every position's unit composed from its segment's start into sh.words, the segments'
 * starts in the head bits, for the positions before f (the first one not composable),
 * f returned. Every thread calls it with its own words wd (positions threadIdx.x * WK_STEP
 * + k). A segment is a run of consecutive positions planned for one binade. */
__device__ static inline unsigned int wk_ss_compose(const wk_word *wd, u64 w, u64 ntiles, const wk_term *terms,
                                                    u64 n, const wk_word *splits, unsigned int epoch,
                                                    wk_shared &sh) {
    const unsigned int base = threadIdx.x * WK_STEP;
    unsigned int stop = WK_STEP;
#pragma unroll
    for (unsigned int k = WK_STEP; k-- > 0;)
        if (!wk_ss_composable(wd[k], w + base + k, ntiles, epoch)) stop = k;
    if (threadIdx.x == 0) sh.fail = WK_SS_POS;
    if (threadIdx.x < WK_SS_HEAD_WORDS) sh.words[WK_SS_HEADS + threadIdx.x] = 0ull;
#pragma unroll
    for (unsigned int k = 0; k < WK_STEP; k++) sh.words[WK_SS_KEYS + base + k] = wk_unit_binade(wd[k]);
#if BINADE_WK_FETCH_SPLITS
    /* A crossing's split words and lane terms, fetched now for the walk (its tag names the
     * lane): one trip for all the step's crossings, in parallel, instead of two for each in
     * turn. A plan: the walk checks the words' tags and applies as wk_split_end does. */
#pragma unroll
    for (unsigned int k = 0; k < WK_STEP; k++) {
        const u64 t = w + base + k;
        if (!(k < stop && (wd[k].tag & WK_UNIT_SPLIT))) continue;
        const unsigned int slot = atomicAdd(&sh.ss_slots, 1u);
        if (slot < WK_SS_SLOTS)
            wk_ss_fetch(t, (unsigned int)(wd[k].tag >> WK_SPLIT_LANE_SHIFT) & 0x7ffu, n, terms, splits, slot,
                        base + k, sh);
    }
#else
    (void)terms;
    (void)n;
    (void)splits;
#endif
    __syncthreads();
    if (stop < WK_STEP) atomicMin(&sh.fail, base + stop);
    unsigned int prev = threadIdx.x > 0u ? (unsigned int)sh.words[WK_SS_KEYS + base - 1u] : 0u;
    __syncthreads();
    const unsigned int f = sh.fail;
    /* Whether the stop's word is published (its tile is then finished from the walk's sum),
     * so the words need not stay in registers past this function. */
    if (f == WK_SS_POS) {
        if (threadIdx.x == 0) sh.flag = 0u;
    } else if (threadIdx.x == f / WK_STEP) {
#pragma unroll
        for (unsigned int k = 0; k < WK_STEP; k++)
            if (k == f % WK_STEP) sh.flag = (unsigned int)(w + f < ntiles && wk_has(wd[k], epoch, WK_UNIT));
    }
    /* This thread's positions composed from its first position or from the last segment
     * start among them; the positions before its first start take the carry below. */
    binade_unit agg = binade_unit_zero();
    unsigned int first_head = WK_STEP;
    u64 heads = 0ull;
#pragma unroll
    for (unsigned int k = 0; k < WK_STEP; k++) {
        const unsigned int p = base + k, key = wk_unit_binade(wd[k]);
        if (p < f && (p == 0u || key != prev)) {
            heads |= 1ull << k;
#if BINADE_WK_MUTANT != WK_M_BINADES_MIXED
            agg = binade_unit_zero();
            if (first_head == WK_STEP) first_head = k;
#endif
        }
        if (p < f) agg = binade_compose(agg, wk_unit_of(wd[k]));
        wk_ss_store(sh, p, agg);
        prev = key;
    }
    if (heads != 0ull) atomicOr(&sh.words[WK_SS_HEADS + base / 64u], heads << (base % 64u));
    /* The composition from the nearest thread with a segment start (this one included)
     * through this thread: its last position's unit. */
    const binade_unit incl = wk_block_seg_scan(agg, first_head != WK_STEP, sh);
    wk_ss_store(sh, base + WK_STEP - 1u, incl);
    __syncthreads();
    const binade_unit carry = threadIdx.x > 0u ? wk_ss_unit(sh, base - 1u) : binade_unit_zero();
#pragma unroll
    for (unsigned int k = 0; k + 1u < WK_STEP; k++)
        if (k < first_head && base + k < f) wk_ss_store(sh, base + k, binade_compose(carry, wk_ss_unit(sh, base + k)));
    __syncthreads();
    return f;
}

/* Tile t (position p of the step) ended from s by its split words: with BINADE_WK_FETCH_SPLITS
 * from the slot wk_ss_compose fetched for position p where there is one (wk_split_first and
 * wk_split_rest, as wk_split_end), else read now (wk_split_end). A fetched split is used only
 * where its words are this launch's and name the lane whose terms were fetched (the lane the
 * unit word named; the same producer wrote both). */
__device__ static inline int wk_ss_split_end(const wk_shared &sh, unsigned int p, const wk_word *sp,
                                             const wk_term *src, unsigned int count, u64 s, unsigned int epoch,
                                             u64 *end) {
#if !BINADE_WK_FETCH_SPLITS
    (void)sh;
    (void)p;
#else
    const unsigned int slots = sh.ss_slots < WK_SS_SLOTS ? sh.ss_slots : WK_SS_SLOTS;
    for (unsigned int k = 0; k < slots; k++) {
        const u64 at = sh.words[WK_SS_FETCHED_POS + k];
        if ((unsigned int)at != p) continue;
        const u64 *slotw = &sh.words[WK_SS_FETCHED + k * WK_SS_SLOT_WORDS];
        wk_word a, c;
        a.value = slotw[0];
        a.tag = slotw[1];
        c.value = slotw[2];
        c.tag = slotw[3];
        const unsigned int lane = (unsigned int)(a.tag >> WK_SPLIT_LANE_SHIFT) & 0x7ffu;
        if (!wk_has(a, epoch, WK_UNIT) || !wk_has(c, epoch, WK_UNIT) || lane * WK_PER >= count ||
            lane != (unsigned int)(at >> 32))
            break;
        u64 before = s;
        if (!wk_split_first(a, s, &before)) return 0;
#if BINADE_WK_MUTANT == WK_M_STEP_SLOT_MIXED
        slotw = &sh.words[WK_SS_FETCHED];
#endif
        double x[WK_PER];
#pragma unroll
        for (unsigned int j = 0; j < WK_PER; j++) x[j] = __longlong_as_double((long long)slotw[4u + j]);
        return wk_split_rest(c, x, count, lane, before, end);
    }
#endif
    return wk_split_end(sp, src, count, s, epoch, end);
}

/* Thread 0's walk of a segmented step from the exact sum s before tile w over the f
 * composable positions (wk_ss_compose): returns the position the step stops at (f where
 * every segment applied) with the exact sum before it in *at, and in *tried whether that
 * position's split words were tried already. A segment whose composed unit applies to the
 * running sum (checked: the sum in the segment's binade, the end not past its top) moves
 * the sum past it. Where it does not, the sum leaves the binade inside the segment: the
 * first position t whose prefix does not apply is found by bisection over the stored
 * prefixes (every prefix taken is a checked apply, so the sum before t is exact whatever t
 * is), and tile t is ended by its split words where they hold; the walk goes on after it
 * where t ended its segment, else stops after it (the rest was planned for the binade the
 * sum has left). */
__device__ static inline unsigned int wk_ss_walk(unsigned int f, u64 w, u64 s, const wk_term *terms, u64 n,
                                                 const wk_word *splits, unsigned int epoch, u64 *out,
                                                 const wk_shared &sh, u64 *at, int *tried, unsigned int *walk_splits,
                                                 u64 *split_ns, wk_log *lg) {
    u64 sum = s;
    unsigned int p = 0u;
    *tried = 0;
    (void)out;
    (void)split_ns;
    while (p < f) {
        const unsigned int c = (unsigned int)sh.words[WK_SS_KEYS + p];
        const unsigned int e = wk_ss_next_head(sh, p, f);
        if (wk_binade(sum) != c) break; /* the segment's plan is not the sum's binade */
        u64 r = 0ull;
#if BINADE_WK_MUTANT == WK_M_RUN_END_UNCHECKED
        sum = wk_apply_unchecked(wk_ss_unit(sh, e - 1u), c, sum);
        p = e;
        continue;
#endif
        if (wk_apply(wk_ss_unit(sh, e - 1u), c, sum, &r)) {
            sum = r;
            p = e;
            continue;
        }
        unsigned int lo = p, hi = e - 1u;
        u64 before = sum;
#if BINADE_WK_MUTANT == WK_M_STEP_SEARCH_UNCHECKED
        if (hi > p) before = wk_apply_unchecked(wk_ss_unit(sh, hi - 1u), c, sum);
        lo = hi;
#else
#if BINADE_WK_LAST_FIRST
        /* The last position first: where the prefix through hi - 1 applies, every shorter
         * prefix does (the ends only grow) and hi is the crossing; else search before it. */
        if (hi > p) {
            if (wk_apply(wk_ss_unit(sh, hi - 1u), c, sum, &r)) {
                lo = hi;
                before = r;
            } else {
#if BINADE_WK_MUTANT == WK_M_STEP_LAST_TRUSTED
                lo = hi; /* the failed try taken as the crossing, from the segment's start */
#else
                hi -= 1u;
#endif
            }
        }
#endif
        while (lo < hi) { /* positions before lo apply (before: the sum after lo - 1); hi does not */
            const unsigned int mid = (lo + hi) / 2u;
            if (wk_apply(wk_ss_unit(sh, mid), c, sum, &r)) {
                lo = mid + 1u;
                before = r;
            } else {
                hi = mid;
            }
        }
#endif
        const u64 t = w + lo;
        const unsigned int count = wk_tile_count(n, t);
#if BINADE_WK_TRACE
        WK_EV(lg, WK_EV_WALK_SPLIT, t, 0u);
        const u64 t0 = wk_now();
#endif
        u64 end = 0ull;
        const int split = wk_ss_split_end(sh, lo, splits + 2u * t, terms + t * (u64)WK_TILE, count, before, epoch, &end);
#if BINADE_WK_TRACE
        *split_ns += wk_now() - t0;
        WK_EV(lg, WK_EV_WALK_SPLIT_END, t, (unsigned int)split);
#else
        (void)lg;
#endif
        if (!split) {
            *tried = 1;
            *at = before;
            return lo;
        }
        *walk_splits += 1u;
        sum = end;
        p = lo + 1u;
#if BINADE_WK_HINT
        wk_write((wk_word *)(out + 8), sum, ((w + p) << 32) | wk_tag(epoch, WK_HINT));
#endif
        if (p < e) break;
    }
    *at = sum;
    return p < f ? p : f;
}
#endif

#if BINADE_WK_FIRST
/* Whether a sum's first tile's first split word holds its exact sum from this launch
 * (wk_first_finish); the mutant takes any launch's. */
__device__ static inline int wk_first_done(wk_word e, unsigned int epoch) {
#if BINADE_WK_MUTANT == WK_M_FIRST_UNFINISHED
    (void)epoch;
    return ((unsigned int)e.tag & 3u) == WK_EXACT;
#else
    return wk_has(e, epoch, WK_EXACT);
#endif
}

/* Thread 0 of the walker: waits for the first tile's exact sum (BINADE_WK_FIRST) and returns
 * it with the finish's counts. A wait past WK_WAIT_LIMIT sleeps is a stall, reported as the
 * walker's are (stalled set: the walk ends at once). */
__device__ static __noinline__ wk_first_taken wk_first_wait(const wk_word *splits, unsigned int epoch, u64 *out) {
    wk_first_taken r = {0ull, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    wk_word e = wk_read(splits);
    while (!wk_first_done(e, epoch)) {
        if (++r.sleeps > WK_WAIT_LIMIT) {
            if ((atomicMax(out + 5, ((u64)epoch << 2) | 1ull) >> 2) < epoch) {
                out[6] = 0ull;
                out[7] = e.tag;
            }
            r.stalled = 1u;
            return r;
        }
        __nanosleep(64);
        e = wk_read(splits);
    }
    __threadfence(); /* the counts were written before the exact word (wk_first_finish) */
    const wk_word c = wk_read(splits + 1u);
    r.s = e.value;
    r.native = (unsigned int)c.value;
    r.planned = (unsigned int)(c.value >> 32);
    r.fast = (unsigned int)c.tag;
    r.pairs = (unsigned int)(c.tag >> 32);
    return r;
}
#endif

#if BINADE_WK_AHEAD
/* Thread 0 of the walker, before its first step's compose (BINADE_WK_AHEAD): waits until the
 * step's last word (tile min(w + WK_STEP * WK_THREADS, ntiles) - 1) or the first tile's exact
 * sum is published, at most WK_WAIT_LIMIT sleeps (past them the compose stops at the first
 * word not published, and the walk's own wait for the sum reports a stall). Only when the
 * compose starts depends on it. */
__device__ static __noinline__ void wk_ahead_wait(const wk_word *splits, const wk_word *units, u64 w, u64 ntiles,
                                                  unsigned int epoch) {
    const u64 end = w + (u64)WK_STEP * WK_THREADS;
    const wk_word *last = units + (end < ntiles ? end : ntiles) - 1u;
    for (unsigned int k = 0;
         k < WK_WAIT_LIMIT && !wk_first_done(wk_read(splits), epoch) && !wk_has(wk_read(last), epoch, WK_UNIT); k++)
        __nanosleep(64);
}

/* Thread 0 of the walker, after its first step's compose and before its walk
 * (BINADE_WK_AHEAD): takes the first tile's exact sum (wk_first_wait) and returns it, with
 * the finish's counts kept in sh.first for the walk's end and the walker's hint written for
 * tile w; where the wait stalled, sets sh.halt and returns s (the walk ends at once). The
 * mutant returns s, the sum's start, as if the sum had been taken. */
__device__ static __noinline__ u64 wk_ahead_take(const wk_word *splits, unsigned int epoch, u64 *out, u64 w, u64 s,
                                                 wk_shared &sh) {
    const wk_first_taken f = wk_first_wait(splits, epoch, out);
    sh.first = f;
    if (f.stalled) {
        sh.halt = 1u;
        return s;
    }
    sh.first.taken = 1u;
#if BINADE_WK_MUTANT != WK_M_AHEAD_UNAWAITED
    s = f.s;
#endif
#if BINADE_WK_HINT
    wk_write((wk_word *)(out + 8), s, (w << 32) | wk_tag(epoch, WK_HINT));
#else
    (void)w;
#endif
    return s;
}
#endif

/* Whether the walker's step at tile w is its first, composed ahead of the first tile's sum
 * (BINADE_WK_AHEAD): tile 1, that sum not yet taken (a first step that stops at position 0
 * comes back to tile 1 with it taken). */
#if BINADE_WK_AHEAD
#define WK_AHEAD_PENDING(w) ((w) == 1ull && !sh.first.taken)
#else
#define WK_AHEAD_PENDING(w) 0
#endif

/* The walker: the exact sum through every tile, in order (module comment). out[0] the
 * total's bits; out[1..5] tiles finished from their terms, lanes added natively, steps,
 * sleeps; out[5..8] a stall of this launch, if any: (epoch << 2) | its code (1 the walker,
 * 2 a plan; an earlier epoch: none), the tile that waited, and the tag it saw (the walker)
 * or the tile it waited for (a plan); out[10..13] the trace (BINADE_WK_TRACE); out[14] and
 * out[15] the finishes' fast and pair-unit rounds; out[16] the tiles ended by their split
 * words (BINADE_WK_SPLIT); out[17] the finishes ended by a planned pass (BINADE_WK_PLANNED);
 * out[18] the split ends inside a segmented step's walk (BINADE_WK_SEG_STEP). */
/* Not inlined: a function of its own gets its own register allocation, so the walker's long
 * chains neither spill much under the producers' cap nor crowd the producers' code in the
 * kernel's body (ptxas, CUDA 13.5, sm_90, `MODULE=walked scripts/nvrtc-build-times.py`: with a
 * crossing a step no spill in wk_walk, against 84 bytes of spill stores in the kernel with it
 * inlined; with the segmented step wk_walk spills 60 bytes of stores, with fetched splits
 * 124). */
__device__ static __noinline__ void wk_walk(const wk_term *terms, u64 n, u64 ntiles, const wk_word *units,
                                      const wk_word *splits, unsigned int epoch, u64 start, u64 *out,
                                      wk_shared &sh) {
    unsigned int finished = 0u, native = 0u, steps = 0u, sleeps = 0u, streak = 0u, fast = 0u, pairs = 0u;
    unsigned int split_ends = 0u, planned = 0u, walk_splits = 0u;
#if !BINADE_WK_SPLIT
    (void)splits;
#endif
#if BINADE_WK_TRACE
    const u64 t_start = wk_now();
    u64 finish_ns = 0ull;
    wk_log lg = {t_start, clock64(), 0u};
#else
    wk_log lg = {0u};
#endif
    if (threadIdx.x == 0) {
        sh.s = start;
        sh.w = 0ull;
#if BINADE_WK_FETCH_SPLITS
        sh.ss_slots = 0u;
#endif
#if BINADE_WK_AHEAD
        sh.halt = 0u;
        sh.first.taken = 0u;
#endif
#if BINADE_WK_FIRST
        if (ntiles > 0u) {
#if BINADE_WK_AHEAD
            if (ntiles > 1u) {
                sh.w = 1ull; /* the first step composes from tile 1 and takes the sum for its walk */
            } else
#endif
            {
                const wk_first_taken f = wk_first_wait(splits, epoch, out);
                if (f.stalled) {
                    sh.w = ntiles;
                } else {
                    sh.s = f.s;
                    sh.w = 1ull;
                    finished += 1u;
                    native += f.native;
                    planned += f.planned;
                    fast += f.fast;
                    pairs += f.pairs;
                    sleeps += f.sleeps;
                }
                WK_EV(&lg, WK_EV_FIRST, 0u, f.sleeps);
            }
        }
#endif
    }
    __syncthreads();
    while (true) {
        u64 s = sh.s; /* thread 0 takes the first tile's sum into it where the step composed ahead */
        const u64 w = sh.w;
        __syncthreads();
        if (w >= ntiles) break;
        steps++;
        if (threadIdx.x == 0) WK_EV(&lg, WK_EV_STEP, w, 0u);
#if BINADE_WK_HINT
        if (threadIdx.x == 0 && !WK_AHEAD_PENDING(w)) wk_write((wk_word *)(out + 8), s, (w << 32) | wk_tag(epoch, WK_HINT));
#endif
#if BINADE_WK_AHEAD
        if (threadIdx.x == 0 && WK_AHEAD_PENDING(w)) {
            /* Compose once the step's last word or the first tile's sum is there (a bounded
             * wait: past it the compose stops at the first word not published, and the walk's
             * own wait reports a stall). */
            wk_ahead_wait(splits, units, w, ntiles, epoch);
        }
        __syncthreads();
#endif
        const unsigned int b = wk_binade(s);
        /* This thread's tiles: w + threadIdx.x * WK_STEP + k, k < WK_STEP. */
        const u64 first = w + (u64)threadIdx.x * WK_STEP;
        wk_word wd[WK_STEP];
#pragma unroll
        for (unsigned int k = 0; k < WK_STEP; k++) {
            wd[k].value = 0ull;
            wd[k].tag = 0ull;
            if (first + k < ntiles) wd[k] = wk_read(units + first + k);
        }
        int tried = 0; /* thread 0: the stop's split words were tried in this step */
#if BINADE_WK_SEG_STEP
        unsigned int f_step = 0u;
        {
            const unsigned int f = wk_ss_compose(wd, w, ntiles, terms, n, splits, epoch, sh);
            f_step = f;
            if (threadIdx.x == 0) {
                WK_EV(&lg, WK_EV_COMPOSED, w, f);
#if BINADE_WK_AHEAD
                if (WK_AHEAD_PENDING(w)) {
                    s = wk_ahead_take(splits, epoch, out, w, s, sh);
                    WK_EV(&lg, WK_EV_FIRST, 0u, sh.first.sleeps);
                }
#endif
#if BINADE_WK_AHEAD
                if (!sh.halt)
#endif
                {
                    u64 at_stop = s;
#if BINADE_WK_TRACE
                    u64 *split_ns = &finish_ns;
#else
                    u64 no_trace = 0ull, *split_ns = &no_trace;
#endif
                    sh.fail = wk_ss_walk(f, w, s, terms, n, splits, epoch, out, sh, &at_stop, &tried, &walk_splits,
                                         split_ns, &lg);
                    WK_EV(&lg, WK_EV_WALKED, w, sh.fail);
                    sh.s = at_stop; /* the exact sum before the stop (s where it is position 0) */
#if BINADE_WK_FETCH_SPLITS
                    sh.ss_slots = 0u; /* the fetched splits are read: the next step's compose refills them */
#endif
                    if (sh.fail < f) sh.flag = 1u; /* a composable position: published */
                }
            }
            __syncthreads();
        }
#if BINADE_WK_AHEAD
        if (sh.halt) break; /* the first tile's sum never came: stalled (wk_first_wait reported it) */
#endif
        const unsigned int g = sh.fail; /* positions 0..g-1 applied or ended by their splits */
#else
        /* The first tile of this thread's that cannot be composed onto S's binade. */
        unsigned int stop = WK_STEP;
#pragma unroll
        for (unsigned int k = WK_STEP; k-- > 0;) {
            const int ready = first + k < ntiles && wk_has(wd[k], epoch, WK_UNIT);
#if BINADE_WK_MUTANT == WK_M_BINADES_MIXED
            const int same = wk_unit_binade(wd[k]) != 0u;
#else
            const int same = wk_unit_binade(wd[k]) == b;
#endif
            if (!(ready && b != 0u && same && wd[k].value < BINADE_SATURATED)) stop = k;
        }
        /* Positions run to WK_STEP * WK_THREADS: a step whose every position composes must
         * end there (with an unbounded marker the walker never advanced past such a step). */
        if (threadIdx.x == 0) sh.fail = WK_STEP * WK_THREADS;
        __syncthreads();
        if (stop < WK_STEP) atomicMin(&sh.fail, threadIdx.x * WK_STEP + stop);
        __syncthreads();
        const unsigned int f = sh.fail; /* positions 0..f-1 of the step compose */
        /* This thread's composable units in order, its position's prefixes kept. */
        binade_unit mine = binade_unit_zero();
        binade_unit pre[WK_STEP];
#pragma unroll
        for (unsigned int k = 0; k < WK_STEP; k++) {
            if (threadIdx.x * WK_STEP + k < f) mine = binade_compose(mine, wk_unit_of(wd[k]));
            pre[k] = mine;
        }
        binade_unit excl;
        (void)wk_block_scan(mine, &excl, sh);
        /* The first position whose composed end does not apply to S (a prefix of the
         * composable ones applies: the terms are non-negative, so the end only grows). */
        if (threadIdx.x == 0) sh.flag = f;
        __syncthreads();
        u64 ends[WK_STEP];
#pragma unroll
        for (unsigned int k = 0; k < WK_STEP; k++) {
            const unsigned int pos = threadIdx.x * WK_STEP + k;
            ends[k] = 0ull;
            if (pos < f) {
                const binade_unit c = binade_compose(excl, pre[k]);
#if BINADE_WK_MUTANT == WK_M_RUN_END_UNCHECKED
                ends[k] = wk_apply_unchecked(c, b, s);
#else
                if (!wk_apply(c, b, s, &ends[k])) atomicMin(&sh.flag, pos);
#endif
            }
        }
        __syncthreads();
        const unsigned int g = sh.flag < f ? sh.flag : f; /* positions 0..g-1 apply */
        __syncthreads(); /* every thread has read sh.flag */
#endif
        (void)tried;
#if BINADE_WK_FINISH_IN_STEP
        /* The exact sum after position g - 1 (held by its thread) and whether position g's
         * word is published (read by its thread): position g cannot be composed (its unit
         * does not apply, or cannot be used, or is not published), and where it is published
         * the tile is finished from that sum in this step, with no second read of the words
         * that told it so. */
#if BINADE_WK_SEG_STEP
        (void)f_step; /* sh.flag: whether the stop's word is published (wk_ss_compose, wk_ss_walk) */
#else
        if (g > 0u && threadIdx.x == (g - 1u) / WK_STEP) {
#pragma unroll
            for (unsigned int k = 0; k < WK_STEP; k++)
                if (k == (g - 1u) % WK_STEP) sh.s = ends[k];
        }
        if (g < WK_STEP * WK_THREADS) {
            if (threadIdx.x == g / WK_STEP) {
#pragma unroll
                for (unsigned int k = 0; k < WK_STEP; k++)
                    if (k == g % WK_STEP) sh.flag = (unsigned int)(w + g < ntiles && wk_has(wd[k], epoch, WK_UNIT));
            }
        } else if (threadIdx.x == 0) {
            sh.flag = 0u; /* the whole step applied */
        }
        __syncthreads();
#endif
        const unsigned int ready = sh.flag;
#if BINADE_WK_SEG_STEP
        const u64 at = sh.s; /* the walk's sum before the stop (s where it is position 0; with
                              * BINADE_WK_AHEAD thread 0 may have taken s in this step) */
#else
        const u64 at = g > 0u ? sh.s : s;
#endif
        __syncthreads();
        if (!ready && g > 0u) {
            /* The run applied up to a tile not yet published (or the end): the next step
             * reads on from there. */
            if (threadIdx.x == 0) sh.w = w + g;
            streak = 0u;
            __syncthreads();
            continue;
        }
#else
        if (g > 0u) {
            const unsigned int last = g - 1u;
            if (threadIdx.x == last / WK_STEP) {
#pragma unroll
                for (unsigned int k = 0; k < WK_STEP; k++)
                    if (k == last % WK_STEP) sh.s = ends[k];
                sh.w = w + g;
            }
            __syncthreads();
            continue;
        }
        /* Tile w itself cannot be composed: wait for its word, or finish it from S. */
        if (threadIdx.x == 0) sh.flag = (unsigned int)wk_has(wd[0], epoch, WK_UNIT);
        __syncthreads();
        const unsigned int ready = sh.flag;
        const u64 at = s;
        __syncthreads();
#endif
        if (!ready) {
            sleeps++;
            if (threadIdx.x == 0 && streak == 0u) WK_EV(&lg, WK_EV_SLEEP, w, 0u);
            if (++streak > WK_WAIT_LIMIT) {
                /* Tile w's unit never came: a defect. Stop and report it. */
                if (threadIdx.x == 0 && (atomicMax(out + 5, ((u64)epoch << 2) | 1ull) >> 2) < epoch) {
                    out[6] = w;
#if BINADE_WK_SEG_STEP
                    out[7] = wk_read(units + w).tag; /* the words are not kept past the step's scan */
#else
                    out[7] = wd[0].tag;
#endif
                }
                break;
            }
            __nanosleep(64);
            continue;
        }
        streak = 0u;
        const u64 wf = w + g;
        const wk_term *src = terms + wf * (u64)WK_TILE;
        const unsigned int count = wk_tile_count(n, wf);
#if BINADE_WK_TRACE
        const u64 t0 = wk_now();
#endif
#if BINADE_WK_SPLIT
        /* The tile's split words, where its producer left them, end it without a finish. */
        if (threadIdx.x == 0) {
            u64 e = 0ull;
            WK_EV(&lg, WK_EV_SPLIT, wf, 0u);
            sh.flag = tried ? 0u : (unsigned int)wk_split_end(splits + 2u * wf, src, count, at, epoch, &e);
            WK_EV(&lg, WK_EV_SPLIT_END, wf, sh.flag);
            if (sh.flag) {
                sh.s = e;
                sh.w = wf + 1ull;
            }
        }
        __syncthreads();
        const unsigned int by_split = sh.flag;
        __syncthreads();
        if (by_split) {
            split_ends++;
#if BINADE_WK_TRACE
            finish_ns += wk_now() - t0;
#endif
            continue;
        }
#endif
        if (threadIdx.x == 0) WK_EV(&lg, WK_EV_FINISH, wf, 0u);
        const u64 e = wk_finish(src, count, at, sh, &native, &fast, &pairs, &planned);
#if BINADE_WK_TRACE
        finish_ns += wk_now() - t0;
        if (threadIdx.x == 0) wk_fin_events(&lg, out, wf, sh);
#endif
        if (threadIdx.x == 0) WK_EV(&lg, WK_EV_FINISH_END, wf, planned);
        finished++;
        if (threadIdx.x == 0) {
            sh.s = e;
            sh.w = wf + 1ull;
        }
        __syncthreads();
    }
#if BINADE_WK_AHEAD
    if (threadIdx.x == 0 && sh.first.taken) { /* the first tile's finish, taken in the first step */
        finished += 1u;
        native += sh.first.native;
        planned += sh.first.planned;
        fast += sh.first.fast;
        pairs += sh.first.pairs;
        sleeps += sh.first.sleeps;
    }
#endif
    if (threadIdx.x == 0) {
        out[0] = sh.s;
        out[1] = finished;
        out[2] = native;
        out[3] = steps;
        out[4] = sleeps;
#if BINADE_WK_TRACE
        out[10] = t_start;
        out[11] = wk_now();
        out[12] = finish_ns;
        out[19] = lg.n;
#endif
        out[14] = fast;
        out[15] = pairs;
        out[16] = split_ends + walk_splits;
        out[17] = planned;
        out[18] = walk_splits;
    }
}

#if BINADE_WK_BUFFER
/* The terms of ticket tk in *src and whether that tile comes through the buffer (a ticket of
 * the launch whose tile is whole and aligned, wk_bufferable); the same on every thread. The
 * next round looks the same ticket up again as its own tile (a scan of the few groups and a
 * 32-bit split) rather than keep its group and position live in registers across this one. */
__device__ static inline int wk_buffer_next(const wk_group *table, unsigned int ngroups, u64 tickets, u64 tk,
                                            const wk_term **src) {
    *src = nullptr;
    if (tk >= tickets) return 0;
    const wk_group g = wk_group_of(table, ngroups, tk, 1);
    u64 t, k;
    wk_ticket_split(tk - g.tickets_before, g.count, &t, &k);
    const unsigned int count = wk_tile_count(g.n, t);
#if BINADE_WK_MUTANT == WK_M_BUFFER_TILE_BEHIND
    if (t > 0u) t -= 1u;
#endif
    *src = g.terms + k * g.pitch + t * (u64)WK_TILE;
    return wk_bufferable(*src, count);
}

/* A buffered producer's first tile, ticket tk: its copy issued where it comes through the
 * buffer (returned). */
__device__ static inline int wk_buffer_first(const wk_group *table, unsigned int ngroups, u64 tickets, u64 tk) {
    const wk_term *src = nullptr;
    const int copy = wk_buffer_next(table, ngroups, tickets, tk, &src);
    wk_buffer_copy(src, copy);
    return copy;
}
#endif

/* The sums of the launch's groups (module comment): nsums sums in ngroups groups, tickets in
 * all (the groups' count * ntiles summed), each sum from `start` (bits of +0 or -0), sum s's
 * total and counts in out[s * WK_OUT_STRIDE ...]. plan and units hold one 16-byte word per tile
 * of every sum, splits two (read and written only with BINADE_WK_SPLIT), paths one; gridDim.x > nsums; tickets are drawn from *ticket minus ticket_base
 * (every producer block draws exactly one past the last ticket). */
#if BINADE_WK_MIN_BLOCKS > 0
#define WK_BOUNDS __launch_bounds__(WK_THREADS, BINADE_WK_MIN_BLOCKS)
#else
#define WK_BOUNDS __launch_bounds__(WK_THREADS)
#endif
extern "C" __global__ void WK_BOUNDS
    walked_sum(const wk_group *__restrict__ groups, unsigned int ngroups, unsigned int nsums, u64 tickets,
               wk_word *plan, wk_word *units, wk_word *splits, unsigned int *paths, u64 *ticket, u64 ticket_base,
               unsigned int epoch,
               u64 start, u64 *out) {
    __shared__ wk_shared sh;
    __shared__ wk_group group_cache[WK_GROUP_CACHE];
    const wk_group *table = wk_group_cache(groups, ngroups, group_cache);
    if (blockIdx.x < nsums) {
        const u64 s = blockIdx.x;
        u64 *mine = out + s * WK_OUT_STRIDE;
#if BINADE_WK_PRODUCERS_ONLY
        if (threadIdx.x == 0)
            for (unsigned int j = 0; j < 5; j++) mine[j] = 0ull;
        return;
#endif
        /* Once a launch: from global memory (the shared copy costs the walker registers). */
        const wk_group g = wk_group_of(groups, ngroups, s, 0);
        const u64 k = s - g.first_sum;
#if BINADE_WK_MUTANT == WK_M_SEGMENT_UNITS
        const wk_word *seg_units = units;
#else
        const wk_word *seg_units = units + g.words_before + k * g.ntiles;
#endif
        const wk_word *seg_splits = splits + 2u * (g.words_before + k * g.ntiles);
        wk_walk(g.terms + k * g.pitch, g.n, g.ntiles, seg_units, seg_splits, epoch, start, mine, sh);
        return;
    }
    const u64 producers = (u64)(gridDim.x - nsums);
    (void)producers;
#if BINADE_WK_BUFFER
    /* Two tickets are drawn before the first tile and one as each starts, so a block holds the
     * ticket after its tile's and copies that tile into the buffer while it works on its own. */
    if (threadIdx.x == 0) {
        sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
        sh.next_tile = atomicAdd(ticket, 1ull) - ticket_base;
    }
    __syncthreads();
    int taken = wk_buffer_first(table, ngroups, tickets, sh.tile);
#else
    /* A ticket is drawn before the first tile and after each. */
    if (threadIdx.x == 0) sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
#endif
    while (true) {
        __syncthreads();
        const u64 tk = sh.tile;
#if BINADE_WK_BUFFER
        const u64 nk = sh.next_tile;
#endif
        __syncthreads();
        if (tk >= tickets) return;
#if BINADE_WK_BUFFER
        /* Its value is stored only after the tile, so the atomic's trip overlaps the tile. */
        u64 drawn = 0ull;
        if (threadIdx.x == 0) drawn = atomicAdd(ticket, 1ull) - ticket_base;
        const wk_term *next_src = nullptr;
        const int next_copy = wk_buffer_next(table, ngroups, tickets, nk, &next_src);
        double x[WK_PER]; /* filled by wk_produce, from the buffer where taken */
#else
        const wk_term *next_src = nullptr;
        const int next_copy = 0, taken = 0;
        double *x = nullptr; /* wk_produce loads its own */
#endif
        const wk_group g = wk_group_of(table, ngroups, tk, 1);
        const u64 r = tk - g.tickets_before;
        u64 t, k;
        wk_ticket_split(r, g.count, &t, &k);
        const u64 s = g.first_sum + k;
        const u64 words = g.words_before + k * g.ntiles;
        const wk_term *ahead_terms = g.terms;
        u64 ahead_t = g.ntiles;
#if BINADE_WK_PREFETCH
        /* The ticket a round later, where it is this group's (so of this n and ntiles). */
        const u64 ra = r + producers;
        if (ra < g.count * g.ntiles) {
            ahead_terms = g.terms + (ra % g.count) * g.pitch;
            ahead_t = ra / g.count;
        }
#endif
#if BINADE_WK_HINT == 4
        const wk_word *hint_word = (const wk_word *)(out + 8);
#else
        const wk_word *hint_word = (const wk_word *)(out + s * WK_OUT_STRIDE + 8);
#endif
        wk_produce(g.terms + k * g.pitch, g.n, g.ntiles, t, plan + words, units + words, splits + 2u * words,
                   paths + words, epoch,
                   out + s * WK_OUT_STRIDE, hint_word, ahead_terms, ahead_t, start, x, taken, next_src, next_copy,
                   sh);
#if BINADE_WK_BUFFER
        if (threadIdx.x == 0) {
            sh.tile = nk;
            sh.next_tile = drawn;
        }
        taken = next_copy;
#else
        if (threadIdx.x == 0) sh.tile = atomicAdd(ticket, 1ull) - ticket_base;
#endif
    }
}
