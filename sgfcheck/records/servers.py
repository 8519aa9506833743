"""Which server or program wrote a record, read once from its root: the conventions of komi,
rules and results that sgfcheck knows differ by who wrote the file.

Only what the evidence shows is named; everything else is :attr:`Server.UNKNOWN`.

- Fox (Foxwq): ``AP[foxwq]``, or ``AP[GNU Go:3.8]`` with the ``TC``/``TT`` byo-yomi properties
  only Fox writes beside it (Fox's professional archives carry both forms). Fox
  writes komi x100 (``KM[650]``, ``KM[375]`` in zi), often ``KM[0]`` for games played with komi,
  and ``RU[Japanese]`` on games played under Chinese rules.
- OGS (online-go.com): ``PC[OGS: https://online-go.com/game/N]``, as its SGF export writes the
  place; its scorer counted every empty region bordered by one colour before 2024-06-08
  (:mod:`sgfcheck.verdict.servers`).
"""

from __future__ import annotations

from sgfcheck.status import StrEnum


class Server(StrEnum):
    FOX = "fox"
    OGS = "ogs"
    UNKNOWN = "unknown"


def server_of(ap: list[str], root_properties: set[str] | frozenset[str],
              place: str | None = None) -> Server:
    """The server that wrote a record, from its ``AP`` values (every one, as written), the
    identifiers of its root node and its place (``PC``)."""
    if place is not None and ("online-go.com" in place.lower()
                              or place.lower().startswith("ogs:")):
        return Server.OGS
    names = [a.lower() for a in ap]
    if any("foxwq" in a for a in names):
        return Server.FOX
    if any(a.startswith("gnu go:3.8") for a in names) and {"TT", "TC"} <= root_properties:
        return Server.FOX
    return Server.UNKNOWN
