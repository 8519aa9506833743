/* sgfcheck's compiled region game: every position one region of the last open points can reach,
 * and what the search of the last points needs to know of it.
 *
 * The reference is sgfcheck.endgame.localgame (LocalGame.know with its _Builder), which is also
 * the fallback where this is not built: the same positions in the same order (worked out as a
 * queue: each position's Black moves, then its White moves, points in the region's order, the
 * first empty point of a class of twins only), the same worths, moves and ko points, the same
 * order of positions after the positions they lead to, the same positions that can return, the
 * same largest set of positions that lead to one another, the same classes (numbered here in the
 * order the reference first meets them, turned into the search's numbers by the caller) and the
 * same stops. tests/test_core.py holds the two to that.
 *
 * A position is the colour of each point of the region (0 empty, 1 Black, 2 White), packed two
 * bits a point into 64 bits (a region has at most 30 points); a line that captures a chain
 * outside the region ends in one of two positions of their own (FELL_BLACK, FELL_WHITE). Nodes
 * 0..k-1 are the region's points, k..n-1 the chains outside it beside them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_region.h"

#define FELL_BLACK (~(uint64_t)0)
#define FELL_WHITE (~(uint64_t)1)
#define FALLS 1000000

/* --- the store of positions ---------------------------------------------------------------- */

typedef struct {
    uint64_t *key;  /* each position's packed colours */
    int32_t *worth;
    int32_t *move_start; /* index into moves of its first move, -1 before it is worked out */
    int32_t *n_black, *n_white;
    int32_t count, cap;
    int32_t *table; /* open addressing: position index + 1, 0 free */
    int32_t table_cap;
    int32_t *moves; /* (point, child, ko) triples, Black's then White's, position by position */
    int32_t n_moves, moves_cap;
} Store;

static uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static int grow_table(Store *s) {
    int32_t cap = s->table_cap ? s->table_cap * 2 : 1024;
    int32_t *t = PyMem_RawCalloc((size_t)cap, sizeof(int32_t));
    if (!t) return -1;
    for (int32_t i = 0; i < s->count; i++) {
        uint64_t h = mix(s->key[i]) & (uint64_t)(cap - 1);
        while (t[h]) h = (h + 1) & (uint64_t)(cap - 1);
        t[h] = i + 1;
    }
    PyMem_RawFree(s->table);
    s->table = t;
    s->table_cap = cap;
    return 0;
}

static int grow_store(Store *s) {
    int32_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *key = PyMem_RawRealloc(s->key, (size_t)cap * sizeof(uint64_t));
    if (!key) return -1;
    s->key = key;
    int32_t **arrays[] = {&s->worth, &s->move_start, &s->n_black, &s->n_white};
    for (int a = 0; a < 4; a++) {
        int32_t *p = PyMem_RawRealloc(*arrays[a], (size_t)cap * sizeof(int32_t));
        if (!p) return -1;
        *arrays[a] = p;
    }
    s->cap = cap;
    return 0;
}

/* The index of a position, or -1 where it is new (then *slot is where it goes). */
static int32_t find(Store *s, uint64_t key, uint64_t *slot) {
    uint64_t mask = (uint64_t)(s->table_cap - 1);
    uint64_t h = mix(key) & mask;
    while (s->table[h]) {
        int32_t i = s->table[h] - 1;
        if (s->key[i] == key) return i;
        h = (h + 1) & mask;
    }
    *slot = h;
    return -1;
}

static void free_store(Store *s) {
    PyMem_RawFree(s->key); PyMem_RawFree(s->worth); PyMem_RawFree(s->move_start);
    PyMem_RawFree(s->n_black); PyMem_RawFree(s->n_white); PyMem_RawFree(s->table);
    PyMem_RawFree(s->moves);
}

/* --- the region on a board of its own ------------------------------------------------------ */

/* The region's points as bits (a region has at most 30). A chain is found as a set of them:
 * the stones of one colour reached from a point by its neighbours in the region and through the
 * chains of that colour outside the region beside them (two chains outside are never beside
 * each other: region_game refuses a request where they are). What the reference's walk over
 * the nodes finds of a chain (its points, whether it has a liberty, whether a chain outside
 * belongs to it, its liberties in the region) depends on the set alone, not on the order of the
 * walk, so the sets give the same answers. */
typedef uint64_t Mask;
typedef char region_fits_a_mask[RG_MAXK < 64 ? 1 : -1]; /* one bit a point */

static inline int lowest(Mask m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1)) { m >>= 1; i++; }
    return i;
#endif
}

static inline int bits(Mask m) { /* without a popcount instruction assumed */
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}

typedef struct {
    const RegionSpec *r;
    Mask all;
    Mask near[RG_MAXK];          /* each point's neighbours in the region */
    Mask through[3][RG_MAXK];    /* the region's points beside the chains of colour c beside it */
    uint8_t free_by[3][RG_MAXK]; /* a chain of colour c beside it has a liberty outside */
    uint8_t beside[3][RG_MAXK];  /* a chain outside of colour c is beside it */
    uint8_t outside_colours[RG_MAXK]; /* the colours of the chains outside beside it (bits) */
    Mask walled, wall_of[3], start_of[3];
    Mask around[RG_MAXN];        /* a chain outside: the region's points beside it */
} Board;

static void board_of(Board *b, const RegionSpec *r) {
    int k = r->k;
    memset(b, 0, sizeof *b);
    b->r = r;
    b->all = ((Mask)1 << k) - 1; /* k <= RG_MAXK (30) */
    for (int x = k; x < r->n; x++)
        for (int e = r->adj_off[x]; e < r->adj_off[x + 1]; e++)
            b->around[x] |= (Mask)1 << r->adj[e];
    for (int i = 0; i < k; i++) {
        if (r->wall[i]) b->walled |= (Mask)1 << i;
        for (int c = 1; c <= 2; c++) {
            if (r->wall[i] & c) b->wall_of[c] |= (Mask)1 << i;
            if (r->start[i] == c) b->start_of[c] |= (Mask)1 << i;
        }
        for (int e = r->adj_off[i]; e < r->adj_off[i + 1]; e++) {
            int m = r->adj[e];
            if (m < k) { b->near[i] |= (Mask)1 << m; continue; }
            int c = r->colour[m];
            b->through[c][i] |= b->around[m];
            b->free_by[c][i] |= r->free[m] != 0;
            b->beside[c][i] = 1;
            b->outside_colours[i] |= (uint8_t)c;
        }
    }
}

/* A chain of colour c: its stones in the region, the region's points beside it (and beside the
 * chains outside that belong to it), whether such a chain has a liberty outside the region, and
 * whether any belongs to it. */
typedef struct {
    Mask stones, beside;
    int free_outside, outside;
} Chain;

/* Grow ch (its stones `from` new, the rest as given) over the stones of colour c. */
static inline void grow(const Board *b, int c, Mask stones, Mask from, Chain *ch) {
    Mask held = ch->stones | from, todo = from, beside = ch->beside;
    int free_outside = ch->free_outside, outside = ch->outside;
    while (todo) {
        Mask reach = 0;
        do {
            int i = lowest(todo);
            todo &= todo - 1;
            reach |= b->near[i] | b->through[c][i];
            free_outside |= b->free_by[c][i];
            outside |= b->beside[c][i];
        } while (todo);
        beside |= reach;
        todo = reach & stones & ~held;
        held |= todo;
    }
    ch->stones = held; ch->beside = beside;
    ch->free_outside = free_outside; ch->outside = outside;
}

/* The chain of the region's point i (a stone of colour c among `stones`). */
static inline Chain chain_at(const Board *b, int c, Mask stones, int i) {
    Chain ch = {0, 0, 0, 0};
    grow(b, c, stones, (Mask)1 << i, &ch);
    return ch;
}

/* The chain of the chain outside x (colour c). */
static inline Chain chain_outside(const Board *b, int c, Mask stones, int x) {
    Chain ch = {0, b->around[x], b->r->free[x] != 0, 1};
    grow(b, c, stones, b->around[x] & stones, &ch);
    return ch;
}

static inline int has_liberty(const Board *b, const Chain *ch, Mask empty) {
    return (ch->beside & empty) || (ch->stones & b->walled) || ch->free_outside;
}

static void canonical(const RegionSpec *r, uint8_t *a) {
    for (int c = 0; c < r->n_twins; c++) {
        int counts[3] = {0, 0, 0};
        for (int t = r->twin_off[c]; t < r->twin_off[c + 1]; t++) counts[a[r->twin[t]]]++;
        int t = r->twin_off[c];
        for (int v = 2; v >= 0; v--)
            for (int j = 0; j < counts[v]; j++) a[r->twin[t++]] = (uint8_t)v;
    }
}

static uint64_t pack(const RegionSpec *r, const uint8_t *a) {
    uint64_t key = 0;
    for (int i = 0; i < r->k; i++) key |= (uint64_t)a[i] << (2 * i);
    return key;
}

static void unpack(const RegionSpec *r, uint64_t key, uint8_t *a) {
    for (int i = 0; i < r->k; i++) a[i] = (uint8_t)((key >> (2 * i)) & 3);
}

/* The stones of each colour of a position (of[1] Black's, of[2] White's). */
static void stones_of(const RegionSpec *r, uint64_t key, Mask of[3]) {
    of[0] = of[1] = of[2] = 0;
    for (int i = 0; i < r->k; i++) of[(key >> (2 * i)) & 3] |= (Mask)1 << i;
}

/* who plays point i of a (its stones `of`): 0 the move is suicide; 1 played (*out the position,
 * *ko the ko point or -1); 2 it captures a chain outside (*out FELL_BLACK or FELL_WHITE). */
static int play(const Board *b, const uint8_t *a, const Mask of[3], int i, int who,
                uint64_t *out, int *ko) {
    const RegionSpec *r = b->r;
    int k = r->k, opp = 3 - who;
    Mask own = of[who] | (Mask)1 << i, theirs = of[opp];
    Mask empty = b->all & ~(own | theirs), captured = 0;
    for (int e = r->adj_off[i]; e < r->adj_off[i + 1]; e++) {
        int n = r->adj[e];
        Chain ch;
        if (n < k) {
            if (!(theirs & (Mask)1 << n) || (captured & (Mask)1 << n)) continue;
            ch = chain_at(b, opp, theirs, n);
        } else {
            if (r->colour[n] != opp) continue;
            ch = chain_outside(b, opp, theirs, n);
        }
        if (has_liberty(b, &ch, empty)) continue;
        if (ch.outside) {
            *out = who == 1 ? FELL_BLACK : FELL_WHITE;
            *ko = -1;
            return 2;
        }
        captured |= ch.stones;
    }
    empty |= captured;
    Chain mine = chain_at(b, who, own, i);
    if (!has_liberty(b, &mine, empty)) return 0;
    *ko = -1;
    if (bits(captured) == 1 && mine.stones == (Mask)1 << i && !mine.outside && !r->wall[i] &&
        (b->near[i] & empty) == captured)
        *ko = r->points[lowest(captured)];
    uint8_t after[RG_MAXK];
    memcpy(after, a, (size_t)k);
    after[i] = (uint8_t)who;
    for (Mask m = captured; m; m &= m - 1) after[lowest(m)] = 0;
    canonical(r, after);
    *out = pack(r, after);
    return 1;
}

/* The stones `of` without the chains the play created that can never live (LocalGame's
 * _Builder.alive): joined neither to a stone that stood before, nor to a chain outside, nor to
 * a wall of their colour. */
static void alive(const Board *b, Mask of[3]) {
    for (int c = 1; c <= 2; c++) {
        Mask todo = of[c], keep = of[c];
        while (todo) {
            Chain ch = chain_at(b, c, of[c], lowest(todo));
            todo &= ~ch.stones;
            if (!ch.outside && !(ch.stones & (b->start_of[c] | b->wall_of[c])))
                keep &= ~ch.stones;
        }
        of[c] = keep;
    }
}

/* Under territory counting: the region's empty points that are the last liberty of a chain in
 * atari (a chain of the region, or one outside it with no liberty elsewhere). */
static Mask to_fill(const Board *b, const Mask of[3]) {
    const RegionSpec *r = b->r;
    Mask empty = b->all & ~(of[1] | of[2]), fill = 0;
    for (int c = 1; c <= 2; c++) {
        Mask todo = of[c];
        while (todo) {
            Chain ch = chain_at(b, c, of[c], lowest(todo));
            todo &= ~ch.stones;
            Mask liberties = ch.beside & empty;
            if (!(ch.stones & b->walled) && !ch.free_outside && bits(liberties) == 1)
                fill |= liberties;
        }
    }
    /* a chain outside beside none of its colour's stones is a chain alone (one beside them
     * belongs to theirs, found above) */
    for (int x = r->k; x < r->n; x++) {
        if (r->free[x] || (b->around[x] & of[r->colour[x]])) continue;
        Mask liberties = b->around[x] & empty;
        if (bits(liberties) == 1) fill |= liberties;
    }
    return fill;
}

static int worth(const Board *b, uint64_t key) {
    if (key == FELL_BLACK) return FALLS;
    if (key == FELL_WHITE) return -FALLS;
    const RegionSpec *r = b->r;
    Mask of[3];
    stones_of(r, key, of);
    alive(b, of);
    Mask fill = r->cost ? to_fill(b, of) : 0;
    Mask empty = b->all & ~(of[1] | of[2]), todo = empty;
    int total = bits(of[1]) - bits(of[2]);
    while (todo) {
        Mask area = (Mask)1 << lowest(todo), grown = area, reach = 0;
        int touching = 0;
        while (grown) {
            Mask next = 0;
            do {
                int i = lowest(grown);
                grown &= grown - 1;
                next |= b->near[i];
                touching |= r->wall[i] | b->outside_colours[i];
            } while (grown);
            reach |= next;
            grown = next & empty & ~area;
            area |= grown;
        }
        todo &= ~area;
        if (reach & of[1]) touching |= 1;
        if (reach & of[2]) touching |= 2;
        if (area & fill) continue;
        if (touching == 1) total += bits(area);
        else if (touching == 2) total -= bits(area);
    }
    return total;
}

static int32_t add_position(Store *s, const Board *b, uint64_t key, int32_t *room) {
    uint64_t slot = 0;
    int32_t found = find(s, key, &slot);
    if (found >= 0) return found;
    if (--*room < 0) return -2; /* the work ran out */
    if (s->count == s->cap && grow_store(s) < 0) return -1;
    int32_t i = s->count++;
    s->key[i] = key;
    s->worth[i] = worth(b, key);
    s->move_start[i] = -1;
    s->n_black[i] = s->n_white[i] = 0;
    s->table[slot] = i + 1;
    if (s->count * 2 > s->table_cap && grow_table(s) < 0) return -1;
    return i;
}

static int push_move(Store *s, int point, int child, int ko) {
    if (s->n_moves + 3 > s->moves_cap) {
        int32_t cap = s->moves_cap ? s->moves_cap * 2 : 4096;
        int32_t *m = PyMem_RawRealloc(s->moves, (size_t)cap * sizeof(int32_t));
        if (!m) return -1;
        s->moves = m;
        s->moves_cap = cap;
    }
    s->moves[s->n_moves++] = point;
    s->moves[s->n_moves++] = child;
    s->moves[s->n_moves++] = ko;
    return 0;
}

/* Work out position i's moves. Returns 0, -1 out of memory, -2 out of work. */
static int expand(Store *s, const Board *b, int32_t i, int32_t *room) {
    const RegionSpec *r = b->r;
    uint64_t key = s->key[i];
    s->move_start[i] = s->n_moves;
    if (key == FELL_BLACK || key == FELL_WHITE) return 0;
    uint8_t a[RG_MAXK];
    Mask of[3];
    unpack(r, key, a);
    stones_of(r, key, of);
    for (int who = 1; who <= 2; who++) {
        uint8_t offered[RG_MAXK];
        int32_t made = 0;
        memset(offered, 0, (size_t)r->k);
        for (int p = 0; p < r->k; p++) {
            if (a[p] != 0) continue;
            int twin = r->first_twin[p];
            if (twin >= 0) {
                if (offered[twin]) continue;
                offered[twin] = 1;
            }
            uint64_t out;
            int ko;
            if (!play(b, a, of, p, who, &out, &ko)) continue;
            int32_t child = add_position(s, b, out, room);
            if (child < 0) return child;
            if (push_move(s, r->points[p], child, ko) < 0) return -1;
            made++;
        }
        if (who == 1) s->n_black[i] = made; else s->n_white[i] = made;
    }
    return 0;
}

/* --- known whole: order, cycles, classes, stops -------------------------------------------- */

typedef struct {
    const Store *s;
    int32_t n;
} Graph;

static inline int32_t out_degree(const Store *s, int32_t i) { return s->n_black[i] + s->n_white[i]; }
static inline int32_t child_at(const Store *s, int32_t i, int32_t step) {
    return s->moves[s->move_start[i] + 3 * step + 1];
}

/* Positions after those they lead to (the reference's _order); looping[i]: a line from i can
 * return. Returns the number in order, or -1 out of memory. */
static int order_of(const Store *s, int32_t *order, uint8_t *looping, int *any) {
    int32_t n = s->count, out = 0;
    uint8_t *mark = PyMem_RawCalloc((size_t)n, 1);
    int32_t *stack = PyMem_RawMalloc((size_t)n * 2 * sizeof(int32_t));
    if (!mark || !stack) { PyMem_RawFree(mark); PyMem_RawFree(stack); return -1; }
    memset(looping, 0, (size_t)n);
    *any = 0;
    for (int32_t root = 0; root < n; root++) {
        if (mark[root]) continue;
        int32_t top = 0;
        stack[0] = root; stack[1] = 0;
        top = 1;
        mark[root] = 1;
        while (top) {
            int32_t here = stack[2 * (top - 1)], step = stack[2 * (top - 1) + 1];
            if (step < out_degree(s, here)) {
                stack[2 * (top - 1) + 1] = step + 1;
                int32_t child = child_at(s, here, step);
                if (mark[child] == 1) {
                    looping[child] = looping[here] = 1;
                    *any = 1;
                } else if (mark[child] == 0) {
                    mark[child] = 1;
                    stack[2 * top] = child; stack[2 * top + 1] = 0;
                    top++;
                } else if (looping[child]) {
                    looping[here] = 1;
                }
                continue;
            }
            top--;
            mark[here] = 2;
            if (top && looping[here]) looping[stack[2 * (top - 1)]] = 1;
            order[out++] = here;
        }
    }
    PyMem_RawFree(mark);
    PyMem_RawFree(stack);
    return out;
}

/* The most positions of one strongly connected set (Tarjan, without recursion). */
static int largest_loop(const Store *s) {
    int32_t n = s->count, counter = 0, sp = 0, top = 0;
    int largest = 1;
    int32_t *index = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
    int32_t *low = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
    uint8_t *on = PyMem_RawCalloc((size_t)n, 1);
    int32_t *stack = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
    int32_t *work = PyMem_RawMalloc((size_t)n * 2 * sizeof(int32_t));
    if (!index || !low || !on || !stack || !work) { largest = -1; goto done; }
    for (int32_t i = 0; i < n; i++) index[i] = -1;
    for (int32_t root = 0; root < n; root++) {
        if (index[root] >= 0) continue;
        work[0] = root; work[1] = 0; top = 1;
        index[root] = low[root] = counter++;
        stack[sp++] = root; on[root] = 1;
        while (top) {
            int32_t here = work[2 * (top - 1)], step = work[2 * (top - 1) + 1];
            if (step < out_degree(s, here)) {
                work[2 * (top - 1) + 1] = step + 1;
                int32_t child = child_at(s, here, step);
                if (index[child] < 0) {
                    index[child] = low[child] = counter++;
                    stack[sp++] = child; on[child] = 1;
                    work[2 * top] = child; work[2 * top + 1] = 0; top++;
                } else if (on[child] && index[child] < low[here]) {
                    low[here] = index[child];
                }
                continue;
            }
            top--;
            if (top) {
                int32_t parent = work[2 * (top - 1)];
                if (low[here] < low[parent]) low[parent] = low[here];
            }
            if (low[here] == index[here]) {
                int size = 0;
                for (;;) {
                    int32_t member = stack[--sp];
                    on[member] = 0;
                    size++;
                    if (member == here) break;
                }
                if (size > largest) largest = size;
            }
        }
    }
done:
    PyMem_RawFree(index); PyMem_RawFree(low); PyMem_RawFree(on); PyMem_RawFree(stack);
    PyMem_RawFree(work);
    return largest;
}

typedef struct {
    int32_t gain, cls;
} Option;

static int compare_options(const void *x, const void *y) {
    const Option *a = x, *b = y;
    if (a->gain != b->gain) return a->gain < b->gain ? -1 : 1;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* Sort and drop repeats. Returns its length. */
static int normalise(Option *o, int n) {
    if (!n) return 0;
    qsort(o, (size_t)n, sizeof(Option), compare_options);
    int m = 1;
    for (int i = 1; i < n; i++)
        if (o[i].gain != o[m - 1].gain || o[i].cls != o[m - 1].cls) o[m++] = o[i];
    return m;
}

/* --- the classes met, numbered in order (the caller turns them into the search's) ---------- */

typedef struct {
    int32_t kind; /* 0 options, 1 a capture outside by Black, 2 by White */
    int32_t start, n_black, n_white; /* into opts */
} Key;

typedef struct {
    Key *keys;
    int32_t count, cap;
    Option *opts;
    int32_t n_opts, opts_cap;
    int32_t *table;
    int32_t table_cap;
} Classes;

static uint64_t key_hash(const Classes *c, int32_t kind, const Option *o, int nb, int nw) {
    uint64_t h = mix((uint64_t)kind * 1000003u + (uint64_t)nb * 131u + (uint64_t)nw);
    for (int i = 0; i < nb + nw; i++)
        h = mix(h ^ ((uint64_t)(uint32_t)o[i].gain << 32 | (uint32_t)o[i].cls));
    (void)c;
    return h;
}

static int same_key(const Classes *c, const Key *k, int32_t kind, const Option *o, int nb,
                    int nw) {
    if (k->kind != kind || k->n_black != nb || k->n_white != nw) return 0;
    const Option *p = c->opts + k->start;
    for (int i = 0; i < nb + nw; i++)
        if (p[i].gain != o[i].gain || p[i].cls != o[i].cls) return 0;
    return 1;
}

static int grow_classes(Classes *c) {
    int32_t cap = c->table_cap ? c->table_cap * 2 : 256;
    int32_t *t = PyMem_RawCalloc((size_t)cap, sizeof(int32_t));
    if (!t) return -1;
    for (int32_t i = 0; i < c->count; i++) {
        const Key *k = &c->keys[i];
        uint64_t h = key_hash(c, k->kind, c->opts + k->start, k->n_black, k->n_white) &
                     (uint64_t)(cap - 1);
        while (t[h]) h = (h + 1) & (uint64_t)(cap - 1);
        t[h] = i + 1;
    }
    PyMem_RawFree(c->table);
    c->table = t;
    c->table_cap = cap;
    return 0;
}

/* The class of a key (a new number where it is new); -1 out of memory. Class RG_STILL is the
 * key of no options, numbered first. */
static int32_t class_of(Classes *c, int32_t kind, const Option *o, int nb, int nw) {
    if (c->table_cap == 0 || (c->count + 1) * 2 > c->table_cap)
        if (grow_classes(c) < 0) return -1;
    uint64_t mask = (uint64_t)(c->table_cap - 1);
    uint64_t h = key_hash(c, kind, o, nb, nw) & mask;
    while (c->table[h]) {
        int32_t i = c->table[h] - 1;
        if (same_key(c, &c->keys[i], kind, o, nb, nw)) return i;
        h = (h + 1) & mask;
    }
    if (c->count == c->cap) {
        int32_t cap = c->cap ? c->cap * 2 : 256;
        Key *k = PyMem_RawRealloc(c->keys, (size_t)cap * sizeof(Key));
        if (!k) return -1;
        c->keys = k;
        c->cap = cap;
    }
    if (c->n_opts + nb + nw > c->opts_cap) {
        int32_t cap = c->opts_cap ? c->opts_cap * 2 : 1024;
        while (cap < c->n_opts + nb + nw) cap *= 2;
        Option *p = PyMem_RawRealloc(c->opts, (size_t)cap * sizeof(Option));
        if (!p) return -1;
        c->opts = p;
        c->opts_cap = cap;
    }
    Key *k = &c->keys[c->count];
    k->kind = kind; k->start = c->n_opts; k->n_black = nb; k->n_white = nw;
    memcpy(c->opts + c->n_opts, o, (size_t)(nb + nw) * sizeof(Option));
    c->n_opts += nb + nw;
    c->table[h] = c->count + 1;
    return c->count++;
}

static void free_classes(Classes *c) {
    PyMem_RawFree(c->keys); PyMem_RawFree(c->opts); PyMem_RawFree(c->table);
}

/* --- the whole -------------------------------------------------------------------------------- */

static PyObject *int_list(const int32_t *v, int32_t n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int32_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* The positions' colours as one bytes of count * k (FELL positions all 255 or 254). */
static PyObject *state_bytes(const Store *s, const RegionSpec *r) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)s->count * r->k);
    if (!out) return NULL;
    uint8_t *p = (uint8_t *)PyBytes_AS_STRING(out);
    for (int32_t i = 0; i < s->count; i++, p += r->k) {
        if (s->key[i] == FELL_BLACK) memset(p, 255, (size_t)r->k);
        else if (s->key[i] == FELL_WHITE) memset(p, 254, (size_t)r->k);
        else unpack(r, s->key[i], p);
    }
    return out;
}

PyObject *region_game_run(const RegionSpec *r, int32_t limit, int32_t room) {
    Store s;
    Board *b = PyMem_RawCalloc(1, sizeof(Board));
    PyObject *result = NULL;
    int32_t *order = NULL, *cls = NULL, *black0 = NULL, *white0 = NULL;
    uint8_t *looping = NULL;
    Classes classes;
    Option *options = NULL;
    memset(&s, 0, sizeof s);
    memset(&classes, 0, sizeof classes);
    if (!b) return PyErr_NoMemory();
    board_of(b, r);
    if (grow_table(&s) < 0 || grow_store(&s) < 0) goto nomem;
    uint8_t start[RG_MAXK];
    memcpy(start, r->start, (size_t)r->k);
    int32_t made = add_position(&s, b, pack(r, start), &room);
    if (made == -1) goto nomem;
    int out_of_work = made == -2;
    int32_t todo = 0;
    while (!out_of_work && todo < s.count && s.count <= limit) {
        int got = expand(&s, b, todo, &room);
        if (got == -1) goto nomem;
        if (got == -2) { out_of_work = 1; break; }
        todo++;
    }
    int complete = !out_of_work && todo == s.count;
    int cyclic = 0, longer = 0;
    PyObject *py_cls = Py_None, *py_black0 = Py_None, *py_white0 = Py_None, *py_keys = Py_None;
    Py_INCREF(Py_None); Py_INCREF(Py_None); Py_INCREF(Py_None); Py_INCREF(Py_None);
    if (complete) {
        int32_t n = s.count;
        order = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
        looping = PyMem_RawMalloc((size_t)n);
        cls = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
        black0 = PyMem_RawCalloc((size_t)n, sizeof(int32_t));
        white0 = PyMem_RawCalloc((size_t)n, sizeof(int32_t));
        int32_t most = 1;
        for (int32_t i = 0; i < n; i++)
            if (out_degree(&s, i) > most) most = out_degree(&s, i);
        options = PyMem_RawMalloc((size_t)most * sizeof(Option));
        if (!order || !looping || !cls || !black0 || !white0 || !options) goto nomem_known;
        int32_t n_order = order_of(&s, order, looping, &cyclic);
        if (n_order < 0) goto nomem_known;
        if (cyclic) {
            int largest = largest_loop(&s);
            if (largest < 0) goto nomem_known;
            longer = largest > 2;
        }
        if (class_of(&classes, 0, options, 0, 0) < 0) goto nomem_known; /* RG_STILL */
        for (int32_t o = 0; o < n_order; o++) {
            int32_t here = order[o];
            if (looping[here]) { cls[here] = -1; continue; }
            uint64_t key = s.key[here];
            if (key == FELL_BLACK || key == FELL_WHITE) {
                cls[here] = class_of(&classes, key == FELL_BLACK ? 1 : 2, options, 0, 0);
                if (cls[here] < 0) goto nomem_known;
                continue;
            }
            int have_b = 0, have_w = 0, nb = 0, nw = 0;
            int64_t best_b = 0, best_w = 0;
            int32_t at = s.move_start[here];
            for (int colour = 1; colour <= 2; colour++) {
                int32_t count = colour == 1 ? s.n_black[here] : s.n_white[here];
                int32_t first = colour == 1 ? 0 : s.n_black[here];
                Option *o2 = options + (colour == 1 ? 0 : nb);
                int m = 0;
                for (int32_t j = 0; j < count; j++) {
                    int32_t child = s.moves[at + 3 * (first + j) + 1];
                    int32_t gain = s.worth[child] - s.worth[here] +
                                   (colour == 1 ? -r->cost : r->cost);
                    uint64_t ck = s.key[child];
                    int64_t after = gain;
                    if (ck != FELL_BLACK && ck != FELL_WHITE)
                        after += colour == 1 ? white0[child] : black0[child];
                    o2[m].gain = gain;
                    o2[m].cls = cls[child];
                    m++;
                    if (colour == 1) {
                        if (!have_b || after > best_b) best_b = after;
                        have_b = 1;
                    } else {
                        if (!have_w || after < best_w) best_w = after;
                        have_w = 1;
                    }
                }
                m = normalise(o2, m);
                if (colour == 1) nb = m; else nw = m;
            }
            cls[here] = class_of(&classes, 0, options, nb, nw);
            if (cls[here] < 0) goto nomem_known;
            int64_t black1 = have_b ? (best_b > 0 ? best_b : 0) : 0;
            int64_t white1 = have_w ? (best_w < 0 ? best_w : 0) : 0;
            black0[here] = (int32_t)(have_b ? (best_b > white1 ? best_b : white1) : white1);
            white0[here] = (int32_t)(have_w ? (best_w < black1 ? best_w : black1) : black1);
        }
        Py_DECREF(py_cls); Py_DECREF(py_black0); Py_DECREF(py_white0); Py_DECREF(py_keys);
        py_cls = int_list(cls, n);
        py_black0 = int_list(black0, n);
        py_white0 = int_list(white0, n);
        py_keys = PyList_New(classes.count);
        if (!py_cls || !py_black0 || !py_white0 || !py_keys) goto fail_known;
        for (int32_t c = 0; c < classes.count; c++) {
            const Key *k = &classes.keys[c];
            PyObject *sides[2];
            for (int side = 0; side < 2; side++) {
                int32_t m = side ? k->n_white : k->n_black;
                const Option *o = classes.opts + k->start + (side ? k->n_black : 0);
                sides[side] = PyTuple_New(m);
                if (!sides[side]) { if (side) Py_DECREF(sides[0]); goto fail_known; }
                for (int32_t j = 0; j < m; j++)
                    PyTuple_SET_ITEM(sides[side], j, Py_BuildValue("(ii)", o[j].gain, o[j].cls));
            }
            PyObject *item = Py_BuildValue("(iNN)", k->kind, sides[0], sides[1]);
            if (!item) goto fail_known;
            PyList_SET_ITEM(py_keys, c, item);
        }
    }
    {
        /* Where the work ran out the caller stops the search: it is told so, and handed no
         * positions (hundreds of thousands of moves, made into ints for nothing). */
        if (out_of_work) s.count = todo = s.n_moves = 0;
        PyObject *states = state_bytes(&s, r);
        PyObject *worths = int_list(s.worth, s.count);
        PyObject *starts = int_list(s.move_start, todo);
        PyObject *blacks = int_list(s.n_black, todo);
        PyObject *whites = int_list(s.n_white, todo);
        PyObject *moves = int_list(s.moves, s.n_moves);
        if (!states || !worths || !starts || !blacks || !whites || !moves) {
            Py_XDECREF(states); Py_XDECREF(worths); Py_XDECREF(starts); Py_XDECREF(blacks);
            Py_XDECREF(whites); Py_XDECREF(moves);
            goto fail_known;
        }
        result = Py_BuildValue("(NNiNNNNiNNNNii)", states, worths, (int)todo, starts, blacks,
                               whites, moves, out_of_work, py_cls, py_black0, py_white0,
                               py_keys, cyclic, longer);
        py_cls = py_black0 = py_white0 = py_keys = NULL;
    }
fail_known:
    Py_XDECREF(py_cls); Py_XDECREF(py_black0); Py_XDECREF(py_white0); Py_XDECREF(py_keys);
    goto done;
nomem_known:
    Py_XDECREF(py_cls); Py_XDECREF(py_black0); Py_XDECREF(py_white0); Py_XDECREF(py_keys);
nomem:
    PyErr_NoMemory();
done:
    PyMem_RawFree(order); PyMem_RawFree(looping); PyMem_RawFree(cls); PyMem_RawFree(black0);
    PyMem_RawFree(white0); PyMem_RawFree(options);
    free_classes(&classes);
    free_store(&s);
    PyMem_RawFree(b);
    return result;
}
