"""Counting under each ruleset, on positions built for each component (fixtures/*.sgf)."""

from __future__ import annotations

import random
from dataclasses import replace

from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.counting.count import count
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.output.differences import difference_lines
from sgfcheck.position.analysis import analyse
from sgfcheck.records.record import load_bytes
from sgfcheck.records.results import parse_result
from sgfcheck.replay.board import Board
from sgfcheck.replay.check import check_bytes
from sgfcheck.replay.replay import Replay, replay
from sgfcheck.rules.presets import AGA, CHINESE, JAPANESE, PRESETS
from sgfcheck.rules.spellings import parse_rules_string
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.settings import Settings
from sgfcheck.status import Source
from sgfcheck.verdict.decide import AS_JUDGED, Outcome, ResultCheck
from sgfcheck.verdict.decide import check_result as weigh


def scores(name: str, rows: str = "chinese,japanese,aga,stone-scoring", **kw: object):  # type: ignore[no-untyped-def]
    report = score_file(FIXTURES / name, Settings(compare=tuple(rows.split(",")), **kw))  # type: ignore[arg-type]
    (game,) = report.games
    by_name = {s.ruleset.name: s for s in reversed(game.scores)}
    by_name["own"] = game.scores[0]
    return game, by_name


def check_result(result, score, dead, final: bool, open_share: float = 0.0) -> ResultCheck:  # type: ignore[no-untyped-def]
    """The result check of one count, under the record's own reading only."""
    from sgfcheck.verdict.readings import Reading

    return weigh(result, [Outcome(Reading(score.ruleset, True), AS_JUDGED, score)], dead, final,
                 open_share)


def totals(score) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    return score.black.total, score.white.total


def test_prisoners_dead_stones_and_territory() -> None:
    game, s = scores("scoring-basic.sgf")
    assert game.dead is not None and game.dead.source == "markup"
    assert game.dead.names(game.position.board) == ["E3"]  # type: ignore[union-attr]
    jp = s["japanese"]
    assert (jp.black.empty, jp.black.prisoners, jp.white.empty, jp.white.dead) == (7, 1, 5, 1)
    assert totals(jp) == (8, 6.5) and jp.result_text == "B+1.5"
    assert totals(s["chinese"]) == (15, 10.5)
    assert game.result_check is not None and game.result_check.status == "match"


def test_dame_parity_explained() -> None:
    game, _ = scores("scoring-basic.sgf", rows="chinese")
    (chinese,) = game.differences
    assert (chinese.base, chinese.other, chinese.delta, chinese.extra_stones) == (
        "japanese", "chinese", 3, 3)
    text = "\n".join(difference_lines(game.differences))
    assert "chinese vs japanese: the margin moves +3 towards Black" in text
    assert "Black put 3 more stone(s) on the board" in text


def test_pass_stones_and_white_passes_last() -> None:
    # White passed at move 2, Black at move 3: Black passed last, so White's extra pass gives
    # Black a second pass stone.
    _, s = scores("scoring-basic.sgf")
    aga = s["aga"]
    assert (aga.black.pass_stones, aga.white.pass_stones) == (2, 1)
    assert totals(aga) == (10, 7.5)
    assert any("Black passed last" in n for n in aga.notes)


def test_wmsg_first_pass_gives_white_one_point() -> None:
    _, s = scores("scoring-basic.sgf", rows="wmsg")
    assert s["wmsg"].white.pass_bonus == 1.0
    assert totals(s["wmsg"]) == (15, 11.5)


def test_seki_counts_under_chinese_not_japanese() -> None:
    game, s = scores("seki.sgf")
    pos = game.position
    assert pos is not None
    board = pos.board
    assert [board.point(p) for p in pos.seki_empty[BLACK]] == [(0, 0)]  # A7
    assert [board.point(p) for p in pos.seki_empty[WHITE]] == [(4, 0)]  # E7
    assert totals(s["japanese"]) == (12, 8.5)
    assert (s["japanese"].black.seki_excluded, s["japanese"].white.seki_excluded) == (1, 1)
    assert totals(s["chinese"]) == (27, 21.5)
    chinese = next(d for d in game.differences if d.other == "chinese")
    assert (chinese.seki, chinese.seki_counted_by, chinese.seki_not_by) == (
        ("A7", "E7"), "chinese", "japanese")
    assert "2 point(s) in seki at A7, E7 count under chinese but not as japanese territory" in (
        "\n".join(difference_lines(game.differences)))
    assert game.result_check is not None and game.result_check.status == "match"


def test_stone_scoring_with_three_groups() -> None:
    _, s = scores("three-groups.sgf")
    stone = s["own"]
    assert stone.ruleset.name == "stone-scoring"
    assert (stone.black.stones, stone.black.empty, stone.black.tax) == (18, 6, 6)
    assert stone.black.total == 18  # exactly the stones on the board
    assert (stone.white.tax, stone.white.total) == (2, 55)
    assert totals(s["chinese"]) == (24, 57)


def test_group_tax_spares_groups_in_seki() -> None:
    _, s = scores("seki.sgf")
    stone = s["stone-scoring"]
    # One independent group each side (tax 2); the groups in seki pay nothing but their eyes.
    assert (stone.black.tax, stone.white.tax) == (2, 2)
    assert totals(stone) == (24, 18.5)


def _handicap_game(n: int) -> bytes:
    stars = ["pd", "dp", "pp", "dd", "jj", "dj", "pj", "jd", "jp"]
    order = {2: [0, 1], 3: [0, 1, 2], 9: list(range(9))}.get(n, [0])
    stones = "".join(f"[{stars[i]}]" for i in order) if n else ""
    ab = f"AB{stones}" if n else ""
    return f"(;GM[1]SZ[19]HA[{n}]KM[0.5]{ab};W[];B[])".encode()


def test_handicap_compensation() -> None:
    aga_area = parse_rules_string("aga:pass_stones=no,white_passes_last=no")
    for n, chinese_bonus, aga_bonus in ((0, 0, 0), (1, 0, 0), (2, 2, 1), (9, 9, 8)):
        (game,) = load_bytes(_handicap_game(n)).games
        rep = replay(game, game.main_line(), CHINESE)
        pos = analyse(rep.board, set())
        assert count(pos, rep, CHINESE, game.handicap).white.handicap_bonus == chinese_bonus, n
        assert count(pos, rep, aga_area, game.handicap).white.handicap_bonus == aga_bonus, n
        assert count(pos, rep, JAPANESE, game.handicap).white.handicap_bonus == 0
        assert count(pos, rep, PRESETS["new-zealand"], game.handicap).white.handicap_bonus == 0


def test_new_zealand_integer_komi_allows_jigo_ing_gives_black_the_tie() -> None:
    _, s = scores("scoring-basic.sgf", rows="new-zealand,ing", komi=5.0)
    assert s["new-zealand"].margin == 0 and s["new-zealand"].winner is None
    assert s["new-zealand"].result_text == "jigo (draw)"
    assert s["ing"].winner is BLACK


def test_score_after_move_n() -> None:
    game, s = scores("scoring-basic.sgf", move=0, dead_stones="markup")
    assert game.scored_move == 0
    assert game.dead is not None and game.dead.source == "none"  # markup is for the end only
    assert s["chinese"].black.stones == 8 and s["chinese"].white.stones == 6


def test_user_dead_stones_and_alive() -> None:
    game, s = scores("seki.sgf", dead=("G7",))
    assert game.dead is not None and game.dead.source == "--dead"
    assert len(game.dead.points) == 10  # G7 marks its whole chain (D1-D5, E5-G5, G6, G7)
    game, s = scores("scoring-basic.sgf", alive=True)
    assert game.dead is not None and game.dead.points == set()
    # With E3 alive, White's E column touches a black stone: no territory for White at all.
    assert totals(s["japanese"]) == (8, 0.5)


def test_result_check_statuses() -> None:
    dead_known = DeadStones(set(), Source.MARKUP)
    nothing = DeadStones(set(), Source.NONE, assumed=True)
    rep = Replay(JAPANESE, Board(5, 5), [])
    score = count(analyse(rep.board, set()), rep, replace(JAPANESE, komi=0.5), 0)
    assert score.result_text == "W+0.5"
    assert check_result(parse_result("W+0.5"), score, dead_known, True).status == "match"
    mismatch = check_result(parse_result("W+1.5"), score, dead_known, True)
    assert (mismatch.status, mismatch.delta) == ("mismatch", 1.0)
    assert check_result(parse_result("B+R"), score, dead_known, True).status == "not-scored"
    # An empty board that did not end by two passes: nothing is anyone's yet (RES143).
    stub = check_result(parse_result("W+0.5"), score, nothing, False)
    assert (stub.status, stub.code) == ("not-scored", "RES143")
    # A black wall on the B line: every empty point borders Black alone (20 points); no
    # dead-stone information in a game that did not end by two passes (RES121).
    walled = Board(5, 5)
    walled.set_stones([r * 5 + 1 for r in range(5)], [], [])
    rep = Replay(JAPANESE, walled, [])
    score = count(analyse(rep.board, set()), rep, replace(JAPANESE, komi=0.5), 0)
    assert score.result_text == "B+19.5"
    unknown = check_result(parse_result("W+0.5"), score, nothing, False)
    assert (unknown.status, unknown.code) == ("unverifiable", "RES121")


# --- the AGA claim: territory + prisoners + pass stones (White passing last) equals area
#     counting with N-1 handicap compensation --------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), handicap=st.sampled_from([0, 2, 3, 4]))
def test_aga_territory_with_pass_stones_equals_area_with_n_minus_1(seed: int,
                                                                   handicap: int) -> None:
    rng = random.Random(seed)
    size = 7
    points = [(c, r) for r in range(size) for c in range(size)]
    board = Board(size, size)
    setup = rng.sample(points, handicap) if handicap else []
    for c, r in setup:
        board.set_stones([r * size + c], [], [])
    # A random game of legal moves (no suicide, no ko retake), both sides passing at times,
    # ending with two passes. White moves first in handicap games.
    moves: list[str] = []
    colour = WHITE if handicap else BLACK
    ko = -1
    passes_in_a_row = 0
    for _ in range(rng.randint(10, 80)):
        empties = [p for p in range(size * size) if board.colour[p] == 0 and p != ko]
        rng.shuffle(empties)
        played = None
        if rng.random() > 0.1:
            for p in empties:
                _, self_caps = board.would_capture_or_suicide(p, colour)
                if self_caps == 0:
                    played = p
                    break
        letter = "B" if colour == BLACK else "W"
        if played is None:
            moves.append(f";{letter}[]")
            passes_in_a_row += 1
            ko = -1
        else:
            _, ko, _ = board.play(played, colour)
            c, r = played % size, played // size
            moves.append(f";{letter}[{'abcdefg'[c]}{'abcdefg'[r]}]")
            passes_in_a_row = 0
        colour = WHITE if colour == BLACK else BLACK
        if passes_in_a_row == 2:
            break
    while passes_in_a_row < 2:
        moves.append(f";{'B' if colour == BLACK else 'W'}[]")
        colour = WHITE if colour == BLACK else BLACK
        passes_in_a_row += 1
    ab = "AB" + "".join(f"[{'abcdefg'[c]}{'abcdefg'[r]}]" for c, r in setup) if setup else ""
    data = f"(;GM[1]SZ[{size}]HA[{handicap}]KM[0.5]{ab}{''.join(moves)})".encode()
    report = check_bytes(data)
    (g,) = report.games
    assert g.illegal_moves == []
    rep = replay(g.game, g.game.main_line(), AGA)
    pos = analyse(rep.board, set())
    aga_area = replace(AGA, pass_stones=False, white_passes_last=False)
    territory = count(pos, rep, AGA, g.game.handicap)
    area = count(pos, rep, aga_area, g.game.handicap)
    assert territory.margin == area.margin, (territory.contributions, area.contributions)


# KataGo's rules test GroupTaxSekiScoring (cpp/tests/testrules.cpp): a real seki at F9 and J6
# (White's one-eyed groups and Black's H8-J9 share H9 and J8), three open dame at E3, F3, G3.
TAX_SEKI_ROWS = """
.x.xo.o.x
...xooox.
.xxxxxxoo
xoooooxo.
xo.o.oxoo
xoooooxxx
xxxo...oo
.xxxoooo.
.x.xo.o.o
"""


def _tax_seki_record(fill: str = "") -> bytes:
    rows = TAX_SEKI_ROWS.split()
    letters = "abcdefghi"
    black = [letters[c] + letters[r] for r, row in enumerate(rows) for c, ch in enumerate(row)
             if ch == "x"]
    white = [letters[c] + letters[r] for r, row in enumerate(rows) for c, ch in enumerate(row)
             if ch == "o"] + ([fill[i:i + 2] for i in range(0, len(fill), 2)])
    return ("(;GM[1]FF[4]SZ[9]KM[0.5]RU[Japanese]AB" + "".join(f"[{p}]" for p in black)
            + "AW" + "".join(f"[{p}]" for p in white) + ";B[];W[])").encode()


def test_katagos_group_tax_seki_position_as_the_japanese_rules_count_it() -> None:
    """docs/rulesets.md, tax=seki: eyes of groups in seki are nobody's, and a group with eyes
    of its own is alive whatever dame lie beside it. Black: A9 C9 A8 B8 C8 A7 and A2 A1 C1 (9);
    White: C5 E5 F1 H1 J2 (5), F9 and J6 in seki; komi 0.5: B+3.5. Area without tax: Black 27
    stones + 9, White 33 stones + 7 + 0.5: W+4.5 (KataGo: W+4.5). With the dame E3, F3, G3
    filled by White the territory count stays B+3.5 and White's area grows by 3: W+7.5."""
    from sgfcheck.scoring.adjudicate import score_bytes
    from sgfcheck.settings import Settings

    settings = Settings(alive=True, engine="none",  # type: ignore[arg-type]
                        compare=("japanese", "chinese"))
    for fill, area in (("", "W+4.5"), ("egfggg", "W+7.5")):
        (game,) = score_bytes(_tax_seki_record(fill), "tax.sgf", settings).games
        japanese, chinese = game.scores
        assert japanese.result_text == "B+3.5" and chinese.result_text == area, fill
        board = game.position.board
        seki = game.position.seki_empty
        assert sorted(board.name(p) for p in seki[BLACK] + seki[WHITE]) == ["F9", "J6"]


def test_rows_with_the_same_margin_reached_two_ways_are_explained() -> None:
    # Issue 62: on a handicap-2 game Chinese equals Japanese only because dame parity (+2 for
    # Black: his two set-up stones) cancels the handicap bonus (+2 for White): never said.
    game, s = scores("handicap.sgf", rows="chinese")
    assert s["chinese"].margin == s["japanese"].margin
    (chinese,) = game.differences
    assert (chinese.delta, chinese.terms, chinese.extra_stones, chinese.setup_stones) == (
        0, (("stones on the board", 2), ("handicap bonus", -2)), 2, True)
    assert difference_lines(game.differences)[:2] == [
        "chinese vs japanese: the same margin, the terms that differ cancel (stones on the "
        "board +2, handicap bonus -2)",
        "  area counts stones on the board, territory counts prisoners: Black put 2 more "
        "stone(s) on the board (set-up stones included) (dame parity)"]
