"""The base of sgfcheck's word lists: an enum whose members are their own string values.

``str(member)``, f-strings, ``json.dumps`` and CSV all give the value (``"match"``), and a member
compares equal to its string, so JSON and tables read the same as before. Python 3.11 has
:class:`enum.StrEnum`; on 3.10 an equivalent is defined here.
"""

from __future__ import annotations

import sys
from enum import Enum

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """A string enum printed as its value."""

        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, spec: str) -> str:
            return format(str(self.value), spec)


__all__ = ["StrEnum"]
