"""The summary of a batch run: counts over every file and game, duplicates, speed.

Filled by :func:`sgfcheck.run.batch.run_batch` as results arrive; written as a table by
:mod:`sgfcheck.output.text` and as JSON by :mod:`sgfcheck.output.schema`.
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
    """Files already in the report (``--resume``): counted in the summary when the report has
    its run state (``resumed``), else only skipped."""
    resumed: bool = False
    """``--resume`` counted the files of the earlier runs from the report's run state: the
    summary is the whole report's."""
    resumed_games: int = 0
    """Games of the files of earlier runs (not checked by this run: not in its speed)."""
    notes: list[str] = field(default_factory=list)
    """What the user should know about the summary itself (a report without run state...)."""
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
    engine_games: int = 0
    """Positions asked of an engine (KataGo, GNU Go)."""
    engine_seconds: float = 0.0
    """Seconds the engines took."""
    engine_refused: int = 0
    """Positions an engine was not asked (or not waited for): a bound on engine time ended
    (``LIF003``)."""
    not_judged: int = 0
    """Games ended by resignation, time or forfeit whose dead stones were not judged (batch
    without ``--judge-unscored``): no count decides their result; their counts rest on the
    stones proven dead."""
    solver_games: int = 0
    """Games whose last open points the solver played out (or tried to)."""
    solver_gave_up: int = 0
    """Of those, games where a limit stopped it (``--limit solver``, ``solver-time``, an area
    too large to play out): their counts stay bands."""
    solver_seconds: float = 0.0
    """Seconds the solver took."""
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
        """This run's speed (games of earlier runs left out)."""
        return (self.games - self.resumed_games) / self.elapsed if self.elapsed else 0.0


_COUNTS = ("files", "skipped", "games", "unreadable", "timeouts", "input_problems",
           "encodings_guessed", "errors", "games_with_illegal", "not_records", "engine_games",
           "engine_refused", "not_judged", "solver_games", "solver_gave_up")
_COUNTERS = ("verdicts", "illegal_by_rule", "result_checks")


def merge(total: Summary, part: Summary) -> None:
    """Add the counts of ``part`` (a partition of the same run) to ``total``; named lists stay
    within their bounds, duplicate groups are left to the caller."""
    for name in _COUNTS:
        setattr(total, name, getattr(total, name) + getattr(part, name))
    for name in _COUNTERS:
        getattr(total, name).update(getattr(part, name))
    for basis, counts in part.result_checks_by_basis.items():
        total.result_checks_by_basis.setdefault(basis, Counter()).update(counts)
    total.engine_seconds += part.engine_seconds
    total.solver_seconds += part.solver_seconds
    total.peak_rss_mb = max(total.peak_rss_mb, part.peak_rss_mb)
    total.not_record_names.extend(part.not_record_names[:max(0, NAMED - len(
        total.not_record_names))])
    total.problems.extend(part.problems[:max(0, 100 - len(total.problems))])


def to_plain(s: Summary) -> dict[str, object]:
    """The counts of a summary as plain JSON values (a partition's line in a manifest)."""
    out: dict[str, object] = {name: getattr(s, name) for name in _COUNTS}
    for name in _COUNTERS:
        out[name] = dict(getattr(s, name))
    out["result_checks_by_basis"] = {k: dict(v) for k, v in s.result_checks_by_basis.items()}
    out["problems"] = s.problems
    out["not_record_names"] = s.not_record_names
    out["peak_rss_mb"] = s.peak_rss_mb
    out["engine_seconds"] = s.engine_seconds
    out["solver_seconds"] = s.solver_seconds
    return out


def from_plain(obj: dict[str, object]) -> Summary:
    """The summary :func:`to_plain` wrote."""
    s = Summary()
    for name in _COUNTS:
        setattr(s, name, int(obj.get(name, 0)))  # type: ignore[call-overload]
    for name in _COUNTERS:
        getattr(s, name).update(obj.get(name) or {})
    for basis, counts in (obj.get("result_checks_by_basis") or {}).items():  # type: ignore[attr-defined]
        s.result_checks_by_basis[basis] = Counter(counts)
    s.problems = list(obj.get("problems") or [])  # type: ignore[call-overload]
    s.not_record_names = list(obj.get("not_record_names") or [])  # type: ignore[call-overload]
    s.peak_rss_mb = float(obj.get("peak_rss_mb") or 0.0)  # type: ignore[arg-type]
    s.engine_seconds = float(obj.get("engine_seconds") or 0.0)  # type: ignore[arg-type]
    s.solver_seconds = float(obj.get("solver_seconds") or 0.0)  # type: ignore[arg-type]
    return s
