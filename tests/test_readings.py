"""Readings of what a record leaves unsaid, each tried only where the record names its source and
each cited: a record without KM (komi 0 for a whole-point result, else unknown), OGS's own count
before 2024-06-08, Fox's handicap stones placed as KataGo's SGF reader places them. And the
words of a verdict: a match only where the band gives RE's winner, an answer naming a row of its
table."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS, FIXTURES
from typer.testing import CliRunner

from sgfcheck.cli.app import app
from sgfcheck.colour import BLACK, WHITE
from sgfcheck.output.reasons import sentence as said
from sgfcheck.points import fox_handicap, point_name
from sgfcheck.records.context import Origin
from sgfcheck.records.record import HandicapPlacement, load_bytes
from sgfcheck.records.servers import Server
from sgfcheck.scoring.adjudicate import GameScore, score_bytes, score_file
from sgfcheck.settings import Settings
from sgfcheck.verdict.servers import ogs_territory

runner = CliRunner()


def scored_bytes(data: bytes, **options: object) -> GameScore:
    (game,) = score_bytes(data, "record.sgf", Settings(**options)).games  # type: ignore[arg-type]
    assert game.result_check is not None
    return game


def with_re(data: bytes, result: str) -> bytes:
    return re.sub(rb"RE\[[^\]]*\]", f"RE[{result}]".encode(), data, count=1)


def codes(game: GameScore) -> list[str]:
    assert game.result_check is not None
    return [a.code.code for a in game.result_check.assumptions]


# --- a record without KM ---------------------------------------------------------------------

# no-komi.sgf: scoring-basic.sgf's position without KM, RE[B+2]; the players' dead stones, two
# passes; before komi Japanese counts Black 8 (7 + 1 prisoner), White 6 (5 + 1 dead): B+2.
NO_KM = (FIXTURES / "no-komi.sgf").read_bytes()

def test_no_km_with_a_whole_point_result_reads_komi_0_and_says_so() -> None:
    game = scored_bytes(with_re(NO_KM, "B+2"))
    rc = game.result_check
    assert rc is not None and game.check.context is not None
    assert game.check.context.komi_origin is Origin.CONVENTION
    assert game.check.context.komi_detail == (
        "no KM; RE[B+2] is a margin in whole points, so komi 0 is read (games before komi "
        "existed had none)")
    assert (rc.status, rc.computed, rc.reading) == ("match", "B+2", "japanese with komi 0")
    assert "RES002" in codes(game)
    # Every row takes the game's komi, not its preset's (chinese would say 7.5).
    assert [(s.ruleset.name, s.ruleset.komi) for s in game.scores][:3] == [
        ("japanese", 0.0), ("tromp-taylor", 0.0), ("chinese", 0.0)]


def test_no_km_never_makes_a_mismatch_but_says_the_komi_re_needs() -> None:
    rc = scored_bytes(with_re(NO_KM, "B+9")).result_check
    assert rc is not None and rc.status == "unverifiable"
    assert said(rc).endswith("RE[B+9] would need a komi of -7")
    assert "the count rests on an assumption about the record, not on the record: no KM" \
        in said(rc)


def test_no_km_with_a_half_point_result_leaves_the_komi_unknown() -> None:
    game = scored_bytes(with_re(NO_KM, "B+1.5"))
    rc = game.result_check
    assert rc is not None and game.check.context is not None
    assert game.check.context.komi_origin is Origin.UNKNOWN
    assert (rc.status, rc.reading) == ("unverifiable", "japanese without komi")
    assert said(rc) == (
        "the komi is unknown (no KM, and RE[B+1.5] does not tell it): the count before komi "
        "gives B+2; RE[B+1.5] would need a komi of 0.5")
    # No ruleset's komi is put in the record's mouth: every row counts without komi.
    assert {s.ruleset.komi for s in game.scores} == {0.0}


def test_ing_rules_fix_the_komi_of_a_record_without_km() -> None:
    report = load_bytes(NO_KM.replace(b"RU[Japanese]", b"RU[Ing]"), "ing.sgf")
    from sgfcheck.records.context import resolve
    from sgfcheck.records.results import parse_result
    game = report.games[0]
    context, _ = resolve(game, Settings(), parse_result(game.result_raw))
    assert (context.komi, context.komi_origin) == (8.0, Origin.RECORD)
    assert context.komi_detail == "no KM; the ing rules fix the komi at 8"


# --- OGS's own count before 2024-06-08 ---------------------------------------------------------

OGS_SEKI = (FIXTURES / "ogs-seki-eyes-9x9.sgf").read_bytes()
OGS_FILL = (FIXTURES / "ogs-false-eye-9x9.sgf").read_bytes()


def test_an_ogs_record_of_2014_is_read_as_ogs_counted_the_eyes_in_seki() -> None:
    game = scored_bytes(OGS_SEKI)
    rc = game.result_check
    assert rc is not None and game.check.game.server is Server.OGS
    assert (rc.status, rc.computed, rc.reading) == (
        "match", "B+22.5", "japanese with komi 6.5, as OGS counted before 2024-06-08")
    (note,) = [a for a in rc.assumptions if a.code.code == "RES009"]
    assert note.message.endswith(
        "a referee's count differs: OGS's count gives Black 2 point(s) in seki (A9, B9); OGS's "
        "count gives White 1 point(s) in seki (F9)")
    # The row of the reading is in the table, and the answer names its count.
    assert (game.added_reading, game.scores[game.reading_row].result_text) == (
        "japanese, OGS", "B+22.5")
    # The referee's own row is the first: B+21.5 (no territory in seki).
    assert game.scores[0].result_text == "B+21.5"


def test_an_ogs_record_of_2014_is_read_without_the_points_to_fill() -> None:
    for options in ({}, {"dead": ("B9",)}):
        rc = scored_bytes(OGS_FILL, **options).result_check
        assert rc is not None
        assert (rc.status, rc.reading) == (
            "match", "japanese with komi 6.5, as OGS counted before 2024-06-08")
        (note,) = [a for a in rc.assumptions if a.code.code == "RES009"]
        assert note.message.endswith("OGS's count gives Black 2 point(s) to fill (A9, B9)")


@pytest.mark.parametrize(("change", "why"), [
    ((b"DT[2014-06-14]", b"DT[2024-07-01]"), "OGS counts with goscorer since 2024-06-08"),
    ((b"PC[OGS: https://online-go.com/game/100001]", b""), "the record names no server"),
])
def test_the_ogs_reading_is_tried_only_where_the_record_names_it(
        change: tuple[bytes, bytes], why: str) -> None:
    # With the players' dead stone given (B9, the throw-in), the basis is firm: the referee's
    # B+21.5 against RE is a mismatch wherever OGS's count of that time is not the record's.
    rc = scored_bytes(OGS_SEKI.replace(*change), dead=("B9",)).result_check
    assert rc is not None
    assert (rc.status, rc.reading) == ("mismatch", "japanese with komi 6.5"), why
    assert "OGS" not in said(rc)


def test_a_wrong_ogs_result_is_still_caught() -> None:
    # The winner flipped: neither the referee's count nor OGS's gives it.
    rc = scored_bytes(with_re(OGS_SEKI, "W+22.5"), dead=("B9",)).result_check
    assert rc is not None and rc.status == "mismatch"
    assert said(rc).endswith("under every reading checked (japanese with komi 6.5; japanese "
                              "with komi 6.5, as OGS counted before 2024-06-08)")


def test_ogs_strict_seki_mode_leaves_out_territory_beside_unfilled_dame() -> None:
    # online-go/goban GoStoneGroup.computeIsTerritoryInSeki: a region whose bordering chain
    # touches an empty region of nobody's. In the false-eye position White's wall touches the
    # dame A7-B7, so strict seki mode left White's whole area out.
    game = scored_bytes(OGS_FILL, dead=("B9",))
    assert game.position is not None
    loose = ogs_territory(game.position, strict_seki=False)
    strict = ogs_territory(game.position, strict_seki=True)
    board = game.position.board
    assert sorted(board.name(p) for p in loose[BLACK])[:2] == ["A9", "B9"]
    assert (len(loose[BLACK]), len(loose[WHITE])) == (12, 45)
    # Black's A9-B9 too: its chain A8-B8 touches the same dame.
    assert (len(strict[BLACK]), len(strict[WHITE])) == (10, 0)


# --- Fox's handicap stones, as KataGo's SGF reader places them --------------------------------

def names(points: list[tuple[int, int]]) -> list[str]:
    return [point_name(p, 19) for p in points]


def test_fox_handicap_points_follow_katago() -> None:
    # PlayUtils::placeFixedHandicap: the third stone goes to D16 (not Q4, the Japanese order).
    assert names(fox_handicap(3, None)) == ["D4", "Q16", "D16"]
    assert names(fox_handicap(9, None)) == ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K16", "K4",
                                            "K10"]
    # 6 and 7 stones before 2018-01-01: the side stones north and south (the board transposed).
    assert names(fox_handicap(6, "2017-12-31")) == ["D4", "Q16", "D16", "Q4", "K16", "K4"]
    assert names(fox_handicap(6, "2018-01-01")) == ["D4", "Q16", "D16", "Q4", "D10", "Q10"]
    assert names(fox_handicap(7, "2017-5-1")) == ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"]


FOX_HA3 = (b"(;GM[1]FF[4]SZ[19]HA[3]KM[0]RU[Chinese]AP[foxwq]DT[2016-05-01]RE[W+R]"
           b";W[qd];B[dq];W[cd])")


def test_a_fox_record_without_its_handicap_stones_gets_them_where_katago_puts_them() -> None:
    (game,) = load_bytes(FOX_HA3, "fox.sgf").games
    assert game.handicap_placement is HandicapPlacement.CONVENTION
    assert names(game.assumed_handicap) == ["D4", "Q16", "D16"]
    # White's first move at R16 (qd) is legal with the stones; so is B C3 and W C16 (cd), next
    # to D16: nothing contradicts the placement.
    scored = scored_bytes(FOX_HA3)
    assert scored.check.game.handicap_placement is HandicapPlacement.CONVENTION
    # A move onto one of the points refutes it: then the stones' place is unknown.
    moved = FOX_HA3.replace(b";W[qd]", b";W[dd]")
    refuted = scored_bytes(moved).check
    assert refuted.game.handicap_placement is HandicapPlacement.UNKNOWN
    # Not a Fox record (no AP[foxwq]): the standard points, an assumption as before.
    (plain,) = load_bytes(FOX_HA3.replace(b"AP[foxwq]", b""), "plain.sgf").games
    assert plain.handicap_placement is HandicapPlacement.ASSUMED
    # Older Fox records written by GNU Go 3.8 count when their GN is empty, as KataGo reads them.
    (old,) = load_bytes(FOX_HA3.replace(b"AP[foxwq]", b"AP[GNU Go:3.8]GN[]"), "old.sgf").games
    assert old.handicap_placement is HandicapPlacement.CONVENTION
    (named,) = load_bytes(FOX_HA3.replace(b"AP[foxwq]", b"AP[GNU Go:3.8]GN[x]"), "n.sgf").games
    assert named.handicap_placement is HandicapPlacement.ASSUMED


def test_fox_handicap_games_of_the_corpus_rest_on_the_convention_and_say_so() -> None:
    folder = CORPUS / "pro19"
    if not folder.is_dir():
        pytest.skip(f"shared corpus not found at {folder}")
    verdicts: dict[str, int] = {}
    for path in sorted(folder.rglob("*.sgf")):
        data = path.read_bytes()
        if not re.search(rb"HA\[[2-9]\]", data) or b"AB[" in data \
                or not re.search(rb"RE\[[BW]\+[0-9]", data):
            continue
        for game in score_file(path, Settings()).games:
            if game.check.game.handicap_placement is not HandicapPlacement.CONVENTION:
                continue
            rc = game.result_check
            assert rc is not None
            verdicts[rc.status] = verdicts.get(rc.status, 0) + 1
            if rc.code == "RES143":  # stopped in the opening: no count rests on the stones
                assert "RES010" not in codes(game), path
                continue
            assert "RES010" in codes(game), path
            assert "RES008" not in codes(game), path
    assert sum(verdicts.values()) >= 10
    # Most of these professional results are confirmed on the stones KataGo places.
    assert verdicts.get("match", 0) >= sum(verdicts.values()) // 2


# --- the words of a verdict ---------------------------------------------------------------------

def test_the_answer_names_a_count_that_is_a_row_of_its_table() -> None:
    for name in ("ogs-seki-eyes-9x9.sgf", "fox-komi-zero.sgf", "seki.sgf",
                 "open-boundary-9x9.sgf"):
        result = runner.invoke(app, ["score", str(FIXTURES / name)])
        text = " ".join(result.output.split())
        counted = re.search(r"counted (\S+) under ([^;(]+?)(?: as it stands|;| \()", text)
        if counted is None:
            continue
        game = score_file(FIXTURES / name, Settings()).games[0]
        row = game.scores[game.reading_row]
        assert counted.group(1) == row.result_text, name


def test_a_resignation_by_the_side_that_moved_last_and_leads_is_said_in_the_answer() -> None:
    # Black's wall on the 4th line, White's on the 3rd: Black leads by 27 - 6.5 = 20.5; RE says
    # Black resigned, yet Black made the last play.
    record = (b"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]RE[W+R]"
              b"AB[af][bf][cf][df][ef][ff][gf][hf][if]AW[ag][bg][cg][dg][eg][fg][gg][hg][ig]"
              b";W[ei];B[ec])")
    result = runner.invoke(app, ["score", "-"], input=record)
    text = " ".join(result.output.split())
    assert ("answer: RE[W+R], not scored: the game ended by resign; the count gives B+20.5 under "
            "japanese with komi 6.5; but Black, who RE says lost, made the last play (move 2) and "
            "leads on that count by 20.5 points: RE may have its winner the wrong way round "
            "(RES007)") in text


def test_a_fox_record_whose_alarms_were_the_missing_stones_replays_clean() -> None:
    # HA[3], no stones, White's first move at Q4: on the Japanese points (Q16, D4, Q4) the
    # guess was refuted and the game replayed without stones, which made a suicide and two
    # occupied points; on the points KataGo gives Fox's records (D4, Q16, D16) every one of the
    # 359 moves is legal.
    path = CORPUS / "pro19" / "Pro" / "3p" / "1428326697019999545.sgf"
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {path}")
    (game,) = score_file(path, Settings(dead_stones="none")).games  # type: ignore[arg-type]
    assert game.check.game.handicap_placement is HandicapPlacement.CONVENTION
    assert names(game.check.game.assumed_handicap) == ["D4", "Q16", "D16"]
    assert game.check.illegal_moves == [] and game.check.replay is not None
    assert game.check.replay.moves == 359


def test_the_added_row_is_named_apart_and_never_hidden_in_the_same_margin() -> None:
    result = runner.invoke(app, ["score", str(FIXTURES / "ogs-seki-eyes-9x9.sgf"),
                                 "--compare", "japanese"])
    rows = [line.split()[:4] for line in result.output.splitlines()
            if line.startswith(("japanese  ", "japanese, OGS "))]
    assert rows[:2] == [["japanese", "B", "B+21.5", "34"], ["japanese,", "OGS", "B", "B+22.5"]]
    text = " ".join(result.output.split())
    assert "japanese, OGS: territory as OGS counted it before 2024-06-08" in text
    # One asked row: nothing to compare, and the added row differs: no "same margin" claim.
    assert "Every ruleset gives the same margin" not in text


def test_a_servers_count_is_one_entry() -> None:
    """Every server's own count (the record's marks, OGS's two) is one entry of
    servercount.SERVER_COUNTS, read from there alone: the pipeline names none of them."""
    from pathlib import Path

    from sgfcheck.verdict.readings import Counting
    from sgfcheck.verdict.servers import BY_COUNTING, SERVER_COUNTS

    assert [e.counting for e in SERVER_COUNTS] == [Counting.MARKED, Counting.OGS,
                                                   Counting.OGS_STRICT]
    assert set(BY_COUNTING) == {c for c in Counting if c.server}
    scoring = Path(__file__).resolve().parent.parent / "sgfcheck" / "scoring"
    naming = [p.name for p in sorted(scoring.glob("*.py"))
              if p.name not in ("conventions.py", "servercount.py")
              and "Counting." in p.read_text(encoding="utf-8")]
    assert naming == []
