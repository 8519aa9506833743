"""The one record of ``diagram`` and ``annotate``: a file (or ``-``) holding a game, else a usage
error saying why."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from sgfcheck.cli.common import usage_error
from sgfcheck.settings import Settings

if TYPE_CHECKING:
    from sgfcheck.records.record import LoadedFile
    from sgfcheck.replay.check import GameReport


def one_record(file: str, settings: Settings, what: str) -> LoadedFile:
    """The record in ``file``, read with the settings' encoding and limits."""
    from sgfcheck.records.inputs import Skipped
    from sgfcheck.records.loading import load_inputs

    loaded = next(iter(load_inputs([file], settings.encoding, settings.limits,
                                   sys.stdin.buffer)))
    if isinstance(loaded, Skipped):
        raise usage_error(f"{file}: {loaded.reason}")
    if not loaded.games:
        problems = "; ".join(f"{f.code.code} {f.message}" for f in loaded.findings)
        raise usage_error(f"{file}: no game to {what} ({problems})")
    return loaded


def one_game(file: str, settings: Settings, game_no: int, what: str) -> GameReport:
    """Game ``game_no`` (from 1) of the record in ``file``, checked under the settings; a game
    number past the collection, or a move past the end of the game, is a usage error."""
    from sgfcheck.records.record import LoadedFile
    from sgfcheck.replay.check import check_loaded

    loaded = one_record(file, settings, what)
    if game_no > len(loaded.games):
        raise usage_error(f"--game {game_no}: {file} holds {len(loaded.games)} game(s)")
    record = loaded.games[game_no - 1]
    moves = record.main_line().move_count if record.playable else 0
    if settings.move is not None and not 0 <= settings.move <= moves:
        raise usage_error(f"--move {settings.move}: {file} game {game_no} has {moves} moves")
    alone = LoadedFile(loaded.path, loaded.encoding, loaded.encoding_guessed, [record],
                       loaded.findings)
    report = check_loaded(alone, settings).games[0]
    if not record.playable or report.context is None:
        raise usage_error(f"{file} game {game_no}: not a game of Go that can be replayed")
    return report
