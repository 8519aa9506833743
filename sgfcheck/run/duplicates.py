"""The duplicate groups of a batch (identical files, the same game in several records), kept in a
temporary SQLite database on disk rather than in memory: the main process of a run over 10^8
records holds only what it is working on, however many keys it has seen."""

from __future__ import annotations

import os
import sqlite3
import tempfile

from sgfcheck.escaping import name_text

FLUSH = 10_000
"""Keys held in memory before they are written to the database."""


class DuplicateIndex:
    """Keys (a file's digest, a game's move sequence) with the labels that had them, in order."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="sgfcheck-duplicates-")
        self._db = sqlite3.connect(os.path.join(self._folder.name, "keys.sqlite"))
        self._db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE;"
            "CREATE TABLE keys (kind TEXT, key BLOB, seq INTEGER, label TEXT);")
        self._buffer: list[tuple[str, bytes, int, str]] = []
        self._seq = 0

    def add(self, kind: str, key: bytes, label: str) -> None:
        self._seq += 1
        self._buffer.append((kind, key, self._seq, name_text(label)))  # SQLite takes UTF-8
        if len(self._buffer) >= FLUSH:
            self._flush()

    def _flush(self) -> None:
        if self._buffer:
            self._db.executemany("INSERT INTO keys VALUES (?, ?, ?, ?)", self._buffer)
            self._db.commit()
            self._buffer = []

    def groups(self, kind: str) -> list[list[str]]:
        """The labels of every key of ``kind`` seen more than once, groups in the order of their
        first label, labels in the order they came."""
        self._flush()
        rows = self._db.execute(
            "SELECT k.key, k.label FROM keys k JOIN (SELECT key, MIN(seq) AS first FROM keys "
            "WHERE kind = ? GROUP BY key HAVING COUNT(*) > 1) g ON k.key = g.key "
            "WHERE k.kind = ? ORDER BY g.first, k.seq", (kind, kind))
        out: list[list[str]] = []
        last: bytes | None = None
        for key, label in rows:
            if key != last:
                out.append([])
                last = key
            out[-1].append(label)
        return out

    def run_groups(self) -> tuple[list[list[str]], list[list[str]]]:
        """A batch's duplicates: identical files (key kind ``file``), and the same game in
        several records (kind ``game``, labels ``file#game``) unless those records are all
        copies of one file (one group of identical files says it already). Records of the
        game in two encodings stay a group when each is also copied (a folder and a zip of
        it)."""
        identical_files = self.groups("file")
        group_of = {label: n for n, group in enumerate(identical_files) for label in group}
        same_games = []
        for group in self.groups("game"):
            files = {x.rsplit("#", 1)[0] for x in group}
            if len({group_of.get(f, f) for f in files}) > 1:
                same_games.append(group)
        return identical_files, same_games

    def close(self) -> None:
        self._db.close()
        self._folder.cleanup()

    def __enter__(self) -> DuplicateIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
