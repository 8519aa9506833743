"""Findings: what sgfcheck reports about a file, a game or a move.

Every finding carries a stable code. ``SGF…`` codes are about the record itself (bytes, syntax,
properties), ``RUL…`` codes about the rules of Go (illegal moves, repetition), ``RES…`` codes about
the recorded result. Codes never change meaning; new ones are only ever added.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from sgfcheck.colour import Colour
from sgfcheck.engineregistry import ENGINES


class Severity(str, Enum):
    """How bad a finding is. Only ``error`` findings make ``check`` exit with status 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Code:
    """A finding code: its identifier, default severity and a short name for tables."""

    code: str
    severity: Severity
    rule: str

    @property
    def family(self) -> str:
        """``SGF`` (the record), ``RUL`` (the rules of Go), ``LIF`` (life and death), ``RES``
        (the recorded result)."""
        return self.code[:3]

    @property
    def is_rule(self) -> bool:
        """A finding about the rules of Go (an illegal move, a repetition)."""
        return self.family == "RUL"


ALL_CODES: list[Code] = []
"""Every finding code, in the order defined (the manual's table lists each)."""


def _c(code: str, severity: Severity, rule: str) -> Code:
    if any(c.code == code for c in ALL_CODES):  # an engine's entry reusing a code, say
        raise ValueError(f"the finding code {code} is made twice")
    made = Code(code, severity, rule)
    ALL_CODES.append(made)
    return made


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Record-level problems.
SGF_UNREADABLE = _c("SGF001", E, "unreadable file")
SGF_EMPTY = _c("SGF002", E, "empty file")
SGF_NO_GAME = _c("SGF003", E, "no SGF game")
SGF_SYNTAX = _c("SGF004", E, "syntax error")
SGF_TRUNCATED = _c("SGF005", E, "truncated file")
SGF_JUNK = _c("SGF006", INFO, "text outside game")
SGF_MISSING_PAREN = _c("SGF007", W, "missing '('")
SGF_MISSING_SEMICOLON = _c("SGF008", W, "missing ';'")
SGF_ENCODING_UNKNOWN = _c("SGF009", W, "unknown encoding")
SGF_ENCODING_GUESSED = _c("SGF010", INFO, "encoding guessed")
SGF_ENCODING_ERRORS = _c("SGF011", W, "undecodable text")
SGF_ENCODING_CONFLICT = _c("SGF012", W, "conflicting CA")
SGF_BAD_SIZE = _c("SGF013", E, "bad board size")
SGF_BAD_POINT = _c("SGF014", E, "bad point")
SGF_BAD_KOMI = _c("SGF015", W, "bad komi")
SGF_KOMI_NORMALISED = _c("SGF016", INFO, "komi normalised")
SGF_HANDICAP = _c("SGF017", W, "handicap mismatch")
SGF_HANDICAP_LATE = _c("SGF018", INFO, "handicap in second node")
SGF_SETUP_MIDGAME = _c("SGF019", W, "setup after first move")
SGF_BAD_PLAYER = _c("SGF020", W, "bad PL")
SGF_REPEATED_PROPERTY = _c("SGF021", INFO, "repeated property")
SGF_NOT_GO = _c("SGF022", E, "not a Go game")
SGF_RULES_UNKNOWN = _c("SGF023", W, "unknown RU")
SGF_RULES_MAPPED = _c("SGF024", INFO, "RU mapped")
SGF_TWO_MOVES_IN_NODE = _c("SGF025", W, "B and W in one node")
SGF_KO_PROPERTY = _c("SGF026", INFO, "KO property")
SGF_TOO_MANY_LINES = _c("SGF027", W, "too many variations")
SGF_PASS_SPELLING = _c("SGF028", INFO, "unusual pass")
SGF_EMPTY_TREE = _c("SGF029", W, "empty game tree")
SGF_BAD_VALUE = _c("SGF030", W, "bad property value")
SGF_TIMEOUT = _c("SGF031", E, "time limit")
SGF_INPUT = _c("SGF032", E, "input problem")
SGF_CRASH = _c("SGF033", E, "internal error")
SGF_AFTER_GAME = _c("SGF034", E, "nodes after the game")
"""Nodes follow the ``)`` that closes a game (a stray ``)`` cut the game short): not read."""
SGF_LIMIT = _c("SGF035", E, "limit reached")
"""A limit of :mod:`sgfcheck.limits` was reached: the file, or the rest of it, was not read.
``extra["limit"]`` names the limit as ``--limit`` sets it."""
SGF_OTHER_FORMAT = _c("SGF037", INFO, "other format")
"""The record is Tygem GIB, WBaduk NGF or PandaNet UGF, read as SGF; and what its format could
not say, assumed."""
SGF_TURN_ORDER = _c("SGF038", W, "first move")
"""The record's first move is not the colour that starts: White in a game without handicap
stones, Black after them (the colours may be swapped in the record)."""
SGF_ABNORMAL = _c("SGF036", W, "abnormal structure")
"""Legal but far from any real record (a million nodes, thousands of variations at one node,
a value of megabytes): said, and checked all the same."""

# Rules of Go.
RUL_OCCUPIED = _c("RUL001", E, "occupied point")
RUL_OFF_BOARD = _c("RUL002", E, "off board")
RUL_SUICIDE = _c("RUL003", E, "suicide")
RUL_KO = _c("RUL004", E, "simple ko")
RUL_PSK = _c("RUL005", E, "positional superko")
RUL_SSK = _c("RUL006", E, "situational superko")
RUL_NSSK = _c("RUL007", E, "natural situational superko")
RUL_CYCLE = _c("RUL008", W, "long cycle")
RUL_TURN = _c("RUL009", W, "same colour twice")
RUL_AFTER_END = _c("RUL010", W, "move after game end")
RUL_SETUP_DEAD = _c("RUL011", E, "illegal setup")
RUL_SUICIDE_ALLOWED = _c("RUL012", INFO, "suicide (legal here)")

# Life and death: each engine's failure, made from its registry entry (LIF001 GNU Go, LIF002
# KataGo), in the order of their codes.
ENGINE_FAILURES: dict[str, Code] = {
    e.name: _c(e.failure, E, f"{e.shown} failed")
    for e in sorted(ENGINES, key=lambda e: e.failure)}
"""The finding each engine's failure is, by the engine's name (``katago``: ``LIF002``)."""
LIF_TIME = _c("LIF003", W, "engine time spent")
"""A bound on engine time (``--limit engine-game``, ``engine-file``, ``--timeout``) ended before
an engine was asked or answered: the decision it would have made is the estimate's (or, with
``--dead-stones katago``/``gnugo``, only the stones proven dead are removed), said so."""

# Results.
RES_UNPARSEABLE = _c("RES001", W, "unreadable RE")
RES_KOMI_CONVENTION = _c("RES002", INFO, "komi from convention")
"""The record's komi cannot be what was played (a server convention, or the record contradicts
itself): the convention's komi is assumed for the result check."""
RES_RULES_INFERRED = _c("RES003", INFO, "rules inferred")
"""The record says nothing of the rules (or a server writes the same RU whatever was played):
the result check also reads the game under the other ruleset(s) the evidence allows."""
RES_WINNER_ONLY = _c("RES004", INFO, "margin unknown")
"""RE names the winner without a margin: the winner alone is checked."""
RES_MARGIN_APPROXIMATE = _c("RES005", INFO, "margin not exact")
"""The count gives the recorded winner but not the exact margin, and the position is
unfinished or its dead stones estimated: the winner alone is confirmed."""
RES_MARGIN_PARITY = _c("RES006", W, "margin against komi")
"""RE's margin cannot be a count under KM: every count differs from the komi by whole points
(``RE[B+3.5]`` with ``KM[0]``)."""
RES_LAST_MOVE = _c("RES007", INFO, "loser moved last")
"""RE says a player resigned or lost on time, and that player made the last move on the board
(servers allow it; it is also what a result written the other way round looks like)."""
RES_ASSUMED_RECORD = _c("RES008", INFO, "count on an assumption")
"""The count rests on an assumption about the record itself (where its handicap stones stood,
its komi): a disagreement with RE is not a mismatch."""
RES_SERVER_COUNT = _c("RES009", INFO, "server's count")
"""RE is reproduced by the server's own count and not by the referee's (points in seki, false
eyes to fill): the territory the record marks (TB/TW) counted as the marks stand, or the count of
the server the record names (OGS before 2024-06-08: every empty region bordered by one colour);
the difference is named."""
RES_SOURCE_CONVENTION = _c("RES010", INFO, "source's convention")
"""The count rests on what the record's source leaves out, read as that source writes it and
cited (Fox's handicap stones, placed as KataGo's SGF reader places them): a verdict resting on it
says so."""
RES_TO_MOVE_ASSUMED = _c("RES011", INFO, "side to move assumed")
"""The solved count (the last open points played out) starts from a side to move read from a
record that writes no passes (Fox): the opponent of the last move is taken to move first, though
the game may have ended by passes the record left out; a verdict resting on it says so."""


@dataclass
class Finding:
    """One thing worth telling the user, with where it is.

    ``move`` is the 1-based index in the move sequence (passes included, setup excluded), or None
    for file- and game-level findings. ``point`` is GTP style (``Q16``) or None.
    """

    code: Code
    message: str
    move: int | None = None
    colour: Colour | None = None
    point: str | None = None
    repeats_move: int | None = None
    severity: Severity = None  # type: ignore[assignment]  # the code's own when not given
    extra: dict[str, object] = field(default_factory=dict)
    """Keys that apply to some findings only (``cycle``, ``forced``, ``variation``, ``raw``,
    ``value``); they appear in the JSON beside the others."""

    def __post_init__(self) -> None:
        if self.severity is None:
            self.severity = self.code.severity

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def is_illegal(self) -> bool:
        """An illegal move: an error about the rules of Go (a forced ``KO[]`` move is not)."""
        return self.is_error and self.code.is_rule

    @property
    def capped_illegal(self) -> dict[str, int]:
        """The illegal moves a ``--limit findings`` finding (``SGF035``) counts but does not
        write, by rule: they count for the verdict and the summaries all the same."""
        counted = self.extra.get("illegal") if self.code is SGF_LIMIT else None
        return counted if isinstance(counted, dict) else {}
