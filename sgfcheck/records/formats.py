"""Other record formats read as SGF: Tygem GIB, WBaduk NGF, PandaNet UGF/UGI.

Each reader takes the decoded text (decoded by :mod:`sgfcheck.records.encoding`, as SGF is) and
writes one SGF game tree with the facts the format holds: board size, players and ranks, date,
komi, handicap, result and the moves. What the format does not say is not made up: each assumption
(handicap stones on the server's standard points, a result without a margin, a komi that is written
as a whole number) is a finding, and the komi is written as the file has it (the result check
weighs a whole-number komi against a half-point result, :mod:`sgfcheck.verdict.readings`).

Facts about the formats (line layouts, result codes, coordinates) were checked against the
readers of Sabaki and KaTrain and their sample files (the manual's page on record formats).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sgfcheck import findings as F
from sgfcheck.findings import Finding
from sgfcheck.points import Point, point_to_sgf, standard_handicap, tygem_handicap
from sgfcheck.status import StrEnum


class RecordFormat(StrEnum):
    SGF = "sgf"
    GIB = "gib"
    """Tygem (and Fox's old client)."""
    NGF = "ngf"
    """WBaduk / Cyberoro."""
    UGF = "ugf"
    """PandaNet's PANDA-EGG (``.ugf``, ``.ugi``)."""


FORMAT_NAMES = {RecordFormat.SGF: "SGF", RecordFormat.GIB: "Tygem GIB",
                RecordFormat.NGF: "WBaduk NGF", RecordFormat.UGF: "PandaNet UGF"}
SUFFIXES = {".gib": RecordFormat.GIB, ".ngf": RecordFormat.NGF, ".ugf": RecordFormat.UGF,
            ".ugi": RecordFormat.UGF}

_NGF_MOVE_RE = re.compile(rb"^PM[A-Z]{2}[BW][A-Z]{4}\s*$", re.M)


def detect(raw: bytes, name: str = "") -> RecordFormat:
    """The format of a record, from its bytes (and its name for NGF, which has no signature
    beyond its move lines)."""
    head = raw[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"(") or head.startswith(b";"):
        return RecordFormat.SGF
    if head.startswith(b"\\HS") or b"\\[GAMEBLACKNAME=" in head:
        return RecordFormat.GIB
    if b"[Header]" in head and b"[Data]" in raw:
        return RecordFormat.UGF
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    if suffix == ".ngf" or (b"(;" not in raw and len(_NGF_MOVE_RE.findall(raw[:65536])) >= 2):
        return RecordFormat.NGF
    return SUFFIXES.get(suffix, RecordFormat.SGF)


def declared_encoding(raw: bytes, fmt: RecordFormat) -> str | None:
    """The encoding a record names for itself: UGF's ``Lang=`` header (SJIS, ...)."""
    if fmt is RecordFormat.UGF:
        m = re.search(rb"^Lang=([A-Za-z0-9_-]{1,20})\s*$", raw[:4096], re.M)
        if m:
            lang = m.group(1).decode("ascii").upper()
            return {"SJIS": "cp932", "JPN": "cp932", "KOR": "cp949", "CHN": "gb18030",
                    "UTF8": "utf-8", "UTF-8": "utf-8", "ENG": "latin-1"}.get(lang)
    return None


@dataclass
class Converted:
    """One game written as SGF, and what was assumed to write it."""

    fmt: RecordFormat
    sgf: str
    findings: list[Finding] = field(default_factory=list)


def convert(text: str, fmt: RecordFormat) -> Converted:
    """The record as SGF text. Never raises for bad content: what cannot be read is a finding."""
    reader = {RecordFormat.GIB: _gib, RecordFormat.NGF: _ngf, RecordFormat.UGF: _ugf}[fmt]
    game = _Game(fmt)
    reader(text.replace("\r\n", "\n").replace("\r", "\n"), game)
    return Converted(fmt, game.sgf(), game.findings)


# --- the SGF being written -----------------------------------------------------------------------


@dataclass
class _Game:
    fmt: RecordFormat
    size: int = 19
    root: dict[str, str] = field(default_factory=dict)
    handicap: list[Point] = field(default_factory=list)
    moves: list[tuple[str, str]] = field(default_factory=list)
    """(colour, SGF point or "" for a pass)."""
    findings: list[Finding] = field(default_factory=list)

    def note(self, message: str) -> None:
        self.findings.append(Finding(F.SGF_OTHER_FORMAT, f"{self.fmt.value.upper()}: {message}"))

    def bad(self, message: str) -> None:
        self.findings.append(Finding(F.SGF_SYNTAX, f"{self.fmt.value.upper()}: {message}"))

    def place_handicap(self, count: int, placement: list[Point], server: str) -> None:
        if count < 2:
            return
        self.root["HA"] = str(count)
        self.handicap = placement[:count]
        if len(self.handicap) < count:
            self.note(f"{count} handicap stones on a {self.size}x{self.size} board: the "
                      "format does not place them and no standard placement exists; none placed")
            self.handicap = []
            return
        names = ", ".join(point_to_sgf(p) for p in self.handicap)
        self.note(f"the format gives the number of handicap stones ({count}), not their points: "
                  f"assumed on {server}'s standard points [{names}]")

    def sgf(self) -> str:
        props = {"GM": "1", "FF": "4", "CA": "UTF-8", "SZ": str(self.size)}
        props.update(self.root)
        out = ["(;" + "".join(f"{k}[{_escape(v)}]" for k, v in props.items())]
        if self.handicap:
            out.append("AB" + "".join(f"[{point_to_sgf(p)}]" for p in self.handicap))
        out.extend(f";{colour}[{point}]" for colour, point in self.moves)
        out.append(")\n")
        return "".join(out)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _komi(text: str, scale: int, game: _Game, what: str) -> None:
    try:
        value = int(text) / scale
    except ValueError:
        game.bad(f"{what} {text!r} is not a number; no komi written")
        return
    game.root["KM"] = f"{value:g}"


def _name_and_rank(raw: str) -> tuple[str, str]:
    """``leejw977 (10K)`` -> (``leejw977``, ``10K``)."""
    m = re.match(r"^(.*?)\s*\(([^()]*)\)\s*$", raw)
    return (m.group(1).strip(), m.group(2).strip()) if m else (raw.strip(), "")


# --- Tygem GIB -----------------------------------------------------------------------------------

_GIB_HEADER_RE = re.compile(r"^\\\[(\w+)=(.*)\\\]\s*$")
_GIB_RESULTS = {3: "B+R", 4: "W+R", 7: "B+T", 8: "W+T"}
"""GRLT codes with no margin: 0 and 1 are a count (ZIPSU = margin x 10) for Black and White."""


def _gib(text: str, game: _Game) -> None:
    header: dict[str, str] = {}
    handicap = 0
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        m = _GIB_HEADER_RE.match(line)
        if m:
            header.setdefault(m.group(1), m.group(2))
        elif line.startswith("INI"):
            parts = line.split()
            if len(parts) >= 4 and parts[3].isdigit():
                handicap = int(parts[3])
        elif line.startswith("STO"):
            parts = line.split()
            if len(parts) < 6 or parts[3] not in ("1", "2") or not (
                    parts[4].isdigit() and parts[5].isdigit()):
                game.bad(f"line {n} is not a move ({line[:40]!r}); skipped")
                continue
            x, y = int(parts[4]), int(parts[5])
            point = point_to_sgf((x, y)) if x < 19 and y < 19 else ""
            if not point:
                game.bad(f"line {n}: point ({x}, {y}) is off the 19x19 board; read as a pass")
            game.moves.append(("B" if parts[3] == "1" else "W", point))
    for key, prop in (("GAMEBLACKNAME", "B"), ("GAMEWHITENAME", "W")):
        if header.get(key):
            name, rank = _name_and_rank(header[key])
            game.root["P" + prop] = name
            if rank:
                game.root[prop + "R"] = rank
    date = re.match(r"^\s*(\d{4})-\s*(\d{1,2})-\s*(\d{1,2})", header.get("GAMEDATE", ""))
    if date:
        game.root["DT"] = f"{date.group(1)}-{int(date.group(2)):02d}-{int(date.group(3)):02d}"
    if header.get("GAMEPLACE"):
        game.root["PC"] = header["GAMEPLACE"]
    info = dict(re.findall(r"(\w+):([^,]*)", header.get("GAMEINFOMAIN", "")))
    tag = dict(re.findall(r"(?:^|,)([A-Z])([^,]*)", header.get("GAMETAG", "")))
    komi = info.get("GONGJE", tag.get("G"))
    if komi is not None:
        _komi(komi, 10, game, "GONGJE (komi x 10)")
    code = info.get("GRLT", tag.get("W"))
    margin = info.get("ZIPSU", tag.get("Z"))
    if code is None or not code.isdigit():
        game.note("no result code (GRLT); no RE written")
    elif int(code) in _GIB_RESULTS:
        game.root["RE"] = _GIB_RESULTS[int(code)]
    elif int(code) in (0, 1) and margin is not None and margin.isdigit():
        game.root["RE"] = f"{'BW'[int(code)]}+{int(margin) / 10:g}"
    else:
        game.note(f"result code GRLT {code} is not a win by count, resignation or time (an "
                  "unfinished or annulled game?); no RE written")
    game.place_handicap(handicap, tygem_handicap(handicap, 19), "Tygem")


# --- WBaduk NGF ----------------------------------------------------------------------------------

def _ngf_move(raw: str, n: int, game: _Game) -> None:
    """``PMABBREER``: PM, the move number in two letters, the colour, the point in letters from
    ``B`` (``AA`` a pass), the point again reversed."""
    if not (raw.startswith("PM") and len(raw) >= 7 and raw[4] in "BW"):
        return
    x, y = ord(raw[5]) - ord("B"), ord(raw[6]) - ord("B")
    if x == -1 and y == -1:
        point = ""
    elif 0 <= x < game.size and 0 <= y < game.size:
        point = point_to_sgf((x, y))
    else:
        game.bad(f"line {n}: {raw[5:7]!r} is not a point; read as a pass")
        point = ""
    game.moves.append((raw[4], point))


_NGF_RESULT_RE = re.compile(r"(white|black)\s+(win|lose)s?\b(.*)", re.I)


def _ngf(text: str, game: _Game) -> None:
    lines = text.split("\n")
    if sum(1 for line in lines[:12] if line.startswith("GI")) >= 8:
        _ngf_gi(lines, game)
        return

    def line(i: int) -> str:
        return lines[i].strip() if i < len(lines) else ""

    size = line(1)
    if size.isdigit() and 2 <= int(size) <= 25:
        game.size = int(size)
    else:
        game.bad(f"board size {size!r} (line 2) is not a size; 19x19 assumed")
    for i, prop in ((3, "B"), (2, "W")):
        parts = line(i).split()
        if parts:
            game.root["P" + prop] = parts[0]
            if len(parts) > 1:
                game.root[prop + "R"] = parts[-1]
    date = re.match(r"^(\d{4})(\d{2})(\d{2})", line(8))
    if date:
        game.root["DT"] = "-".join(date.groups())
    komi = line(7)
    if re.fullmatch(r"-?\d+(\.\d+)?", komi):
        game.root["KM"] = komi
        if "." not in komi:
            game.note(f"the komi is written as a whole number ({komi}); it is kept as written "
                      "(a half-point result then tells the result check to weigh the usual komi)")
    else:
        game.bad(f"komi {komi!r} (line 8) is not a number; no komi written")
    result = line(10)
    m = _NGF_RESULT_RE.search(result)
    if m:
        colour, verb, rest = m.group(1).lower(), m.group(2).lower(), m.group(3).lower()
        winner = "W" if (colour == "white") == (verb == "win") else "B"
        margin = re.search(r"\d+(\.\d+)?", rest)
        if "resign" in rest:
            game.root["RE"] = f"{winner}+R"
        elif "time" in rest:
            game.root["RE"] = f"{winner}+T"
        elif margin:
            game.root["RE"] = f"{winner}+{float(margin.group(0)):g}"
        else:
            game.root["RE"] = f"{winner}+"
            game.note(f"the result {result!r} names the winner without a margin")
    elif result:
        game.note(f"the result {result!r} (line 11) is not one sgfcheck can read; no RE written")
    handicap = line(5)
    for n, raw in enumerate(lines, start=1):
        _ngf_move(raw.strip(), n, game)
    if handicap.isdigit():
        game.place_handicap(int(handicap), tygem_handicap(int(handicap), game.size), "WBaduk")


_CHINESE_RESULT_RE = re.compile(r"([黑白])(?:中盘胜|.*?胜\s*(\d+(?:\.\d+)?)\s*[目子]|(超时)胜)")


def _ngf_gi(lines: list[str], game: _Game) -> None:
    """The older NGF layout whose header lines start with ``GI``: title, two players, two
    empty lines, date, size, handicap, an unknown 0, the komi, the number of moves; moves as in
    NGF; at the end the result as Chinese text. Which player took Black it does not say."""
    head = [line.strip()[2:].strip() for line in lines[:11]]
    while len(head) < 11:
        head.append("")
    game.note("older NGF layout (header lines starting with 'GI')")
    if head[0]:
        game.root["EV"] = head[0]
    players = [p for p in head[1:3] if p]
    if players:
        game.root["GC"] = "players: " + "; ".join(players)
        game.note(f"players {', '.join(players)}: the format does not say who played Black; "
                  "kept in GC, not PB/PW")
    date = re.match(r"^(\d{4})-(\d{1,2})-(\d{1,2})", head[5])
    if date:
        game.root["DT"] = f"{date.group(1)}-{int(date.group(2)):02d}-{int(date.group(3)):02d}"
    if head[6].isdigit() and 2 <= int(head[6]) <= 25:
        game.size = int(head[6])
    if re.fullmatch(r"-?\d+(\.\d+)?", head[9]):
        game.root["KM"] = head[9]
        if "." not in head[9]:
            game.note(f"the komi is written as a whole number ({head[9]}); it is kept as written")
    result = next((m for line in lines[-5:] if (m := _CHINESE_RESULT_RE.search(line))), None)
    if result:
        winner = "B" if result.group(1) == "黑" else "W"
        margin = result.group(2)
        game.root["RE"] = (f"{winner}+{float(margin):g}" if margin else
                           f"{winner}+T" if result.group(3) else f"{winner}+R")
    else:
        game.note("no result sgfcheck can read; no RE written")
    for n, raw in enumerate(lines, start=1):
        _ngf_move(raw.strip(), n, game)
    if head[7].isdigit():
        game.place_handicap(int(head[7]), tygem_handicap(int(head[7]), game.size), "WBaduk")


# --- PandaNet UGF / UGI --------------------------------------------------------------------------

_UGF_RULES = {"JPN": "Japanese", "CHN": "Chinese", "KOR": "Korean", "ING": "Ing"}


def _ugf(text: str, game: _Game) -> None:
    section = ""
    header: dict[str, str] = {}
    data: list[tuple[int, str]] = []
    for n, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Header" and "=" in line:
            key, _, value = line.partition("=")
            header.setdefault(key.strip(), value.strip())
        elif section == "Data" and line:
            data.append((n, line))
    size = header.get("Size", "19")
    if size.isdigit() and 2 <= int(size) <= 25:
        game.size = int(size)
    else:
        game.bad(f"Size={size!r} is not a board size; 19x19 assumed")
    for key, prop in (("PlayerB", "B"), ("PlayerW", "W")):
        parts = header.get(key, "").split(",")
        if parts[0]:
            game.root["P" + prop] = parts[0]
        if len(parts) > 1 and parts[1]:
            game.root[prop + "R"] = parts[1]
    date = re.match(r"^(\d{4})/(\d{2})/(\d{2})", header.get("Date", ""))
    if date:
        game.root["DT"] = "-".join(date.groups())
    rule = header.get("Rule", "")
    if rule:
        game.root["RU"] = _UGF_RULES.get(rule.upper(), rule)
    hdcp = header.get("Hdcp", "").split(",")
    handicap = int(hdcp[0]) if hdcp and hdcp[0].isdigit() else 0
    if len(hdcp) > 1 and re.fullmatch(r"-?\d+(\.\d+)?", hdcp[1].strip()):
        game.root["KM"] = f"{float(hdcp[1]):g}"
    winner = header.get("Winner", "").split(",")
    if winner[0] in ("B", "W"):
        margin = winner[1].strip() if len(winner) > 1 else ""
        if re.fullmatch(r"\d+(\.\d+)?", margin):
            game.root["RE"] = f"{winner[0]}+{float(margin):g}"
        else:
            game.root["RE"] = f"{winner[0]}+"
            game.note(f"Winner={header['Winner']} names no margin sgfcheck can read")
    for n, line in data:
        parts = line.split(",")
        coords, who = (parts[0], parts[1]) if len(parts) > 1 else ("", "")
        if not who or who[0] not in "BW":
            game.bad(f"line {n} is not a move ({line[:40]!r}); skipped")
            continue
        point = ""
        if len(coords) == 2 and coords.isalpha() and coords.isupper():
            x, y = ord(coords[0]) - ord("A"), game.size - 1 - (ord(coords[1]) - ord("A"))
            if 0 <= x < game.size and 0 <= y < game.size:
                point = point_to_sgf((x, y))
        if not point:
            game.note(f"line {n}: {coords!r} is not a point on the board; read as a pass")
        game.moves.append((who[0], point))
    game.place_handicap(handicap, standard_handicap(handicap, game.size, game.size),
                        "PandaNet (Japanese)")
