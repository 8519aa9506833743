"""The compiled SGF reader (``_sgfread.c``) against its reference, sgfmill's
``sgf_grammar._parse_sgf_game``: the same trees (every node's properties in order, every value's
bytes, the variations), the same end of each game, the same error where sgfmill refuses the text,
on the whole shared corpus, on fuzzed text and on cases built for each rule of the grammar; and
the same findings from whole files, broken ones included, whichever core reads them.

Skipped, saying so, where the compiled core is not built (``SGFCHECK_REQUIRE_COMPILED=1`` makes
that a failure, as in tests/test_core.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import COMPILED, CORPUS, FIXTURES, needs_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import sgf_grammar

from sgfcheck import core
from sgfcheck.records.lines import MAX_TEXT, simple_text
from sgfcheck.records.record import load_bytes

pytestmark = needs_compiled

Answer = tuple[Any, ...]


def shape(tree: sgf_grammar.Coarse_game_tree) -> list[Any]:
    """A tree as plain values: each part's nodes (property order kept) and its variations."""
    out: list[Any] = []
    todo = [tree]
    while todo:
        part = todo.pop()
        out.append(([list(node.items()) for node in part.sequence], len(part.children)))
        todo.extend(reversed(part.children))
    return out


def reference(data: bytes, position: int = 0) -> Answer:
    try:
        tree, end = sgf_grammar._parse_sgf_game(data, position)  # noqa: SLF001 - the reference
    except ValueError as exc:
        return ("error", str(exc))
    return ("tree", None if tree is None else shape(tree), end)


def compiled(data: bytes, position: int = 0) -> Answer:
    assert COMPILED is not None
    try:
        tree, end = COMPILED.parse_game(data, position, sgf_grammar.Coarse_game_tree)
    except ValueError as exc:
        return ("error", str(exc))
    if tree is not None:
        assert type(tree) is sgf_grammar.Coarse_game_tree
    return ("tree", None if tree is None else shape(tree), end)


def collection(read: Any, data: bytes) -> list[Answer]:
    """Every game of a collection, as the reader reads them one after another."""
    answers, position = [], 0
    while len(answers) < 1000:
        answer = read(data, position)
        answers.append(answer)
        if answer[0] == "error" or answer[1] is None:
            break
        position = answer[2]
    return answers


# --- cases built for each rule ------------------------------------------------------------------

def test_a_plain_game_is_read_node_by_node() -> None:
    data = b"junk (;GM[1]SZ[9]KM[6.5]\n;B[ee];W[]\n(;B[dc]C[a \\] b])(;B[cd]))tail"
    answer = compiled(data)
    assert answer == reference(data)
    assert answer == ("tree", [
        ([[("GM", [b"1"]), ("SZ", [b"9"]), ("KM", [b"6.5"])], [("B", [b"ee"])],
          [("W", [b""])]], 2),
        ([[("B", [b"dc"]), ("C", [b"a \\] b"])]], 0),
        ([[("B", [b"cd"])]], 0)], data.index(b"tail"))


@pytest.mark.parametrize(("data", "expected"), [
    (b"(;AddBlack[aa][bb]add[cc])", [("AB", [b"aa", b"bb"]), ("", [b"cc"])]),
    (b"(;B[aa]C[x]B[bb])", [("B", [b"aa", b"bb"]), ("C", [b"x"])]),
    (b"(\x0b;\x0cB\t[aa]\r\n)", [("B", [b"aa"])]),
    (b"(;" + b"A" * 70 + b"[x])", None),
])
def test_identifiers_and_values(data: bytes, expected: list[Any] | None) -> None:
    """Lower-case letters dropped (old FF[1] names), a repeated property's values joined in its
    first place, every blank sgfmill skips, 64 letters at most to an identifier."""
    answer = compiled(data)
    assert answer == reference(data)
    if expected is not None:
        assert answer[1][0][0] == [expected]
    else:  # 64 letters, then an identifier of 6 with no value: refused as sgfmill refuses it
        assert answer == ("error", "property with no values")


@pytest.mark.parametrize(("data", "message"), [
    (b"(;B[aa];[bb])", "unexpected value"),
    (b"(;B[aa](;W[bb]);B[cc])", "unexpected node"),
    (b"(;B[aa]()", "empty sequence"),
    (b"(;B;W[aa])", "property with no values"),
    (b"(;B[aa](W[bb]))", "property value outside a node"),
    (b"(;B[aa];W[bb]", "unexpected end of SGF data"),
    (b"(;C[unclosed\\]", "unexpected end of SGF data"),
    (b"(;C[ends with a backslash\\", "unexpected end of SGF data"),
    (b"(;B[aa]%;W[bb])", "unexpected end of SGF data"),
])
def test_refusals_say_what_sgfmill_says(data: bytes, message: str) -> None:
    assert reference(data) == ("error", message)
    assert compiled(data) == ("error", message)


def test_no_game_and_where_the_next_game_starts() -> None:
    assert compiled(b"(B[aa])") == reference(b"(B[aa])") == ("tree", None, None)
    assert compiled(b"") == ("tree", None, None)
    data = b"(;B[aa])\n(;W[bb])\n( ;B[cc]) ("
    assert collection(compiled, data) == collection(reference, data)
    assert [a[2] for a in collection(compiled, data)] == [8, 17, 27, None]


def test_nesting_and_size_cost_no_recursion() -> None:
    """Variations 50,000 deep, and a value of 5 MB of escapes: read without recursion, in one
    pass, as sgfmill reads them."""
    deep = b"(;B[aa]" * 50_000 + b")" * 50_000
    answer = compiled(deep)
    assert answer == reference(deep)
    assert len(answer[1]) == 50_000
    value = b"(;C[" + b"\\]" * 2_500_000 + b"])"
    tree, end = COMPILED.parse_game(value, 0, sgf_grammar.Coarse_game_tree)  # type: ignore[union-attr]
    assert end == len(value) and len(tree.sequence[0]["C"][0]) == 5_000_000


# --- fuzzed text --------------------------------------------------------------------------------

ALPHABET = b"()[];\\ \t\n\r\x0b\x0cABWabKMCxyz]:"


@settings(max_examples=3000, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(list(ALPHABET)), max_size=60), st.booleans(),
       st.integers(min_value=0, max_value=70))
def test_fuzzed_text_reads_alike(letters: list[int], opened: bool, position: int) -> None:
    data = (b"(;" if opened else b"") + bytes(letters)
    assert compiled(data, position) == reference(data, position)


def test_damaged_real_records_read_alike() -> None:
    """Real records with bytes changed, dropped and added (fixtures, and the corpus when it is
    there): the same trees or the same refusal."""
    sources = sorted(FIXTURES.glob("*.sgf"))
    if CORPUS.is_dir():
        sources += sorted(CORPUS.rglob("*.sgf"))[::40]
    rng = random.Random(43)
    texts = [p.read_bytes()[:4000] for p in sources]
    for _ in range(20_000):
        data = bytearray(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            if not data:
                break
            k = rng.randrange(len(data))
            roll = rng.random()
            if roll < 0.4:
                data[k] = rng.choice(ALPHABET)
            elif roll < 0.7:
                del data[k]
            else:
                data.insert(k, rng.choice(ALPHABET))
        text = bytes(data)
        assert collection(compiled, text) == collection(reference, text), text[:200]


# --- the whole corpus ---------------------------------------------------------------------------

def test_the_whole_corpus_reads_alike() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "MANIFEST.md")
    games = refused = 0
    for path in files:
        data = path.read_bytes()
        answers = collection(compiled, data)
        assert answers == collection(reference, data), path
        games += sum(1 for a in answers if a[0] == "tree" and a[1] is not None)
        refused += answers[-1][0] == "error"
    assert len(files) > 15_000 and games > 15_000 and refused > 0


def test_files_give_the_same_findings_whichever_core_reads_them() -> None:
    """load_bytes with the compiled reader and with sgfmill's: the same findings (repairs of
    broken files included), games and trees."""
    paths = sorted(FIXTURES.glob("*.sgf"))
    if CORPUS.is_dir():
        paths += sorted((CORPUS / "odd").rglob("*"))
    compared = 0
    for path in paths:
        if not path.is_file():
            continue
        data = path.read_bytes()
        fast = load_bytes(data, path.name)
        with core.using("pure"):
            slow = load_bytes(data, path.name)
        assert fast.findings == slow.findings, path
        assert [(g.findings, g.info, g.komi, g.handicap) for g in fast.games] == [
            (g.findings, g.info, g.komi, g.handicap) for g in slow.games], path
        assert [shape(g.tree) for g in fast.games if g.tree is not None] == [
            shape(g.tree) for g in slow.games if g.tree is not None], path
        compared += 1
    assert compared >= 20


# --- what is read of the trees ------------------------------------------------------------------

@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.binary(max_size=40) | st.lists(st.sampled_from(list(b"ab \\\n\r\t\x0b\x0c:]\xc3\xa9")),
                                         max_size=20).map(bytes))
def test_simple_text_reads_as_sgfmill_reads(value: bytes) -> None:
    """A SimpleText value without escapes or blanks is taken as it is (a shortcut): the same
    text as sgfmill's simpletext_value gives, for every value."""
    expected = sgf_grammar.simpletext_value(value[:MAX_TEXT]).decode("utf-8", "replace").strip()
    assert simple_text(value) == expected + ("…" if len(value) > MAX_TEXT else "")


def test_the_main_line_is_sgfmills() -> None:
    """The nodes of a game's main line are those of sgfmill's main_sequence_iter."""
    data = b"(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))"
    game = load_bytes(data).games[0]
    assert game.tree is not None
    line = game.main_line()
    assert [e.point for e in line.events] == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert line.final_node == list(sgf_grammar.main_sequence_iter(game.tree))[-1]
