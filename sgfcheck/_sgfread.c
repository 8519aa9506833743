/* sgfcheck's compiled SGF reader: one game tree of a collection, bytes -> sgfmill's coarse tree.
 *
 * The reference is sgfmill's grammar layer, sgf_grammar._parse_sgf_game (tokenise, then the
 * parse of the tokens), which is also the fallback where this is not built. This gives the same
 * answer for every input: the same trees (one sgf_grammar.Coarse_game_tree per sequence, each
 * node a dict of property identifiers, in the order read, to the list of their raw values), the
 * same position after the game, and a ValueError with the same message where sgfmill raises
 * one. tests/test_reader.py holds the two to that on the shared corpus and on fuzzed input.
 *
 * What sgfmill's regular expressions say, spelled out:
 * - the game starts at the first '(' followed by blanks (\s: space, \t, \n, \r, \v, \f) and ';';
 * - before each token, blanks are skipped;
 * - a value is '[' then bytes where '\' escapes any one byte, then ']'; a value without its
 *   closing ']' is no token;
 * - an identifier is 1 to 64 letters (more letters start another identifier), read with its
 *   lower-case letters dropped ("AddBlack" is "AB", "add" is "");
 * - ';', '(' and ')' are delimiters; anything else ends the tokens, as does the ')' that closes
 *   the game's first '('.
 * Tokens are read as the parse needs them, not listed first: the parse raises at the same token
 * as sgfmill's, and its tokeniser stops at the same place. Nothing recurses: a stack of open
 * trees is kept (nesting is bounded only by memory, as in sgfmill).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { T_END, T_VALUE, T_IDENT, T_NODE, T_OPEN, T_CLOSE };

typedef struct {
    const unsigned char *s;
    Py_ssize_t n, i;
    int kind;
    Py_ssize_t a, b; /* a value's or an identifier's bytes: s[a:b] */
} Lexer;

static inline int blank(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static inline int letter(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

/* The next token from lx->i; lx->i moves past it only when there is one (at the end, or at a
 * byte no token starts with, it stays where sgfmill's tokeniser stops: before the blanks). */
static void next_token(Lexer *lx) {
    const unsigned char *s = lx->s;
    Py_ssize_t n = lx->n, j = lx->i;
    while (j < n && blank(s[j])) j++;
    lx->kind = T_END;
    if (j >= n) return;
    unsigned char c = s[j];
    if (c == '[') {
        Py_ssize_t k = j + 1;
        for (;;) {
            while (k < n && s[k] != '\\' && s[k] != ']') k++;
            if (k >= n) return;
            if (s[k] == ']') break;
            if (k + 1 >= n) return; /* a '\' at the very end escapes nothing */
            k += 2;
        }
        lx->kind = T_VALUE;
        lx->a = j + 1;
        lx->b = k;
        lx->i = k + 1;
    } else if (letter(c)) {
        Py_ssize_t k = j;
        while (k < n && k - j < 64 && letter(s[k])) k++;
        lx->kind = T_IDENT;
        lx->a = j;
        lx->b = k;
        lx->i = k;
    } else if (c == ';' || c == '(' || c == ')') {
        lx->kind = c == ';' ? T_NODE : c == '(' ? T_OPEN : T_CLOSE;
        lx->i = j + 1;
    }
}

/* Identifiers of one or two upper-case letters, made once (almost every identifier read). */
static PyObject *short_idents[26 * 27];

static PyObject *ident_of(const unsigned char *s, Py_ssize_t a, Py_ssize_t b) {
    char up[64];
    Py_ssize_t k = 0;
    for (Py_ssize_t j = a; j < b; j++)
        if (s[j] >= 'A' && s[j] <= 'Z') up[k++] = (char)s[j];
    if (k == 1 || k == 2) {
        int slot = (up[0] - 'A') * 27 + (k == 2 ? up[1] - 'A' + 1 : 0);
        if (short_idents[slot] == NULL) {
            short_idents[slot] = PyUnicode_FromStringAndSize(up, k);
            if (short_idents[slot] == NULL) return NULL;
            PyUnicode_InternInPlace(&short_idents[slot]);
        }
        Py_INCREF(short_idents[slot]);
        return short_idents[slot];
    }
    return PyUnicode_FromStringAndSize(up, k);
}

static PyObject *str_sequence, *str_children;

/* parse_game(data, position, tree_class) -> (tree, end) or (None, None): as
 * sgf_grammar._parse_sgf_game(data, position), building tree_class (Coarse_game_tree). */
PyObject *sgf_parse_game(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t position;
    PyObject *tree_class;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nO", &buf, &position, &tree_class)) return NULL;
    if (str_sequence == NULL) {
        str_sequence = PyUnicode_InternFromString("sequence");
        str_children = PyUnicode_InternFromString("children");
        if (str_sequence == NULL || str_children == NULL) {
            PyBuffer_Release(&buf);
            return NULL;
        }
    }
    const unsigned char *s = (const unsigned char *)buf.buf;
    Py_ssize_t n = buf.len, start = -1;
    for (Py_ssize_t p = position < 0 ? 0 : position; p < n; p++) {
        const unsigned char *open = memchr(s + p, '(', (size_t)(n - p));
        if (open == NULL) break;
        p = open - s;
        Py_ssize_t q = p + 1;
        while (q < n && blank(s[q])) q++;
        if (q < n && s[q] == ';') {
            start = p;
            break;
        }
    }
    if (start < 0) {
        PyBuffer_Release(&buf);
        return Py_BuildValue("(OO)", Py_None, Py_None);
    }

    Lexer lx = {s, n, start, T_END, 0, 0};
    PyObject **stack = NULL; /* the open trees' parents; NULL stands for sgfmill's None */
    Py_ssize_t depth = 0, room = 0;
    PyObject *tree = NULL, *sequence = NULL, *properties = NULL; /* properties: borrowed */
    PyObject *values = NULL, *result = NULL, *done = NULL;
    const char *error = NULL;
    int peeked = 0;

    for (;;) {
        if (!peeked) next_token(&lx);
        peeked = 0;
        int kind = lx.kind;
        if (kind == T_END) {
            error = "unexpected end of SGF data";
            goto fail;
        }
        if (kind == T_VALUE) {
            error = "unexpected value";
            goto fail;
        }
        if (kind == T_NODE) {
            if (sequence == NULL) {
                error = "unexpected node";
                goto fail;
            }
            PyObject *node = PyDict_New();
            if (node == NULL) goto fail;
            int bad = PyList_Append(sequence, node);
            Py_DECREF(node);
            if (bad) goto fail;
            properties = node;
            continue;
        }
        if (kind == T_IDENT) {
            PyObject *ident = ident_of(s, lx.a, lx.b);
            if (ident == NULL) goto fail;
            values = PyList_New(0);
            if (values == NULL) {
                Py_DECREF(ident);
                goto fail;
            }
            for (;;) {
                next_token(&lx);
                if (lx.kind != T_VALUE) break;
                PyObject *value = PyBytes_FromStringAndSize((const char *)s + lx.a, lx.b - lx.a);
                if (value == NULL || PyList_Append(values, value)) {
                    Py_XDECREF(value);
                    Py_DECREF(ident);
                    goto fail;
                }
                Py_DECREF(value);
            }
            peeked = 1;
            if (lx.kind == T_END) {
                Py_DECREF(ident);
                error = "unexpected end of SGF data";
                goto fail;
            }
            if (PyList_GET_SIZE(values) == 0) {
                Py_DECREF(ident);
                error = "property with no values";
                goto fail;
            }
            if (properties == NULL) {
                Py_DECREF(ident);
                error = "property value outside a node";
                goto fail;
            }
            PyObject *held = PyDict_GetItemWithError(properties, ident);
            int bad;
            if (held != NULL) {
                Py_ssize_t size = PyList_GET_SIZE(held);
                bad = PyList_SetSlice(held, size, size, values);
            } else {
                bad = PyErr_Occurred() ? -1 : PyDict_SetItem(properties, ident, values);
            }
            Py_DECREF(ident);
            Py_CLEAR(values);
            if (bad) goto fail;
            continue;
        }
        /* '(' or ')' */
        if (sequence != NULL) {
            if (PyList_GET_SIZE(sequence) == 0) {
                error = "empty sequence";
                goto fail;
            }
            if (PyObject_SetAttr(tree, str_sequence, sequence)) goto fail;
            Py_CLEAR(sequence);
        }
        properties = NULL;
        if (kind == T_OPEN) {
            if (depth == room) {
                Py_ssize_t more = room ? room * 2 : 16;
                PyObject **grown = PyMem_Realloc(stack, (size_t)more * sizeof(PyObject *));
                if (grown == NULL) {
                    PyErr_NoMemory();
                    goto fail;
                }
                stack = grown;
                room = more;
            }
            stack[depth++] = tree;
            tree = PyObject_CallNoArgs(tree_class);
            if (tree == NULL) goto fail;
            sequence = PyList_New(0);
            if (sequence == NULL) goto fail;
        } else {
            PyObject *variation = tree;
            tree = stack[--depth];
            if (tree == NULL) {
                done = variation;
                break;
            }
            PyObject *children = PyObject_GetAttr(tree, str_children);
            int bad = children == NULL || PyList_Append(children, variation);
            Py_XDECREF(children);
            Py_DECREF(variation);
            if (bad) goto fail;
        }
    }
    result = Py_BuildValue("(Nn)", done, lx.i);
    PyMem_Free(stack);
    PyBuffer_Release(&buf);
    return result;

fail:
    if (error != NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, error);
    Py_XDECREF(values);
    Py_XDECREF(sequence);
    Py_XDECREF(tree);
    while (depth > 0) Py_XDECREF(stack[--depth]);
    PyMem_Free(stack);
    PyBuffer_Release(&buf);
    return NULL;
}
