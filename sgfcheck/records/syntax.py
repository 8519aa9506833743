"""Lenient SGF syntax: game trees out of damaged text, each repair reported.

Nothing here knows Go (as sgfmill keeps its grammar apart from the game): the compiled core's
reader (``_sgfread.c``), or where it is not built sgfmill's grammar layer (``sgf_grammar``), which
is its reference, tokenises and builds the trees; when they refuse a file, this module tokenises
it leniently, mends what real files get wrong (junk before the first game, a file starting with
``;``, ``(`` without ``;``, a truncated file, stray brackets, values without properties, old-style
nodes after a closed variation, empty ``()``), and parses the mended text with sgfmill. Every
repair is a finding with its line and column.

It also keeps the work of a parse bounded (:mod:`sgfcheck.limits`): nodes and property values are
counted before anything is built, and a file past the limits is a finding, not a parse; nodes
left after the ``)`` that closes a game (a stray ``)`` that cut the game short) are an error,
not silently dropped; and structure far from any real record (a million nodes, thousands of
variations at one node, a value of megabytes, nesting thousands deep) is said.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from types import ModuleType

from sgfmill import sgf_grammar

from sgfcheck import core
from sgfcheck import findings as F
from sgfcheck.findings import Finding, Severity
from sgfcheck.limits import DEFAULT_LIMITS, Limits

_SGFMILL_VALUE = rb"[^\\\]]* (?: \\. [^\\\]]* )*"
_POSSESSIVE_VALUE = rb"[^\\\]]*+ (?: \\. [^\\\]]*+ )*+"


def _bounded_tokeniser() -> None:
    """sgfmill's tokeniser reads a value with a regular expression whose repeated group keeps
    one backtracking entry per escape: a 50 MB value of ``\\]`` took 1.8 GB before it failed.
    The same expression with possessive repeats (Python 3.11) matches exactly the same values
    (a byte is an escape or an ordinary byte, never both: nothing to backtrack) in constant
    memory. The expression is replaced only if it is the one this was written for."""
    if sys.version_info < (3, 11):
        return
    current = getattr(sgf_grammar, "_tokenise_re", None)
    if current is None or _SGFMILL_VALUE not in current.pattern:
        return
    sgf_grammar._tokenise_re = re.compile(  # noqa: SLF001 - see the docstring
        current.pattern.replace(_SGFMILL_VALUE, _POSSESSIVE_VALUE), current.flags)


_bounded_tokeniser()

_START_RE = re.compile(rb"\(\s*;")
_PROPERTY_RE = re.compile(rb"[A-Z]{1,2}\s*\[")
_NODE_START_RE = re.compile(rb"\s*;\s*[A-Za-z]")
_PAREN_IDENT_RE = re.compile(rb"\(\s*[A-Za-z]+\s*\[")


def _line_col(data: bytes, pos: int) -> str:
    line = data.count(b"\n", 0, pos) + 1
    col = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


def parse_trees(data: bytes, found: list[Finding],
                limits: Limits = DEFAULT_LIMITS) -> list[sgf_grammar.Coarse_game_tree]:
    """Every game tree of a collection; repairs and problems are appended to ``found``."""
    if not _within_limits(data, found, limits):
        return []
    start = _START_RE.search(data)
    first_paren = _PAREN_IDENT_RE.search(data)
    body = data.lstrip()
    if (_NODE_START_RE.match(body) and (start is None or len(data) - len(body) < start.start())
            and (first_paren is None or len(data) - len(body) < first_paren.start())):
        # The file starts with a node, not '(': the opening parenthesis of its game is missing
        # (Fox writes some files so, with variations as sibling trees after the main sequence).
        # Read it the way a person would: one game from the start, root node and every move kept.
        data = b"(" + body.rstrip() + b")"
        found.append(Finding(F.SGF_MISSING_PAREN,
                             "the file starts with ';' instead of '(;'; read as one game from "
                             "its first node (the opening '(' assumed)"))
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
    junk = data[: start.start()]
    if junk.strip():
        lost = _PROPERTY_RE.search(junk) is not None
        found.append(Finding(F.SGF_JUNK, f"{start.start()} bytes of text before the first game "
                             "were ignored" + ("; they hold SGF properties, so game information "
                                               "or moves may be lost" if lost else ""),
                             severity=Severity.WARNING if lost else Severity.INFO))
    try:
        trees = _parse_collection(data, found)
    except ValueError:
        trees = _parse_with_repair(data, found)
    _say_abnormal(data, trees, found)
    _cap_syntax_findings(found)
    return trees


MOST_SYNTAX_FINDINGS = 20
"""Syntax findings listed for one file; the rest are counted in one more."""


def _counted(finding: Finding) -> int:
    """How many syntax errors a finding stands for (one, or those a game's last line counts)."""
    more = finding.extra.get("more")
    return more if isinstance(more, int) else 1


def _cap_syntax_findings(found: list[Finding]) -> None:
    """At most :data:`MOST_SYNTAX_FINDINGS` syntax findings, then one saying how many more: a
    file damaged all through is one line of a report, not thousands."""
    syntax = [i for i, f in enumerate(found) if f.code is F.SGF_SYNTAX]
    if len(syntax) <= MOST_SYNTAX_FINDINGS:
        return
    cut = set(syntax[MOST_SYNTAX_FINDINGS:])
    more = sum(_counted(found[i]) for i in cut)
    found[:] = [f for i, f in enumerate(found) if i not in cut]
    found.append(Finding(F.SGF_SYNTAX, f"... and {more} more syntax errors in this file (not "
                                       "listed)"))


GameReader = Callable[[bytes, int], tuple[sgf_grammar.Coarse_game_tree | None, int | None]]
"""One game read from a position: its tree and where it ends (None, None where none is left)."""


def _collection_compiled(fast: ModuleType, data: bytes, found: list[Finding]
                         ) -> list[sgf_grammar.Coarse_game_tree]:
    """:func:`_collection_pure` with the compiled core's reader of one game: sgfmill's
    ``_parse_sgf_game``'s answer (the same trees, the same end, a ValueError with the same
    message), without its token list."""
    def read(data: bytes, position: int
             ) -> tuple[sgf_grammar.Coarse_game_tree | None, int | None]:
        tree, end = fast.parse_game(data, position, sgf_grammar.Coarse_game_tree)
        return tree, end
    return _games_read(data, found, read)


def _collection_pure(data: bytes, found: list[Finding]) -> list[sgf_grammar.Coarse_game_tree]:
    """The collection read game by game by sgfmill, so that what lies between and after the
    games is seen (sgfmill skips it). Raises ValueError where sgfmill does."""
    read: GameReader | None = getattr(sgf_grammar, "_parse_sgf_game", None)
    if read is None:  # not in this sgfmill: its public reader, without the check between
        return list(sgf_grammar.parse_sgf_collection(data))
    return _games_read(data, found, read)


_parse_collection = core.door(_collection_compiled, _collection_pure)


def _games_read(data: bytes, found: list[Finding], parse_game: GameReader
                ) -> list[sgf_grammar.Coarse_game_tree]:
    """Every game of the collection, each read by ``parse_game``, and a finding for what lies
    between them."""
    trees: list[sgf_grammar.Coarse_game_tree] = []
    position = 0
    notes: list[Finding] = []
    while True:
        # sgfmill's own collection reader is this loop without the positions (sgfmill 1.1).
        tree, end = parse_game(data, position)
        if tree is None or end is None:  # end is None exactly when no game is left
            break
        trees.append(tree)
        following = data.find(b"(", end)
        _check_between(data, end, len(data) if following < 0 else following, len(trees),
                       notes)
        position = end
    if not trees:
        raise ValueError("no SGF data found")
    found.extend(notes)
    return trees


_STRAY_NODE_RE = re.compile(rb";\s*[A-Za-z]+\s*\[")
_STRAY_MOVE_RE = re.compile(rb";\s*[BW]\s*\[")


def _check_between(data: bytes, start: int, stop: int, game_no: int,
                   found: list[Finding]) -> None:
    """Nodes between the end of game ``game_no`` and the next game (or the end of the file)
    belong to no game: a stray ``)`` closed the game early. Say so, with what was lost."""
    if stop - start < 4:
        return
    segment = data[start:stop]
    nodes = len(_STRAY_NODE_RE.findall(segment))
    if not nodes:
        return
    moves = len(_STRAY_MOVE_RE.findall(segment))
    found.append(Finding(
        F.SGF_AFTER_GAME,
        f"game {game_no} is closed by the ')' at {_line_col(data, start - 1)}, but {nodes} "
        f"more node(s) ({moves} move(s)) follow outside any game; they were not read (a stray "
        "')' may have cut the game short)",
        extra={"nodes": nodes, "moves": moves}))


# --- limits and abnormal structure ---------------------------------------------------------------

_TEXT_THEN_VALUE_RE = re.compile(
    rb"([^\[]*+)\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\]" if sys.version_info >= (3, 11)
    else rb"([^\[]*)\[[^\\\]]*(?:\\.[^\\\]]*)*\]", re.S)
"""Text, then a value (possessive where Python has it: constant memory however many escapes
a value holds, as for sgfmill's tokeniser above)."""
ABNORMAL_NODES = 100_000
"""More nodes than this in one file is said (the largest real record here has 3,430)."""
ABNORMAL_SIBLINGS = 1_000
"""More variations than this at one node is said."""
ABNORMAL_DEPTH = 10_000
"""Variations nested deeper than this are said."""
ABNORMAL_VALUE = 1024 * 1024
"""A property value longer than this (bytes) is said."""


def _within_limits(data: bytes, found: list[Finding], limits: Limits) -> bool:
    """Count nodes and property values before parsing; False (and a finding) past a limit.
    ``;`` and ``[`` bytes are upper bounds; values are stripped for an exact count only when a
    bound is over a limit."""
    if data.count(b";") <= limits.nodes and data.count(b"[") <= limits.values:
        return True
    nodes, values, _ = _scan_values(data)
    for count, name, what in ((nodes, "nodes", "nodes"), (values, "values", "property values")):
        limit = getattr(limits, name)
        if count > limit:
            found.append(Finding(F.SGF_LIMIT,
                                 f"{count} {what} in the file, more than the limit of {limit}; "
                                 f"not read (raise it with --limit {name}=...)",
                                 extra={"limit": limits.describe(name)}))
            return False
    return True


def _scan_values(data: bytes) -> tuple[int, int, int]:
    """Nodes (``;`` outside values), property values, and the longest value, in one pass that
    is linear whatever the data (each match is anchored where the last one ended; an unclosed
    value ends the scan)."""
    nodes = values = longest = 0
    position = 0
    while True:
        m = _TEXT_THEN_VALUE_RE.match(data, position)
        if m is None:
            nodes += data.count(b";", position)
            return nodes, values, longest
        nodes += data.count(b";", m.start(1), m.end(1))
        values += 1
        longest = max(longest, m.end() - m.end(1) - 2)
        position = m.end()


def _say_abnormal(data: bytes, trees: list[sgf_grammar.Coarse_game_tree],
                  found: list[Finding]) -> None:
    """Warnings for legal structure far from any real record. Costs nothing on ordinary files:
    each measure is taken only when the file's size or bracket counts allow it to be large."""
    if len(data) > ABNORMAL_VALUE:
        _, _, longest = _scan_values(data)
        if longest > ABNORMAL_VALUE:
            found.append(Finding(F.SGF_ABNORMAL, f"a property value of {longest} bytes (real "
                                 "records stay under a few kilobytes)"))
    if data.count(b";") > ABNORMAL_NODES or data.count(b"(") > ABNORMAL_SIBLINGS:
        nodes, siblings, depth = _tree_shape(trees)
        if nodes > ABNORMAL_NODES:
            found.append(Finding(F.SGF_ABNORMAL, f"{nodes} nodes in the file (real games have a "
                                 "few hundred)"))
        if siblings > ABNORMAL_SIBLINGS:
            found.append(Finding(F.SGF_ABNORMAL, f"{siblings} variations at one node"))
        if depth > ABNORMAL_DEPTH:
            found.append(Finding(F.SGF_ABNORMAL, f"variations nested {depth} deep"))


def _tree_shape(trees: list[sgf_grammar.Coarse_game_tree]) -> tuple[int, int, int]:
    """Nodes, the most children of one node, the deepest nesting of variations. Iterative."""
    nodes = siblings = depth = 0
    todo = [(t, 1) for t in trees]
    while todo:
        tree, level = todo.pop()
        nodes += len(tree.sequence)
        siblings = max(siblings, len(tree.children))
        depth = max(depth, level)
        todo.extend((child, level + 1) for child in tree.children)
    return nodes, siblings, depth


ABNORMAL_NODE_VALUES = 10_000
"""More property values than this in one node is said (a full 19x19 setup is 361)."""


def crowded_node(tree: sgf_grammar.Coarse_game_tree) -> tuple[int, int]:
    """The most property values one node of a game holds, and that node's number in the order
    of a walk from the root (1 for the root). Iterative."""
    most, where, number = 0, 0, 0
    todo = [tree]
    while todo:
        part = todo.pop()
        for node in part.sequence:
            number += 1
            held = sum(len(values) for values in node.values())
            if held > most:
                most, where = held, number
        todo.extend(reversed(part.children))
    return most, where


MAX_NOTES = 20
"""Repairs spelled out per game; more are counted (garbage would give one per byte)."""


class _Notes:
    """What a repair skipped or mended: the first :data:`MAX_NOTES` spelled out (a position
    costs a count of lines from the start of the file), the rest only counted, so that junk
    costs linear time."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.more = 0

    def add(self, text: str, data: bytes = b"", position: int | None = None,
            after: str = "") -> None:
        """``text`` (``at line L, column C`` and ``after`` added when ``position`` is given)."""
        if len(self.items) >= MAX_NOTES:
            self.more += 1
        elif position is None:
            self.items.append(text)
        else:
            self.items.append(f"{text} at {_line_col(data, position)}{after}")


_LENIENT_TOKEN_RE = re.compile(
    rb"\s*(?:\[(?P<V>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<I>[A-Za-z]+)|(?P<D>[;()]))", re.S
)
_LOWER = bytes(range(ord("a"), ord("z") + 1))


def _lenient_tokenise(
    data: bytes, start: int, notes: _Notes
) -> tuple[list[tuple[str, bytes]], int, bool]:
    """Tokenise one game tree from ``start``, skipping what is not SGF.

    sgfmill's tokeniser stops at the first byte it cannot read; this one (used only to repair a
    file sgfmill refused) skips such bytes and notes them. Returns the tokens, where it stopped,
    and whether the data ended inside the tree.
    """
    tokens: list[tuple[str, bytes]] = []
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
                notes.add("a value is not closed", data, j, "; read to the end")
                i = n
                break
            k = j + 1
            while k < n and data[k : k + 1] not in (b"[", b";", b"(", b")") and not (
                data[k : k + 1].isalpha()
            ):
                k += 1
            notes.add(f"{data[j:k][:20]!r}", data, j, " is not SGF; skipped")
            i = k
            continue
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        i = m.end()
        if kind == "I":
            value = value.translate(None, _LOWER)
            if not value or len(value) > 64:
                notes.add(f"{m.group(kind)[:20]!r} is not a property name; skipped")
                continue
        tokens.append((kind, value))
        if kind == "D":
            if value == b"(":
                depth += 1
            elif value == b")":
                depth -= 1
                if depth == 0:
                    return tokens, i, False
    return tokens, i, True


def _parse_with_repair(data: bytes, found: list[Finding]) -> list[sgf_grammar.Coarse_game_tree]:
    """Game by game, rebuild the token stream with the damage mended and parse that."""
    trees: list[sgf_grammar.Coarse_game_tree] = []
    position = 0
    while True:
        start = data.find(b"(", position)
        if start < 0:
            break
        skipped = _Notes()
        tokens, end, unfinished = _lenient_tokenise(data, start, skipped)
        game_no = len(trees) + 1
        depth = sum(1 for t, v in tokens if t == "D" and v == b"(") - sum(
            1 for t, v in tokens if t == "D" and v == b")"
        )
        _report(skipped, game_no, found, F.SGF_SYNTAX)
        if unfinished and depth > 0:
            found.append(Finding(F.SGF_TRUNCATED,
                                 f"game {game_no}: the file ends inside the game ({depth} "
                                 "unclosed '('); read up to the end"))
        mended_notes = _Notes()
        mended = _mend_tokens(tokens, depth, mended_notes)
        _report(mended_notes, game_no, found, F.SGF_SYNTAX)
        try:
            tree = sgf_grammar.parse_sgf_game(mended)
            _unmark_continuations(tree)
            trees.append(tree)
        except ValueError as exc:
            found.append(Finding(F.SGF_SYNTAX, f"game {game_no}: unreadable ({exc})"))
        if unfinished:
            break
        following = data.find(b"(", end)
        _check_between(data, end, len(data) if following < 0 else following, game_no, found)
        position = end
    if not trees and not any(f.code in (F.SGF_SYNTAX, F.SGF_TRUNCATED) for f in found):
        found.append(Finding(F.SGF_NO_GAME, "no SGF game found"))
    return trees


def _report(notes: _Notes, game_no: int, found: list[Finding], code: F.Code) -> None:
    for note in notes.items:
        found.append(Finding(F.SGF_MISSING_SEMICOLON if "';'" in note else code,
                             f"game {game_no}: {note}"))
    if notes.more:
        found.append(Finding(code, f"game {game_no}: {notes.more} more repairs like these",
                             extra={"more": notes.more}))


_CONTINUATION = b"SGFCHECKCONTINUATION"


def _mend_tokens(tokens: list[tuple[str, bytes]], depth: int, notes: _Notes) -> bytes:
    """Rebuild SGF text from tokens, mending what sgfmill's parser refuses.

    - ``(`` followed by a property: a ``;`` is inserted;
    - empty variations ``()`` are dropped, as are properties without values and values without
      properties;
    - nodes after a closed variation (old FF[1] style ``(;a(;v);b)``): they become a variation
      of their own (after the variations already there);
    - at the end, every open ``(`` is closed.
    """
    out: list[bytes] = []
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
                    notes.add("'(' without ';': a node was assumed")
            elif value == b")":
                if out and out[-1] == b"(":
                    out.pop()
                    extra.pop()
                    notes.add("empty variation '()' ignored")
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
                notes.add(f"property {value.decode()} without a value ignored")
                continue
            if not in_node:
                notes.add(f"property {value.decode()} outside a node ignored")
                continue
            out.append(value)
        else:
            prev = out[-1] if out else b""
            if not (prev.endswith(b"]") or prev.isalpha()):
                notes.add("a value without a property ignored")
                continue
            out.append(b"[" + value + b"]")
    while out and out[-1] in (b"(", b";"):
        if out.pop() == b"(" and extra:
            extra.pop()
    while extra:
        out.append(b")" * (extra.pop() + 1))
    if continued:
        notes.add("nodes follow a closed variation (old SGF style); they were read as a "
                     "further variation")
    return b"".join(out)


def _unmark_continuations(tree: sgf_grammar.Coarse_game_tree) -> None:
    """Remove the marker :func:`_mend_tokens` put on the variations it made."""
    key = _CONTINUATION.decode()
    todo = [tree]
    while todo:
        t = todo.pop()
        for child in t.children:
            child.sequence[0].pop(key, None)
        todo.extend(t.children)
