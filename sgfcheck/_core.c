/* sgfcheck's compiled core: the replay loop with its ko/superko bookkeeping, the position
 * analysis (owners, areas, points to fill), Benson's proofs and the playouts.
 *
 * Each function here has a pure-Python reference in the module named beside it, and gives the
 * same answer to the last bit: the same findings, hashes, point orders and, for the playouts,
 * the same random numbers (Python's own Mersenne Twister state is handed in and back). The
 * differential tests (tests/test_core.py) hold the two to that.
 *
 * Data layout: points are indices row * width + col; colours 0 empty, 1 black, 2 white. Chains
 * are kept as a head per stone, an ordered list of stones per head (next/tail) and pseudo-
 * liberties per head: the count, sum and sum of squares of the (stone, empty neighbour) pairs.
 * A chain has no liberty when the count is 0, exactly one when every pair names the same point
 * (count * squares == sum * sum); that point is sum / count.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_region.h"

#define MAXP (52 * 52)
#define EMPTY 0

/* --- geometry ----------------------------------------------------------------------------- */

typedef struct {
    int w, h, n;
    int nb[MAXP][4]; /* neighbours: up, left, right, down (as board.neighbours_for) */
    int nn[MAXP];
    int dg[MAXP][4]; /* diagonals, as playout.diagonals_for */
    int nd[MAXP];
} Geo;

#define GEO_CACHE 8
static Geo *geo_cache[GEO_CACHE];
static int geo_used = 0;

static Geo *geometry(int w, int h) {
    for (int i = 0; i < geo_used; i++)
        if (geo_cache[i]->w == w && geo_cache[i]->h == h) return geo_cache[i];
    Geo *g;
    if (geo_used < GEO_CACHE) {
        g = PyMem_RawMalloc(sizeof(Geo));
        if (!g) return NULL;
        geo_cache[geo_used++] = g;
    } else {
        g = geo_cache[GEO_CACHE - 1]; /* reuse the last slot */
    }
    g->w = w; g->h = h; g->n = w * h;
    for (int row = 0; row < h; row++)
        for (int col = 0; col < w; col++) {
            int p = row * w + col, k = 0;
            if (row > 0) g->nb[p][k++] = (row - 1) * w + col;
            if (col > 0) g->nb[p][k++] = row * w + col - 1;
            if (col < w - 1) g->nb[p][k++] = row * w + col + 1;
            if (row < h - 1) g->nb[p][k++] = (row + 1) * w + col;
            g->nn[p] = k;
            k = 0;
            for (int dr = -1; dr <= 1; dr += 2)
                for (int dc = -1; dc <= 1; dc += 2)
                    if (row + dr >= 0 && row + dr < h && col + dc >= 0 && col + dc < w)
                        g->dg[p][k++] = (row + dr) * w + col + dc;
            g->nd[p] = k;
        }
    return g;
}

static Geo *geometry_checked(int w, int h) {
    if (w < 1 || h < 1 || w > 52 || h > 52) {
        PyErr_Format(PyExc_ValueError, "board size %dx%d outside 1x1..52x52", w, h);
        return NULL;
    }
    Geo *g = geometry(w, h);
    if (!g) PyErr_NoMemory();
    return g;
}

/* --- named contracts ------------------------------------------------------------------------
 *
 * What the two cores hand each other is a named structure each way (a NamedTuple of the pure
 * side), never a tuple read by position. Each Python module that owns one registers its class
 * with set_contract when it is imported (sgfcheck.core.contract); the class's field names must be
 * exactly those listed here, in this order, or the registration fails with the difference. So
 * the C code reads and builds the fields by the order checked here, and a field renamed or moved
 * on either side stops the import instead of shifting values silently. */

enum { C_MOVE, C_SETUP, C_NOTE, C_WALK_REQUEST, C_WALKED, C_CENSUS, C_AREA, C_AREAS, C_PROOF,
       C_PLAYOUT_REQUEST, C_PLAYOUT_COUNTS, C_MOVE_POINTS, C_REGION_REQUEST, C_REGION_GAME,
       C_COUNT };

typedef struct {
    const char *name;
    const char *fields[16];
    PyObject *type;
} Contract;

static Contract contracts[C_COUNT] = {
    {"Move", {"colour", "point", "node", "forced", NULL}, NULL},
    {"Setup", {"node", "black", "white", "empty", "player", NULL}, NULL},
    {"Note", {"kind", "move", "a", "b", NULL}, NULL},
    {"WalkRequest", {"width", "height", "ko", "free_handicap", "upto", "white_passes_last", "button", NULL},
     NULL},
    {"Walked", {"position", "hash", "notes", "extra_passes", "moves", "prisoners", "passes",
                "plays", "setup", "first_pass", "last_pass", "ended_by", "cycle", NULL}, NULL},
    {"Census", {"empty_black", "empty_white", "dame", "stones_black", "stones_white", NULL}, NULL},
    {"Area", {"first", "colour", "stones", "own", NULL}, NULL},
    {"Areas", {"area_of", "areas", NULL}, NULL},
    {"Proved", {"alive", "dead", "territory", NULL}, NULL},
    {"PlayoutRequest", {"colours", "width", "height", "rng_state", "local", "playouts", "first",
                        NULL}, NULL},
    {"PlayoutCounts", {"black", "white", "rng_state", NULL}, NULL},
    {"MovePoints", {"colours", "points", "plays", "setup_at", NULL}, NULL},
    {"RegionRequest", {"k", "colours", "free", "adj", "wall", "start", "twins", "points",
                       "territory", "limit", "room", NULL}, NULL},
    {"RegionGame", {"states", "worth", "expanded", "move_start", "black", "white", "moves",
                    "out_of_work", "cls", "stop_black", "stop_white", "keys", "cyclic",
                    "longer_cycles", NULL}, NULL},
};

static int nfields(int which) {
    int k = 0;
    while (contracts[which].fields[k]) k++;
    return k;
}

/* set_contract(name, type): check a class's fields against the contract of that name and keep
 * it. */
static PyObject *set_contract(PyObject *self, PyObject *args) {
    const char *name;
    PyObject *type;
    (void)self;
    if (!PyArg_ParseTuple(args, "sO!", &name, &PyType_Type, &type)) return NULL;
    for (int i = 0; i < C_COUNT; i++) {
        if (strcmp(contracts[i].name, name) != 0) continue;
        PyObject *names = PyObject_GetAttrString(type, "_fields");
        if (!names) return NULL;
        PyObject *expected = PyTuple_New(nfields(i));
        if (!expected) { Py_DECREF(names); return NULL; }
        for (int k = 0; k < nfields(i); k++)
            PyTuple_SET_ITEM(expected, k, PyUnicode_FromString(contracts[i].fields[k]));
        int same = PyObject_RichCompareBool(names, expected, Py_EQ);
        if (same == 0)
            PyErr_Format(PyExc_TypeError, "contract %s: the compiled core has the fields %R, "
                         "the class %R", name, expected, names);
        Py_DECREF(names);
        Py_DECREF(expected);
        if (same != 1) return NULL;
        Py_INCREF(type);
        Py_XSETREF(contracts[i].type, type);
        Py_RETURN_NONE;
    }
    PyErr_Format(PyExc_KeyError, "no contract named %s", name);
    return NULL;
}

static PyObject *contract_type(int which) {
    PyObject *t = contracts[which].type;
    if (!t) PyErr_Format(PyExc_RuntimeError, "contract %s not registered (import its module)",
                         contracts[which].name);
    return t;
}

/* An instance of a contract's class from its fields, in the contract's order (steals them). */
static PyObject *make(int which, PyObject *fields) {
    if (!fields) return NULL;
    PyObject *t = contract_type(which), *out = NULL;
    if (t) out = PyObject_Call(t, fields, NULL);
    Py_DECREF(fields);
    return out;
}

/* Is obj an instance of the contract's class? -1 with an exception when it is not registered. */
static int is_a(int which, PyObject *obj) {
    PyObject *t = contract_type(which);
    if (!t) return -1;
    return Py_TYPE(obj) == (PyTypeObject *)t;
}

/* A contract's field by name, from an instance (checked to be of its class). */
static PyObject *field(int which, PyObject *obj, int k) {
    if (is_a(which, obj) != 1) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s expected", contracts[which].name);
        return NULL;
    }
    return PyTuple_GET_ITEM(obj, k);
}

/* --- Zobrist keys (handed in by sgfcheck.replay.board, so both cores hash alike) -------------------- */

static uint64_t ZB[MAXP], ZW[MAXP], KEY_B, KEY_W;
static int zobrist_ready = 0;

static PyObject *set_zobrist(PyObject *self, PyObject *args) {
    PyObject *black, *white;
    unsigned long long kb, kw;
    if (!PyArg_ParseTuple(args, "OOKK", &black, &white, &kb, &kw)) return NULL;
    if (!PyList_Check(black) || !PyList_Check(white) || PyList_GET_SIZE(black) != MAXP ||
        PyList_GET_SIZE(white) != MAXP) {
        PyErr_SetString(PyExc_ValueError, "two lists of 52*52 keys expected");
        return NULL;
    }
    for (int i = 0; i < MAXP; i++) {
        ZB[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(black, i));
        ZW[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(white, i));
    }
    if (PyErr_Occurred()) return NULL;
    KEY_B = kb; KEY_W = kw;
    zobrist_ready = 1;
    Py_RETURN_NONE;
}

/* --- the board ------------------------------------------------------------------------------ */

typedef struct {
    const Geo *g;
    int n;
    unsigned char col[MAXP];
    int head[MAXP];  /* chain key of a stone, -1 for an empty point */
    int next[MAXP];  /* next stone of the chain, -1 at its end */
    int first[MAXP]; /* per head: first and last stone, stone count */
    int tail[MAXP];
    int size[MAXP];
    struct { int64_t n, sum, sq; } lib[MAXP]; /* pseudo-liberties: count, sum, sum of squares */
    int empties[MAXP]; /* empty points, in the order the playouts keep them */
    int where[MAXP];
    int nempty;
    uint64_t hash;
    int hashing;
} CB;

static inline void lib_add(CB *b, int h, int p) {
    b->lib[h].n += 1; b->lib[h].sum += p; b->lib[h].sq += (int64_t)p * p;
}
static inline void lib_del(CB *b, int h, int p) {
    b->lib[h].n -= 1; b->lib[h].sum -= p; b->lib[h].sq -= (int64_t)p * p;
}
/* Liberties of a chain: 0, 1 or 2 (meaning two or more). */
static inline int libs_upto2(const CB *b, int h) {
    if (b->lib[h].n == 0) return 0;
    return b->lib[h].n * b->lib[h].sq == b->lib[h].sum * b->lib[h].sum ? 1 : 2;
}
static inline int only_lib(const CB *b, int h) { return (int)(b->lib[h].sum / b->lib[h].n); }
/* Every pseudo-liberty of the chain is p (the chain has no liberty once p is filled). */
static inline int only_lib_is(const CB *b, int h, int p) {
    return b->lib[h].sum == b->lib[h].n * p && b->lib[h].sq == b->lib[h].n * (int64_t)p * p;
}

static inline uint64_t zkey(int c, int p) { return c == 1 ? ZB[p] : ZW[p]; }

static void empty_add(CB *b, int p) { b->where[p] = b->nempty; b->empties[b->nempty++] = p; }
static void empty_del(CB *b, int p) {
    int i = b->where[p];
    int last = b->empties[--b->nempty];
    if (last != p) { b->empties[i] = last; b->where[last] = i; }
    b->where[p] = -1;
}

/* Chains from colours: in index order, each flooded depth first (as Board._rebuild). */
static void cb_build(CB *b, const Geo *g, const unsigned char *colours, int hashing) {
    int n = g->n;
    b->g = g; b->n = n; b->hashing = hashing; b->nempty = 0; b->hash = 0;
    memcpy(b->col, colours, n);
    for (int p = 0; p < n; p++) { b->head[p] = -1; b->where[p] = -1; }
    int stack[MAXP];
    for (int p = 0; p < n; p++) {
        int c = b->col[p];
        if (c == EMPTY) { empty_add(b, p); continue; }
        if (hashing) b->hash ^= zkey(c, p);
        if (b->head[p] >= 0) continue;
        int h = p, sp = 0;
        b->head[p] = h; b->first[h] = p; b->tail[h] = p; b->next[p] = -1; b->size[h] = 1;
        b->lib[h].n = 0; b->lib[h].sum = 0; b->lib[h].sq = 0;
        stack[sp++] = p;
        while (sp) {
            int s = stack[--sp];
            for (int k = 0; k < g->nn[s]; k++) {
                int q = g->nb[s][k];
                if (b->col[q] == EMPTY) lib_add(b, h, q);
                else if (b->col[q] == c && b->head[q] < 0) {
                    b->head[q] = h; b->next[b->tail[h]] = q; b->tail[h] = q; b->next[q] = -1;
                    b->size[h]++;
                    stack[sp++] = q;
                }
            }
        }
    }
}

/* Remove the chain h: its points become empty (appended to the empties in stone order), and
 * every chain next to them gains them as liberties. */
static void cb_remove(CB *b, int h) {
    const Geo *g = b->g;
    for (int s = b->first[h]; s >= 0; s = b->next[s]) {
        if (b->hashing) b->hash ^= zkey(b->col[s], s);
        b->col[s] = EMPTY;
        b->head[s] = -1;
        empty_add(b, s);
    }
    for (int s = b->first[h]; s >= 0; s = b->next[s])
        for (int k = 0; k < g->nn[s]; k++) {
            int r = g->nb[s][k];
            if (b->head[r] >= 0) lib_add(b, b->head[r], s);
        }
}

/* Play c at the empty point p. Returns the stones captured; *ko is the ko point or -1,
 * *suicide the own stones removed. Captures in neighbour order, each chain as its last
 * liberty goes (as playout.Playouts' play); friends join the largest, the first on a tie. */
static int cb_play(CB *b, int p, int c, int *ko, int *suicide, int *last_captured) {
    const Geo *g = b->g;
    int friends[4], nf = 0, captured = 0;
    *ko = -1; *suicide = 0; *last_captured = -1;
    b->col[p] = c;
    if (b->hashing) b->hash ^= zkey(c, p);
    empty_del(b, p);
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k];
        int cq = b->col[q];
        if (cq == EMPTY) continue;
        int h = b->head[q];
        if (cq == c) {
            int seen = 0;
            for (int i = 0; i < nf; i++) if (friends[i] == h) seen = 1;
            if (!seen) friends[nf++] = h;
            lib_del(b, h, p);
        } else if (only_lib_is(b, h, p)) {
            captured += b->size[h];
            *last_captured = b->first[h];
            cb_remove(b, h);
        } else {
            lib_del(b, h, p);
        }
    }
    int h;
    if (nf == 0) {
        h = p;
        b->head[p] = p; b->first[p] = p; b->tail[p] = p; b->next[p] = -1; b->size[p] = 1;
        b->lib[p].n = 0; b->lib[p].sum = 0; b->lib[p].sq = 0;
    } else {
        h = friends[0];
        for (int i = 1; i < nf; i++) if (b->size[friends[i]] > b->size[h]) h = friends[i];
        for (int i = 0; i < nf; i++) {
            int o = friends[i];
            if (o == h) continue;
            for (int s = b->first[o]; s >= 0; s = b->next[s]) b->head[s] = h;
            b->next[b->tail[h]] = b->first[o]; b->tail[h] = b->tail[o];
            b->size[h] += b->size[o];
            b->lib[h].n += b->lib[o].n; b->lib[h].sum += b->lib[o].sum; b->lib[h].sq += b->lib[o].sq;
        }
        b->head[p] = h; b->next[b->tail[h]] = p; b->tail[h] = p; b->next[p] = -1;
        b->size[h]++;
    }
    int empty_nb = 0;
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k];
        if (b->col[q] == EMPTY) { lib_add(b, h, q); empty_nb++; }
    }
    if (b->lib[h].n == 0) {
        *suicide = b->size[h];
        cb_remove(b, h);
    } else if (captured == 1 && nf == 0 && empty_nb == 1) {
        *ko = *last_captured;
    }
    return captured;
}

/* --- history of positions (hash -> first move number) ----------------------------------------- */

typedef struct {
    uint64_t *keys;
    int *moves;
    unsigned int *gen;
    unsigned int cur;
    size_t mask;
} History;

static int hist_init(History *t, size_t expect) {
    size_t cap = 64;
    while (cap < 2 * expect + 8) cap <<= 1;
    t->keys = PyMem_Malloc(cap * sizeof(uint64_t));
    t->moves = PyMem_Malloc(cap * sizeof(int));
    t->gen = PyMem_Calloc(cap, sizeof(unsigned int));
    t->cur = 1; t->mask = cap - 1;
    return t->keys && t->moves && t->gen;
}
static void hist_free(History *t) { PyMem_Free(t->keys); PyMem_Free(t->moves); PyMem_Free(t->gen); }
static void hist_clear(History *t) { t->cur++; }
static int *hist_slot(History *t, uint64_t key, int *found) {
    size_t i = (size_t)(key ^ (key >> 29)) & t->mask;
    while (t->gen[i] == t->cur) {
        if (t->keys[i] == key) { *found = 1; return &t->moves[i]; }
        i = (i + 1) & t->mask;
    }
    *found = 0;
    t->gen[i] = t->cur; t->keys[i] = key;
    return &t->moves[i];
}
/* history.get(key) without inserting: the move or -1. */
static int hist_get(History *t, uint64_t key) {
    size_t i = (size_t)(key ^ (key >> 29)) & t->mask;
    while (t->gen[i] == t->cur) {
        if (t->keys[i] == key) return t->moves[i];
        i = (i + 1) & t->mask;
    }
    return -1;
}
/* history.setdefault(key, move) */
static void hist_setdefault(History *t, uint64_t key, int move) {
    int found; int *slot = hist_slot(t, key, &found);
    if (!found) *slot = move;
}
static void hist_set(History *t, uint64_t key, int move) {
    int found; int *slot = hist_slot(t, key, &found);
    *slot = move;
}

/* --- the replay loop (reference: sgfcheck.replay.replay._walk) --------------------------------------- */

enum { N_SETUP_DEAD, N_TURN_FIRST, N_TURN_TWICE, N_OFF_BOARD, N_AFTER_END, N_OCCUPIED,
       N_SUICIDE, N_KO, N_CYCLE, N_SUPERKO };
enum { KO_SIMPLE, KO_POSITIONAL, KO_SITUATIONAL, KO_NATURAL };

static int note(PyObject *notes, int kind, int move, long a, long b) {
    PyObject *t = make(C_NOTE, Py_BuildValue("(iiil)", kind, move, (int)a, b));
    if (!t) return -1;
    int r = PyList_Append(notes, t);
    Py_DECREF(t);
    return r;
}

/* walk(request: WalkRequest, events: list of Move and Setup) -> Walked */
static PyObject *walk(PyObject *self, PyObject *args) {
    int w, h, ko_rule, free_handicap, upto, white_passes_last, button;
    PyObject *request, *events;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!", &request, &PyList_Type, &events)) return NULL;
    {
        int *into[7] = {&w, &h, &ko_rule, &free_handicap, &upto, &white_passes_last, &button};
        for (int k = 0; k < 7; k++) {
            PyObject *v = field(C_WALK_REQUEST, request, k);
            if (!v) return NULL;
            *into[k] = (int)PyLong_AsLong(v);
        }
        if (PyErr_Occurred()) return NULL;
    }
    PyObject *result = NULL, *notes = NULL, *extra = NULL;
    CB *b = NULL;
    History hist = {0};
    Py_ssize_t ne = PyList_GET_SIZE(events);
    Geo *g = geometry_checked(w, h);
    if (!g) goto done;
    if (!zobrist_ready) { PyErr_SetString(PyExc_RuntimeError, "zobrist keys not set"); goto done; }
    b = PyMem_Malloc(sizeof(CB));
    if (!b) { PyErr_NoMemory(); goto done; }
    unsigned char zero[MAXP];
    memset(zero, 0, sizeof zero);
    cb_build(b, g, zero, 1);
    if (!hist_init(&hist, (size_t)ne + 4)) { PyErr_NoMemory(); goto done; }
    notes = PyList_New(0);
    extra = PyList_New(0);
    if (!notes || !extra) goto done;

    int simple = ko_rule == KO_SIMPLE, situational = ko_rule == KO_SITUATIONAL;
    int natural = ko_rule == KO_NATURAL, superko = !simple;
    int to_move = 1, in_cycle = 0, ko_point = -1, ko_colour = 0, consecutive = 0;
    int reported_resume = 0, move_no = 0, started = 0;
    long prisoners[3] = {0}, passes[3] = {0}, plays[3] = {0}, setup[3] = {0};
    int first_pass = 0, last_pass = 0, ended_by = -1, cycle_a = -1, cycle_b = -1;
#define START_HISTORY() do { \
        hist_clear(&hist); \
        if (ko_rule == KO_POSITIONAL) hist_set(&hist, b->hash, move_no); \
        else if (natural) hist_set(&hist, b->hash ^ (to_move == 1 ? KEY_W : KEY_B), move_no); \
        else hist_set(&hist, b->hash ^ (to_move == 1 ? KEY_B : KEY_W), move_no); \
    } while (0)
    START_HISTORY();
    for (Py_ssize_t i = 0; i < ne; i++) {
        PyObject *item = PyList_GET_ITEM(events, i);
        int setup_event = is_a(C_SETUP, item);
        if (setup_event < 0) goto done;
        if (setup_event) { /* Setup(node, black, white, empty, player) */
            PyObject *lists[3] = {PyTuple_GET_ITEM(item, 1), PyTuple_GET_ITEM(item, 2),
                                  PyTuple_GET_ITEM(item, 3)};
            PyObject *pl = PyTuple_GET_ITEM(item, 4);
            int player = pl == Py_None ? 0 : (int)PyLong_AsLong(pl);
            unsigned char colours[MAXP];
            memcpy(colours, b->col, g->n);
            Py_ssize_t counts[3];
            for (int k = 0; k < 3; k++) {
                if (!PyList_Check(lists[k])) goto bad;
                counts[k] = PyList_GET_SIZE(lists[k]);
            }
            int order[3] = {2, 0, 1}; /* as Board.set_stones: AE, then AB, then AW */
            for (int o = 0; o < 3; o++) {
                int k = order[o];
                PyObject *lst = lists[k];
                for (Py_ssize_t j = 0; j < counts[k]; j++) {
                    PyObject *pt = PyList_GET_ITEM(lst, j);
                    if (!PyTuple_Check(pt) || PyTuple_GET_SIZE(pt) != 2) goto bad;
                    long pc = PyLong_AsLong(PyTuple_GET_ITEM(pt, 0));
                    long pr = PyLong_AsLong(PyTuple_GET_ITEM(pt, 1));
                    if (PyErr_Occurred()) goto done;
                    if (pc < 0 || pr < 0 || pr * w + pc >= g->n) goto bad;
                    colours[pr * w + pc] = k == 2 ? EMPTY : (unsigned char)(k + 1);
                }
            }
            if (PyErr_Occurred()) goto done;
            int nbk = (int)counts[0], nwt = (int)counts[1];
            cb_build(b, g, colours, 1);
            for (int p = 0; p < g->n; p++) {
                if (b->col[p] == EMPTY || b->head[p] != p || b->lib[p].n != 0) continue;
                PyObject *stones = PyTuple_New(b->size[p]);
                if (!stones) goto done;
                int k = 0;
                for (int s = b->first[p]; s >= 0; s = b->next[s])
                    PyTuple_SET_ITEM(stones, k++, PyLong_FromLong(s));
                PyObject *t = make(C_NOTE, Py_BuildValue("(iiiN)", N_SETUP_DEAD, move_no,
                                                         b->col[p], stones));
                if (!t || PyList_Append(notes, t) < 0) { Py_XDECREF(t); goto done; }
                Py_DECREF(t);
            }
            setup[1] += nbk; setup[2] += nwt;
            if (player == 1 || player == 2) to_move = player;
            else if (!started && nbk && !nwt) to_move = 2;
            ko_point = -1;
            START_HISTORY();
            continue;
        }
        int move_event = is_a(C_MOVE, item); /* Move(colour, point, node, forced) */
        if (move_event < 0) goto done;
        if (!move_event) goto bad;
        if (upto >= 0 && move_no >= upto) break;
        int c = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 0)), col = -1, row = -1;
        PyObject *pt = PyTuple_GET_ITEM(item, 1);
        if (pt != Py_None) {
            if (!PyTuple_Check(pt) || PyTuple_GET_SIZE(pt) != 2) goto bad;
            long pc = PyLong_AsLong(PyTuple_GET_ITEM(pt, 0));
            long pr = PyLong_AsLong(PyTuple_GET_ITEM(pt, 1));
            if (PyErr_Occurred()) goto done;
            if (pc < 0 || pr < 0) goto bad;
            col = pc > 1000000 ? 1000000 : (int)pc;
            row = pr > 1000000 ? 1000000 : (int)pr;
        }
        if (PyErr_Occurred()) goto done;
        if (c != 1 && c != 2) goto bad;
        move_no++;
        started = 1;
        int opp = 3 - c;
        if (c != to_move && !(move_no <= free_handicap && c == 1)) {
            if (move_no == 1) { if (note(notes, N_TURN_FIRST, move_no, to_move, 0)) goto done; }
            else if (note(notes, N_TURN_TWICE, move_no, 0, 0)) goto done;
        }
        to_move = move_no >= free_handicap ? opp : 1;
        int is_pass = col < 0;
        if (!is_pass && (col >= w || row >= h)) {
            if (note(notes, N_OFF_BOARD, move_no, 0, 0)) goto done;
            is_pass = 1;
        }
        if (is_pass) {
            passes[c]++;
            last_pass = c;
            if (button && !first_pass) { /* the button: see replay._walk */
                first_pass = c;
                ko_point = -1;
                in_cycle = 0;
                START_HISTORY();
                continue;
            }
            if (!first_pass) first_pass = c;
            consecutive++;
            if (consecutive >= 2 && ended_by < 0) ended_by = move_no;
            else if (consecutive > 2 && !(consecutive == 3 && white_passes_last && c == 2)) {
                PyObject *m = PyLong_FromLong(move_no);
                if (!m || PyList_Append(extra, m) < 0) { Py_XDECREF(m); goto done; }
                Py_DECREF(m);
            }
            ko_point = -1;
            if (simple) { hist_clear(&hist); in_cycle = 0; }
            else if (situational) hist_setdefault(&hist, b->hash ^ (opp == 1 ? KEY_B : KEY_W),
                                                  move_no);
            continue;
        }
        if (ended_by >= 0 && !reported_resume) {
            reported_resume = 1;
            if (note(notes, N_AFTER_END, move_no, ended_by, 0)) goto done;
        }
        consecutive = 0;
        int p = row * w + col;
        if (b->col[p]) {
            if (note(notes, N_OCCUPIED, move_no, b->col[p], 0)) goto done;
            ko_point = -1;
            continue;
        }
        int retakes = p == ko_point && c == ko_colour;
        int ko, suicide, last_captured;
        int captured = cb_play(b, p, c, &ko, &suicide, &last_captured);
        plays[c]++;
        prisoners[c] += captured;
        if (suicide) {
            prisoners[opp] += suicide;
            if (note(notes, N_SUICIDE, move_no, suicide, 0)) goto done;
        }
        uint64_t key;
        if (simple || situational) key = b->hash ^ (opp == 1 ? KEY_B : KEY_W);
        else if (natural) key = b->hash ^ (c == 1 ? KEY_B : KEY_W);
        else key = b->hash;
        int earlier = hist_get(&hist, key);
        if (simple && retakes) { if (note(notes, N_KO, move_no, move_no - 2, 0)) goto done; }
        if (earlier < 0) {
            hist_set(&hist, key, move_no);
            in_cycle = 0;
        } else if (simple) {
            if (!retakes && !in_cycle) {
                in_cycle = 1;
                if (cycle_a < 0) { cycle_a = earlier + 1; cycle_b = move_no; }
                if (note(notes, N_CYCLE, move_no, earlier, 0)) goto done;
            }
        } else if (retakes) {
            if (note(notes, N_KO, move_no, earlier, 0)) goto done;
        } else if (superko) {
            if (note(notes, N_SUPERKO, move_no, earlier, 0)) goto done;
        }
        ko_point = ko;
        ko_colour = opp;
    }
#undef START_HISTORY
    {
        PyObject *colours = PyBytes_FromStringAndSize((const char *)b->col, g->n);
        if (!colours) goto done;
        result = make(C_WALKED, Py_BuildValue(
            "(NKNNi(ll)(ll)(ll)(ll)iii(ii))", colours, (unsigned long long)b->hash, notes, extra,
            move_no, prisoners[1], prisoners[2], passes[1], passes[2], plays[1], plays[2],
            setup[1], setup[2], first_pass, last_pass, ended_by, cycle_a, cycle_b));
        notes = extra = NULL; /* stolen */
    }
    goto done;
bad:
    PyErr_SetString(PyExc_ValueError, "malformed events (Move and Setup expected)");
done:
    Py_XDECREF(notes);
    Py_XDECREF(extra);
    if (hist.keys || hist.moves || hist.gen) hist_free(&hist);
    PyMem_Free(b);
    return result;
}

/* --- position analysis (reference: sgfcheck.position.analysis) ------------------------------------------ */

static int get_board(Py_buffer *buf, int *w, int *h, Geo **g) {
    if (buf->len != (Py_ssize_t)(*w) * (*h)) {
        PyErr_SetString(PyExc_ValueError, "colour array does not match the board size");
        return -1;
    }
    *g = geometry_checked(*w, *h);
    return *g ? 0 : -1;
}

static void owners_of(const Geo *g, const unsigned char *col, unsigned char *owner) {
    int n = g->n;
    int points[MAXP];
    unsigned char seen[MAXP];
    memset(seen, 0, n);
    memset(owner, 0, n);
    for (int start = 0; start < n; start++) {
        if (col[start] != EMPTY || seen[start]) continue;
        seen[start] = 1;
        int np = 0, borders = 0;
        points[np++] = start;
        for (int i = 0; i < np; i++)
            for (int k = 0; k < g->nn[points[i]]; k++) {
                int q = g->nb[points[i]][k];
                if (col[q] == EMPTY) { if (!seen[q]) { seen[q] = 1; points[np++] = q; } }
                else borders |= col[q];
            }
        for (int i = 0; i < np; i++) owner[points[i]] = (unsigned char)borders;
    }
}

static PyObject *empty_owners(PyObject *self, PyObject *args) {
    Py_buffer col; int w, h; Geo *g;
    if (!PyArg_ParseTuple(args, "y*ii", &col, &w, &h)) return NULL;
    PyObject *out = NULL;
    if (get_board(&col, &w, &h, &g) == 0) {
        unsigned char owner[MAXP];
        owners_of(g, col.buf, owner);
        out = PyBytes_FromStringAndSize((const char *)owner, g->n);
    }
    PyBuffer_Release(&col);
    return out;
}

static PyObject *int_list(const int *v, int n);

/* One ownership value (a float, or an int) of a sequence held as a fast sequence. */
static int owned(PyObject *seq, int p, double *v) {
    if (p >= PySequence_Fast_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_ValueError, "ownership array size");
        return -1;
    }
    *v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, p));
    return (*v == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* point_owners(colour, dame, first_black, first_white, agreed, w, h) -> (settled, colours, open,
 * dame): owners.point_owners. Each point of ``dame`` that is empty is settled for a colour when
 * both sides' ownership (None: no ownership) give it that colour at least ``agreed`` (colours: 1
 * or 2 for each settled point), else dame between stones of both colours, else open. */
static PyObject *point_owners(PyObject *self, PyObject *args) {
    Py_buffer col; PyObject *dame_list, *fb, *fw; double agreed; int w, h; Geo *g;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*OOOdii", &col, &dame_list, &fb, &fw, &agreed, &w, &h))
        return NULL;
    PyObject *out = NULL, *dl = NULL, *sb = NULL, *sw = NULL;
    int settled[MAXP], colours[MAXP], open_points[MAXP], dame[MAXP];
    int ns = 0, no = 0, nd = 0;
    if (get_board(&col, &w, &h, &g) != 0) goto done;
    dl = PySequence_Fast(dame_list, "dame: a sequence");
    if (!dl) goto done;
    int ownership = fb != Py_None && fw != Py_None;
    if (ownership) {
        sb = PySequence_Fast(fb, "ownership: a sequence");
        sw = sb ? PySequence_Fast(fw, "ownership: a sequence") : NULL;
        if (!sw) goto done;
    }
    const unsigned char *c = col.buf;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(dl);
    for (Py_ssize_t i = 0; i < count; i++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(dl, i));
        if (p == -1 && PyErr_Occurred()) goto done;
        if (p < 0 || p >= g->n) { PyErr_SetString(PyExc_ValueError, "dame point"); goto done; }
        if (c[p] != EMPTY) continue;
        if (ownership) {
            double b, ww;
            if (owned(sb, (int)p, &b) || owned(sw, (int)p, &ww)) goto done;
            if (b >= agreed && ww >= agreed) { settled[ns] = (int)p; colours[ns++] = 1; continue; }
            if (b <= -agreed && ww <= -agreed) { settled[ns] = (int)p; colours[ns++] = 2; continue; }
        }
        int touching = 0;
        for (int k = 0; k < g->nn[p]; k++) touching |= c[g->nb[p][k]];
        if ((touching & 3) == 3) dame[nd++] = (int)p;
        else open_points[no++] = (int)p;
    }
    {
        PyObject *a = int_list(settled, ns), *b = int_list(colours, ns);
        PyObject *o = int_list(open_points, no), *d = int_list(dame, nd);
        if (a && b && o && d) out = Py_BuildValue("(NNNN)", a, b, o, d);
        else { Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(o); Py_XDECREF(d); }
    }
done:
    Py_XDECREF(dl); Py_XDECREF(sb); Py_XDECREF(sw);
    PyBuffer_Release(&col);
    return out;
}

/* census(colour, owner, w, h) -> Census: own empty points of black and white, the dame, the
 * stones of black and white (the counting loop of position.analyse). */
static PyObject *census(PyObject *self, PyObject *args) {
    Py_buffer col, own; int w, h; Geo *g;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*ii", &col, &own, &w, &h)) return NULL;
    PyObject *out = NULL;
    if (get_board(&col, &w, &h, &g) == 0 && own.len == col.len) {
        const unsigned char *c = col.buf, *o = own.buf;
        long empty[3] = {0}, stones[3] = {0};
        int dame[MAXP], nd = 0;
        for (int p = 0; p < g->n; p++) {
            if (c[p] == EMPTY) {
                if (o[p] == 1 || o[p] == 2) empty[o[p]]++;
                else dame[nd++] = p;
            } else if (c[p] <= 2) {
                stones[c[p]]++;
            }
        }
        PyObject *d = int_list(dame, nd);
        if (d) out = make(C_CENSUS, Py_BuildValue("(llNll)", empty[1], empty[2], d, stones[1],
                                                  stones[2]));
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "owner array size");
    }
    PyBuffer_Release(&col);
    PyBuffer_Release(&own);
    return out;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

/* areas(colour, owner, w, h) -> Areas: see position.areas. */
static PyObject *areas(PyObject *self, PyObject *args) {
    Py_buffer col, own; int w, h; Geo *g;
    if (!PyArg_ParseTuple(args, "y*y*ii", &col, &own, &w, &h)) return NULL;
    PyObject *out = NULL, *area_list = NULL, *list = NULL;
    if (get_board(&col, &w, &h, &g) < 0 || own.len != col.len) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "owner array size");
        goto done;
    }
    const unsigned char *c = col.buf, *owner = own.buf;
    int n = g->n;
    int area_of[MAXP], members[MAXP], through[MAXP], stones[MAXP], owns[MAXP];
    for (int p = 0; p < n; p++) { area_of[p] = -1; through[p] = -1; }
    list = PyList_New(0);
    if (!list) goto done;
    for (int start = 0; start < n; start++) {
        int cs = c[start];
        if (cs == EMPTY || area_of[start] >= 0) continue;
        area_of[start] = start;
        int nm = 0;
        members[nm++] = start;
        for (int i = 0; i < nm; i++)
            for (int k = 0; k < g->nn[members[i]]; k++) {
                int q = g->nb[members[i]][k];
                if (area_of[q] >= 0 || through[q] == start) continue;
                int qc = c[q];
                if (qc == EMPTY && owner[q] == 3) {
                    through[q] = start; members[nm++] = q;
                } else if (qc == cs || (qc == EMPTY && owner[q] == cs)) {
                    area_of[q] = start; members[nm++] = q;
                }
            }
        int ns = 0, no = 0;
        for (int i = 0; i < nm; i++) {
            int p = members[i];
            if (c[p] == cs) stones[ns++] = p;
            else if (c[p] == EMPTY && owner[p] == cs) owns[no++] = p;
        }
        PyObject *s = int_list(stones, ns), *o = int_list(owns, no);
        PyObject *t = (s && o) ? make(C_AREA, Py_BuildValue("(iiNN)", start, cs, s, o)) : NULL;
        if (!t) { Py_XDECREF(s); Py_XDECREF(o); goto done; }
        int r = PyList_Append(list, t);
        Py_DECREF(t);
        if (r < 0) goto done;
    }
    area_list = int_list(area_of, n);
    if (!area_list) goto done;
    out = make(C_AREAS, Py_BuildValue("(NN)", area_list, list));
    list = NULL;
done:
    Py_XDECREF(list);
    PyBuffer_Release(&col);
    PyBuffer_Release(&own);
    return out;
}

/* --- Benson's unconditional life (reference: sgfcheck.judge.benson.prove) --------------------------- */

static PyObject *benson(PyObject *self, PyObject *args) {
    Py_buffer col; int w, h; Geo *g;
    if (!PyArg_ParseTuple(args, "y*ii", &col, &w, &h)) return NULL;
    PyObject *out = NULL;
    int *chain_of = NULL, *region_of = NULL, *pairs = NULL, *rstart = NULL, *rborder = NULL;
    int *cnt = NULL, *stamp = NULL, *members = NULL, *border_start = NULL;
    unsigned char *alive_c = NULL, *healthy = NULL;
    if (get_board(&col, &w, &h, &g) < 0) goto done;
    const unsigned char *c = col.buf;
    int n = g->n;
    unsigned char is_alive[MAXP], is_dead[MAXP], is_terr[MAXP];
    memset(is_alive, 0, n); memset(is_dead, 0, n); memset(is_terr, 0, n);
    chain_of = PyMem_Malloc(n * sizeof(int));
    region_of = PyMem_Malloc(n * sizeof(int));
    pairs = PyMem_Malloc(8 * n * sizeof(int));   /* vital (chain, region) pairs */
    rstart = PyMem_Malloc((n + 1) * sizeof(int)); /* members of region r: rstart[r].. */
    members = PyMem_Malloc(n * sizeof(int));
    border_start = PyMem_Malloc((n + 1) * sizeof(int));
    rborder = PyMem_Malloc(4 * n * sizeof(int));  /* border chains of each region */
    cnt = PyMem_Malloc(n * sizeof(int));
    stamp = PyMem_Malloc(n * sizeof(int));
    alive_c = PyMem_Malloc(n);
    healthy = PyMem_Malloc(n);
    if (!chain_of || !region_of || !pairs || !rstart || !members || !border_start || !rborder ||
        !cnt || !stamp || !alive_c || !healthy) { PyErr_NoMemory(); goto done; }
    for (int colour = 1; colour <= 2; colour++) {
        /* chains of colour */
        int nchains = 0, stack[MAXP];
        for (int p = 0; p < n; p++) chain_of[p] = -1;
        for (int p = 0; p < n; p++) {
            if (c[p] != colour || chain_of[p] >= 0) continue;
            int id = nchains++, sp = 0;
            chain_of[p] = id; stack[sp++] = p;
            while (sp) {
                int s = stack[--sp];
                for (int k = 0; k < g->nn[s]; k++) {
                    int q = g->nb[s][k];
                    if (c[q] == colour && chain_of[q] < 0) { chain_of[q] = id; stack[sp++] = q; }
                }
            }
        }
        /* regions: maximal connected sets of points not of colour */
        int nreg = 0, nm = 0, npairs = 0, nborder = 0;
        for (int p = 0; p < n; p++) region_of[p] = -1;
        for (int i = 0; i < n; i++) stamp[i] = -1;
        for (int start = 0; start < n; start++) {
            if (c[start] == colour || region_of[start] >= 0) continue;
            int r = nreg++;
            rstart[r] = nm;
            region_of[start] = r; members[nm++] = start;
            for (int i = rstart[r]; i < nm; i++)
                for (int k = 0; k < g->nn[members[i]]; k++) {
                    int q = g->nb[members[i]][k];
                    if (region_of[q] < 0 && c[q] != colour) { region_of[q] = r; members[nm++] = q; }
                }
            /* border chains, and how many of the region's empty points each touches */
            border_start[r] = nborder;
            int empties = 0;
            for (int i = rstart[r]; i < nm; i++) {
                int p = members[i];
                int is_empty = c[p] == EMPTY, seen_here[4], ns = 0;
                if (is_empty) empties++;
                for (int k = 0; k < g->nn[p]; k++) {
                    int x = chain_of[g->nb[p][k]];
                    if (x < 0) continue;
                    if (stamp[x] != r) { stamp[x] = r; cnt[x] = 0; rborder[nborder++] = x; }
                    if (is_empty) {
                        int dup = 0;
                        for (int j = 0; j < ns; j++) if (seen_here[j] == x) dup = 1;
                        if (!dup) { seen_here[ns++] = x; cnt[x]++; }
                    }
                }
            }
            for (int j = border_start[r]; j < nborder; j++) {
                int x = rborder[j];
                if (empties && cnt[x] == empties) { pairs[2 * npairs] = x; pairs[2 * npairs + 1] = r; npairs++; }
            }
        }
        rstart[nreg] = nm;
        border_start[nreg] = nborder;
        memset(alive_c, 1, nchains);
        memset(healthy, 1, nreg);
        int changed = 1;
        while (changed) {
            changed = 0;
            for (int x = 0; x < nchains; x++) cnt[x] = 0;
            for (int i = 0; i < npairs; i++) if (healthy[pairs[2 * i + 1]]) cnt[pairs[2 * i]]++;
            for (int x = 0; x < nchains; x++)
                if (alive_c[x] && cnt[x] < 2) { alive_c[x] = 0; changed = 1; }
            for (int r = 0; r < nreg; r++) {
                if (!healthy[r]) continue;
                int ok = border_start[r + 1] > border_start[r];
                for (int j = border_start[r]; ok && j < border_start[r + 1]; j++)
                    if (!alive_c[rborder[j]]) ok = 0;
                if (!ok) { healthy[r] = 0; changed = 1; }
            }
        }
        for (int p = 0; p < n; p++) if (chain_of[p] >= 0 && alive_c[chain_of[p]]) is_alive[p] = 1;
        for (int r = 0; r < nreg; r++) {
            if (!healthy[r]) continue;
            int interior = 0;
            for (int i = rstart[r]; i < rstart[r + 1]; i++) {
                int p = members[i], inside = 1;
                is_terr[p] = 1;
                for (int k = 0; k < g->nn[p]; k++) if (c[g->nb[p][k]] == colour) inside = 0;
                interior += inside;
            }
            if (interior <= 1)
                for (int i = rstart[r]; i < rstart[r + 1]; i++) {
                    int p = members[i];
                    if (c[p] != EMPTY && c[p] != colour) is_dead[p] = 1;
                }
        }
    }
    {
        int a[MAXP], d[MAXP], t[MAXP], na = 0, nd = 0, nt = 0;
        for (int p = 0; p < n; p++) {
            if (is_alive[p]) a[na++] = p;
            if (is_dead[p]) d[nd++] = p;
            if (is_terr[p]) t[nt++] = p;
        }
        PyObject *la = int_list(a, na), *ld = int_list(d, nd), *lt = int_list(t, nt);
        if (la && ld && lt) out = make(C_PROOF, Py_BuildValue("(NNN)", la, ld, lt));
        else { Py_XDECREF(la); Py_XDECREF(ld); Py_XDECREF(lt); }
    }
done:
    PyMem_Free(chain_of); PyMem_Free(region_of); PyMem_Free(pairs); PyMem_Free(rstart);
    PyMem_Free(members); PyMem_Free(border_start); PyMem_Free(rborder); PyMem_Free(cnt);
    PyMem_Free(stamp); PyMem_Free(alive_c); PyMem_Free(healthy);
    PyBuffer_Release(&col);
    return out;
}

/* --- Mersenne Twister, exactly as Python's random (state handed in and back) ------------------ */

#define MT_N 624
#define MT_M 397
typedef struct { uint32_t mt[MT_N]; int index; } MT;

static uint32_t mt_next(MT *s) {
    uint32_t y;
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (s->mt[MT_N - 1] & 0x80000000U) | (s->mt[0] & 0x7fffffffU);
        s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        s->index = 0;
    }
    y = s->mt[s->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double mt_random(MT *s) {
    uint32_t a = mt_next(s) >> 5, b = mt_next(s) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int mt_from(PyObject *state, MT *s) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state of 625 ints expected");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) s->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
    s->index = (int)PyLong_AsLong(PyTuple_GET_ITEM(state, MT_N));
    if (PyErr_Occurred()) return -1;
    if (s->index < 0 || s->index > MT_N) { PyErr_SetString(PyExc_ValueError, "bad state index"); return -1; }
    return 0;
}

static PyObject *mt_to(const MT *s) {
    PyObject *t = PyTuple_New(MT_N + 1);
    if (!t) return NULL;
    for (int i = 0; i < MT_N; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLong(s->mt[i]));
    PyTuple_SET_ITEM(t, MT_N, PyLong_FromLong(s->index));
    return t;
}

/* --- playouts (reference: sgfcheck.judge.playout.Playouts) ----------------------------------------- */

static void cb_copy(CB *dst, const CB *src) {
    int n = src->n;
    dst->g = src->g; dst->n = n; dst->nempty = src->nempty; dst->hash = src->hash;
    dst->hashing = src->hashing;
    memcpy(dst->col, src->col, n);
    memcpy(dst->head, src->head, n * sizeof(int));
    memcpy(dst->next, src->next, n * sizeof(int));
    memcpy(dst->first, src->first, n * sizeof(int));
    memcpy(dst->tail, src->tail, n * sizeof(int));
    memcpy(dst->size, src->size, n * sizeof(int));
    memcpy(dst->lib, src->lib, n * sizeof(src->lib[0]));
    memcpy(dst->empties, src->empties, n * sizeof(int));
    memcpy(dst->where, src->where, n * sizeof(int));
}

/* The distinct chains of colour c next to p, in neighbour order; returns how many. */
static int own_heads(const CB *b, int p, int c, int heads[4]) {
    const Geo *g = b->g;
    int nh = 0;
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k];
        if (b->col[q] != c) continue;
        int h = b->head[q], dup = 0;
        for (int j = 0; j < nh; j++) if (heads[j] == h) dup = 1;
        if (!dup) heads[nh++] = h;
    }
    return nh;
}

/* A stone of c at p would leave its chain two liberties or more (playout._gains). Each
 * neighbouring chain's liberties other than p come from its pseudo-liberty sums less the pairs
 * naming p (one per stone of the chain next to p): none, exactly one (known), or two or more. */
static int gains(const CB *b, int p, int c) {
    const Geo *g = b->g;
    int seen = -1, heads[4], nh = own_heads(b, p, c, heads);
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k];
        if (b->col[q] != EMPTY) continue;
        if (seen >= 0 && seen != q) return 1;
        seen = q;
    }
    for (int i = 0; i < nh; i++) {
        int h = heads[i];
        int64_t m = 0;
        for (int j = 0; j < g->nn[p]; j++) if (b->head[g->nb[p][j]] == h && b->col[g->nb[p][j]]) m++;
        int64_t n = b->lib[h].n - m, sum = b->lib[h].sum - m * p, sq = b->lib[h].sq - m * (int64_t)p * p;
        if (n == 0) continue;
        if (n * sq != sum * sum) return 1;
        int lib = (int)(sum / n);
        if (seen >= 0 && seen != lib) return 1;
        seen = lib;
    }
    return 0;
}

#define NAKADE_STONES 2

/* A self-atari that is a nakade (playout._nakade): the chain a stone of c at p makes has at most
 * NAKADE_STONES stones and one liberty, and those points with the liberty are enclosed by the
 * opponent's stones alone. */
static int nakade(const CB *b, int p, int c) {
    const Geo *g = b->g;
    int members[NAKADE_STONES + 1], nm = 0, heads[4], nh = own_heads(b, p, c, heads);
    members[nm++] = p;
    for (int i = 0; i < nh; i++) {
        int h = heads[i];
        if (nm + b->size[h] > NAKADE_STONES) return 0;
        for (int s = b->first[h]; s >= 0; s = b->next[s]) members[nm++] = s;
    }
    int lib = -1;
    for (int i = 0; i < nm; i++)
        for (int k = 0; k < g->nn[members[i]]; k++) {
            int y = g->nb[members[i]][k];
            if (b->col[y] != EMPTY || y == p) continue;
            if (lib < 0) lib = y;
            else if (lib != y) return 0;
        }
    if (lib < 0) return 0;
    members[nm++] = lib; /* the region: the chain's points and its liberty */
    for (int i = 0; i < nm; i++)
        for (int k = 0; k < g->nn[members[i]]; k++) {
            int y = g->nb[members[i]][k], inside = 0;
            for (int j = 0; j < nm; j++) if (members[j] == y) inside = 1;
            if (!inside && b->col[y] != 3 - c) return 0;
        }
    return 1;
}

/* Legal, not filling a true eye of c, not a self-atari of two or more stones (but a nakade). */
static int acceptable(const CB *b, int p, int c) {
    const Geo *g = b->g;
    int empty_nb = 0, own_nb = 0;
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k], cq = b->col[q];
        if (cq == EMPTY) { if (++empty_nb >= 2) return 1; }  /* acceptable, whatever else */
        else if (cq == c) own_nb++;
        else if (libs_upto2(b, b->head[q]) == 1) return 1;
    }
    if (own_nb == g->nn[p]) {
        int bad = 0;
        for (int k = 0; k < g->nd[p]; k++) if (b->col[g->dg[p][k]] == 3 - c) bad++;
        if (bad == 0 || (bad == 1 && g->nd[p] == 4)) return 0;
    }
    if (own_nb == 0) return empty_nb == 1;
    return gains(b, p, c) || nakade(b, p, c);
}

static int rescue(const CB *b, int h, int c, int ko) {
    const Geo *g = b->g;
    for (int s = b->first[h]; s >= 0; s = b->next[s])
        for (int k = 0; k < g->nn[s]; k++) {
            int q = g->nb[s][k];
            if (b->col[q] == 3 - c) {
                int hq = b->head[q];
                if (libs_upto2(b, hq) == 1) {
                    int r = only_lib(b, hq);
                    if (r != ko) return r;
                }
            }
        }
    return -1;
}

static void one_playout(CB *b, int to_move, MT *rng, double local, long *black, long *white) {
    const Geo *g = b->g;
    int n = b->n, passes = 0, ko = -1, last = -1, limit = 3 * n;
    int near[8];
    for (int step = 0; step < limit; step++) {
        int c = to_move, move = -1;
        if (last >= 0 && b->col[last] == 3 - c) {
            int hl = b->head[last];
            if (libs_upto2(b, hl) == 1) {
                int q = only_lib(b, hl);
                if (q != ko) move = q;
            }
            if (move < 0)
                for (int k = 0; k < g->nn[last]; k++) {
                    int q = g->nb[last][k];
                    if (b->col[q] != c) continue;
                    int hq = b->head[q];
                    if (libs_upto2(b, hq) != 1) continue;
                    move = rescue(b, hq, c, ko);
                    if (move < 0) {
                        int r = only_lib(b, hq);
                        if (r != ko && acceptable(b, r, c) && gains(b, r, c)) move = r;
                    }
                    if (move >= 0) break;
                }
        }
        if (move < 0 && last >= 0 && mt_random(rng) < local) {
            int nn = 0;
            for (int k = 0; k < g->nn[last] + g->nd[last]; k++) {
                int q = k < g->nn[last] ? g->nb[last][k] : g->dg[last][k - g->nn[last]];
                if (b->col[q] == EMPTY && q != ko && acceptable(b, q, c)) near[nn++] = q;
            }
            if (nn) move = near[(int)(mt_random(rng) * nn)];
        }
        if (move < 0 && b->nempty) {
            /* the empty points from the i-th on, round to the (i - 1)-th: the first acceptable */
            int m = b->nempty;
            int i = (int)(mt_random(rng) * m);
            for (int k = i; k < m && move < 0; k++) {
                int p = b->empties[k];
                if (p != ko && acceptable(b, p, c)) move = p;
            }
            for (int k = 0; k < i && move < 0; k++) {
                int p = b->empties[k];
                if (p != ko && acceptable(b, p, c)) move = p;
            }
        }
        if (move < 0) {
            passes++; ko = -1; last = -1;
            if (passes >= 2) break;
        } else {
            int suicide, last_captured;
            passes = 0;
            cb_play(b, move, c, &ko, &suicide, &last_captured);
            last = move;
        }
        to_move = 3 - c;
    }
    for (int p = 0; p < n; p++) {
        int owner = b->col[p];
        if (owner == EMPTY) {
            int seen = 0;
            for (int k = 0; k < g->nn[p]; k++) seen |= b->col[g->nb[p][k]];
            owner = seen != 3 ? seen : 0;
        }
        if (owner == 1) black[p]++;
        else if (owner == 2) white[p]++;
    }
}

/* playouts(request: PlayoutRequest) -> PlayoutCounts: how often each point ended black and
 * white, and the random generator's state after them. */
static PyObject *playouts(PyObject *self, PyObject *args) {
    Py_buffer col; int w, h, count, first; PyObject *state, *request; double local; Geo *g;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &request)) return NULL;
    PyObject *f[7];
    for (int k = 0; k < 7; k++)
        if (!(f[k] = field(C_PLAYOUT_REQUEST, request, k))) return NULL;
    w = (int)PyLong_AsLong(f[1]);
    h = (int)PyLong_AsLong(f[2]);
    state = f[3];
    local = PyFloat_AsDouble(f[4]);
    count = (int)PyLong_AsLong(f[5]);
    first = (int)PyLong_AsLong(f[6]);
    if (PyErr_Occurred() || PyObject_GetBuffer(f[0], &col, PyBUF_SIMPLE) < 0) return NULL;
    PyObject *out = NULL;
    CB *start = NULL, *b = NULL;
    long *black = NULL, *white = NULL;
    MT rng;
    if (get_board(&col, &w, &h, &g) < 0 || mt_from(state, &rng) < 0) goto done;
    int n = g->n;
    start = PyMem_Malloc(sizeof(CB));
    b = PyMem_Malloc(sizeof(CB));
    black = PyMem_Calloc(n, sizeof(long));
    white = PyMem_Calloc(n, sizeof(long));
    if (!start || !b || !black || !white) { PyErr_NoMemory(); goto done; }
    cb_build(start, g, col.buf, 0);
    /* first < 0: every playout starts with the side -first (PlayoutRequest.first) */
    int fixed = first < 0;
    if (fixed) first = -first;
    for (int i = 0; i < count; i++) {
        cb_copy(b, start);
        one_playout(b, fixed || i % 2 == 0 ? first : 3 - first, &rng, local, black, white);
    }
    {
        PyObject *lb = PyList_New(n), *lw = PyList_New(n), *st = mt_to(&rng);
        if (!lb || !lw || !st) { Py_XDECREF(lb); Py_XDECREF(lw); Py_XDECREF(st); goto done; }
        for (int p = 0; p < n; p++) {
            PyList_SET_ITEM(lb, p, PyLong_FromLong(black[p]));
            PyList_SET_ITEM(lw, p, PyLong_FromLong(white[p]));
        }
        out = make(C_PLAYOUT_COUNTS, Py_BuildValue("(NNN)", lb, lw, st));
    }
done:
    PyMem_Free(start); PyMem_Free(b); PyMem_Free(black); PyMem_Free(white);
    PyBuffer_Release(&col);
    return out;
}

/* --- reading moves (reference: the node loop of records.lines.extract_line) ------------------------ */

static int sgf_coord(int ch) {
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 26;
    return -1;
}

/* The point (col, row), one tuple kept for each (moves share them: a tuple is a value). */
static PyObject *points_made[52 * 52];

static PyObject *point_of(int col, int row) {
    PyObject **slot = &points_made[row * 52 + col];
    if (*slot == NULL) {
        *slot = Py_BuildValue("(ii)", col, row);
        if (*slot == NULL) return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

/* simple_moves(nodes, start, tt_is_pass, black, white, events) -> index: appends a Move to
 * events for each node from start on that holds one B or W with one well-formed value and no
 * setup, PL or KO (the nodes of almost every record); returns the first node it leaves to the
 * Python loop (anything else: setup, both colours, odd values...). A node without a move is
 * skipped, as the Python loop skips it. */
static PyObject *simple_moves(PyObject *self, PyObject *args) {
    PyObject *nodes, *black, *white, *events;
    Py_ssize_t start;
    int tt_is_pass;
    static PyObject *keys[7];
    (void)self;
    if (!PyArg_ParseTuple(args, "O!npOOO!", &PyList_Type, &nodes, &start, &tt_is_pass,
                          &black, &white, &PyList_Type, &events))
        return NULL;
    if (!contract_type(C_MOVE)) return NULL;
    if (!keys[0]) {
        const char *names[7] = {"B", "W", "AB", "AW", "AE", "PL", "KO"};
        for (int k = 0; k < 7; k++) {
            keys[k] = PyUnicode_InternFromString(names[k]);
            if (!keys[k]) return NULL;
        }
    }
    PyTypeObject *move_type = (PyTypeObject *)contracts[C_MOVE].type;
    Py_ssize_t n = PyList_GET_SIZE(nodes), i;
    for (i = start < 0 ? 0 : start; i < n; i++) {
        PyObject *node = PyList_GET_ITEM(nodes, i);
        if (!PyDict_Check(node)) break;
        PyObject *vb = PyDict_GetItemWithError(node, keys[0]);
        if (!vb && PyErr_Occurred()) return NULL;
        PyObject *vw = NULL;
        /* A node of one property that is B is a plain move; else every key is looked at. */
        if (!(vb && PyDict_GET_SIZE(node) == 1)) {
            vw = PyDict_GetItemWithError(node, keys[1]);
            if (!vw && PyErr_Occurred()) return NULL;
            if (!(vw && !vb && PyDict_GET_SIZE(node) == 1)) {
                int special = 0;
                for (int k = 2; k < 7 && !special; k++) {
                    int has = PyDict_Contains(node, keys[k]);
                    if (has < 0) return NULL;
                    special = has;
                }
                if (special) break;
            }
        }
        if (!vb && !vw) continue;
        if (vb && vw) break;
        PyObject *values = vb ? vb : vw;
        if (!PyList_Check(values) || PyList_GET_SIZE(values) != 1) break;
        PyObject *value = PyList_GET_ITEM(values, 0);
        if (!PyBytes_Check(value)) break;
        Py_ssize_t len = PyBytes_GET_SIZE(value);
        const char *v = PyBytes_AS_STRING(value);
        PyObject *point;
        int is_tt = len == 2 && v[0] == 't' && v[1] == 't';
        if (len == 2 && !is_tt) {
            int col = sgf_coord((unsigned char)v[0]), row = sgf_coord((unsigned char)v[1]);
            if (col < 0 || row < 0) break;
            point = point_of(col, row);
        } else if (len == 0 || is_tt) {
            if (is_tt && !tt_is_pass) point = point_of(19, 19);
            else { point = Py_None; Py_INCREF(point); }
        } else {
            break;
        }
        if (!point) return NULL;
        PyObject *node_no = PyLong_FromSsize_t(i);
        /* A NamedTuple's __new__ takes its fields by name or order; the tuple made as
         * tuple.__new__ makes it (the class's allocation, then the fields in the contract's
         * checked order) is the same value without the Python call. */
        PyObject *move = node_no ? move_type->tp_alloc(move_type, 4) : NULL;
        if (!move) {
            Py_DECREF(point);
            Py_XDECREF(node_no);
            return NULL;
        }
        PyObject *colour = vb ? black : white;
        Py_INCREF(colour);
        Py_INCREF(Py_False);
        PyTuple_SET_ITEM(move, 0, colour);
        PyTuple_SET_ITEM(move, 1, point);
        PyTuple_SET_ITEM(move, 2, node_no);
        PyTuple_SET_ITEM(move, 3, Py_False);
        int r = PyList_Append(events, move);
        Py_DECREF(move);
        if (r < 0) return NULL;
    }
    return PyLong_FromSsize_t(i);
}

/* --- game identity (reference: symmetry.sequence_key) -------------------------------------- */

/* move_points(events, width, height) -> MovePoints(colours, points, plays, setup_at): the colour of each
 * move, its point index as native uint16 (width * height for a pass or an off-board point), the
 * number of moves on the board, and the positions of the Setup events in the list. */
static PyObject *move_points(PyObject *self, PyObject *args) {
    PyObject *events;
    int w, h;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!ii", &PyList_Type, &events, &w, &h)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(events), nm = 0;
    long npoints = (long)w * h, plays = 0;
    unsigned char *colours = PyMem_Malloc(n + 1);
    uint16_t *points = PyMem_Malloc((n + 1) * sizeof(uint16_t));
    PyObject *setup_at = PyList_New(0), *out = NULL;
    if (!colours || !points || !setup_at) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyList_GET_ITEM(events, i);
        int is_move = is_a(C_MOVE, e);
        if (is_move < 0) goto done;
        if (!is_move) {
            if (is_a(C_SETUP, e) != 1) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Move or Setup expected");
                goto done;
            }
            PyObject *at = PyLong_FromSsize_t(i);
            if (!at || PyList_Append(setup_at, at) < 0) { Py_XDECREF(at); goto done; }
            Py_DECREF(at);
            continue;
        }
        long c = PyLong_AsLong(PyTuple_GET_ITEM(e, 0));
        PyObject *pt = PyTuple_GET_ITEM(e, 1);
        long p = npoints;
        if (pt != Py_None) {
            long col = PyLong_AsLong(PyTuple_GET_ITEM(pt, 0)), row = PyLong_AsLong(PyTuple_GET_ITEM(pt, 1));
            if (col < w && row < h && col >= 0 && row >= 0) p = row * w + col;
        }
        if (PyErr_Occurred()) goto done;
        colours[nm] = (unsigned char)c;
        points[nm++] = (uint16_t)p;
        if (p != npoints) plays++;
    }
    out = make(C_MOVE_POINTS, Py_BuildValue("(y#y#lO)", (const char *)colours, nm,
                                             (const char *)points,
                                             nm * (Py_ssize_t)sizeof(uint16_t), plays, setup_at));
done:
    PyMem_Free(colours);
    PyMem_Free(points);
    Py_XDECREF(setup_at);
    return out;
}

/* remap16(points, table) -> bytes: each uint16 point replaced by its image in the table. */
static PyObject *remap16(PyObject *self, PyObject *args) {
    Py_buffer pts, tab;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*", &pts, &tab)) return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = pts.len / 2, m = tab.len / 2;
    const uint16_t *p = pts.buf, *t = tab.buf;
    uint16_t *buf = PyMem_Malloc((n + 1) * sizeof(uint16_t));
    if (!buf) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p[i] >= m) { PyErr_SetString(PyExc_ValueError, "point outside the table"); goto done; }
        buf[i] = t[p[i]];
    }
    out = PyBytes_FromStringAndSize((const char *)buf, n * 2);
done:
    PyMem_Free(buf);
    PyBuffer_Release(&pts);
    PyBuffer_Release(&tab);
    return out;
}

/* --- module ------------------------------------------------------------------------------------ */

/* ---- the referee's map (position/referee.py is the reference; the same steps, same names) ---- */

/* The wall shapes in their eight orientations, relative to "@": cells that must hold the
 * player's living stones ('p'), be open ('e'), or merely lie on the board ('?'), and the cells
 * of an edge shape's last row, which must lie off the board. */
typedef struct {
    int n; signed char dr[9], dc[9]; char kind[9]; int noff; signed char odr[3], odc[3];
    /* the same cells as masks of the 3x3 box around "@" (bit (dr + 1) * 3 + dc + 1): the
     * player's living stones, open cells, cells on the board, cells off it */
    unsigned p_mask, e_mask, on_mask, off_mask;
} WallShape;
static WallShape wall_shapes[64];
static int n_wall_shapes = -1;

static void build_wall_shapes(void) {
    static const char *shapes[6][3] = {
        {"pp", "@e", "pe"}, {"ep?", "e@e", "ep?"}, {"pee", "e@p", "pee"},
        {"?e?", "p@p", "###"}, {"pp", "@e", "##"}, {"ep?", "e@e", "###"}};
    static const int turns[8][4] = {{1, 0, 0, 1}, {-1, 0, 0, 1}, {1, 0, 0, -1}, {-1, 0, 0, -1},
                                    {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, -1, 0}, {0, -1, -1, 0}};
    n_wall_shapes = 0;
    for (int s = 0; s < 6; s++) {
        int ar = 0, ac = 0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; shapes[s][r][c]; c++)
                if (shapes[s][r][c] == '@') { ar = r; ac = c; }
        for (int t = 0; t < 8; t++) {
            WallShape w; memset(&w, 0, sizeof w);
            for (int r = 0; r < 3; r++)
                for (int c = 0; shapes[s][r][c]; c++) {
                    char k = shapes[s][r][c];
                    int dr = r - ar, dc = c - ac;
                    int rr = turns[t][0] * dr + turns[t][2] * dc;
                    int cc = turns[t][1] * dr + turns[t][3] * dc;
                    if (k == '#') { w.odr[w.noff] = (signed char)rr; w.odc[w.noff++] = (signed char)cc; }
                    else if (k != '@') { w.dr[w.n] = (signed char)rr; w.dc[w.n] = (signed char)cc; w.kind[w.n++] = k; }
                }
            /* the same shape met again in another orientation is kept once */
            int dup = 0;
            for (int i = 0; i < n_wall_shapes && !dup; i++) {
                WallShape *o = &wall_shapes[i];
                if (o->n != w.n || o->noff != w.noff) continue;
                int same = 1;
                for (int a = 0; a < w.n && same; a++) {
                    int found = 0;
                    for (int b = 0; b < o->n; b++)
                        if (o->dr[b] == w.dr[a] && o->dc[b] == w.dc[a] && o->kind[b] == w.kind[a]) found = 1;
                    same = found;
                }
                for (int a = 0; a < w.noff && same; a++) {
                    int found = 0;
                    for (int b = 0; b < o->noff; b++)
                        if (o->odr[b] == w.odr[a] && o->odc[b] == w.odc[a]) found = 1;
                    same = found;
                }
                dup = same;
            }
            if (!dup) {
                for (int a = 0; a < w.n; a++) {
                    unsigned bit = 1u << ((w.dr[a] + 1) * 3 + w.dc[a] + 1);
                    w.on_mask |= bit;
                    if (w.kind[a] == 'p') w.p_mask |= bit;
                    else if (w.kind[a] == 'e') w.e_mask |= bit;
                }
                for (int a = 0; a < w.noff; a++) w.off_mask |= 1u << ((w.odr[a] + 1) * 3 + w.odc[a] + 1);
                wall_shapes[n_wall_shapes++] = w;
            }
        }
    }
}

typedef struct {
    const Geo *g;
    int n;
    const unsigned char *stone, *dead;
    unsigned char alive[MAXP], blocked[MAXP];
    unsigned char strict[3][MAXP], reach[3][MAXP];
    int region[MAXP], region_colour[MAXP], nregions;
    int chain[MAXP], chain_region[MAXP], chain_libs[MAXP], nchains;
    int group[MAXP], ngroups;
    int eye[MAXP], neyes;
    int eye_colour[MAXP], eye_region[MAXP], eye_value[MAXP];
    /* eye points, by eye: eye_start[e] .. eye_start[e + 1] in eye_pts */
    int eye_pts[MAXP], eye_start[MAXP + 1];
    /* contacts: an eye point beside a stone of a group of the same region */
    int ncontacts, cap_contacts;
    int *c_eye, *c_group, *c_point, *c_stone;
    /* contacts sorted by eye and by group: index lists */
    int *by_eye, *by_eye_start, *by_group, *by_group_start;
    /* in by_group, where the run of one group's contacts with one eye that starts here ends */
    int *run_end;
    unsigned char false1[MAXP], fill[MAXP];
    /* search state */
    int mark_group[MAXP], mark_eye[MAXP], mark_used[MAXP], mark_reached[MAXP], gen, rgen;
    int todo[MAXP], queue[MAXP], reached[MAXP], nreached;
} Ref;

static int ref_add_contact(Ref *R, int e, int gr, int p, int s) {
    if (R->ncontacts == R->cap_contacts) {
        int cap = R->cap_contacts ? R->cap_contacts * 2 : 256;
        int *a = PyMem_Realloc(R->c_eye, cap * sizeof(int)), *b, *c, *d;
        if (!a) return -1;
        R->c_eye = a;
        b = PyMem_Realloc(R->c_group, cap * sizeof(int)); if (!b) return -1; R->c_group = b;
        c = PyMem_Realloc(R->c_point, cap * sizeof(int)); if (!c) return -1; R->c_point = c;
        d = PyMem_Realloc(R->c_stone, cap * sizeof(int)); if (!d) return -1; R->c_stone = d;
        R->cap_contacts = cap;
    }
    R->c_eye[R->ncontacts] = e; R->c_group[R->ncontacts] = gr;
    R->c_point[R->ncontacts] = p; R->c_stone[R->ncontacts] = s;
    R->ncontacts++;
    return 0;
}

static void ref_walls(Ref *R) {
    const Geo *g = R->g;
    int n = R->n, w = g->w, h = g->h;
    memset(R->blocked, 0, n);
    for (int pla = 1; pla <= 2; pla++) {
        int opp = 3 - pla;
        for (int p = 0; p < n; p++) {
            if (R->stone[p] != EMPTY) continue;
            int near = 0;
            for (int k = 0; k < g->nn[p]; k++) if (R->alive[g->nb[p][k]] == pla) near = 1;
            if (!near) continue;
            /* the 3x3 box around p as masks: on the board, the player's living stones, open
             * (empty, the player's living stone, a dead stone of the opponent) */
            int row = p / w, col = p % w;
            unsigned on = 0, mine = 0, open = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++) {
                    int r = row + dr, c = col + dc;
                    if ((dr == 0 && dc == 0) || r < 0 || r >= h || c < 0 || c >= w) continue;
                    unsigned bit = 1u << ((dr + 1) * 3 + dc + 1);
                    int q = r * w + c;
                    on |= bit;
                    if (R->alive[q] == pla) mine |= bit;
                    if (R->stone[q] == EMPTY || R->alive[q] == pla || (R->stone[q] == opp && R->dead[q]))
                        open |= bit;
                }
            for (int s = 0; s < n_wall_shapes; s++) {
                const WallShape *ws = &wall_shapes[s];
                if ((on & ws->on_mask) == ws->on_mask && !(on & ws->off_mask)
                    && (mine & ws->p_mask) == ws->p_mask && (open & ws->e_mask) == ws->e_mask) {
                    R->blocked[p] = (unsigned char)pla;
                    break;
                }
            }
        }
    }
}

/* The points the player's living stones reach through points that are not the opponent's living
 * stones; with `walls`, a point the opponent's wall blocks is reached but leads nowhere. The
 * least set closed under that step, found row by row on bit rows (a board is at most 52 wide):
 * sweeps down and up the board, each row spread along itself to a standstill, until a sweep
 * adds nothing - the same set a flood from every stone finds, whatever the order. */
static void ref_reach(Ref *R, int pla, int walls, unsigned char *seen) {
    const Geo *g = R->g;
    int w = g->w, h = g->h, opp = 3 - pla;
    uint64_t full = w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
    uint64_t open[52], stop[52], got[52];
    for (int r = 0; r < h; r++) {
        uint64_t o = 0, s = 0, m = 0;
        for (int c = 0; c < w; c++) {
            int p = r * w + c;
            uint64_t bit = (uint64_t)1 << c;
            if (R->alive[p] != opp) o |= bit;
            if (R->alive[p] == pla) m |= bit;
            if (walls && R->blocked[p] == opp) s |= bit;
        }
        open[r] = o; stop[r] = s; got[r] = m;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < h; k++) {
                int r = pass == 0 ? k : h - 1 - k;
                uint64_t from = 0;
                if (r > 0) from |= got[r - 1] & ~stop[r - 1];
                if (r + 1 < h) from |= got[r + 1] & ~stop[r + 1];
                uint64_t x = got[r] | (from & open[r]);
                for (;;) {  /* along the row */
                    uint64_t lead = x & ~stop[r];
                    uint64_t y = x | (((lead << 1) | (lead >> 1)) & open[r] & full);
                    if (y == x) break;
                    x = y;
                }
                if (x != got[r]) { got[r] = x; changed = 1; }
            }
    }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) seen[r * w + c] = (unsigned char)((got[r] >> c) & 1);
}

/* The connected pieces of the points flagged in `in` (gen-marked) once `cut` points are taken
 * out; returns the number of pieces and labels each point's piece in lab[]. */
static int ref_pieces(Ref *R, const int *pts, int np, const int *cut, int ncut, int *lab,
                      unsigned char *inset) {
    const Geo *g = R->g;
    int pieces = 0;
    for (int i = 0; i < np; i++) lab[pts[i]] = -1;
    for (int i = 0; i < np; i++) {
        int s = pts[i];
        int skip = 0;
        for (int j = 0; j < ncut; j++) if (cut[j] == s) skip = 1;
        if (skip || lab[s] >= 0) continue;
        int sp = 0;
        R->todo[sp++] = s; lab[s] = pieces;
        while (sp) {
            int p = R->todo[--sp];
            for (int k = 0; k < g->nn[p]; k++) {
                int q = g->nb[p][k];
                if (!inset[q] || lab[q] >= 0) continue;
                int c = 0;
                for (int j = 0; j < ncut; j++) if (cut[j] == q) c = 1;
                if (c) continue;
                lab[q] = pieces; R->todo[sp++] = q;
            }
        }
        pieces++;
    }
    return pieces;
}

static int ref_playable(Ref *R, int p, int pla) {
    const Geo *g = R->g;
    if (R->stone[p] != EMPTY) return 0;
    int opp = 3 - pla;
    for (int k = 0; k < g->nn[p]; k++) {
        int q = g->nb[p][k];
        if (R->stone[q] != opp) return 1;
        if (R->chain_libs[R->chain[q]] <= 1) return 1;
    }
    return 0;
}

/* _comes_round: from first_group, can the point's other sides be reached (or an eye worth
 * something)? The groups reached are a closure (see the Python reference); it is walked breadth
 * first with a queue, each group once, which finds the sides near the point soonest. */
typedef struct { int home, point, needed, nsides, sides[4], pass2; } Round;

static void round_side(Round *S, int s) {
    for (int t = 0; t < S->nsides; t++) if (S->sides[t] == s) return;
    if (S->nsides < 4) S->sides[S->nsides++] = s;
}

static int ref_comes_round(Ref *R, int home, int point, int first_group, int pass2) {
    const Geo *g = R->g;
    Round S;
    S.home = home; S.point = point; S.nsides = 0; S.pass2 = pass2; S.needed = 0;
    for (int k = 0; k < g->nn[point]; k++)
        if (R->region[g->nb[point][k]] == R->eye_region[home]) S.needed++;
    R->gen++;
    R->mark_used[point] = R->gen;
    int *queue = R->queue, head = 0, tail = 0;
    queue[tail++] = first_group;
    R->mark_group[first_group] = R->gen;
    while (head < tail) {
        int gr = queue[head++];
        for (int ci = R->by_group_start[gr]; ci < R->by_group_start[gr + 1]; ) {
            int eid = R->c_eye[R->by_group[ci]], cj = R->run_end[ci];
            /* contacts ci..cj-1: group gr and eye eid */
            if (R->mark_eye[eid] == R->gen) { ci = cj; continue; }
            if (eid == home) {
                for (int x = ci; x < cj; x++) {
                    int st = R->c_stone[R->by_group[x]];
                    for (int k = 0; k < g->nn[point]; k++)
                        if (g->nb[point][k] == st) round_side(&S, st);
                }
                if (S.nsides >= S.needed) return 1;
                /* spread within the eye from its points beside this group, not through used ones */
                R->rgen++;
                int sp = 0, first = R->nreached;
                for (int x = ci; x < cj; x++) {
                    int p = R->c_point[R->by_group[x]];
                    if (R->mark_used[p] == R->gen || R->mark_reached[p] == R->rgen) continue;
                    R->mark_reached[p] = R->rgen; R->todo[sp++] = p;
                }
                while (sp) {
                    int p = R->todo[--sp];
                    R->reached[R->nreached++] = p;
                    for (int k = 0; k < g->nn[p]; k++) {
                        int q = g->nb[p][k];
                        if (R->eye[q] == eid && R->mark_used[q] != R->gen
                            && R->mark_reached[q] != R->rgen) {
                            R->mark_reached[q] = R->rgen; R->todo[sp++] = q;
                        }
                    }
                }
                int last = R->nreached;
                R->nreached = first;
                if (last == first) { ci = cj; continue; }
                int hit_real = 0;
                for (int i = first; i < last; i++) {
                    int p = R->reached[i];
                    R->mark_used[p] = R->gen;
                    if (S.pass2 && R->eye_value[eid] > 0 && !R->false1[p]) hit_real = 1;
                    for (int k = 0; k < g->nn[point]; k++)
                        if (g->nb[point][k] == p) round_side(&S, p);
                }
                if (hit_real || S.nsides >= S.needed) return 1;
                /* the groups beside the points reached */
                for (int x = R->by_eye_start[eid]; x < R->by_eye_start[eid + 1]; x++) {
                    int c = R->by_eye[x];
                    int g2 = R->c_group[c];
                    if (R->mark_reached[R->c_point[c]] == R->rgen && R->mark_group[g2] != R->gen) {
                        R->mark_group[g2] = R->gen; queue[tail++] = g2;
                    }
                }
            } else {
                R->mark_eye[eid] = R->gen;
                if (S.pass2 && R->eye_value[eid] > 0) return 1;
                for (int x = R->by_eye_start[eid]; x < R->by_eye_start[eid + 1]; x++) {
                    int g2 = R->c_group[R->by_eye[x]];
                    if (R->mark_group[g2] != R->gen) { R->mark_group[g2] = R->gen; queue[tail++] = g2; }
                }
            }
            ci = cj;
        }
    }
    return 0;
}

/* false[] for every eye point beside a group: see Analysis.false_points. `among`: only these. */
static int ref_false_points(Ref *R, unsigned char *out, const unsigned char *among, int pass2) {
    const Geo *g = R->g;
    memset(out, 0, R->n);
    for (int e = 0; e < R->neyes; e++) {
        for (int x = R->by_eye_start[e]; x < R->by_eye_start[e + 1]; ) {
            int gr = R->c_group[R->by_eye[x]];
            int y = x;
            while (y < R->by_eye_start[e + 1] && R->c_group[R->by_eye[y]] == gr) y++;
            for (int z = x; z < y; z++) {
                int point = R->c_point[R->by_eye[z]];
                int dup = 0;
                for (int t = x; t < z; t++) if (R->c_point[R->by_eye[t]] == point) dup = 1;
                if (dup || out[point]) continue;
                if (among && !among[point]) continue;
                int inside = 0;
                for (int k = 0; k < g->nn[point]; k++) if (R->eye[g->nb[point][k]] == e) inside++;
                if (inside > 1) continue;
                int r = ref_comes_round(R, e, point, gr, pass2);
                if (r < 0) return -1;
                if (!r) out[point] = 1;
            }
            x = y;
        }
    }
    return 0;
}

/* out = in (n contact numbers) stably sorted by key[contact] (0 .. keys-1); count: keys + 1
 * ints of room. */
static void ref_sort(const int *key, int keys, const int *in, int *out, int n, int *count) {
    for (int k = 0; k <= keys; k++) count[k] = 0;
    for (int i = 0; i < n; i++) count[key[in[i]] + 1]++;
    for (int k = 1; k <= keys; k++) count[k] += count[k - 1];
    for (int i = 0; i < n; i++) out[count[key[in[i]]]++] = in[i];
}

/* The value of eye e (0, 1, 2): see Analysis.eye_value. */
static int ref_eye_value(Ref *R, int e, const unsigned char *fls, int *lab, unsigned char *inset) {
    const Geo *g = R->g;
    int pla = R->eye_colour[e], opp = 3 - pla;
    int *pts = &R->eye_pts[R->eye_start[e]];
    int np0 = R->eye_start[e + 1] - R->eye_start[e];
    static int real[MAXP];
    int nr = 0;
    static int moves[MAXP], inner[MAXP], empty_inner[MAXP], empty_false[MAXP], opp_false[MAXP];
    static unsigned char poke[MAXP];
    for (int i = 0; i < np0; i++) if (!fls[pts[i]]) real[nr++] = pts[i];
    if (!nr) return 0;
    for (int i = 0; i < nr; i++) inset[real[i]] = 1;
    const unsigned char *stone = R->stone;
    for (int i = 0; i < nr; i++) {
        int p = real[i];
        inner[p] = empty_inner[p] = empty_false[p] = opp_false[p] = 0;
        for (int k = 0; k < g->nn[p]; k++) {
            int q = g->nb[p][k];
            if (inset[q]) { inner[p]++; if (stone[q] == EMPTY) empty_inner[p]++; }
            if (stone[q] == EMPTY && fls[q]) empty_false[p]++;
            if (stone[q] == opp && fls[q]) opp_false[p]++;
        }
    }
    for (int i = 0; i < nr; i++) {
        int p = real[i];
        poke[p] = stone[p] == opp && (opp_false[p] > 0 || empty_false[p] >= 2);
    }
    for (int i = 0; i < nr; i++) {
        int p = real[i], total = 0;
        for (int k = 0; k < g->nn[p]; k++) {
            int q = g->nb[p][k], block = 0;
            if (stone[q] == EMPTY && !inset[q]) block = 1;
            if (stone[q] == EMPTY && inset[q] && opp_false[q] >= 1) block = 1;
            if (stone[q] == opp && inset[q] && empty_false[q] >= 1) block = 1;
            if (stone[q] == opp && fls[q]) block = 1000;
            if (stone[q] == opp && inset[q] && poke[q]) block = 1000;
            total += block;
        }
        moves[p] = total;
    }
    int value = 0, dead_inside = 0, weak1 = 0, weak2 = 0, opp_inner = 0, deg4 = 0, deg3 = 0;
    for (int i = 0; i < nr; i++) {
        int p = real[i];
        if (moves[p] <= 1) value = 1;
        if (moves[p] >= 1) weak1++;
        if (moves[p] >= 2) weak2++;
        if (stone[p] == opp && R->dead[p]) dead_inside++;
        if (stone[p] == opp && inner[p] >= 2) opp_inner++;
        if (stone[p] == EMPTY && inner[p] >= 4) deg4++;
        if (stone[p] == EMPTY && inner[p] >= 3) deg3++;
    }
    if (dead_inside >= 8) value = 2;
    else if (dead_inside >= 5 && value < 1) value = 1;
    if (value < 2 && nr - weak1 - weak2 - opp_inner >= 6) value = 2;
    if (value < 2 && deg4 + deg3 >= 6) value = 2;
    if (value < 2) {
        for (int i = 0; i < nr && value < 2; i++) {
            int cut = real[i];
            if (!ref_playable(R, cut, pla)) continue;
            int pieces = ref_pieces(R, real, nr, &cut, 1, lab, inset);
            if (pieces < 2) continue;
            int bonus = opp_false[cut] == 1, sure = 0;
            for (int piece = 0; piece < pieces; piece++) {
                for (int j = 0; j < nr; j++) {
                    int p = real[j];
                    if (p == cut || lab[p] != piece) continue;
                    if (moves[p] <= 0 || (bonus && moves[p] <= 1)) { sure++; break; }
                }
            }
            if (sure > value) value = sure;
        }
    }
    if (value < 2) { /* two adjacent points that split the eye */
        for (int i = 0; i < nr && value < 2; i++) {
            int a = real[i], row = a / g->w, col = a % g->w;
            if (stone[a] != EMPTY || row == 0 || col == 0 || row == g->h - 1 || col == g->w - 1) continue;
            if (!ref_playable(R, a, pla) || moves[a] > 1 || inner[a] < 3) continue;
            for (int k = 0; k < g->nn[a] && value < 2; k++) {
                int b = g->nb[a][k];
                if (!inset[b] || inner[b] < 3 || moves[b] > 1) continue;
                if (stone[b] != EMPTY && empty_inner[b] <= 1) continue;
                int cut[2] = {a, b};
                int pieces = ref_pieces(R, real, nr, cut, 2, lab, inset);
                if (pieces < 2) continue;
                int sure = 0, dbl = 0;
                for (int piece = 0; piece < pieces; piece++) {
                    int sealed = 0;
                    for (int j = 0; j < nr; j++) {
                        int p = real[j];
                        if (p == a || p == b || lab[p] != piece) continue;
                        if (moves[p] <= 0) sealed++;
                    }
                    if (sealed >= 1) sure++;
                    if (sealed >= 2) dbl++;
                }
                if (sure >= 2 && dbl >= 1 && (stone[b] == EMPTY || dbl >= 2)) value = 2;
            }
        }
    }
    if (value < 2) { /* dead opponent stones that leave a living shape once captured */
        static int dead_opp[MAXP], unpl[MAXP], shape[MAXP];
        int nd = 0, nu = 0, throw_ins = 0;
        for (int i = 0; i < nr; i++) {
            int p = real[i];
            if (stone[p] == opp && R->dead[p]) dead_opp[nd++] = p;
        }
        if (nd > 0) {
            for (int i = 0; i < nr; i++) {
                int p = real[i];
                if (!(stone[p] == opp && R->dead[p]) && !ref_playable(R, p, pla)) unpl[nu++] = p;
            }
            for (int i = 0; i < np0; i++) if (stone[pts[i]] == opp && fls[pts[i]]) throw_ins++;
            int all_good = 1;
            for (int om = -1; om < nu && all_good; om++) {
                int ns = 0;
                for (int i = 0; i < nd; i++) shape[ns++] = dead_opp[i];
                for (int i = 0; i < nu; i++) if (i != om) shape[ns++] = unpl[i];
                for (int i = 0; i < nr; i++) inset[real[i]] = 0;
                for (int i = 0; i < ns; i++) inset[shape[i]] = 1;
                int base = ref_pieces(R, shape, ns, NULL, 0, lab, inset);
                int cuts = 0, high = 0;
                for (int i = 0; i < ns; i++) {
                    int p = shape[i];
                    if (ref_pieces(R, shape, ns, &p, 1, lab, inset) > base) cuts++;
                    else {
                        int d = 0;
                        for (int k = 0; k < g->nn[p]; k++) if (inset[g->nb[p][k]]) d++;
                        if (d >= 3) high++;
                    }
                }
                for (int i = 0; i < ns; i++) inset[shape[i]] = 0;
                for (int i = 0; i < nr; i++) inset[real[i]] = 1;
                int bonus = ns >= 7 ? 1 : 0;
                if (base - throw_ins + (cuts + high + bonus) / 2 < 2) all_good = 0;
            }
            if (all_good) value = 2;
        }
    }
    for (int i = 0; i < nr; i++) inset[real[i]] = 0;
    return value > 2 ? 2 : value;
}

static int ref_run(Ref *R, unsigned char *territory, unsigned char *seki, unsigned char *dame,
                   unsigned char *eyeval, int *groups_b, int *groups_w) {
    const Geo *g = R->g;
    int n = R->n;
    static int lab[MAXP], mark[MAXP];
    static unsigned char inset[MAXP];
    for (int p = 0; p < n; p++) R->alive[p] = R->dead[p] ? EMPTY : R->stone[p];
    ref_walls(R);
    for (int pla = 1; pla <= 2; pla++) {
        ref_reach(R, pla, 0, R->strict[pla]);
        ref_reach(R, pla, 1, R->reach[pla]);
    }
    /* regions */
    R->nregions = 0;
    for (int p = 0; p < n; p++) { R->region[p] = -1; mark[p] = -1; }
    for (int start = 0; start < n; start++)
        for (int pla = 1; pla <= 2; pla++) {
            int opp = 3 - pla;
            if (R->region[start] != -1 || !R->reach[pla][start] || R->reach[opp][start]) continue;
            int rid = R->nregions++;
            R->region_colour[rid] = pla;
            int sp = 0;
            R->todo[sp++] = start; mark[start] = rid;
            while (sp) {
                int p = R->todo[--sp];
                if (R->reach[pla][p] && !R->reach[opp][p]) R->region[p] = rid;
                if (R->blocked[p] == opp) continue;
                for (int k = 0; k < g->nn[p]; k++) {
                    int q = g->nb[p][k];
                    if (mark[q] != rid && R->region[q] == -1 && R->alive[q] != opp) {
                        mark[q] = rid; R->todo[sp++] = q;
                    }
                }
            }
        }
    /* chains (empty points too), their region and liberties */
    R->nchains = 0;
    for (int p = 0; p < n; p++) { R->chain[p] = -1; mark[p] = -1; }
    for (int start = 0; start < n; start++) {
        if (R->chain[start] != -1) continue;
        int cid = R->nchains++, colour = R->stone[start], life = R->dead[start] ? 1 : 0;
        int same = R->region[start], libs = 0, sp = 0;
        R->chain[start] = cid; R->todo[sp++] = start;
        while (sp) {
            int p = R->todo[--sp];
            if (R->region[p] != same) same = -1;
            for (int k = 0; k < g->nn[p]; k++) {
                int q = g->nb[p][k];
                if (R->chain[q] == -1 && R->stone[q] == colour && (R->dead[q] ? 1 : 0) == life) {
                    R->chain[q] = cid; R->todo[sp++] = q;
                } else if (R->stone[q] == EMPTY && R->chain[q] != cid && mark[q] != cid) {
                    mark[q] = cid; libs++;
                }
            }
        }
        R->chain_region[cid] = same;
        R->chain_libs[cid] = libs;
    }
    /* groups: living chains of one colour joined through walkable dame */
    R->ngroups = 0;
    for (int p = 0; p < n; p++) R->group[p] = -1;
    for (int pla = 1; pla <= 2; pla++) {
        int opp = 3 - pla;
        for (int p = 0; p < n; p++) mark[p] = 0;
        for (int start = 0; start < n; start++) {
            if (R->alive[start] != pla || R->group[start] != -1) continue;
            int gid = R->ngroups++, sp = 0;
            R->todo[sp++] = start; mark[start] = 1;
            while (sp) {
                int p = R->todo[--sp];
                if (R->alive[p] == pla) R->group[p] = gid;
                else if (!(R->region[p] == -1 && R->blocked[p] != opp)) continue;
                for (int k = 0; k < g->nn[p]; k++) {
                    int q = g->nb[p][k];
                    if (!mark[q]) { mark[q] = 1; R->todo[sp++] = q; }
                }
            }
        }
    }
    /* eyes and their contacts with groups */
    R->neyes = 0; R->ncontacts = 0;
    int npts = 0;
    for (int p = 0; p < n; p++) R->eye[p] = -1;
    for (int start = 0; start < n; start++) {
        if (R->eye[start] != -1 || R->alive[start] != EMPTY || R->region[start] == -1) continue;
        int e = R->neyes++, rid = R->region[start], sp = 0;
        R->eye_colour[e] = R->region_colour[rid]; R->eye_region[e] = rid; R->eye_value[e] = 0;
        R->eye_start[e] = npts;
        R->eye[start] = e; R->todo[sp++] = start;
        while (sp) {
            int p = R->todo[--sp];
            R->eye_pts[npts++] = p;
            for (int k = 0; k < g->nn[p]; k++) {
                int q = g->nb[p][k];
                if (R->region[q] != rid) continue;
                if (R->group[q] != -1) {
                    if (ref_add_contact(R, e, R->group[q], p, q) < 0) return -1;
                } else if (R->alive[q] == EMPTY && R->eye[q] == -1) {
                    R->eye[q] = e; R->todo[sp++] = q;
                }
            }
        }
    }
    R->eye_start[R->neyes] = npts;
    int nc = R->ncontacts;
    R->by_eye = PyMem_Malloc(sizeof(int) * (size_t)(nc + 1));
    R->by_group = PyMem_Malloc(sizeof(int) * (size_t)(nc + 1));
    R->by_eye_start = PyMem_Malloc(sizeof(int) * (size_t)(R->neyes + 2));
    R->by_group_start = PyMem_Malloc(sizeof(int) * (size_t)(R->ngroups + 2));
    R->run_end = PyMem_Malloc(sizeof(int) * (size_t)(nc + 1));
    int *spare = PyMem_Malloc(sizeof(int) * (size_t)(nc + 1));
    if (!R->by_eye || !R->by_group || !R->by_eye_start || !R->by_group_start || !R->run_end
        || !spare) {
        PyMem_Free(spare);
        return -1;
    }
    /* The contacts by (eye, group, contact) and by (group, eye, contact): each a stable
     * counting sort by the second key, then by the first (the order of the reference's sort) */
    for (int i = 0; i < nc; i++) spare[i] = i;
    ref_sort(R->c_group, R->ngroups, spare, R->by_eye, nc, R->by_group_start);
    ref_sort(R->c_eye, R->neyes, R->by_eye, spare, nc, R->by_eye_start);
    memcpy(R->by_eye, spare, sizeof(int) * (size_t)nc);
    for (int i = 0; i < nc; i++) spare[i] = i;
    ref_sort(R->c_eye, R->neyes, spare, R->by_group, nc, R->by_eye_start);
    ref_sort(R->c_group, R->ngroups, R->by_group, spare, nc, R->by_group_start);
    memcpy(R->by_group, spare, sizeof(int) * (size_t)nc);
    PyMem_Free(spare);
    for (int e = 0, i = 0; e <= R->neyes; e++) {
        while (i < nc && R->c_eye[R->by_eye[i]] < e) i++;
        R->by_eye_start[e] = i;
    }
    for (int gr = 0, i = 0; gr <= R->ngroups; gr++) {
        while (i < nc && R->c_group[R->by_group[i]] < gr) i++;
        R->by_group_start[gr] = i;
    }
    for (int i = nc - 1; i >= 0; i--) {
        int c = R->by_group[i], d = i + 1 < nc ? R->by_group[i + 1] : -1;
        R->run_end[i] = d >= 0 && R->c_group[d] == R->c_group[c] && R->c_eye[d] == R->c_eye[c]
                            ? R->run_end[i + 1] : i + 1;
    }
    /* false eye points, eye values, false eyes again with the values */
    for (int p = 0; p < n; p++) { R->mark_group[p] = R->mark_eye[p] = R->mark_used[p] = R->mark_reached[p] = 0; }
    R->gen = R->rgen = 0;
    if (ref_false_points(R, R->false1, NULL, 0) < 0) return -1;
    memset(inset, 0, n);
    for (int e = 0; e < R->neyes; e++) R->eye_value[e] = ref_eye_value(R, e, R->false1, lab, inset);
    if (ref_false_points(R, R->fill, R->false1, 1) < 0) return -1;
    /* the count */
    static unsigned char extra[3][MAXP];
    memset(extra[1], 0, n); memset(extra[2], 0, n);
    for (int p = 0; p < n; p++)
        if (R->fill[p] && R->dead[p] && R->stone[p] != EMPTY) {
            int c = 3 - R->stone[p];
            for (int k = 0; k < g->nn[p]; k++) extra[c][g->nb[p][k]] = 1;
        }
    static int region_eyes[MAXP];
    for (int r = 0; r < R->nregions; r++) region_eyes[r] = 0;
    for (int e = 0; e < R->neyes; e++) region_eyes[R->eye_region[e]] += R->eye_value[e];
    *groups_b = *groups_w = 0;
    for (int r = 0; r < R->nregions; r++)
        if (region_eyes[r] >= 2) { if (R->region_colour[r] == 1) (*groups_b)++; else (*groups_w)++; }
    for (int p = 0; p < n; p++) {
        territory[p] = seki[p] = dame[p] = eyeval[p] = 0;
        int rid = R->region[p];
        if (rid == -1) { dame[p] = 1; continue; }
        int colour = R->region_colour[rid];
        if (region_eyes[rid] <= 1) seki[p] = (unsigned char)colour;
        if (R->alive[p] == EMPTY && extra[colour][p]) R->fill[p] = 2;  /* 2: beside a throw-in */
        if (R->eye[p] != -1) eyeval[p] = (unsigned char)R->eye_value[R->eye[p]];
        if (R->alive[p] != colour && !seki[p] && !R->fill[p] && R->chain_region[R->chain[p]] == rid
            && !R->strict[3 - colour][p])
            territory[p] = (unsigned char)colour;
    }
    return 0;
}

/* chains(colours, w, h) -> ([(stones, liberties), ...], hash): Board._rebuild's chains in its
 * order (by first point; each flooded depth first, the neighbours in the board's order), each
 * chain's stones and liberties in the order the flood meets them, and the Zobrist hash. */
static PyObject *chains(PyObject *self, PyObject *args) {
    Py_buffer col; int w, h; Geo *g;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ii", &col, &w, &h)) return NULL;
    PyObject *out = NULL, *list = NULL;
    int *work = NULL;
    if (get_board(&col, &w, &h, &g) < 0) goto done;
    const unsigned char *c = col.buf;
    int n = g->n;
    /* the call's own arrays, not static ones: making the lists may run a collection, and
     * whatever that runs may ask for a board's chains again */
    if (!(work = PyMem_Malloc(5 * (size_t)n * sizeof(int)))) { PyErr_NoMemory(); goto done; }
    int *label = work, *libmark = work + n, *stones = work + 2 * n, *libs = work + 3 * n,
        *todo = work + 4 * n;
    for (int p = 0; p < n; p++) { label[p] = -1; libmark[p] = -1; }
    uint64_t hash = 0;
    for (int p = 0; p < n; p++) if (c[p] == 1 || c[p] == 2) hash ^= zkey(c[p], p);
    if (!(list = PyList_New(0))) goto done;
    int nchains = 0;
    for (int start = 0; start < n; start++) {
        if (c[start] == EMPTY || label[start] >= 0) continue;
        int id = nchains++, ns = 0, nl = 0, sp = 0, colour = c[start];
        label[start] = id; stones[ns++] = start; todo[sp++] = start;
        while (sp) {
            int p = todo[--sp];
            for (int k = 0; k < g->nn[p]; k++) {
                int q = g->nb[p][k];
                if (c[q] == EMPTY) {
                    if (libmark[q] != id) { libmark[q] = id; libs[nl++] = q; }
                } else if (c[q] == colour && label[q] < 0) {
                    label[q] = id; stones[ns++] = q; todo[sp++] = q;
                }
            }
        }
        PyObject *st = int_list(stones, ns), *lb = st ? int_list(libs, nl) : NULL, *pair;
        if (!st || !lb) { Py_XDECREF(st); Py_XDECREF(lb); goto done; }
        pair = PyTuple_Pack(2, st, lb);
        Py_DECREF(st); Py_DECREF(lb);
        if (!pair) goto done;
        int bad = PyList_Append(list, pair);
        Py_DECREF(pair);
        if (bad < 0) goto done;
    }
    out = Py_BuildValue("(OK)", list, (unsigned long long)hash);
done:
    Py_XDECREF(list);
    PyMem_Free(work);
    PyBuffer_Release(&col);
    return out;
}

/* referee(stone, dead, w, h) -> (territory, seki, false_eye, to_fill, dame, eye_value,
 * groups_black, groups_white): bytes per point, as scoring/referee.referee_map. */
static PyObject *referee(PyObject *self, PyObject *args) {
    Py_buffer st, dd; int w, h; Geo *g;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*ii", &st, &dd, &w, &h)) return NULL;
    PyObject *out = NULL;
    Ref *R = NULL;
    if (get_board(&st, &w, &h, &g) < 0) goto done;
    if (dd.len != st.len) { PyErr_SetString(PyExc_ValueError, "dead array size"); goto done; }
    if (n_wall_shapes < 0) build_wall_shapes();
    /* One Ref, kept from call to call (a quarter of a megabyte: zeroed once, not per call);
     * each call sets what it reads before reading it. The GIL is held throughout. */
    static Ref *kept = NULL;
    if (!kept && !(kept = PyMem_Calloc(1, sizeof(Ref)))) { PyErr_NoMemory(); goto done; }
    R = kept;
    R->g = g; R->n = g->n; R->stone = st.buf; R->dead = dd.buf;
    R->nreached = 0; R->ncontacts = 0;
    unsigned char territory[MAXP], seki[MAXP], dame[MAXP], eyeval[MAXP], to_fill[MAXP];
    int gb, gw;
    int failed = ref_run(R, territory, seki, dame, eyeval, &gb, &gw) < 0;
    PyMem_Free(R->by_eye); PyMem_Free(R->by_group);  /* the sorted lists are the call's own */
    PyMem_Free(R->by_eye_start); PyMem_Free(R->by_group_start); PyMem_Free(R->run_end);
    R->by_eye = R->by_group = R->by_eye_start = R->by_group_start = R->run_end = NULL;
    if (failed) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    /* Everything handed back is copied out of the kept record first: making the answer may
     * run a collection, and whatever that runs may call the referee again. */
    unsigned char false_eye[MAXP];
    memcpy(false_eye, R->false1, (size_t)g->n);
    for (int p = 0; p < g->n; p++) to_fill[p] = R->fill[p] ? 1 : 0;
    out = Py_BuildValue("(y#y#y#y#y#y#ii)", territory, (Py_ssize_t)g->n, seki, (Py_ssize_t)g->n,
                        false_eye, (Py_ssize_t)g->n, to_fill, (Py_ssize_t)g->n, dame,
                        (Py_ssize_t)g->n, eyeval, (Py_ssize_t)g->n, gb, gw);
done:
    PyBuffer_Release(&st);
    PyBuffer_Release(&dd);
    return out;
}

/* seki_reading(owner, territory, seki, colour) -> (seki_empty_b, seki_empty_w, must_fill_b,
 * must_fill_w, seki_stones_b, seki_stones_w): what position._referee_reading's loops find, in
 * the same order. An empty point one colour alone reaches (owner 1 or 2) that the referee does
 * not count for it belongs to a group of that colour in seki (seki_empty) or is to fill
 * (must_fill); seki_stones are the stones (colour, dead ones removed) of groups in seki. */
static PyObject *seki_reading(PyObject *self, PyObject *args) {
    Py_buffer own, ter, sek, col;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*", &own, &ter, &sek, &col)) return NULL;
    PyObject *lists[6] = {NULL}, *out = NULL;
    Py_ssize_t n = own.len;
    if (ter.len != n || sek.len != n || col.len != n) {
        PyErr_SetString(PyExc_ValueError, "seki_reading: the four maps differ in size");
        goto done;
    }
    for (int k = 0; k < 6; k++)
        if ((lists[k] = PyList_New(0)) == NULL) goto done;
    const unsigned char *o = own.buf, *t = ter.buf, *s = sek.buf, *c = col.buf;
    int any_seki = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        if (s[p]) any_seki = 1;
        if (o[p] == t[p] || (o[p] != 1 && o[p] != 2)) continue;
        PyObject *where = PyLong_FromSsize_t(p);
        int k = (s[p] == o[p] ? 0 : 2) + (o[p] - 1);
        int bad = where == NULL || PyList_Append(lists[k], where);
        Py_XDECREF(where);
        if (bad) goto done;
    }
    for (Py_ssize_t p = 0; any_seki && p < n; p++) {
        if (!c[p] || s[p] != c[p] || c[p] > 2) continue;
        PyObject *where = PyLong_FromSsize_t(p);
        int bad = where == NULL || PyList_Append(lists[4 + c[p] - 1], where);
        Py_XDECREF(where);
        if (bad) goto done;
    }
    out = PyTuple_New(6);
    if (out != NULL)
        for (int k = 0; k < 6; k++) {
            PyTuple_SET_ITEM(out, k, lists[k]);
            lists[k] = NULL;
        }
done:
    for (int k = 0; k < 6; k++) Py_XDECREF(lists[k]);
    PyBuffer_Release(&own);
    PyBuffer_Release(&ter);
    PyBuffer_Release(&sek);
    PyBuffer_Release(&col);
    return out;
}

/* The SGF reader (_sgfread.c). */
/* --- the region game (sgfcheck.endgame.localgame; the work is in _region.c) ---------------- */

static int small_int(PyObject *o, int low, int high, const char *what, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "region game: %s %ld out of range", what, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* region_game(RegionRequest) -> RegionGame; a region beyond this core's sizes is a ValueError
 * (the caller then works it out in Python). */
static PyObject *region_game(PyObject *self, PyObject *args) {
    PyObject *req;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &req)) return NULL;
    if (!field(C_REGION_REQUEST, req, 0)) return NULL;
    RegionSpec *r = PyMem_RawCalloc(1, sizeof(RegionSpec));
    if (!r) return PyErr_NoMemory();
    PyObject *out = NULL;
    int k, territory, limit, room;
    if (small_int(PyTuple_GET_ITEM(req, 0), 1, RG_MAXK, "points", &k) < 0) goto done;
    PyObject *colours = PyTuple_GET_ITEM(req, 1), *free = PyTuple_GET_ITEM(req, 2);
    PyObject *adj = PyTuple_GET_ITEM(req, 3), *wall = PyTuple_GET_ITEM(req, 4);
    PyObject *start = PyTuple_GET_ITEM(req, 5), *twins = PyTuple_GET_ITEM(req, 6);
    PyObject *points = PyTuple_GET_ITEM(req, 7);
    if (!PyBytes_Check(colours) || !PyBytes_Check(free) || !PyTuple_Check(adj) ||
        !PyBytes_Check(wall) || !PyBytes_Check(start) || !PyTuple_Check(twins) ||
        !PyTuple_Check(points)) {
        PyErr_SetString(PyExc_TypeError, "region game: bytes and tuples expected");
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(adj);
    if (n > RG_MAXN || n < k || PyBytes_GET_SIZE(colours) != n || PyBytes_GET_SIZE(free) != n ||
        PyBytes_GET_SIZE(wall) != k || PyBytes_GET_SIZE(start) != k ||
        PyTuple_GET_SIZE(points) != k) {
        PyErr_SetString(PyExc_ValueError, "region game: sizes out of range");
        goto done;
    }
    if (small_int(PyTuple_GET_ITEM(req, 8), 0, 1, "territory", &territory) < 0 ||
        small_int(PyTuple_GET_ITEM(req, 9), 0, INT32_MAX, "limit", &limit) < 0 ||
        small_int(PyTuple_GET_ITEM(req, 10), 0, INT32_MAX, "room", &room) < 0)
        goto done;
    r->k = k; r->n = (int)n; r->cost = territory;
    memcpy(r->colour, PyBytes_AS_STRING(colours), (size_t)n);
    memcpy(r->free, PyBytes_AS_STRING(free), (size_t)n);
    memcpy(r->wall, PyBytes_AS_STRING(wall), (size_t)k);
    memcpy(r->start, PyBytes_AS_STRING(start), (size_t)k);
    int e = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *list = PyTuple_GET_ITEM(adj, i);
        if (!PyTuple_Check(list) || e + PyTuple_GET_SIZE(list) > RG_MAXADJ) {
            PyErr_SetString(PyExc_ValueError, "region game: neighbours out of range");
            goto done;
        }
        r->adj_off[i] = e;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(list); j++)
            if (small_int(PyTuple_GET_ITEM(list, j), 0, (int)n - 1, "node", &r->adj[e++]) < 0)
                goto done;
    }
    r->adj_off[n] = e;
    /* The shape _Builder makes, which _region.c's chains as sets of points rely on: a point
     * empty or a stone, each chain outside Black's or White's and beside points of the region
     * only, each of them beside it in turn, no neighbour named twice. */
    for (int i = 0; i < (int)n; i++) {
        if (i < k ? r->start[i] > 2 : r->colour[i] < 1 || r->colour[i] > 2) {
            PyErr_SetString(PyExc_ValueError, "region game: a colour out of range");
            goto done;
        }
        for (int a = r->adj_off[i]; a < r->adj_off[i + 1]; a++) {
            int m = r->adj[a], bad = 0;
            for (int b = r->adj_off[i]; b < a; b++)
                if (r->adj[b] == m) bad = 1;
            if (i >= k || m >= k) { /* a chain outside and a point, each beside the other */
                int back = 0;
                for (int b = r->adj_off[m]; b < r->adj_off[m + 1]; b++)
                    if (r->adj[b] == i) back = 1;
                if ((i >= k && m >= k) || !back) bad = 1;
            }
            if (bad) {
                PyErr_SetString(PyExc_ValueError,
                                "region game: neighbours not as a region's graph has them");
                goto done;
            }
        }
    }
    for (int i = 0; i < k; i++) {
        r->first_twin[i] = -1;
        if (small_int(PyTuple_GET_ITEM(points, i), 0, INT32_MAX, "point", &r->points[i]) < 0)
            goto done;
    }
    int t = 0;
    r->n_twins = (int)PyTuple_GET_SIZE(twins);
    if (r->n_twins > RG_MAXK) {
        PyErr_SetString(PyExc_ValueError, "region game: twins out of range");
        goto done;
    }
    for (int c = 0; c < r->n_twins; c++) {
        PyObject *cls = PyTuple_GET_ITEM(twins, c);
        if (!PyTuple_Check(cls) || t + PyTuple_GET_SIZE(cls) > RG_MAXK) {
            PyErr_SetString(PyExc_ValueError, "region game: twins out of range");
            goto done;
        }
        r->twin_off[c] = t;
        int first = -1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cls); j++) {
            int p;
            if (small_int(PyTuple_GET_ITEM(cls, j), 0, k - 1, "twin", &p) < 0) goto done;
            if (first < 0) first = p;
            r->twin[t++] = p;
            r->first_twin[p] = first;
        }
    }
    r->twin_off[r->n_twins] = t;
    PyObject *found = region_game_run(r, limit, room);
    if (found) out = make(C_REGION_GAME, found);
done:
    PyMem_RawFree(r);
    return out;
}

PyObject *sgf_parse_game(PyObject *self, PyObject *args);

static PyMethodDef methods[] = {
    {"set_zobrist", set_zobrist, METH_VARARGS, "Hand in the Zobrist keys of sgfcheck.replay.board."},
    {"set_contract", set_contract, METH_VARARGS, "Register a named structure the cores exchange."},
    {"walk", walk, METH_VARARGS, "The replay loop (sgfcheck.replay.replay._walk)."},
    {"empty_owners", empty_owners, METH_VARARGS, "position.empty_owners"},
    {"areas", areas, METH_VARARGS, "position.areas"},
    {"census", census, METH_VARARGS, "the counting loop of position.analyse"},
    {"point_owners", point_owners, METH_VARARGS, "owners.point_owners: settled, open, dame"},
    {"simple_moves", simple_moves, METH_VARARGS, "the common nodes of records.lines.extract_line"},
    {"move_points", move_points, METH_VARARGS, "the moves of symmetry.sequence_key"},
    {"remap16", remap16, METH_VARARGS, "points through a symmetry table"},
    {"benson", benson, METH_VARARGS, "benson.prove: (alive, dead, territory) point lists"},
    {"playouts", playouts, METH_VARARGS, "playout.Playouts.run"},
    {"chains", chains, METH_VARARGS, "Board._rebuild: the chains of a position and its hash"},
    {"referee", referee, METH_VARARGS, "referee.referee_map: the referee's map of a position"},
    {"seki_reading", seki_reading, METH_VARARGS, "the loops of position._referee_reading"},
    {"region_game", region_game, METH_VARARGS,
     "localgame: every position of a region's game, its moves, classes and stops"},
    {"parse_game", sgf_parse_game, METH_VARARGS,
     "sgf_grammar._parse_sgf_game: one game tree of a collection (records.syntax)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "sgfcheck's compiled core (see sgfcheck.core).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
