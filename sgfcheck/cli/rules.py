"""``sgfcheck rules``: the ruleset presets and every parameter."""

from __future__ import annotations

from typing import Annotated

import typer

from sgfcheck.cli import options
from sgfcheck.cli.common import examples, width
from sgfcheck.status import StrEnum


class RulesFormat(StrEnum):
    text = "text"
    json = "json"


app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@app.command("rules", epilog=examples("sgfcheck rules", "sgfcheck rules --format json"))
def list_rules(
    output_format: Annotated[RulesFormat, typer.Option("--format", help="text or json.")
                             ] = RulesFormat.text,
    wide: options.Wide = False,
) -> None:
    """List the ruleset presets and every parameter."""
    from sgfcheck.output.formats import rules_json, rules_text
    from sgfcheck.rules.presets import PRESETS

    if output_format is RulesFormat.json:
        typer.echo(rules_json()(PRESETS))
        return
    typer.echo(rules_text()(PRESETS, width(wide)))

