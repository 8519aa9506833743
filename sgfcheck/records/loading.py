"""The records of ``check``, ``score``, ``life``, ``diagram`` and ``annotate``: each input the
user names, read within limits.

A path is read as it is (a missing one is an unreadable file, ``SGF001``); a folder, glob,
archive or URL is expanded as ``batch`` expands its inputs (:mod:`sgfcheck.records.inputs`),
files that are not records by their name coming as :class:`~sgfcheck.records.inputs.Skipped`;
``-`` is one record on standard input. Problems with an input are an unreadable file with a
finding, never an exception.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import partial
from typing import IO

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.limits import Limits
from sgfcheck.records.inputs import is_url, iter_inputs
from sgfcheck.records.items import InputProblem, Skipped, is_archive_name
from sgfcheck.records.reading import read_standard_input, read_url
from sgfcheck.records.record import LoadedFile, load_bytes, load_file


def load_inputs(args: list[str], encoding: str | None, limits: Limits,
                stdin: IO[bytes] | None = None, follow_links: bool = False
                ) -> Iterator[LoadedFile | Skipped]:
    """Each input read, in order (see the module's text); ``stdin`` is what ``-`` reads;
    ``follow_links``: a folder's links that lead out of it are followed. A file that needs more
    memory than the machine gives is a finding (``SGF035``), as in a batch worker, and the
    inputs after it are still read."""
    for arg in args:
        if arg == "-":
            if stdin is None:
                yield LoadedFile("-", None, False, [], [Finding(
                    F.SGF_UNREADABLE, "no standard input to read")])
                continue
            read = read_standard_input(stdin, limits)
            yield (LoadedFile("-", None, False, [], read.findings) if read.data is None
                   else _guarded("-", partial(load_bytes, read.data or b"", "-", encoding,
                                                 limits)))
        elif not (os.path.isdir(arg) or is_archive_name(arg) or is_url(arg) or (
                any(ch in arg for ch in "*?[") and not os.path.exists(arg))):
            yield _guarded(arg, partial(load_file, arg, encoding, limits))
        else:
            for item in iter_inputs([arg], None, limits, follow_links):
                if isinstance(item, Skipped):
                    yield item
                    continue
                name = item.path if item.member is None else f"{item.path}:{item.member}"
                if isinstance(item, InputProblem):
                    yield LoadedFile(name, None, False, [], [Finding(F.SGF_INPUT, item.message)])
                elif item.data is None and is_url(item.path):
                    read = read_url(item.path, item.member, limits)
                    yield (LoadedFile(name, None, False, [], read.findings) if read.data is None
                           else _guarded(name, partial(load_bytes, read.data or b"", name,
                                                          encoding, limits)))
                elif item.data is None:
                    yield _guarded(name, partial(load_file, item.path, encoding, limits))
                else:
                    yield _guarded(name, partial(load_bytes, item.data or b"", name, encoding,
                                                    limits))


def out_of_memory(name: str) -> LoadedFile:
    """A file whose reading ran out of memory: unreadable, with what to do."""
    return LoadedFile(name, None, False, [], [Finding(
        F.SGF_LIMIT, "ran out of memory reading this file (a huge game tree?); not read (lower "
        "--limit nodes=... or --limit values=..., or give it more memory)")])


def _guarded(name: str, load: Callable[[], LoadedFile]) -> LoadedFile:
    try:
        return load()
    except MemoryError:
        return out_of_memory(name)


def past_the_end(loaded: LoadedFile, move: int) -> str | None:
    """Why ``--move`` cannot be scored in a file (a game shorter than that), or None."""
    for game in loaded.games:
        count = game.main_line().move_count if game.playable else 0
        if move > count:
            return f"{loaded.path} game {game.index + 1} has {count} moves"
    return None
