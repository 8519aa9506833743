"""The options every command spells the same way (each a type a command's parameter is
annotated with: ``rules: options.Rules = "auto"``), ``--format`` and ``--output``, and the
settings made from them, each checked before any file is read (a usage error, exit 2).

Only light modules are imported here, as in :mod:`sgfcheck.cli.common`: a command imports the
library when it runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sgfcheck.cli.common import SUFFIX_FORMATS, check_writable, usage_error
from sgfcheck.engineregistry import BY_NAME, ENGINES
from sgfcheck.engineregistry import NAMES as ENGINE_LIST
from sgfcheck.escaping import visible
from sgfcheck.findings import ENGINE_FAILURES
from sgfcheck.limits import DEFAULT_LIMITS, LIMIT_HELP, Limits
from sgfcheck.settings import DeadStoneChoice, EngineName

if TYPE_CHECKING:
    from sgfcheck.output.formats import OutputFormat
    from sgfcheck.settings import Settings


# --- the options -------------------------------------------------------------------------------

RULES_HELP = ("The game's ruleset: 'auto' (from RU), a preset (see sgfcheck rules), "
              "preset:param=value,... or a KataGo rule string.")
Rules = Annotated[str, typer.Option("--rules", metavar="NAME", help=RULES_HELP)]


def _komi_number(text: str) -> float:
    """``--komi``'s value as a number, or a usage error in sgfcheck's words (not the option
    parser's)."""
    if isinstance(text, float):
        return text
    try:
        return float(text.strip())
    except ValueError:
        raise typer.BadParameter(f"{visible(text)[:40]!r} is not a number of points (such as "
                                 "6.5, 0 or -3)") from None


Komi = Annotated[float | None, typer.Option(
    "--komi", metavar="X", help="The komi, whatever KM says (every count and engine uses it; "
    "the result check reads no other).", show_default=False, parser=_komi_number)]
_ENGINES_ASKED = ", ".join(f"{name} (ask {BY_NAME[name].shown}: {BY_NAME[name].install})"
                          for name in ENGINE_LIST)
_FAILURES = " or ".join(f"{code.code} ({BY_NAME[name].shown})"
                        for name, code in ENGINE_FAILURES.items())
DEAD_STONES_HELP = (
    "Where dead stones come from: auto (TB/TW markup if the record has it, else estimate), "
    "markup (else proofs only), estimate (sgfcheck's judgement: proofs, then seeded playouts; "
    f"undecided chains are named 'uncertain'), benson (only stones proven dead), {_ENGINES_ASKED}, "
    f"none (every stone alive). An engine that fails is finding {_FAILURES}, and only the "
    "stones proven dead are removed.")
DeadStones = Annotated[DeadStoneChoice, typer.Option("--dead-stones",
                                                           help=DEAD_STONES_HELP)]
SEED_HELP = "Seed of the estimate's playouts (the same seed gives the same judgement)."
Seed = Annotated[int, typer.Option("--seed", metavar="N", help=SEED_HELP)]
ENGINE_HELP = (
    "The engine the estimate asks, with --dead-stones auto or estimate: auto (a second "
    f"opinion: the first installed of {', '.join(e.shown for e in ENGINES)}, counts again a "
    "game whose verdict on the estimate's dead stones would be a mismatch or stays open "
    "because of them; a mismatch needs both, an open verdict is decided where the engine's "
    f"count gives RE), {' or '.join(ENGINE_LIST)} (also the chains the estimate cannot decide: "
    "uncertain, or decided with a confidence under 0.7, asked of that engine only for a "
    "position with such a chain) or none (the estimate alone). Each chain's source says who "
    "decided it. Also SGFCHECK_ENGINE.")
Engine = Annotated[EngineName, typer.Option("--engine", envvar="SGFCHECK_ENGINE",
                                                  help=ENGINE_HELP)]
Encoding = Annotated[str | None, typer.Option(
    "--encoding", metavar="CODEC", help="Read every file in this encoding, whatever CA says.",
    show_default=False)]
LIMIT_HELP_TEXT = (
    "A limit on the work one file may cause, NAME=VALUE, repeatable; a limit reached is finding "
    "SGF035 on that file. Names and defaults: "
    + ", ".join(DEFAULT_LIMITS.describe(name.replace("-", "_")) for name in LIMIT_HELP)
    + " (memory: MB per batch worker; read-wait: seconds for a pipe or FIFO).")
Limit = Annotated[list[str] | None, typer.Option(
    "--limit", metavar="NAME=VALUE", help=LIMIT_HELP_TEXT, show_default=False)]
EngineTimeout = Annotated[float, typer.Option(
    "--timeout", metavar="S", help="Seconds the engines (KataGo, GNU Go) may take over the "
    "whole command (0: no bound); past it games are counted without them, each said with "
    "finding LIF003. One game and one file have bounds of their own: --limit engine-game, "
    "engine-file.")]
FollowLinks = Annotated[bool, typer.Option(
    "--follow-links", metavar="", help="Follow a folder's symbolic links that lead out of it "
    "(by default they are listed as not read: a folder from strangers reads nothing beside "
    "it). Links inside a folder are always read, once.")]
Wide = Annotated[bool, typer.Option(
    "--wide", metavar="", help="Tables as wide as they are: every column, no wrapping (default: "
    "fit the terminal, COLUMNS, or 100 columns).")]
Quiet = Annotated[bool, typer.Option(
    "--quiet", "-q", metavar="", help="No progress display (it only ever shows on a terminal, "
    "on standard error).")]
Move = Annotated[int | None, typer.Option(
    "--move", metavar="N", help="The position after this move instead of the final one (a "
    "move past the end of a game is a usage error, before any file is done).",
    show_default=False)]
Compare = Annotated[str | None, typer.Option(
    "--compare", metavar="NAME,...", help="Rulesets counted beside the game's own, "
    "comma-separated (default: tromp-taylor, chinese, japanese, aga and stone-scoring).",
    show_default=False)]
Inputs = Annotated[list[str], typer.Argument(
    metavar="INPUT", show_default=False,
    help="Records (SGF, GIB, NGF, UGF), folders (recursive), globs, .zip/.tar/.tar.gz archives, "
         "or '-' for one record on standard input.")]
Record = Annotated[str, typer.Argument(
    metavar="FILE", help="A record (SGF, GIB, NGF, UGF), or '-' for standard input.",
    show_default=False)]
OutputFile = Annotated[Path | None, typer.Option(
    "--output", "-o", metavar="FILE", help="Write the output to this file instead of standard "
    "output; its name gives the format unless --format does (.html, .json or .jsonl, .csv, "
    ".md, .txt).", show_default=False)]


# --- the settings made from them ----------------------------------------------------------------


def names(text: str | None) -> tuple[str, ...]:
    """A comma-separated option's values."""
    return tuple(n.strip() for n in text.split(",") if n.strip()) if text else ()


def seconds_of(timeout: float) -> float:
    """``--timeout`` checked: seconds from 0 (no limit) to 86400."""
    if not 0 <= timeout <= 86400:  # also false for nan
        raise usage_error("--timeout takes seconds from 0 (no limit) to 86400")
    return timeout


def limits_of(specs: list[str] | None) -> Limits:
    try:
        return DEFAULT_LIMITS.with_specs(specs or [])
    except ValueError as exc:
        raise usage_error(str(exc)) from None


def settings_of(rules: str, komi: float | None, encoding: str | None, limit: list[str] | None,
                *, compare: tuple[str, ...] = (), **choices: Any) -> Settings:
    """The settings of a command: the options every command spells the same way (``--rules``,
    ``--compare``, ``--komi``, ``--encoding``, ``--limit``), each checked first (an unknown
    ruleset, encoding, komi or limit is a usage error, exit 2, before any file is read), and the
    command's own choices."""
    from sgfcheck.settings import Settings

    validate([*compare, rules], encoding, komi)
    return Settings(rules=rules, compare=compare, komi=komi, encoding=encoding,
                    limits=limits_of(limit), **choices)


def validate(rules: Iterable[str], encoding: str | None, komi: float | None = None) -> None:
    """Usage errors (exit 2) for unknown rulesets, encodings or komi, before any file is read."""
    from sgfcheck.records.encoding import codec_for
    from sgfcheck.rules.ruleset import komi_value
    from sgfcheck.rules.spellings import parse_rules_string

    if komi is not None:
        try:
            komi_value(komi)
        except ValueError as exc:
            raise usage_error(f"--komi: {exc}") from None
    for name in rules:
        if name != "auto":
            try:
                parse_rules_string(name)
            except ValueError as exc:
                raise usage_error(str(exc)) from None
    if encoding is not None and codec_for(encoding) is None:
        raise usage_error(f"unknown encoding {encoding!r}")


def dead_points(text: str | None) -> tuple[str, ...]:
    """``--dead D4,Q16``: the points, each a usage error unless it is a point name."""
    from sgfcheck.points import parse_point_name

    points = names(text)
    for name in points:
        try:
            parse_point_name(name, 52, 52)
        except ValueError:
            raise usage_error(f"--dead: {name!r} is not a point like D4") from None
    return points


# --- --format and --output -----------------------------------------------------------------------


def format_option(command: str) -> Any:
    """The ``--format`` option of a command: the formats registered for it
    (:mod:`sgfcheck.output.formats`), the first by default."""
    from sgfcheck.output.formats import FORMATS

    choices = FORMATS[command]
    helps = "; ".join(f"{name}: {fmt.help}" for name, fmt in choices.items())
    first = next(iter(choices))
    return typer.Option("--format", metavar="|".join(choices), show_default=False,
                        help=f"{helps}. Default: what --output's name says, else {first}.")


def output_format(command: str, name: str | None, output: Path | None = None) -> OutputFormat:
    """The format of a command's output: ``--format``, else what ``--output``'s name says
    (``page.html``), else the first registered; a usage error (before any work) for a format the
    command does not write, or a name that says another format than ``--format``. The output
    file is checked writable here too."""
    from sgfcheck.output.formats import FORMATS

    choices = FORMATS[command]
    said = None if output is None else SUFFIX_FORMATS.get(output.suffix.lower())
    if name is None:
        if said is not None and said not in choices:
            raise usage_error(f"--output {output}: the name says {said}; {command} writes "
                              + ", ".join(choices))
        name = said or next(iter(choices))
    elif said is not None and said != name:
        raise usage_error(f"--format {name} but --output {output} says {said}: give one, or "
                          "names that agree")
    found = choices.get(name)
    if found is None:
        raise usage_error(f"--format {name!r}: {command} writes " + ", ".join(choices))
    check_writable("--output", output)
    return found
