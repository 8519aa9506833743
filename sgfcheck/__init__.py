"""sgfcheck: replay Go game records under any ruleset, report illegal moves, compare scores.

The library behind the ``sgfcheck`` command; every function here never raises for bad content
(problems are findings) and reads within :class:`~sgfcheck.limits.Limits`.

Check a record: the illegal moves with their rule, move number and point.

>>> report = check_bytes(b"(;GM[1]SZ[5]RU[Japanese]AB[bc][cb][cd]AW[dc][db][dd][ec];B[ca]"
...                      b";W[cc];B[dc])")
>>> [(f.code.code, f.move, f.point) for g in report.games for f in g.illegal_moves]
[('RUL001', 3, 'D3')]

Score it under several rulesets (every row with the record's KM) and check the recorded result.

>>> score = score_bytes(b"(;GM[1]SZ[9]KM[6.5]RU[Japanese]RE[W+6.5];B[];W[])",
...                     options=ScoreOptions(rules=("chinese",)))
>>> [(s.ruleset.name, s.result_text) for s in score.games[0].scores]
[('japanese', 'W+6.5'), ('chinese', 'W+6.5')]
>>> score.games[0].result_check.status
<CheckStatus.MATCH: 'match'>

Judge the dead stones: every chain's status, who decided it and how sure it is.

>>> life = judge_dead_stones(open("fixtures/dead-in-territory.sgf", "rb").read())
>>> [(c.colour.letter, c.status.value, c.points[0]) for c in life.games[0].chains
...  if c.status.value == "dead"]
[('W', 'dead', 'H5')]

The JSON the command line prints is :mod:`sgfcheck.schema`'s (``file_report_dict``,
``file_score_dict``, ``file_life_dict``), described by ``sgfcheck/data/report.schema.json``.
"""

from sgfcheck.adjudicate import (
    FileLife,
    FileScore,
    GameLife,
    GameScore,
    ScoreOptions,
    life_bytes,
    life_file,
    score_bytes,
    score_file,
)
from sgfcheck.check import CheckOptions, FileReport, GameReport, check_bytes, check_file
from sgfcheck.findings import Code, Finding, Severity
from sgfcheck.limits import Limits

judge_dead_stones = life_bytes
"""Every chain's status in each game of a record held in memory (:func:`life_bytes`)."""

__version__ = "0.1.0"

__all__ = [
    "CheckOptions", "Code", "FileLife", "FileReport", "FileScore", "Finding", "GameLife",
    "GameReport", "GameScore", "Limits", "ScoreOptions", "Severity", "check_bytes", "check_file",
    "judge_dead_stones", "life_bytes", "life_file", "score_bytes", "score_file",
]
