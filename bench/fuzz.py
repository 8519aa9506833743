"""Fuzz campaign: hostile and mutated records through `check`, `score --format json` and `batch`.

Inputs are made from a seed and an index, so a run is repeatable and any input can be made again:
real records of ``../shared/corpus`` and ``fixtures/`` mutated (bytes flipped, inserted or
deleted; SGF tokens, hostile property values and control characters inserted; records spliced,
truncated, nested deep, re-encoded as UTF-16/32) and game trees generated from the grammar.

Each input goes through what the commands run, renderers included: ``check`` (text and JSON),
``score`` (text and JSON; every ``--estimate-every``-th input with the default dead stones, the
playout estimate, the others with ``--dead-stones benson``: the same count and result check
without the playouts that cost most of the time), and ``batch``'s worker (a JSON Lines
row). Every ``--batch-every`` inputs, the last 100 also go through a real ``batch`` run (a
worker pool, every file a row); every ``--cli-every`` inputs, one input goes through the real
command line in a subprocess. Runners are separate processes capped at 2 GiB of address space,
with a time limit per input; the parent records which input each runner is on, so a runner that
dies or hangs is charged to that input and replaced.

Counts: inputs tried, tracebacks (an exception out of the library: each input saved under
``--save``), hangs (past the time limit), memory deaths (MemoryError, or a runner killed), peak
memory of a runner, inputs per second.

    .venv/bin/python bench/fuzz.py [--inputs 100000] [--runners 2] [--seed 1] [--timeout 60]
    .venv/bin/python bench/fuzz.py --archives --inputs 10000   # archives through batch's inputs
    .venv/bin/python bench/fuzz.py --formats --inputs 10000    # mutated GIB, NGF, UGF records
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import random
import resource
import signal
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
import warnings
import zipfile
from multiprocessing.connection import Connection
from pathlib import Path

from sgfcheck.escaping import terminal_text
from sgfcheck.limits import Limits
from sgfcheck.output.schema import file_report_dict, file_score_dict, json_text
from sgfcheck.output.scores import render_score_text
from sgfcheck.output.text import render_text
from sgfcheck.records.inputs import iter_inputs
from sgfcheck.records.items import Skipped, WorkItem
from sgfcheck.replay.check import check_file
from sgfcheck.run.batch import BatchOptions, process_item, run_batch
from sgfcheck.run.reportfile import ReportKind, ReportWriter
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import DeadStoneChoice, Settings

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
FIXTURES = HERE.parent / "fixtures"
CAP = 2 * 1024**3
BATCH_BLOCK = 100
"""Inputs of each real batch run (the last of every ``--batch-every``); every input also goes
through the batch worker's own function."""

TOKENS = [b"(", b")", b";", b"[", b"]", b"\\", b"(;", b")(", b"[]", b";B[", b";W[", b"AB[",
          b"AW[", b"AE[", b"PL[", b"KO[]", b"TB[", b"TW[", b"SZ[", b"KM[", b"HA[", b"RU[",
          b"RE[", b"CA[", b"GM[", b"FF[", b"C[", b"\x00", b"\x1b[31m", b"\xe2\x80\xae", b"\r\n",
          b"\xff\xfe", b"\xef\xbb\xbf", b"tt", b"aa:ss", b"aa:ZZ", b"::", b"\xc3", b"\x80"]
VALUES = {
    b"SZ": [b"0", b"-1", b"1", b"2", b"52", b"53", b"19:7", b"7:19", b"99999999999999999999",
            b"9" * 5000, b"1e9", b"inf", b"", b"a", b"25", b"1:1", b"52:52"],
    b"KM": [b"nan", b"inf", b"-inf", b"1e308", b"-0", b"650", b"375", b"3.75", b"0.5", b"x",
            b"9" * 400, b"-99999", b"6,5", b"1e18"],
    b"HA": [b"-1", b"0", b"1", b"2", b"9", b"10", b"361", b"400", b"1e18", b"9" * 5000, b"x"],
    b"CA": [b"base64", b"zlib", b"rot13", b"undefined", b"utf\x00-8", b"utf-16", b"UTF-32",
            b"gb2312", b"shift_jis", b"utf-7", b"idna", b"punycode", b"x" * 80, b"latin1",
            b"unicode_escape", b"hex"],
    b"RU": [b"Japanese", b"Chinese", b"AGA", b"NZ", b"koSITUATIONALscoreAREAtaxNONEsui1",
            b"{\"ko\":\"POSITIONAL\"}", b"x" * 10_000, b"\x1b]0;t\x07", b"Ing Goe", b""],
    b"RE": [b"B+R", b"W+3.5", b"B+0.0", b"W+", b"0", b"Void", b"B+1e308", b"W+nan",
            b"W+-3.5", b"B+9" + b"9" * 400, b"\x1b[2J", b"Jigo", b"B+T", b"W+F"],
    b"PL": [b"B", b"W", b"X", b"", b"b"],
    b"GM": [b"1", b"2", b"0", b""],
}


FORMAT_SUFFIXES = (".gib", ".ngf", ".ugf", ".ugi")


def format_seeds() -> list[bytes]:
    """The GIB, NGF and UGF records of the corpus (``--formats``)."""
    folder = CORPUS / "formats"
    return [p.read_bytes() for p in sorted(folder.rglob("*")) if p.suffix in FORMAT_SUFFIXES]


def load_seeds(limit: int) -> list[bytes]:
    """Records to mutate: every record of fixtures/, and an even spread of the corpus."""
    seeds = [p.read_bytes() for p in sorted(FIXTURES.glob("*.sgf"))]
    if CORPUS.is_dir():
        files = sorted(p for p in CORPUS.rglob("*") if p.is_file())
        step = max(1, len(files) // limit)
        seeds += [p.read_bytes() for p in files[::step][:limit]]
    return seeds


def generated(rng: random.Random) -> bytes:
    """A game tree from the grammar: random nodes, properties, values and variations."""
    out = io.BytesIO()
    depth = 0

    def value() -> bytes:
        kind = rng.random()
        if kind < 0.5:
            return bytes(rng.choice(b"abcdefghijklmnopqrsABZ") for _ in range(2))
        if kind < 0.8:
            ident = rng.choice(list(VALUES))
            return rng.choice(VALUES[ident])
        return bytes(rng.randrange(256) for _ in range(rng.randrange(8)))

    out.write(b"(;GM[1]SZ[" + rng.choice(VALUES[b"SZ"]) + b"]")
    for _ in range(rng.randrange(1, 200)):
        r = rng.random()
        if r < 0.08:
            out.write(b"(")
            depth += 1
        elif r < 0.14 and depth:
            out.write(b")")
            depth -= 1
        elif r < 0.7:
            out.write(b";" + rng.choice([b"B", b"W"]) + b"[" + value()[:2] + b"]")
        else:
            ident = rng.choice([*VALUES, b"AB", b"AW", b"AE", b"TB", b"TW", b"C", b"KO", b"XX"])
            out.write(ident + b"".join(b"[" + value() + b"]" for _ in range(rng.randrange(1, 4))))
    out.write(b")" * (depth + 1) if rng.random() < 0.8 else b"")
    return out.getvalue()


def mutated(rng: random.Random, seeds: list[bytes]) -> bytes:
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randrange(1, 6)):
        op = rng.randrange(10)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:  # flip bytes
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif op == 1:  # insert a token
            data[at:at] = rng.choice(TOKENS)
        elif op == 2 and data:  # delete a span
            del data[at:at + rng.randrange(1, 64)]
        elif op == 3:  # a hostile property value
            ident = rng.choice(list(VALUES))
            data[at:at] = b";" + ident + b"[" + rng.choice(VALUES[ident]) + b"]"
        elif op == 4:  # replace the value of an existing property
            ident = rng.choice(list(VALUES))
            i = data.find(ident + b"[")
            j = data.find(b"]", i + 3) if i >= 0 else -1
            if j > 0:
                data[i + 3:j] = rng.choice(VALUES[ident])
        elif op == 5:  # splice another record in
            other = rng.choice(seeds)
            k = rng.randrange(len(other) + 1)
            data[at:at] = other[k:k + rng.randrange(1, 2000)]
        elif op == 6:  # truncate
            del data[at:]
        elif op == 7:  # nest deep (bounded: inputs stay small)
            n = rng.choice([10, 100, 1000, 5000])
            data[at:at] = b"(;B[aa]" * n + (b")" * n if rng.random() < 0.5 else b"")
        elif op == 8:  # duplicate a span many times
            k = rng.randrange(len(data) + 1)
            piece = bytes(data[k:k + rng.randrange(1, 16)])
            data[at:at] = piece * rng.randrange(2, 2000)
        else:  # stray closing paren or bracket
            data[at:at] = rng.choice([b")", b"]", b")" * 3, b"]" * 3])
    out = bytes(data)
    if rng.random() < 0.02:
        with contextlib.suppress(UnicodeError):
            out = out.decode("utf-8").encode(rng.choice(["utf-16", "utf-16-le", "utf-32-be"]))
    return out


def make_input(seed: int, index: int, seeds: list[bytes]) -> bytes:
    rng = random.Random(seed * 1_000_003 + index)
    return generated(rng) if rng.random() < 0.2 else mutated(rng, seeds)


ARCHIVE_NAMES = ["g.sgf", "../up.sgf", "/abs.sgf", "=SUM(A1).sgf", "\x1b[2J.sgf", "a/b.sgf",
                 "C:\\x.sgf", "dir/", "x.SGF", "notes.txt", "deep/" * 20 + "g.sgf"]


def make_archive(seed: int, index: int, seeds: list[bytes]) -> tuple[str, bytes]:
    """A zip, tar or tar.gz of a few records (some mutated, odd member names, links and FIFOs
    in tars), then its own bytes mutated: (suffix, bytes)."""
    rng = random.Random(seed * 7_000_003 + index)
    warnings.filterwarnings("ignore", "Duplicate name")  # duplicate members are meant
    members = [(rng.choice(ARCHIVE_NAMES), make_input(seed, index * 7 + k, seeds))
               for k in range(rng.randrange(1, 6))]
    kind = rng.choice([".zip", ".tar", ".tar.gz", ".overlap.zip", ".many.tar.gz", ".links"])
    if kind == ".links":  # a folder: the records, and links out of it, back up, to itself
        return kind, members[0][1]
    if kind == ".overlap.zip":
        return kind, overlapping_zip(members, rng)
    if kind == ".many.tar.gz":
        members += [(f"e{k:05d}.sgf", b"") for k in range(rng.randrange(100, 3000))]
        kind = ".tar.gz"
    buffer = io.BytesIO()
    if kind == ".zip":
        with zipfile.ZipFile(buffer, "w", rng.choice([zipfile.ZIP_STORED,
                                                      zipfile.ZIP_DEFLATED])) as z:
            for name, data in members:
                z.writestr(name, data)
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz" if kind == ".tar.gz" else "w") as t:
            for name, data in members:
                info = tarfile.TarInfo(name)
                if rng.random() < 0.1:
                    info.type = rng.choice([tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.FIFOTYPE,
                                            tarfile.CHRTYPE])
                    info.linkname = "/etc/passwd"
                    t.addfile(info)
                else:
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
    raw = bytearray(buffer.getvalue())
    for _ in range(rng.choice([0, 0, 1, 2, 8])):  # damage: flip, cut, or lie in a header
        at = rng.randrange(len(raw))
        if rng.random() < 0.2:
            del raw[at:]
            break
        raw[at] = rng.randrange(256)
    return kind, bytes(raw)


def overlapping_zip(members: list[tuple[str, bytes]], rng: random.Random) -> bytes:
    """A zip whose directory lists its first member's bytes several times over, under other
    names (the overlapping-entries bomb), the other members as they are."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
    raw = buffer.getvalue()
    end = raw.rfind(b"PK\x05\x06")
    size, offset = struct.unpack("<II", raw[end + 12:end + 20])
    directory = raw[offset:offset + size]
    first_length = 46 + sum(struct.unpack("<HHH", directory[28:34]))
    first = directory[:first_length]
    name_length = struct.unpack("<H", first[28:30])[0]
    copies = [first[:46] + f"{k:0{name_length - 4}d}.sgf".encode()[-name_length:]
              + first[46 + name_length:] for k in range(rng.randrange(2, 9))]
    entries = directory + b"".join(copies)
    count = len(members) + len(copies)
    record = bytearray(raw[end:end + 22])
    struct.pack_into("<HHII", record, 8, count, count, len(entries), offset)
    return raw[:offset] + entries + bytes(record)


def make_links(path: Path, data: bytes) -> Path:
    """A folder beside ``path`` holding the record and links that lead out of it (its parent,
    the root, the record's own folder's parent's files) and back into it (a loop, a second name
    for the record)."""
    folder = path.with_suffix(".d")
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    (folder / "sub" / "game.sgf").write_bytes(data)
    for name, target in (("parent", ".."), ("root", "/"), ("loop", "."), ("again.sgf",
                         "sub/game.sgf"), ("out.sgf", str(path))):
        link = folder / name
        if not link.is_symlink():
            link.symlink_to(target)
    return folder


def run_links(folder: Path) -> None:
    """A folder of links through batch's input walker: nothing outside it is listed. Raises
    on a bug."""
    root = folder.resolve()
    for item in iter_inputs([str(folder)], limits=Limits(member_size=1 << 20)):
        if isinstance(item, WorkItem) and root not in Path(item.path).resolve().parents:
            raise RuntimeError(f"read outside the folder: {item.path}")


def run_archive(path: Path) -> None:
    """An archive through batch's input walker and worker function. Raises on a bug."""
    if path.suffix == ".links":
        run_links(make_links(path, path.read_bytes()))
        return
    for item in iter_inputs([str(path)], limits=Limits(member_size=1 << 20, members=500)):
        if isinstance(item, Skipped):
            continue  # named in the summary by the run itself, never given to a worker
        outcome = process_item(item, BatchOptions.of(timeout=0))
        for row in outcome.rows:
            json.loads(str(row))
        if any(f["code"] == "SGF033" for row in outcome.rows
               for f in json.loads(str(row)).get("file_findings", [])):
            raise RuntimeError(f"batch reported an internal error: {outcome.rows[0]!r:.300}")


# --- runners ------------------------------------------------------------------------------------


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang


def run_one(path: Path, estimate: bool) -> None:
    """What the commands do with one file, output rendering included. Raises on a bug.
    ``estimate``: score with the default dead stones (the playout estimate when there is no
    markup); otherwise with ``--dead-stones benson``, the same count and result check without
    the playouts, which cost most of the time."""
    report = check_file(path)
    terminal_text(render_text(report, verbose=True))
    json_text(file_report_dict(report))
    choice = DeadStoneChoice.AUTO if estimate else DeadStoneChoice.BENSON
    scored = score_file(path, Settings(dead_stones=choice))
    terminal_text(render_score_text(scored))
    json_text(file_score_dict(scored))
    outcome = process_item(WorkItem(str(path)), BatchOptions.of(timeout=0))
    for row in outcome.rows:
        assert isinstance(row, str)
        json.loads(row)
    if any(f["code"] == "SGF033" for row in outcome.rows  # internal error caught by batch
           for f in json.loads(str(row)).get("file_findings", [])):
        raise RuntimeError(f"batch reported an internal error: {outcome.rows[0]!r:.300}")


def runner(conn: Connection, seed: int, indices: list[int], folder: str, timeout: float,
           batch_every: int, estimate_every: int, archives: bool, other_formats: bool) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
    signal.signal(signal.SIGALRM, _alarm)
    seeds = load_seeds(600)
    other_seeds = format_seeds() if other_formats else []
    work = Path(folder)
    block: list[Path] = []
    for position, index in enumerate(indices):
        conn.send(("start", index, position))
        if archives:
            suffix, data = make_archive(seed, index, seeds)
            path = work / f"in-{index}{suffix}"
        elif other_formats:
            data = mutated(random.Random(seed * 3_000_017 + index), other_seeds)
            path = work / f"in-{index}{FORMAT_SUFFIXES[index % 4]}"
        else:
            data = make_input(seed, index, seeds)
            path = work / f"in-{index}.sgf"
        path.write_bytes(data)
        signal.alarm(int(timeout))
        try:
            if archives:
                run_archive(path)
            elif other_formats:
                run_one(path, estimate=False)
            else:
                run_one(path, index % estimate_every == 0)
            conn.send(("ok", index))
        except _Hang:
            conn.send(("hang", index))
        except MemoryError:
            conn.send(("memory", index))
        except Exception:  # noqa: BLE001 - the point: anything that escapes is a bug
            conn.send(("traceback", index, traceback.format_exc()[-3000:]))
        finally:
            signal.alarm(0)
        block.append(path)
        if archives or other_formats:
            path.unlink(missing_ok=True)
            block = []
        elif len(block) >= batch_every:
            _batch_block(conn, block[-BATCH_BLOCK:], folder)
            for p in block:
                p.unlink(missing_ok=True)
            block = []
    conn.send(("peak", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024))
    conn.send(("done", -1))


def _batch_block(conn: Connection, block: list[Path], folder: str) -> None:
    """A real batch run (a pool of two workers) over the block: every file a row."""
    out = Path(folder) / "block.jsonl"
    try:
        with open(out, "w") as fh:
            run_batch(iter_inputs([str(p) for p in block]), BatchOptions.of(jobs=2, timeout=60),
                      ReportWriter(fh, ReportKind.JSONL, True))
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        missing = {str(p) for p in block} - {r["path"] for r in rows}
        if missing:
            conn.send(("batch-missing", -1, f"{len(missing)} files without a row"))
        crashes = [r["path"] for r in rows
                   if any(f["code"] == "SGF033" for f in r.get("file_findings", []))]
        if crashes:
            conn.send(("batch-crash", -1, ", ".join(crashes[:5])))
        conn.send(("batch", len(block)))
    except Exception:  # noqa: BLE001
        conn.send(("batch-traceback", -1, traceback.format_exc()[-3000:]))


def cli_check(seed: int, index: int, seeds: list[bytes], folder: Path) -> str | None:
    """One input through the real command line; what went wrong, or None."""
    path = folder / f"cli-{index}.sgf"
    path.write_bytes(make_input(seed, index, seeds))
    for args in (["check", str(path)], ["score", "--format", "json", str(path)]):
        done = subprocess.run([sys.executable, "-m", "sgfcheck", *args], capture_output=True,
                              timeout=120, check=False)
        if b"Traceback" in done.stderr or done.returncode not in (0, 1, 2):
            return f"{args[0]}: exit {done.returncode}: {done.stderr[-500:]!r}"
        if b"\x1b" in done.stdout:
            return f"{args[0]}: raw ESC on the terminal"
    path.unlink()
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--runners", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--batch-every", type=int, default=1000)
    ap.add_argument("--cli-every", type=int, default=1000)
    ap.add_argument("--estimate-every", type=int, default=10,
                    help="score every Nth input with the default dead stones (the estimate), "
                    "the others with --dead-stones benson")
    ap.add_argument("--archives", action="store_true",
                    help="make zip/tar/tar.gz archives of mutated records, mutated themselves, "
                    "and put them through batch's input walker and worker instead")
    ap.add_argument("--formats", action="store_true",
                    help="mutate the GIB, NGF and UGF records of the corpus instead, named as "
                    "those formats")
    ap.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "sgfcheck-fuzz")
    args = ap.parse_args()
    args.save.mkdir(parents=True, exist_ok=True)
    seeds = load_seeds(600)
    counts = {"ok": 0, "traceback": 0, "hang": 0, "memory": 0, "died": 0, "batch": 0,
              "batch problems": 0, "cli problems": 0}
    peaks: list[int] = []
    start = time.perf_counter()
    todo = list(range(args.inputs))
    shares = [todo[i::args.runners] for i in range(args.runners)]
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as tmp:
        live = [_Runner(ctx, share, args, tmp) for share in shares]
        next_report = 5000
        while live:
            for r in list(live):
                for msg in r.messages():
                    kind, index = msg[0], msg[1]
                    if kind == "peak":
                        peaks.append(index)
                    elif kind == "batch":
                        counts["batch"] += index
                    elif kind.startswith("batch-"):
                        counts["batch problems"] += 1
                        print(f"{kind}: {msg[2][:500]}", flush=True)
                    elif kind in counts:
                        counts[kind] += 1
                        if kind != "ok":
                            _save(args, seeds, index, kind, msg[2] if len(msg) > 2 else "")
                if r.stuck(args.timeout + 60):
                    # A hang the runner's own alarm could not interrupt (in C code).
                    r.proc.kill()
                    r.killed = True
                if r.closed:
                    live.remove(r)
                    r.proc.join()
                    if r.proc.exitcode != 0 and r.current is not None:
                        # It died (or was killed) on the input it was on: charge that input,
                        # go on after it with a new runner.
                        kind = "hang" if r.killed else "died"
                        counts[kind] += 1
                        _save(args, seeds, r.share[r.current], kind,
                              f"exit {r.proc.exitcode}")
                        rest = r.share[r.current + 1:]
                        if rest:
                            live.append(_Runner(ctx, rest, args, tmp))
            done = sum(counts[k] for k in ("ok", "traceback", "hang", "memory", "died"))
            if done >= next_report:
                _report(counts, peaks, start, done, final=False)
                next_report += 5000
        for index in range(0, 0 if args.archives or args.formats else args.inputs,
                           args.cli_every):
            problem = cli_check(args.seed, index, seeds, Path(tmp))
            if problem:
                counts["cli problems"] += 1
                print(f"cli input {index}: {problem}", flush=True)
    done = sum(counts[k] for k in ("ok", "traceback", "hang", "memory", "died"))
    _report(counts, peaks, start, done, final=True)
    bad = sum(counts[k] for k in ("traceback", "hang", "memory", "died", "batch problems",
                                  "cli problems"))
    return 1 if bad else 0


def _report(counts: dict[str, int], peaks: list[int], start: float, done: int,
            final: bool) -> None:
    secs = time.perf_counter() - start
    print(f"{'final' if final else 'so far'}: {done} inputs in {secs:.0f} s "
          f"({done / max(secs, 1e-9):.0f}/s); tracebacks {counts['traceback']}, hangs "
          f"{counts['hang']}, memory errors {counts['memory']}, runners died {counts['died']}; "
          f"batch: {counts['batch']} files in real batch runs, {counts['batch problems']} "
          f"problems; command line: {counts['cli problems']} problems"
          + (f"; peak memory of a runner {max(peaks)} MB (cap {CAP // 1024**2} MB)"
             if peaks else ""), flush=True)


class _Runner:
    """A runner process, what it said, and the input it is on."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, share: list[int],
                 args: argparse.Namespace, tmp: str) -> None:
        self.share = share
        self.conn, child = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=runner, args=(child, args.seed, share, tmp, args.timeout,
                                                     args.batch_every, args.estimate_every,
                                                     args.archives, args.formats))
        self.proc.start()
        child.close()
        self.current: int | None = None
        self.since = time.monotonic()
        self.closed = False
        self.killed = False

    def messages(self) -> list[tuple]:
        """What arrived; ``closed`` once the runner is gone and everything was read."""
        out = []
        while not self.closed and self.conn.poll(0.02):
            try:
                msg = self.conn.recv()
            except EOFError:
                self.closed = True
                break
            if msg[0] == "start":
                self.current, self.since = msg[2], time.monotonic()
            elif msg[0] == "done":
                self.current = None
            else:
                out.append(msg)
        return out

    def stuck(self, seconds: float) -> bool:
        return (not self.killed and self.current is not None
                and time.monotonic() - self.since > seconds)


def _save(args: argparse.Namespace, seeds: list[bytes], index: int, kind: str,
          detail: str) -> None:
    if args.archives:
        suffix, data = make_archive(args.seed, index, seeds)
        (args.save / f"{kind}-{index}{suffix}").write_bytes(data)
    elif args.formats:
        data = mutated(random.Random(args.seed * 3_000_017 + index), format_seeds())
        (args.save / f"{kind}-{index}{FORMAT_SUFFIXES[index % 4]}").write_bytes(data)
    else:
        (args.save / f"{kind}-{index}.sgf").write_bytes(make_input(args.seed, index, seeds))
    (args.save / f"{kind}-{index}.txt").write_text(detail)
    print(f"input {index}: {kind}: {detail.strip().splitlines()[-1:] if detail else ''}",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
