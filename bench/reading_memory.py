"""Memory of reading a record: the peak a file of each shape costs, per node and as a multiple of
its size, beside sgfmill's parse of the same bytes.

Each shape is written at a size (by default near the ``nodes`` and ``values`` limits, the worst
case sgfcheck accepts) and read in a fresh process (the peak resident set is a process's own):
once by sgfcheck's reader (``load_bytes``: the bytes, decoding, the tree, every game's nodes and
main line), once by sgfmill's ``Sgf_game.from_bytes`` (the baseline: what reading costs in the
library sgfcheck replaced). Printed per shape: the input's size and nodes, the peak above an
interpreter that has imported the reader, that peak per node and per input byte, and sgfmill's.

    python bench/reading_memory.py [--nodes 1990000] [--values 4990000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

READ = r"""
import json, resource, sys
which, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
if which == "sgfcheck":
    from sgfcheck.records.record import load_bytes
    read = lambda: load_bytes(data, "x.sgf")
else:
    from sgfmill import sgf
    def read():
        try:
            return sgf.Sgf_game.from_bytes(data)
        except ValueError as exc:
            return exc
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
held = read()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"base_kb": base, "peak_kb": peak}))
"""


def shapes(nodes: int, values: int) -> dict[str, bytes]:
    """Each hostile shape at the given size, and one like a real record."""
    real = b"(;GM[1]FF[4]SZ[19]KM[6.5]PB[Black]PW[White]RE[B+3.5]" + b"".join(
        b";%s[%s%s]C[a comment of some forty characters, as players write]"
        % (b"BW"[i % 2:i % 2 + 1], b"abcdefghijklmnopqrs"[i % 19:i % 19 + 1],
           b"abcdefghijklmnopqrs"[i // 19 % 19:i // 19 % 19 + 1]) for i in range(300)) + b")"
    return {
        "a real record's shape (300 moves, comments)": real,
        "(; unclosed": b"(;" * nodes,
        "(;) game trees": b"(;)" * nodes,
        ";B[aa] moves": b"(;GM[1]SZ[19]" + b";B[aa]" * nodes + b")",
        ";C[28 bytes] nodes": b"(;GM[1]SZ[19]" + (b";C[" + b"x" * 28 + b"]") * nodes + b")",
        "AB[aa] values": b"(;GM[1]SZ[19];AB" + b"[aa]" * values + b")",
    }


def peak(which: str, path: Path) -> int:
    """Bytes above the interpreter with the reader imported, at the peak of reading."""
    done = subprocess.run([sys.executable, "-c", READ, which, str(path)], capture_output=True,
                          text=True, check=True)
    got = json.loads(done.stdout)
    return (got["peak_kb"] - got["base_kb"]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=1_990_000)
    parser.add_argument("--values", type=int, default=4_990_000)
    args = parser.parse_args()
    print(f"{'shape':44} {'input MB':>9} {'nodes':>9} {'sgfcheck MB':>12} {'B/node':>7} "
          f"{'x input':>8} {'sgfmill MB':>11} {'x input':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for name, data in shapes(args.nodes, args.values).items():
            path = Path(folder) / "x.sgf"
            path.write_bytes(data)
            nodes = data.count(b";")
            ours, theirs = peak("sgfcheck", path), peak("sgfmill", path)
            print(f"{name:44} {len(data) / 1e6:9.2f} {nodes:9} {ours / 1e6:12.1f} "
                  f"{ours / nodes:7.0f} {ours / len(data):8.1f} {theirs / 1e6:11.1f} "
                  f"{theirs / len(data):8.1f}")


if __name__ == "__main__":
    main()
