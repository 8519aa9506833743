"""sgfcheck: replay Go game records under any ruleset, report illegal moves, compare scores.

The library behind the ``sgfcheck`` command; every function here never raises for bad content
(problems are findings) and reads within :class:`~sgfcheck.limits.Limits`. A user's choices are
one :class:`~sgfcheck.settings.Settings` record, passed whole.

Check a record: the illegal moves with their rule, move number and point.

>>> from sgfcheck import Settings, check_bytes, life_bytes, score_bytes
>>> report = check_bytes(b"(;GM[1]SZ[5]RU[Japanese]AB[bc][cb][cd]AW[dc][db][dd][ec];B[ca]"
...                      b";W[cc];B[dc])")
>>> [(f.code.code, f.move, f.point) for g in report.games for f in g.illegal_moves]
[('RUL001', 3, 'D3')]

Score it under several rulesets (every row with the record's KM) and check the recorded result.

>>> score = score_bytes(b"(;GM[1]SZ[9]KM[6.5]RU[Japanese]RE[W+6.5];B[];W[])",
...                     settings=Settings(compare=("chinese",)))
>>> [(s.ruleset.name, s.result_text) for s in score.games[0].scores]
[('japanese', 'W+6.5'), ('chinese', 'W+6.5')]
>>> score.games[0].result_check.status
<CheckStatus.MATCH: 'match'>

Judge the dead stones: every chain's status, who decided it and how sure it is.

>>> life = life_bytes(open("fixtures/dead-in-territory.sgf", "rb").read())
>>> [(c.colour.letter, c.status.value, c.points[0]) for c in life.games[0].chains
...  if c.status.value == "dead"]
[('W', 'dead', 'H5')]

The JSON the command line prints is :mod:`sgfcheck.output.schema`'s (``file_report_dict``,
``file_score_dict``, ``file_life_dict``), described by ``sgfcheck/data/report.schema.json``.

The names are imported when first used, so that ``import sgfcheck`` (and the command line, which
lives in this package) starts without loading the whole library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sgfcheck.version import VERSION

if TYPE_CHECKING:
    from sgfcheck.findings import Code, Finding, Severity
    from sgfcheck.limits import Limits
    from sgfcheck.replay.check import FileReport, GameReport, check_bytes, check_file
    from sgfcheck.scoring.adjudicate import score_bytes, score_file
    from sgfcheck.scoring.gamescore import FileScore, GameScore
    from sgfcheck.scoring.lifefile import FileLife, GameLife, life_bytes, life_file
    from sgfcheck.settings import DeadStoneChoice, EngineName, Settings

__version__ = VERSION

_WHERE = {
    "Code": "sgfcheck.findings", "Finding": "sgfcheck.findings", "Severity": "sgfcheck.findings",
    "Limits": "sgfcheck.limits",
    "Settings": "sgfcheck.settings", "DeadStoneChoice": "sgfcheck.settings",
    "EngineName": "sgfcheck.settings",
    "FileReport": "sgfcheck.replay.check", "GameReport": "sgfcheck.replay.check",
    "check_bytes": "sgfcheck.replay.check", "check_file": "sgfcheck.replay.check",
    "FileLife": "sgfcheck.scoring.lifefile", "FileScore": "sgfcheck.scoring.gamescore",
    "GameLife": "sgfcheck.scoring.lifefile", "GameScore": "sgfcheck.scoring.gamescore",
    "life_bytes": "sgfcheck.scoring.lifefile", "life_file": "sgfcheck.scoring.lifefile",
    "score_bytes": "sgfcheck.scoring.adjudicate", "score_file": "sgfcheck.scoring.adjudicate",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'sgfcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "Code", "DeadStoneChoice", "EngineName", "FileLife", "FileReport", "FileScore", "Finding",
    "GameLife", "GameReport", "GameScore", "Limits", "Settings", "Severity", "__version__",
    "check_bytes", "check_file", "life_bytes", "life_file", "score_bytes", "score_file",
]
