"""A margin and a band of margins in words, as the verdicts and every output write them:
``B+6.5``, ``jigo``, ``B+1.5 .. B+6.5: open at K10, L12; unsettled: B N18``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Band(Protocol):
    """A band of margins (:class:`sgfcheck.counting.band.Band`, or a verdict's
    :class:`sgfcheck.verdict.reasons.NamedBand`), as far as its words need."""

    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def open_points(self) -> Sequence[Any]: ...
    """Its open points: by index (named by the board), or by name."""
    @property
    def unsettled(self) -> Sequence[str]: ...


def margin_text(margin: float) -> str:
    if margin == 0:
        return "jigo"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"


def band_text(band: Band, name: Callable[[Any], str] = str, most: int = 6) -> str:
    """``B+1.5 .. B+6.5: open at K10, L12; unsettled: B N18`` (at most ``most`` points named;
    ``name``: a point's name, where the band holds them by index)."""
    if band.low == band.high:
        text = margin_text(band.low)
    elif band.high < 0:  # White wins throughout: the smaller margin first
        text = f"{margin_text(band.high)} .. {margin_text(band.low)}"
    else:
        text = f"{margin_text(band.low)} .. {margin_text(band.high)}"
    parts = []
    if band.open_points:
        shown = ", ".join(name(p) for p in band.open_points[:most])
        more = len(band.open_points) - most
        parts.append(f"open at {shown}" + (f" and {more} more" if more > 0 else ""))
    if band.unsettled:
        parts.append("unsettled: " + ", ".join(band.unsettled))
    return text + (": " + "; ".join(parts) if parts else "")
