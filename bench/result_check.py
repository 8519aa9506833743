"""RE check on the KGS games that carry TB/TW markup and a numeric RE.

For each game: dead stones from the markup, the count under the game's own RU and KM, compared
with RE. Prints the match rate and every mismatch with its cause.

    .venv/bin/python bench/result_check.py [CORPUS_KGS_DIR]
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path

from sgfcheck.output.reasons import reason_of
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import Settings

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent.parent / "shared" / "corpus" / "kgs"
NUMERIC_RE = re.compile(rb"RE\[[BW]\+[0-9]")


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not root.is_dir():
        print(f"corpus not found: {root}", file=sys.stderr)
        return 2
    files = [p for p in sorted(root.rglob("*.sgf"))
             if (data := p.read_bytes()) and (b"TW[" in data or b"TB[" in data)
             and NUMERIC_RE.search(data)]
    statuses: Counter[str] = Counter()
    by_rules: Counter[str] = Counter()
    mismatches = []
    start = time.perf_counter()
    for path in files:
        report = score_file(path, Settings(compare=("japanese",)))
        for g in report.games:
            assert g.result_check is not None
            statuses[g.result_check.status] += 1
            by_rules[f"{g.check.game.rules_raw}:{g.result_check.status}"] += 1
            if g.result_check.status != "match":
                mismatches.append((path.relative_to(root), g))
    elapsed = time.perf_counter() - start
    total = sum(statuses.values())
    print(f"games with TB/TW and a numeric RE: {total} ({elapsed:.1f} s)")
    for status, n in statuses.most_common():
        print(f"  {status:12} {n:5}  {100 * n / total:.2f}%")
    print("by RU:", ", ".join(f"{k} {v}" for k, v in sorted(by_rules.items())))
    for path, g in mismatches:
        seki = g.position.seki_empty if g.position else {}
        print(f"- {path}: RU[{g.check.game.rules_raw}] HA {g.check.game.handicap} "
              f"KM {g.check.game.komi_raw}: {reason_of(g)}; seki points "
              f"{sum(len(v) for v in seki.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
