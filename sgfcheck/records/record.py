"""Game records: what a game tree means in Go - size, setup, moves, komi, handicap, RU, RE.

Bytes are decoded first (:mod:`sgfcheck.records.encoding`) and parsed into trees, damaged syntax
mended (:mod:`sgfcheck.records.syntax`). This module interprets each tree as a game: every game of
a collection, rectangular and large boards, the lines of play (main line and variations), and
server quirks (Fox komi x100, quarter-point komi in zi, handicap in the second node, ``HA`` without
stones, repeated properties, game information outside the root), each normalised with a finding
that shows raw -> interpreted.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgfmill import sgf_grammar

from sgfcheck import findings as F
from sgfcheck.colour import WHITE
from sgfcheck.findings import Finding, Severity
from sgfcheck.limits import DEFAULT_LIMITS, Limits
from sgfcheck.points import (
    Point,
    expand_point_list,
    fox_handicap,
    point_name,
    standard_handicap,
)
from sgfcheck.records.encoding import DecodedText, decode_sgf_bytes
from sgfcheck.records.formats import FORMAT_NAMES, RecordFormat, convert, declared_encoding, detect
from sgfcheck.records.lines import (
    Line,
    Move,
    Setup,
    extract_line,
    first_text,
    simple_text,
)
from sgfcheck.records.reading import read_path
from sgfcheck.records.servers import Server, server_of
from sgfcheck.records.sniff import not_a_record
from sgfcheck.records.syntax import ABNORMAL_NODE_VALUES, crowded_node, parse_trees
from sgfcheck.status import StrEnum

MAX_LINES = 10_000
"""With ``--variations``, at most this many lines of one game are checked."""

class HandicapPlacement(StrEnum):
    """Where a game's handicap stones stand, as far as the record tells."""

    NONE = "none"
    """No handicap stones."""
    RECORDED = "recorded"
    """Black setup stones (AB) before the first move."""
    PLAYED = "played"
    """Black's first moves (free placement)."""
    ASSUMED = "assumed"
    """Not in the record (HA without stones, White moving first): assumed on the standard
    points, unless the moves contradict it (then :attr:`UNKNOWN`)."""
    CONVENTION = "convention"
    """Not in the record, placed where the record's source put them: a Fox record with ``HA``
    and no stones, read as KataGo's SGF reader reads it (:func:`fox_placement`). A count rests
    on it and says so; a move the stones would make illegal refutes it (then
    :attr:`UNKNOWN`)."""
    UNKNOWN = "unknown"
    """Not in the record, and the points assumed contradicted by the moves: the game is
    replayed without the stones."""


@dataclass
class GameRecord:
    """One game tree of a file, with its game information normalised."""

    index: int
    width: int
    height: int
    tree: sgf_grammar.Coarse_game_tree | None
    komi: float | None = None
    komi_raw: str | None = None
    handicap: int = 0
    handicap_raw: str | None = None
    rules_raw: str | None = None
    result_raw: str | None = None
    info: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    playable: bool = True
    """False when the game cannot be replayed (not Go, no nodes)."""
    assumed_handicap: list[Point] = field(default_factory=list)
    """Handicap stones placed by sgfcheck: HA without stones, White moving first."""
    handicap_placement: HandicapPlacement = HandicapPlacement.NONE
    komi_unknown: bool = False
    """``KM`` holds a value no game can have (not a number, larger than the board): the komi is
    unknown, not a default."""
    server: Server = Server.UNKNOWN
    """The server or program that wrote the record, where its conventions are known."""

    def main_line(self) -> Line:
        if self.tree is None:
            return Line([], [], {}, [])
        # sgf_grammar.main_sequence_iter's nodes, a sequence at a time (a generator costs a
        # resumption a node).
        tree = self.tree
        nodes = list(tree.sequence)
        while tree.children:
            tree = tree.children[0]
            nodes.extend(tree.sequence)
        return extract_line(self.width, self.height, self._start(), nodes, [])

    def variations(self) -> tuple[list[list[int]], list[Finding]]:
        """Every root-to-leaf path, main line first, as the child index chosen at each branch
        (at most :data:`MAX_LINES`; more is a finding). Iterative: trees may be 100,000 deep."""
        if self.tree is None:
            return [], []
        paths: list[list[int]] = []
        stack: list[tuple[sgf_grammar.Coarse_game_tree, list[int]]] = [(self.tree, [])]
        while stack:
            tree, path = stack.pop()
            while len(tree.children) == 1:
                tree = tree.children[0]
            if not tree.children:
                if len(paths) == MAX_LINES:
                    return paths, [Finding(F.SGF_TOO_MANY_LINES, f"more than {MAX_LINES} "
                                           "variations; only the first were checked")]
                paths.append(path)
                continue
            for i in range(len(tree.children) - 1, -1, -1):
                stack.append((tree.children[i], path + [i]))
        return paths, []

    def line(self, variation: list[int]) -> Line:
        """The line that takes child ``variation[k]`` at the k-th branch (see
        :meth:`variations`)."""
        if self.tree is None:
            return Line([], [], {}, variation)
        tree = self.tree
        nodes = list(tree.sequence)
        branch = 0
        while tree.children:
            if len(tree.children) == 1:
                tree = tree.children[0]
            else:
                tree = tree.children[variation[branch]]
                branch += 1
            nodes.extend(tree.sequence)
        return extract_line(self.width, self.height, self._start(), nodes, variation)

    def _start(self) -> list[Move | Setup]:
        """What stands before the record's first node: the handicap stones it leaves out, or
        White to move first where they cannot be placed."""
        if self.assumed_handicap:
            return [Setup(0, list(self.assumed_handicap), [], [], None)]
        if self.handicap_placement is HandicapPlacement.UNKNOWN:
            return [Setup(0, [], [], [], WHITE)]  # a handicap game: White moves first
        return []


@dataclass
class LoadedFile:
    """Everything read from one file."""

    path: str
    encoding: str | None
    encoding_guessed: bool
    games: list[GameRecord]
    findings: list[Finding]

    @property
    def readable(self) -> bool:
        return bool(self.games)

    def first_games(self, most: int, finding: Finding) -> LoadedFile:
        """The file's first ``most`` games alone, ``finding`` saying the others were left."""
        return replace(self, games=self.games[:most], findings=[*self.findings, finding])


def load_file(path: str | Path, encoding: str | None = None,
              limits: Limits = DEFAULT_LIMITS) -> LoadedFile:
    """Read a file and parse every game in it. Never raises for bad content; never blocks on a
    FIFO nor reads a device (:mod:`sgfcheck.records.reading`)."""
    name = str(path)
    read = read_path(name, limits)
    if read.data is None:
        return LoadedFile(name, None, False, [], read.findings)
    return load_bytes(read.data, name, encoding, limits)


def load_bytes(raw: bytes, name: str = "<bytes>", encoding: str | None = None,
               limits: Limits = DEFAULT_LIMITS) -> LoadedFile:
    """Parse SGF data held in memory. Never raises for bad content; the work is bounded by
    ``limits`` (a limit reached is a finding, ``SGF035``)."""
    if len(raw) > limits.file_size:
        return LoadedFile(name, None, False, [], [Finding(
            F.SGF_LIMIT, f"{len(raw)} bytes, more than the limit "
            f"({limits.describe('file_size')}); not read (raise it with --limit file-size=...)",
            extra={"limit": limits.describe("file_size")})])
    if not raw.strip():
        return LoadedFile(name, None, False, [], [Finding(F.SGF_EMPTY, "the file is empty")])
    if detect(raw, name) is RecordFormat.SGF:
        refused = not_a_record(raw)
        if refused is not None:
            return LoadedFile(name, None, False, [], [Finding(
                F.SGF_NO_GAME, f"not a game record: {refused}; not read")])
    as_sgf = to_sgf(raw, name, encoding)
    found = as_sgf.findings
    decoded = as_sgf.decoded
    trees = parse_trees(as_sgf.data, found, limits)
    if len(trees) > limits.games:
        found.append(Finding(F.SGF_LIMIT, f"{len(trees)} games in the file; only the first "
                             f"{limits.games} were read (raise it with --limit games=...)",
                             extra={"limit": limits.describe("games")}))
        del trees[limits.games:]
    games = [_make_game(i, t) for i, t in enumerate(trees)]
    if as_sgf.data.count(b"[") > ABNORMAL_NODE_VALUES:
        for game in games:
            if game.tree is None:
                continue
            most, where = crowded_node(game.tree)
            if most > ABNORMAL_NODE_VALUES:
                game.findings.append(Finding(
                    F.SGF_ABNORMAL, f"node {where} holds {most} property values (a real node "
                    "holds a few; a full 19x19 setup 361)"))
    return LoadedFile(name, decoded.encoding, decoded.guessed, games, found)


@dataclass
class SgfText:
    """A record's bytes as UTF-8 SGF: decoded, and converted when it is in another format."""

    fmt: RecordFormat
    data: bytes
    decoded: DecodedText
    findings: list[Finding]


def to_sgf(raw: bytes, name: str = "<bytes>", encoding: str | None = None) -> SgfText:
    """Decode a record (:mod:`sgfcheck.records.encoding`) and, for GIB, NGF or UGF, convert it
    (:mod:`sgfcheck.records.formats`). Never raises for bad content."""
    fmt = detect(raw, name)
    decoded = decode_sgf_bytes(raw, encoding or declared_encoding(raw, fmt))
    found = list(decoded.findings)
    data = decoded.data
    if fmt is not RecordFormat.SGF:
        converted = convert(data.decode("utf-8", "replace"), fmt)
        found.append(Finding(F.SGF_OTHER_FORMAT, f"a {FORMAT_NAMES[fmt]} record, read as SGF"))
        found.extend(converted.findings)
        data = converted.sgf.encode("utf-8")
    return SgfText(fmt, data, decoded, found)


# --- game information -------------------------------------------------------------------------


_SINGLE_VALUED = ("SZ", "KM", "HA", "RU", "RE", "PB", "PW", "DT", "EV", "GM", "PL", "CA", "FF")
_GAME_INFO = frozenset(("SZ", "KM", "HA", "RU", "RE", "PB", "PW", "DT", "EV", "GM", "FF", "CA"))
_INFO_KEYS = ("PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "AP", "TM", "OT")
_SIZE_RE = re.compile(r"^\s*(-?\d{1,6})\s*(?::\s*(-?\d{1,6})\s*)?$")
_HANDICAP_RE = re.compile(r"^\s*\+?(\d{1,6})(?:\.0*)?\s*$")
# Fox/SGFC:2.0 scaled komi; quarter values are zi (see rules.md 2.3).
_FOX_ZI_HINTS = {350: 7.0}


def _make_game(index: int, tree: sgf_grammar.Coarse_game_tree) -> GameRecord:
    root = tree.sequence[0]
    game = GameRecord(index, 19, 19, tree)
    found = game.findings
    for ident in _SINGLE_VALUED:
        values = root.get(ident)
        if values and len(values) > 1 and ident != "AP":
            shown = ", ".join(simple_text(v) for v in values[:5])
            more = ", ..." if len(values) > 5 else ""
            found.append(Finding(
                F.SGF_REPEATED_PROPERTY,
                f"{ident} appears {len(values)} times ({shown}{more}); the first is used"))
    ap = [simple_text(v) for v in root.get("AP", [])[:5]]
    if len(ap) > 1:
        found.append(Finding(F.SGF_REPEATED_PROPERTY,
                             f"AP appears {len(root['AP'])} times ({', '.join(ap)}); all are kept"))

    gm = root.get("GM")
    if gm and first_text(gm) not in ("1", ""):
        found.append(Finding(F.SGF_NOT_GO, f"GM[{first_text(gm)}] is not Go (GM[1]); game skipped"))
        game.playable = False

    size = root.get("SZ")
    if size:
        raw = first_text(size)
        m = _SIZE_RE.match(raw)
        w = h = None
        if m:
            w = int(m.group(1))
            h = int(m.group(2)) if m.group(2) is not None else w
        if w is None or h is None or not (1 <= w <= 52 and 1 <= h <= 52):
            found.append(Finding(F.SGF_BAD_SIZE,
                                 f"SZ[{raw}] is not a board size from 1 to 52; 19x19 assumed"))
        else:
            game.width, game.height = w, h

    # Game information, from the root or (Fox, hand-made files) the nodes before the first move.
    info_nodes = [root]
    for node in tree.sequence[1:3]:
        if "B" in node or "W" in node:
            break
        info_nodes.append(node)

    def prop(ident: str) -> list[bytes] | None:
        for node in info_nodes:
            if ident in node:
                return node[ident]
        return None

    for key in _INFO_KEYS:
        values = prop(key)
        if values:
            game.info[key] = (", ".join(simple_text(v) for v in values) if key == "AP"
                              else simple_text(values[0]))
    ru = prop("RU")
    if ru is not None:
        game.rules_raw = first_text(ru)
    re_ = prop("RE")
    if re_ is not None:
        game.result_raw = first_text(re_)
    game.server = server_of(ap, frozenset(root), game.info.get("PC"))
    _read_komi(game, prop("KM"))
    _read_handicap(game, prop("HA"), tree)
    ko = prop("KO")
    if ko and first_text(ko):
        value = first_text(ko)
        try:
            komi = float(value)
        except ValueError:
            found.append(Finding(F.SGF_KO_PROPERTY,
                                 f"KO[{value}] in the game information holds text; ignored"))
        else:
            if not math.isfinite(komi) or abs(komi) > game.width * game.height:
                found.append(Finding(F.SGF_KO_PROPERTY, f"KO[{value}] in the game information "
                                     "is no komi a game can have; ignored"))
            elif game.komi is None:
                game.komi, game.komi_raw = komi, value
                found.append(Finding(F.SGF_KO_PROPERTY,
                                     f"KO[{value}] -> komi {komi:g}: a number in KO is a "
                                     "misplaced komi (Sina style), not the KO move property"))
    for i, node in enumerate(info_nodes[1:], start=2):
        misplaced = sorted(k for k in node if k in _GAME_INFO)
        if misplaced:
            found.append(Finding(F.SGF_BAD_VALUE,
                                 f"game information {', '.join(misplaced)} in node {i}, not in "
                                 "the root; read anyway"))
    return game


def _read_komi(game: GameRecord, values: list[bytes] | None) -> None:
    if values is None:
        return
    raw = first_text(values)
    game.komi_raw = raw
    if not raw:
        game.findings.append(Finding(F.SGF_BAD_KOMI, "KM[] is empty: read as a record without "
                                                      "KM"))
        return
    try:
        komi = float(raw.replace(",", "."))
    except ValueError:
        _unknown_komi(game, raw, "is not a number")
        return
    if komi != komi or abs(komi) == float("inf"):
        _unknown_komi(game, raw, "is not a number")
        return
    fox = game.server is Server.FOX
    rules = (game.rules_raw or "").lower()
    value = komi
    why = ""
    if abs(komi) >= 50 and float(komi).is_integer() and int(komi) % 25 == 0:
        # Fox writes komi x100; a quarter value is in zi (Chinese counting) and is doubled.
        scaled = komi / 100
        if abs(komi) in _FOX_ZI_HINTS and "chinese" in rules:
            value = _FOX_ZI_HINTS[int(abs(komi))] * (1 if komi > 0 else -1)
        elif (scaled * 4) % 2 == 1:
            value = scaled * 2
        else:
            value = scaled
        why = ("Fox writes komi x100" if fox else
               "no plausible komi is that large; read as Fox-style komi x100")
        if value != scaled:
            why += f"; {scaled:g} is in zi (Chinese counting units), = {value:g} points"
    elif (komi * 4) % 2 == 1:
        value = komi * 2
        why = "a quarter-point komi is in zi (Chinese counting units, GoGoD/Fox style)"
    if abs(value) > game.width * game.height:
        _unknown_komi(game, raw, f"is more than the board's {game.width * game.height} points: "
                                 "no game has such a komi")
        return
    if why:
        game.findings.append(Finding(F.SGF_KOMI_NORMALISED, f"KM[{raw}] -> {value:g}: {why}",
                                     extra={"raw": raw, "value": value}))
    elif raw != f"{komi:g}":
        game.findings.append(Finding(F.SGF_KOMI_NORMALISED, f"KM[{raw}] -> {komi:g}",
                                     extra={"raw": raw, "value": komi}))
    game.komi = value


def _unknown_komi(game: GameRecord, raw: str, why: str) -> None:
    """The record gives a komi no game can have: the komi is unknown, never replaced by a
    default (a count with an invented komi would contradict the record's result for nothing)."""
    game.komi_unknown = True
    game.findings.append(Finding(F.SGF_BAD_KOMI,
                                 f"KM[{raw}] {why}; the komi is unknown: counts are made without "
                                 "it, and the result check says what komi the recorded result "
                                 "would need"))


def _read_handicap(game: GameRecord, values: list[bytes] | None,
                   tree: sgf_grammar.Coarse_game_tree) -> None:
    """Handicap = black setup stones before the first move (root, or Fox's second node)."""
    found = game.findings
    seq = list(tree.sequence[:3])
    setup_black = 0
    setup_white = 0
    late = False
    for i, node in enumerate(seq):
        if "B" in node or "W" in node:
            break
        if i > 0 and "AB" in node:
            late = True
        setup_black += len(expand_point_list(node.get("AB", []), 52, 52).points)
        setup_white += len(expand_point_list(node.get("AW", []), 52, 52).points)
    ha: int | None = None
    if values is not None:
        raw = first_text(values)
        game.handicap_raw = raw
        m = _HANDICAP_RE.match(raw)
        if not raw:
            ha = 0
        elif m is None:
            found.append(Finding(F.SGF_HANDICAP, f"HA[{raw}] is not a number of stones; ignored"))
        elif int(m.group(1)) > game.width * game.height:
            found.append(Finding(F.SGF_HANDICAP, f"HA[{raw}] is more stones than the board has "
                                 "points; ignored"))
        else:
            ha = int(m.group(1))
    stones = setup_black if setup_white == 0 and setup_black >= 2 else 0
    if late and stones:
        found.append(Finding(F.SGF_HANDICAP_LATE,
                             f"the {stones} handicap stones are set up in the second node, "
                             "not the root"))
    if ha is not None and ha >= 2 and stones != ha:
        if stones == 0 and setup_black == 0:
            first = _first_moves(tree, ha)
            if first == "B" * ha:
                found.append(Finding(F.SGF_HANDICAP,
                                     f"HA[{ha}] with no setup stones: the first {ha} moves are "
                                     "Black's and are read as free handicap placement",
                                     severity=Severity.INFO))
                stones = ha
                game.handicap_placement = HandicapPlacement.PLAYED
            elif fox_placement(tree, ha):
                date = tree.sequence[0].get("DT")
                game.assumed_handicap = fox_handicap(ha, first_text(date) if date else None)
                stones = ha
                game.handicap_placement = HandicapPlacement.CONVENTION
                names = ", ".join(point_name(p, game.height) for p in game.assumed_handicap)
                found.append(Finding(F.SGF_HANDICAP,
                                     f"HA[{ha}] but no handicap stones are placed, White moves "
                                     f"first, and the record is Fox's: the {ha} stones are "
                                     f"placed at {names}, as KataGo's SGF reader places the "
                                     "stones Fox records leave out (cpp/dataio/sgf.cpp, since "
                                     "2025-01-04), unless the moves contradict it",
                                     severity=Severity.INFO,
                                     extra={"assumption": "handicap placement"}))
            elif first[:1] == "W" and standard_handicap(ha, game.width, game.height):
                game.assumed_handicap = standard_handicap(ha, game.width, game.height)
                stones = ha
                game.handicap_placement = HandicapPlacement.ASSUMED
                names = ", ".join(point_name(p, game.height) for p in game.assumed_handicap)
                found.append(Finding(F.SGF_HANDICAP,
                                     f"HA[{ha}] but no handicap stones are placed and White moves "
                                     f"first; the {ha} stones are assumed on the standard points "
                                     f"{names}, unless the moves contradict it (an assumption "
                                     "of sgfcheck's, not the record's)",
                                     extra={"assumption": "handicap placement"}))
            else:
                found.append(Finding(F.SGF_HANDICAP,
                                     f"HA[{ha}] but no handicap stones are placed; the game is "
                                     "replayed as it stands (no handicap stones)"))
        else:
            found.append(Finding(F.SGF_HANDICAP,
                                 f"HA[{ha}] but {setup_black} black setup stones: the record "
                                 f"disagrees with itself; the handicap is taken as the "
                                 f"{stones} stones on the board"))
    elif ha == 1:
        found.append(Finding(F.SGF_HANDICAP, "HA[1] means no handicap stones (Black simply "
                                             "moves first); handicap 0 assumed",
                             severity=Severity.INFO))
    if stones and game.handicap_placement is HandicapPlacement.NONE:
        game.handicap_placement = HandicapPlacement.RECORDED
    game.handicap = stones


def fox_placement(tree: sgf_grammar.Coarse_game_tree, ha: int) -> bool:
    """Whether a record is one whose missing handicap stones KataGo's SGF reader places
    (cpp/dataio/sgf.cpp, "missing handicap placements in fox", lightvector/KataGo c7f6998a):
    an ``AP`` value ``foxwq``, or ``GNU Go:3.8`` with an empty ``GN`` (older Fox records);
    ``SZ[19]``; no stone placed and no move in the root; the second node White's move; ``HA``
    from 2 to 9."""
    sequence = tree.sequence
    if len(sequence) < 2 or not 2 <= ha <= 9:
        return False
    root, second = sequence[0], sequence[1]
    ap = {simple_text(v) for v in root.get("AP", [])}
    gn = root.get("GN")
    fox = "foxwq" in ap or ("GNU Go:3.8" in ap and gn is not None and first_text(gn) == "")
    size = root.get("SZ")
    return (fox and size is not None and first_text(size) == "19"
            and not any(k in root for k in ("AB", "AW", "AE", "B", "W"))
            and "W" in second and "B" not in second)


def _first_moves(tree: sgf_grammar.Coarse_game_tree, n: int) -> str:
    colours = []
    for node in sgf_grammar.main_sequence_iter(tree):
        if "B" in node:
            colours.append("B")
        elif "W" in node:
            colours.append("W")
        if len(colours) >= n:
            break
    return "".join(colours)


# --- moves ------------------------------------------------------------------------------------
