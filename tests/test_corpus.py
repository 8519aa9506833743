"""Real records from ../shared/corpus (skipped, saying so, when it is absent)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import corpus_dir

from sgfcheck.output.schema import game_dict
from sgfcheck.replay.check import check_file
from sgfcheck.rules.ruleset import KoRule
from sgfcheck.settings import Settings

LITTLEGO_ILLEGAL = [
    # (file, options, expected (code, move) among the findings)
    ("illegal-move.sgf", {}, ("RUL001", 16)),
    ("illegal-setup.sgf", {}, ("RUL011", None)),
    ("suicide.sgf", {}, ("RUL003", 4)),
    ("positional-superko.sgf", {"ko": KoRule.POSITIONAL}, ("RUL005", 23)),
    ("situational-superko.sgf", {"ko": KoRule.SITUATIONAL}, ("RUL006", 24)),
    ("not-enough-handicap-stones.sgf", {}, ("SGF017", None)),
    ("setup-after-first-move.sgf", {}, ("SGF019", 1)),
    ("setup-player-after-first-move.sgf", {}, ("SGF020", 1)),
    ("setup-before-handicap-setup.sgf", {}, ("SGF030", None)),
    ("encoding-unsupported.sgf", {}, ("SGF009", None)),
    ("encoding-multiple.sgf", {}, ("SGF012", None)),
    ("encoding-detection-fails.sgf", {}, ("SGF012", None)),
    ("not-an-sgf-file.sgf", {}, ("SGF003", None)),
]


@pytest.mark.parametrize(("name", "options", "expected"), LITTLEGO_ILLEGAL)
def test_littlego_illegal_games_are_flagged_for_their_reason(
    name: str, options: dict[str, object], expected: tuple[str, int | None]
) -> None:
    folder = corpus_dir("odd", "littlego", "Illegal games")
    report = check_file(folder / name, Settings(**options))  # type: ignore[arg-type]
    found = [(f.code.code, f.move) for f in report.findings]
    for g in report.games:
        found += [(f.code.code, f.move) for f in g.findings]
    assert expected in found


def test_littlego_superko_files_are_legal_under_simple_ko() -> None:
    folder = corpus_dir("odd", "littlego", "Illegal games")
    for name in ("positional-superko.sgf", "situational-superko.sgf"):
        report = check_file(folder / name, Settings(ko=KoRule.SIMPLE))
        assert report.games[0].illegal_moves == []


def test_littlego_too_many_moves_is_legal_go() -> None:
    # 1,395 moves exceed Little Go's own limit, not a rule of Go: Black fills the board while
    # White passes, White captures 360 stones, play goes on.
    folder = corpus_dir("odd", "littlego", "Illegal games")
    g = check_file(folder / "too-many-moves.sgf").games[0]
    assert g.replay is not None and g.replay.moves == 1395
    assert g.illegal_moves == []
    assert g.replay.prisoners[2] == 360


def test_littlego_non_alternating_play() -> None:
    folder = corpus_dir("odd", "littlego", "9x9")
    g = check_file(folder / "non-alternating-play.sgf").games[0]
    assert [(f.code.code, f.move, f.point) for f in g.findings if f.code.code == "RUL009"] == [
        ("RUL009", 45, "G5")
    ]


def test_fox_handicap_without_stones_replays_cleanly() -> None:
    folder = corpus_dir("pro19", "Pro", "3p")
    g = check_file(folder / "1400163652019999058.sgf").games[0]
    assert g.game.handicap == 4
    assert g.illegal_moves == []


def test_encoded_files_decode_names() -> None:
    folder = corpus_dir("odd", "sabaki-sgf", "sgf")
    expected = {
        "chinese.sgf": "gb18030",
        "japanese.sgf": "cp932",
        # Declared MS_KANJI, but the bytes are UTF-8 holding U+FFFD: the text was already lost.
        "japanese_bad.sgf": "utf-8",
        "korean.sgf": "cp949",
        "utf16le.sgf": "utf-16",
        "utf8bom.sgf": "utf-8-sig",
    }
    for name, codec in expected.items():
        report = check_file(folder / name)
        assert report.loaded.encoding == codec, name
        assert report.games and report.games[0].replay is not None


def test_every_corpus_file_yields_a_report() -> None:
    root = corpus_dir()
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "MANIFEST.md")
    assert len(files) > 15_000
    verdicts: Counter[str] = Counter()
    unreadable = []
    for path in files:
        report = check_file(path, Settings(variations=True))
        if report.unreadable:
            unreadable.append(path.name)
        for g in report.games:
            verdicts[g.verdict] += 1
            game_dict(g, report.loaded.encoding, report.loaded.encoding_guessed)
    # Only the non-SGF formats (GIB, NGF, UGF) and Little Go's deliberate non-SGF file.
    assert all(not n.endswith((".sgf", ".SGF")) or n == "not-an-sgf-file.sgf"
               for n in unreadable), unreadable
    assert sum(verdicts.values()) >= 15_957
    assert verdicts["clean"] > 14_000


def test_kgs_markup_games_result_check_rate() -> None:
    import re

    from sgfcheck.scoring.adjudicate import score_file

    root = corpus_dir("kgs")
    numeric = re.compile(rb"RE\[[BW]\+[0-9]")
    statuses: Counter[str] = Counter()
    for path in sorted(root.rglob("*.sgf")):
        data = path.read_bytes()
        if (b"TW[" in data or b"TB[" in data) and numeric.search(data):
            (g,) = score_file(path, Settings(compare=("japanese",))).games
            assert g.dead is not None and g.dead.source == "markup"
            assert g.result_check is not None
            statuses[g.result_check.status] += 1
    assert sum(statuses.values()) == 896
    assert statuses["match"] >= 0.995 * 896, statuses
