"""What the workers of a local run say while an engine judges a game (``KataGo judging x.sgf
game 3 of 20``), read by a thread of the main process for the progress display and the log
(:mod:`sgfcheck.cli.progress`).
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class EngineNews:
    """What the workers of a local run say while an engine judges (``KataGo judging x.sgf game
    3 of 20``), for the progress display and the log: :attr:`latest`, read by the main process
    while it waits for a file."""

    latest: str | None = None

    @classmethod
    @contextmanager
    def listening(cls) -> Iterator[Any]:
        """A queue the workers write to (None where workers do not share it: not forked), read
        by a thread of the main process until the run ends."""
        if sys.platform == "win32":
            yield None
            return
        news = multiprocessing.get_context("fork").SimpleQueue()

        def read() -> None:
            while True:
                said = news.get()
                if said is None:
                    return
                cls.latest = said

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            yield news
        finally:
            news.put(None)
            reader.join(timeout=5)
            cls.latest = None
