"""Every alarm true: the records sgfcheck flags with an illegal move, each confirmed (or not) by an
independent replay written here with sgfmill's board.

The independent replay reads a record the plain way a person would: the main line of each game,
setup (AB/AW/AE) applied in whatever node it stands, no handicap stone that the record does not
place, a file that starts with ``;`` read as if it started with ``(;``. A move is illegal when
its point is occupied, when it leaves its own stones without liberties (suicide), or when it
retakes a ko at once. sgfcheck's flag on a game is confirmed when the independent replay finds
an illegal move at every move number sgfcheck names (under simple ko: the records measured here
are played under Japanese and Chinese rules).

    .venv/bin/python bench/alarms.py [FOLDER]   (default ../shared/corpus/pro19)

Prints the records flagged, how many are confirmed, and each unconfirmed one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_alarms import flagged_and_confirmed  # noqa: E402  (the test's independent replay)

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus" / "pro19"


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not folder.is_dir():
        print(f"no corpus at {folder}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    flagged, unconfirmed = flagged_and_confirmed(folder)
    print(f"{folder}: {len(flagged)} records flagged with an illegal move, "
          f"{len(flagged) - len(unconfirmed)} confirmed by the independent replay "
          f"({time.perf_counter() - start:.1f} s)")
    for line in unconfirmed:
        print("  not confirmed:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
