"""A user's choices: one record for every command, built once and passed whole.

:class:`Settings` holds everything that changes what sgfcheck finds or counts: the game's rules
and their overrides, the komi, the rows to compare, where dead stones come from and which engine
decides what the estimate cannot, the text encoding, the limits on the work one file may cause,
the time allowed per file. The command line builds it from the options; the library takes it as
it is (``check_file(path, settings)``, ``score_file``, ``life_file``, ``batch``, ``diagram``,
``annotate``). Each game then resolves it once, with its record, into the rules and komi in
force (:mod:`sgfcheck.records.context`).

A batch run writes its settings beside its report (:meth:`Settings.to_plain`); a run continued
with other settings is refused, naming the difference (:func:`differences`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from sgfcheck.limits import DEFAULT_LIMITS, Limits
from sgfcheck.rules.ruleset import KoRule, SuicideRule
from sgfcheck.status import ENGINE_JUDGES, DeadStoneChoice, EngineName


@dataclass(frozen=True)
class Settings:
    """Everything a user chose. The defaults are the command line's defaults."""

    rules: str = "auto"
    """The game's ruleset: ``auto`` (from ``RU``), a preset, ``preset:param=value,...`` or a
    KataGo rule string."""
    ko: KoRule | None = None
    suicide: SuicideRule | None = None
    komi: float | None = None
    """The komi, whatever ``KM`` says."""
    compare: tuple[str, ...] = ()
    """Rulesets counted beside the game's own (``score``); empty: the default rows."""
    all_rules: bool = False
    """``check``: each illegal move's verdict under every preset."""
    variations: bool = False
    """``check``: every line of the game tree, not only the main line."""
    dead: tuple[str, ...] = ()
    """Dead stones named by the user (``D4``: its whole chain)."""
    alive: bool = False
    """Every stone alive, whatever the markup says."""
    dead_stones: DeadStoneChoice = DeadStoneChoice.AUTO
    seed: int = 0
    """Seed of the estimate's playouts (the same seed gives the same judgement)."""
    engine: EngineName = EngineName.AUTO
    judge_unscored: bool = True
    """Judge the dead stones (the estimate, an engine) of a game that ended by resignation, time
    or forfeit too, though no count decides its result. Off (``batch``'s default, unless
    ``--judge-unscored``): only such a game's markup (where ``dead_stones`` reads it) and the
    stones proven dead are read."""
    move: int | None = None
    """The position after this move instead of the end of the game."""
    encoding: str | None = None
    """Read every file in this encoding, whatever ``CA`` says."""
    limits: Limits = DEFAULT_LIMITS
    follow_links: bool = False
    """Follow a folder's symbolic links that lead out of it (by default an input problem)."""
    timeout: float = 30.0
    """Seconds allowed per file in ``batch`` (0: no limit)."""

    def __post_init__(self) -> None:
        # Library callers may give the enums' values as strings (``dead_stones="katago"``).
        for name, kind in (("ko", KoRule), ("suicide", SuicideRule),
                           ("dead_stones", DeadStoneChoice), ("engine", EngineName)):
            value = getattr(self, name)
            if value is not None and not isinstance(value, kind):
                object.__setattr__(self, name, kind(value))
        for name in ("compare", "dead"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    @property
    def user_rules(self) -> bool:
        """The user chose the game's rules or komi: the record's own are not read for them."""
        return self.rules != "auto" or self.komi is not None

    @property
    def judges_dead_stones(self) -> bool:
        """The dead stones may be judged (by the estimate or an engine), not only read from
        markup or proofs: ``--dead-stones`` is ``auto``, ``estimate`` or an engine, and neither
        ``--dead`` nor ``--alive`` is given. Only then does :attr:`judge_unscored` change
        anything."""
        if self.dead or self.alive:
            return False
        return self.dead_stones in ENGINE_JUDGES or self.dead_stones in (
            DeadStoneChoice.AUTO, DeadStoneChoice.ESTIMATE)

    @property
    def may_ask_engines(self) -> bool:
        """An engine may be asked about a game's dead stones: named as their source, or asked by
        the estimate or for a second opinion (``--engine`` other than ``none``)."""
        return self.judges_dead_stones and (self.dead_stones in ENGINE_JUDGES
                                            or self.engine is not EngineName.NONE)

    def judged_by(self, judge: DeadStoneChoice) -> Settings:
        """The same choices, the dead stones judged by ``judge`` and no engine asked after it
        (a second opinion's pass)."""
        return replace(self, dead_stones=judge, engine=EngineName.NONE)

    def for_check(self) -> Settings:
        """The settings of the check a count starts from: the main line, no verdict table."""
        if self.all_rules or self.variations:
            return replace(self, all_rules=False, variations=False)
        return self

    def to_plain(self) -> dict[str, Any]:
        """Every choice as plain JSON values (the limits as ``--limit`` writes them)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Limits):
                value = {name: value.describe(name).partition("=")[2] for name in
                         value.names()}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> Settings:
        """The settings :meth:`to_plain` wrote; raises ValueError for anything else."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name == "limits":
                value = DEFAULT_LIMITS.with_specs([f"{k.replace('_', '-')}={v}"
                                                   for k, v in dict(value).items()])
            elif name in ("compare", "dead"):
                value = tuple(value)
            elif name == "ko" and value is not None:
                value = KoRule(value)
            elif name == "suicide" and value is not None:
                value = SuicideRule(value)
            elif name == "dead_stones":
                value = DeadStoneChoice(value)
            elif name == "engine":
                value = EngineName(value)
            values[name] = value
        return replace(cls(), **values)


OPTION_NAMES = {"rules": "--rules", "ko": "--ko", "suicide": "--suicide", "komi": "--komi",
                "compare": "--compare", "all_rules": "--all-rules",
                "variations": "--variations", "dead": "--dead", "alive": "--alive",
                "dead_stones": "--dead-stones", "seed": "--seed", "engine": "--engine",
                "judge_unscored": "--judge-unscored",
                "move": "--move", "encoding": "--encoding", "limits": "--limit",
                "timeout": "--timeout"}
"""Each setting's option on the command line."""


def differences(before: Settings, now: Settings) -> list[str]:
    """The choices that differ, as a user reads them (``--engine katago, not none``). A choice
    that changes nothing in either run is not a difference: ``--judge-unscored`` where no dead
    stones are judged (a run state written before it existed reads as judging every game)."""
    out = []
    a, b = before.to_plain(), now.to_plain()
    moot = set() if before.judges_dead_stones or now.judges_dead_stones else {"judge_unscored"}
    for name, value in b.items():
        if a[name] != value and name not in moot:
            if name == "limits":
                changed = [f"{k.replace('_', '-')}={v}" for k, v in value.items()
                           if a[name].get(k) != v]
                was = [str(a[name][k]) for k, v in value.items() if a[name].get(k) != v]
                out.append(f"--limit {', '.join(changed)}, not {', '.join(was)}")
            else:
                out.append(f"{OPTION_NAMES[name]} {_shown(value)}, not {_shown(a[name])}")
    return out


def _shown(value: object) -> str:
    if value is None:
        return "(not given)"
    if isinstance(value, list):
        return ",".join(map(str, value)) or "(none)"
    return str(value)
