"""The summary of a batch run: counts over every file and game, duplicates, speed.

Filled by :func:`sgfcheck.batch.run_batch` as results arrive; written as a table by
:mod:`sgfcheck.report` and as JSON by :mod:`sgfcheck.schema`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

NAMED = 1000
"""Files skipped as not records named in the summary at most (all are counted)."""


@dataclass
class Summary:
    files: int = 0
    skipped: int = 0
    """Files already in the report (``--resume``)."""
    games: int = 0
    unreadable: int = 0
    timeouts: int = 0
    input_problems: int = 0
    encodings_guessed: int = 0
    errors: int = 0
    """Games with an error finding (their own or their file's)."""
    verdicts: Counter[str] = field(default_factory=Counter)
    illegal_by_rule: Counter[str] = field(default_factory=Counter)
    games_with_illegal: int = 0
    result_checks: Counter[str] = field(default_factory=Counter)
    result_checks_by_basis: dict[str, Counter[str]] = field(default_factory=dict)
    """Per basis (markup, estimate...), the result-check statuses."""
    identical_files: list[list[str]] = field(default_factory=list)
    same_games: list[list[str]] = field(default_factory=list)
    elapsed: float = 0.0
    peak_rss_mb: float = 0.0
    """Largest resident set of a worker."""
    not_records: int = 0
    """Files met in folders, globs and archives that are not records by their name."""
    not_record_names: list[str] = field(default_factory=list)
    """The first :data:`NAMED` of them."""
    problems: list[str] = field(default_factory=list)
    """The first inputs that could not be read, with why (all of them are rows in the report)."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed else 0.0
