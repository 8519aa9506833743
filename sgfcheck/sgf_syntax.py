"""Lenient SGF syntax: game trees out of damaged text, each repair reported.

Nothing here knows Go (as sgfmill keeps its grammar apart from the game): sgfmill's grammar layer
(``sgf_grammar``) tokenises and builds the trees; when it refuses a file, this module tokenises
it leniently, mends what real files get wrong (junk before the first game, a file starting with
``;``, ``(`` without ``;``, a truncated file, stray brackets, values without properties, old-style
nodes after a closed variation, empty ``()``), and parses the mended text with sgfmill. Every
repair is a finding with its line and column.
"""

from __future__ import annotations

import re

from sgfmill import sgf_grammar

from sgfcheck import findings as F
from sgfcheck.findings import Finding

_START_RE = re.compile(rb"\(\s*;")
_NODE_START_RE = re.compile(rb"\s*;\s*[A-Za-z]")
_PAREN_IDENT_RE = re.compile(rb"\(\s*[A-Za-z]+\s*\[")


def _line_col(data: bytes, pos: int) -> str:
    line = data.count(b"\n", 0, pos) + 1
    col = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


def parse_trees(data: bytes, found: list[Finding]) -> list[sgf_grammar.Coarse_game_tree]:
    """Every game tree of a collection; repairs and problems are appended to ``found``."""
    start = _START_RE.search(data)
    first_paren = _PAREN_IDENT_RE.search(data)
    if start is None or (first_paren is not None and first_paren.start() < start.start()):
        # No "(;" at all, or a "(" followed by a property: the ';' or '(' is missing.
        if first_paren is not None:
            p = first_paren.start()
            data = data[: p + 1] + b";" + data[p + 1 :]
            found.append(Finding(F.SGF_MISSING_SEMICOLON,
                                 f"'(' without ';' at {_line_col(data, p)}; a node was assumed"))
        elif _NODE_START_RE.match(data):
            data = b"(" + data.lstrip()
            found.append(Finding(F.SGF_MISSING_PAREN,
                                 "the file starts with ';' instead of '(;'; '(' was assumed"))
        else:
            found.append(Finding(F.SGF_NO_GAME, "no SGF game found (no '(;' in the file)"))
            return []
        start = _START_RE.search(data)
        assert start is not None
    if data[: start.start()].strip():
        found.append(Finding(F.SGF_JUNK, f"{start.start()} bytes of text before the first game "
                                         "were ignored"))
    try:
        return sgf_grammar.parse_sgf_collection(data)
    except ValueError:
        pass
    return _parse_with_repair(data, found)


_LENIENT_TOKEN_RE = re.compile(
    rb"\s*(?:\[(?P<V>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<I>[A-Za-z]+)|(?P<D>[;()]))", re.S
)
_LOWER = bytes(range(ord("a"), ord("z") + 1))


def _lenient_tokenise(
    data: bytes, start: int
) -> tuple[list[tuple[str, bytes]], int, list[str], bool]:
    """Tokenise one game tree from ``start``, skipping what is not SGF.

    sgfmill's tokeniser stops at the first byte it cannot read; this one (used only to repair a
    file sgfmill refused) skips such bytes and reports them. Returns the tokens, where it stopped,
    notes on what was skipped, and whether the data ended inside the tree.
    """
    tokens: list[tuple[str, bytes]] = []
    notes: list[str] = []
    depth = 0
    i = start
    n = len(data)
    while i < n:
        m = _LENIENT_TOKEN_RE.match(data, i)
        if m is None:
            j = i
            while j < n and data[j : j + 1].isspace():
                j += 1
            if j >= n:
                i = n
                break
            if data[j : j + 1] == b"[":
                tokens.append(("V", data[j + 1 :]))
                notes.append(f"a value is not closed at {_line_col(data, j)}; read to the end")
                i = n
                break
            k = j + 1
            while k < n and data[k : k + 1] not in (b"[", b";", b"(", b")") and not (
                data[k : k + 1].isalpha()
            ):
                k += 1
            notes.append(f"{data[j:k][:20]!r} at {_line_col(data, j)} is not SGF; skipped")
            i = k
            continue
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        i = m.end()
        if kind == "I":
            value = value.translate(None, _LOWER)
            if not value or len(value) > 64:
                notes.append(f"{m.group(kind)[:20]!r} is not a property name; skipped")
                continue
        tokens.append((kind, value))
        if kind == "D":
            if value == b"(":
                depth += 1
            elif value == b")":
                depth -= 1
                if depth == 0:
                    return tokens, i, notes, False
    return tokens, i, notes, True


def _parse_with_repair(data: bytes, found: list[Finding]) -> list[sgf_grammar.Coarse_game_tree]:
    """Game by game, rebuild the token stream with the damage mended and parse that."""
    trees: list[sgf_grammar.Coarse_game_tree] = []
    position = 0
    while True:
        start = data.find(b"(", position)
        if start < 0:
            break
        tokens, end, skipped, unfinished = _lenient_tokenise(data, start)
        game_no = len(trees) + 1
        depth = sum(1 for t, v in tokens if t == "D" and v == b"(") - sum(
            1 for t, v in tokens if t == "D" and v == b")"
        )
        for note in skipped:
            found.append(Finding(F.SGF_SYNTAX, f"game {game_no}: {note}"))
        if unfinished and depth > 0:
            found.append(Finding(F.SGF_TRUNCATED,
                                 f"game {game_no}: the file ends inside the game ({depth} "
                                 "unclosed '('); read up to the end"))
        mended, notes = _mend_tokens(tokens, depth)
        for note in notes:
            found.append(Finding(F.SGF_MISSING_SEMICOLON if "';'" in note else F.SGF_SYNTAX,
                                 f"game {game_no}: {note}"))
        try:
            tree = sgf_grammar.parse_sgf_game(mended)
            _unmark_continuations(tree)
            trees.append(tree)
        except ValueError as exc:
            found.append(Finding(F.SGF_SYNTAX, f"game {game_no}: unreadable ({exc})"))
        if unfinished:
            break
        position = end
    if not trees and not any(f.code in (F.SGF_SYNTAX, F.SGF_TRUNCATED) for f in found):
        found.append(Finding(F.SGF_NO_GAME, "no SGF game found"))
    return trees


_CONTINUATION = b"SGFCHECKCONTINUATION"


def _mend_tokens(tokens: list[tuple[str, bytes]], depth: int) -> tuple[bytes, list[str]]:
    """Rebuild SGF text from tokens, mending what sgfmill's parser refuses.

    - ``(`` followed by a property: a ``;`` is inserted;
    - empty variations ``()`` are dropped, as are properties without values and values without
      properties;
    - nodes after a closed variation (old FF[1] style ``(;a(;v);b)``): they become a variation
      of their own (after the variations already there);
    - at the end, every open ``(`` is closed.
    """
    out: list[bytes] = []
    notes: list[str] = []
    n = len(tokens)
    in_node = False
    extra: list[int] = []  # per open tree: continuation variations to close with it
    continued = False
    for i, (kind, value) in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < n else None
        if kind == "D":
            if value == b"(":
                out.append(b"(")
                extra.append(0)
                in_node = False
                if nxt is not None and nxt[0] == "I":
                    out.append(b";")
                    in_node = True
                    notes.append("'(' without ';': a node was assumed")
            elif value == b")":
                if out and out[-1] == b"(":
                    out.pop()
                    extra.pop()
                    notes.append("empty variation '()' ignored")
                    continue
                if extra:
                    out.append(b")" * extra.pop())
                out.append(b")")
                in_node = False
            else:
                if out and out[-1] == b")" and extra:
                    out.append(b"(;" + _CONTINUATION + b"[]")
                    extra[-1] += 1
                    continued = True
                else:
                    out.append(b";")
                in_node = True
        elif kind == "I":
            if nxt is None or nxt[0] != "V":
                notes.append(f"property {value.decode()} without a value ignored")
                continue
            if not in_node:
                notes.append(f"property {value.decode()} outside a node ignored")
                continue
            out.append(value)
        else:
            prev = out[-1] if out else b""
            if not (prev.endswith(b"]") or prev.isalpha()):
                notes.append("a value without a property ignored")
                continue
            out.append(b"[" + value + b"]")
    while out and out[-1] in (b"(", b";"):
        if out.pop() == b"(" and extra:
            extra.pop()
    while extra:
        out.append(b")" * (extra.pop() + 1))
    if continued:
        notes.append("nodes follow a closed variation (old SGF style); they were read as a "
                     "further variation")
    return b"".join(out), notes


def _unmark_continuations(tree: sgf_grammar.Coarse_game_tree) -> None:
    """Remove the marker :func:`_mend_tokens` put on the variations it made."""
    key = _CONTINUATION.decode()
    todo = [tree]
    while todo:
        t = todo.pop()
        for child in t.children:
            child.sequence[0].pop(key, None)
        todo.extend(t.children)
