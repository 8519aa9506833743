"""The recorded result (RE) in every spelling seen in real files, parsed.

Kinds: ``score``, ``win`` (the winner is known, the margin is not written: ``B``, ``W+``,
``W+0.0``), ``resign``, ``time``, ``forfeit``, ``draw``, ``void``, ``unknown``.
Margins are in points. A margin with a quarter fraction (Fox ``W+2.25``, Chinese ``2又3/4子``) is
in zi (Chinese counting units, half the board) and is doubled, with a note saying so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sgfcheck.colour import BLACK, WHITE, Colour
from sgfcheck.status import StrEnum


class ResultKind(StrEnum):
    SCORE = "score"
    WIN = "win"
    """The winner is known, the margin is not written (``B``, ``W+``, ``W+0.0``): a result
    check compares the winner alone."""
    RESIGN = "resign"
    TIME = "time"
    FORFEIT = "forfeit"
    DRAW = "draw"
    VOID = "void"
    UNKNOWN = "unknown"


NOT_PLAYED_OUT = (ResultKind.RESIGN, ResultKind.TIME, ResultKind.FORFEIT)
"""The ends of a game before it was played out: no count decides RE."""


@dataclass(frozen=True)
class Result:
    raw: str | None
    winner: Colour | None
    """None for a draw, a void game or an unknown winner."""
    margin: float | None
    kind: ResultKind
    note: str = ""
    parsed: bool = True
    zi: bool = False
    """The margin was written in zi (Chinese counting units) and doubled to points."""

    @property
    def played_out(self) -> bool:
        """The game was not ended by resignation, time or forfeit: a count may decide RE."""
        return self.kind not in NOT_PLAYED_OUT

    @property
    def margin_as_counted(self) -> bool:
        """The margin is a count in points as RE writes it: not read from zi, and in whole or
        half points (``W+3.2`` is not)."""
        return (self.margin is not None and not self.zi
                and abs(self.margin * 2 - round(self.margin * 2)) < 1e-9)


_RESIGN, _TIME, _FORFEIT = ResultKind.RESIGN, ResultKind.TIME, ResultKind.FORFEIT
_UNKNOWN = ResultKind.UNKNOWN
_WIN = ResultKind.WIN
_NO_MARGIN = "winner without margin or reason"
_WORDS = {
    "r": _RESIGN, "res": _RESIGN, "resign": _RESIGN, "resignation": _RESIGN,
    "t": _TIME, "time": _TIME, "timeout": _TIME,
    "f": _FORFEIT, "forfeit": _FORFEIT, "forf": _FORFEIT,
}
_SCORE_RE = re.compile(r"^([BW])(?:\+|\s)\s*([0-9]+(?:\.[0-9]*)?)\s*(?:pts?|points?|目)?$", re.I)
_WIN_RE = re.compile(r"^([BW])\s*\+\s*(.*)$", re.I)
_COLOUR_WORDS = {"black": BLACK, "white": WHITE, "b": BLACK, "w": WHITE}


def _margin(text: str) -> tuple[float, str, bool]:
    value = float(text)
    if (value * 4) % 2 == 1:  # x.25 or x.75: zi
        return (value * 2, f"margin {text} read as zi (Chinese counting): {value * 2:g} points",
                True)
    return value, "", False


_BLACK_CJK = ("黑", "黒", "흑")
_WHITE_CJK = ("白", "백")


def _chinese(raw: str) -> Result | None:
    """Chinese, Japanese and Korean results: 白胜43.5目, 黑中盘胜, 黒中押し勝ち, 黒3目半勝ち."""
    text = raw.split(",")[-1].split("、")[-1].strip()
    winner = (BLACK if text.startswith(_BLACK_CJK) else WHITE if text.startswith(_WHITE_CJK)
              else None)
    if winner is None:
        return None
    m = re.search(r"([0-9]+)\s*目半", text)
    if m:
        return Result(raw, winner, int(m.group(1)) + 0.5, ResultKind.SCORE)
    raw = text
    if "中盘" in raw or "中押" in raw or "불계" in raw:
        return Result(raw, winner, None, _RESIGN)
    if "超时" in raw or "时间" in raw:
        return Result(raw, winner, None, _TIME)
    m = re.search(r"([0-9]+)又([0-9])/([0-9])子", raw)
    if m:
        zi = int(m.group(1)) + int(m.group(2)) / int(m.group(3))
        return Result(raw, winner, zi * 2, ResultKind.SCORE, f"{zi:g} zi = {zi * 2:g} points",
                      zi=True)
    m = re.search(r"([0-9]+(?:\.[0-9]+)?)\s*子", raw)
    if m:
        zi = float(m.group(1))
        return Result(raw, winner, zi * 2, ResultKind.SCORE, f"{zi:g} zi = {zi * 2:g} points",
                      zi=True)
    m = re.search(r"([0-9]+(?:\.[0-9]+)?)\s*目?", raw)
    if m:
        return Result(raw, winner, float(m.group(1)), ResultKind.SCORE)
    if "胜" in raw or "勝" in raw or "승" in raw:
        return Result(raw, winner, None, _WIN, _NO_MARGIN)
    return None


def parse_result(raw: str | None) -> Result:
    """Parse an RE value. Never raises: an unreadable value gives ``parsed=False``."""
    if raw is None:
        return Result(None, None, None, _UNKNOWN, "no RE property")
    text = raw.strip()
    low = text.lower()
    if text == "":
        return Result(raw, None, None, _UNKNOWN, "empty RE")
    if low in ("0", "draw", "jigo", "d", "d+j", "=", "0.0", "tie") or low.startswith("draw"):
        return Result(raw, None, 0.0, ResultKind.DRAW)
    if low in ("void", "v", "no result", "noresult", "suspended", "n/r"):
        return Result(raw, None, None, ResultKind.VOID)
    if low in ("?", "unknown", "ongoing"):
        return Result(raw, None, None, _UNKNOWN, "result unknown")
    m = _SCORE_RE.match(text)
    if m:
        winner = Colour.from_letter(m.group(1))
        margin, note, zi = _margin(m.group(2))
        if margin == 0:
            return Result(raw, winner, None, _WIN,
                          f"{raw}: a winner with a zero margin; the winner is known, the margin "
                          "is not written (a draw has no winner)")
        return Result(raw, winner, margin, ResultKind.SCORE, note, zi=zi)
    m = _WIN_RE.match(text)
    if m:
        winner = Colour.from_letter(m.group(1))
        rest = m.group(2).strip().lower()
        if rest in _WORDS:
            return Result(raw, winner, None, _WORDS[rest])
        if rest == "":
            return Result(raw, winner, None, _WIN, _NO_MARGIN)
        if rest in ("j", "jigo"):
            return Result(raw, None, 0.0, ResultKind.DRAW)
        return Result(raw, winner, None, _UNKNOWN, f"unknown reason {m.group(2)!r}")
    if low in _COLOUR_WORDS:
        return Result(raw, _COLOUR_WORDS[low], None, _WIN, _NO_MARGIN)
    m = re.match(r"^(black|white)\s+(?:wins|won)\b(.*)$", low)
    if m:
        winner = _COLOUR_WORDS[m.group(1)]
        num = re.search(r"([0-9]+(?:\.[0-9]+)?)", m.group(2))
        if num:
            margin, note, zi = _margin(num.group(1))
            return Result(raw, winner, margin, ResultKind.SCORE, note, zi=zi)
        if "resign" in m.group(2):
            return Result(raw, winner, None, _RESIGN)
        return Result(raw, winner, None, _WIN, _NO_MARGIN)
    m = re.match(r"^(black|white)\s+resign", low)
    if m:
        return Result(raw, WHITE if m.group(1) == "black" else BLACK, None, _RESIGN)
    if "adjourn" in low:
        return Result(raw, None, None, ResultKind.VOID, "play was adjourned")
    chinese = _chinese(text)
    if chinese is not None:
        return chinese
    return Result(raw, None, None, _UNKNOWN, f"RE[{raw}] is not a result sgfcheck can read",
                  parsed=False)
