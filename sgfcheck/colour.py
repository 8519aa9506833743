"""The colour of a stone or of a player: one type for the whole of sgfcheck.

:class:`Colour` is an ``IntEnum`` so that boards store it as a small integer (``EMPTY`` is 0,
Black 1, White 2) at full speed, and so that ``colour.letter`` (``B``/``W``, as SGF and GTP write
it) and ``colour.word`` (``Black``/``White``, for sentences) are asked of the value, never looked up
in a table of their own.
"""

from __future__ import annotations

from enum import IntEnum


class Colour(IntEnum):
    BLACK = 1
    WHITE = 2

    @property
    def letter(self) -> str:
        """``B`` or ``W``."""
        return "B" if self is Colour.BLACK else "W"

    @property
    def word(self) -> str:
        """``Black`` or ``White``."""
        return "Black" if self is Colour.BLACK else "White"

    @property
    def opponent(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @classmethod
    def from_letter(cls, letter: str) -> Colour | None:
        """``B``/``W`` (any case; also ``1``/``2`` as some PL values have it), else None."""
        return _FROM_LETTER.get(letter[:1].upper())


_FROM_LETTER = {"B": Colour.BLACK, "W": Colour.WHITE, "1": Colour.BLACK, "2": Colour.WHITE}

EMPTY = 0
"""An empty point on a board."""
BLACK = Colour.BLACK
WHITE = Colour.WHITE
COLOURS = (BLACK, WHITE)
