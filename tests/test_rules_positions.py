"""Each rule claim on a position built for it (fixtures/*.sgf, drawn in their C[] comments)."""

from __future__ import annotations

import pytest
from conftest import codes, game

from sgfcheck.output.schema import game_dict
from sgfcheck.replay.board import BLACK, EMPTY, WHITE
from sgfcheck.rules.ruleset import KoRule, SuicideRule


def test_capture_removes_the_stone_and_counts_a_prisoner() -> None:
    g = game("capture.sgf")
    assert codes(g, "RUL") == []
    assert g.replay is not None
    assert g.replay.prisoners == {BLACK: 1, WHITE: 0}
    board = g.replay.board
    assert board.colour[board.index(1, 1)] == EMPTY  # B4 is empty again


def test_snapback_is_legal_and_captures_five() -> None:
    g = game("snapback.sgf", rules="tromp-taylor")
    assert codes(g, "RUL") == []
    assert g.replay is not None
    assert g.replay.prisoners == {BLACK: 5, WHITE: 1}


@pytest.mark.parametrize(
    ("suicide", "expected"),
    [
        (SuicideRule.FORBIDDEN, [("RUL003", 1, "A5")]),
        (SuicideRule.MULTI_STONE, [("RUL003", 1, "A5")]),
        (SuicideRule.ALLOWED, [("RUL012", 1, "A5")]),
    ],
)
def test_single_stone_suicide(suicide: SuicideRule, expected: list[tuple[str, int, str]]) -> None:
    g = game("suicide-single.sgf", suicide=suicide)
    assert codes(g, "RUL") == expected


@pytest.mark.parametrize(
    ("suicide", "expected"),
    [
        (SuicideRule.FORBIDDEN, [("RUL003", 1, "B5")]),
        (SuicideRule.MULTI_STONE, [("RUL012", 1, "B5")]),
        (SuicideRule.ALLOWED, [("RUL012", 1, "B5")]),
    ],
)
def test_multi_stone_suicide(suicide: SuicideRule, expected: list[tuple[str, int, str]]) -> None:
    g = game("suicide-multi.sgf", suicide=suicide)
    assert codes(g, "RUL") == expected
    assert g.replay is not None
    # Played as recorded: both black stones are gone and White holds them as prisoners.
    assert g.replay.prisoners[WHITE] == 2


def test_single_stone_suicide_under_tromp_taylor_repeats_the_position() -> None:
    g = game("suicide-single.sgf", rules="tromp-taylor")
    assert [(f.code.code, f.move, f.repeats_move) for f in g.findings
            if f.code.code.startswith("RUL")] == [("RUL012", 1, None), ("RUL005", 1, 0)]


def test_immediate_ko_retake_is_illegal_under_every_preset() -> None:
    g = game("ko.sgf", all_rules=True)
    assert codes(g, "RUL") == [("RUL004", 2, "C4")]
    assert g.illegal_moves[0].repeats_move == 0
    assert g.all_rules is not None
    (row,) = g.all_rules
    assert row.move == 2
    assert all(v == ["simple ko"] for v in row.verdicts.values())


def test_ko_retake_after_a_threat_is_legal() -> None:
    for rules in ("japanese", "tromp-taylor", "aga", "bga"):
        assert codes(game("ko-after-threat.sgf", rules=rules), "RUL") == []


def test_psk_and_ssk_disagree() -> None:
    assert codes(game("psk-not-ssk.sgf", ko=KoRule.POSITIONAL), "RUL") == [("RUL005", 10, "C2")]
    assert codes(game("psk-not-ssk.sgf", ko=KoRule.SITUATIONAL), "RUL") == []
    g = game("psk-not-ssk.sgf", ko=KoRule.POSITIONAL)
    assert g.illegal_moves[0].repeats_move == 3


def test_ssk_and_nssk_disagree_on_a_position_made_by_a_pass() -> None:
    ssk = game("ssk-not-nssk.sgf", ko=KoRule.SITUATIONAL)
    assert [(f.code.code, f.move, f.point, f.repeats_move) for f in ssk.illegal_moves] == [
        ("RUL004", 5, "B4", 3)
    ]
    assert codes(game("ssk-not-nssk.sgf", ko=KoRule.NATURAL_SITUATIONAL), "RUL") == []
    psk = game("ssk-not-nssk.sgf", ko=KoRule.POSITIONAL)
    # Under PSK the board after move 5 first stood after move 2 (the pass did not change it).
    assert [(f.code.code, f.move, f.repeats_move) for f in psk.illegal_moves] == [
        ("RUL004", 5, 2)
    ]


def test_triple_ko_is_a_long_cycle_under_japanese_rules() -> None:
    g = game("triple-ko.sgf")
    assert g.context is not None and g.context.ruleset.name == "japanese"
    cycles = [f for f in g.findings if f.code.code == "RUL008"]
    assert len(cycles) == 1  # reported once, though the cycle is played twice
    assert (cycles[0].move, cycles[0].repeats_move, cycles[0].extra["cycle"]) == (6, 0, [1, 6])
    assert "no result" in cycles[0].message
    assert g.replay is not None and g.replay.cycle == (1, 6)
    assert g.illegal_moves == []
    assert game_dict(g, None, False)["long_cycle"] == {"moves": [1, 6], "outcome": "no-result"}


def test_triple_ko_under_superko_forbids_the_sixth_move() -> None:
    psk = game("triple-ko.sgf", rules="tromp-taylor")
    assert psk.illegal_moves[0].code.code == "RUL005"
    assert (psk.illegal_moves[0].move, psk.illegal_moves[0].point) == (6, "B2")
    ssk = game("triple-ko.sgf", rules="aga")
    assert (ssk.illegal_moves[0].code.code, ssk.illegal_moves[0].move) == ("RUL006", 6)


def test_sending_two_returning_one_psk_and_ssk_flag_different_moves() -> None:
    psk = game("sending-two-returning-one.sgf", ko=KoRule.POSITIONAL)
    ssk = game("sending-two-returning-one.sgf", ko=KoRule.SITUATIONAL)
    simple = game("sending-two-returning-one.sgf", ko=KoRule.SIMPLE)
    assert [(f.code.code, f.move, f.repeats_move) for f in psk.illegal_moves][:1] == [
        ("RUL005", 12, 9)
    ]
    assert [(f.code.code, f.move, f.repeats_move) for f in ssk.illegal_moves] == [
        ("RUL006", 14, 8)
    ]
    assert simple.illegal_moves == []
    assert [(f.code.code, f.move) for f in simple.findings if f.code.code == "RUL008"] == [
        ("RUL008", 14)
    ]


def test_midgame_setup_changes_the_position() -> None:
    g = game("midgame-setup.sgf")
    assert codes(g, "SGF019") == [("SGF019", 2, None)]
    assert g.illegal_moves == []
    assert g.replay is not None
    board = g.replay.board
    assert board.colour[board.index(6, 2)] == BLACK  # G7 from AB[gc]
    assert board.colour[board.index(2, 6)] == WHITE  # C3 from AW[cg]


def test_handicap_stones_make_white_move_first() -> None:
    g = game("handicap.sgf")
    assert g.game.handicap == 2
    assert [f for f in g.findings if f.code.code == "RUL009"] == []
    assert g.illegal_moves == []


def test_rectangular_board_and_tt_is_a_point_on_wide_boards() -> None:
    g = game("rectangle.sgf")
    assert (g.game.width, g.game.height) == (19, 13)
    # S1 is the bottom-right corner of a 19x13 board; [aa] is A13.
    assert g.illegal_moves == []
    assert g.replay is not None
    assert g.replay.passes == {BLACK: 1, WHITE: 1}  # B[tt] and W[]: 19 wide, so tt is a pass


def test_the_button_pass_neither_ends_the_game_nor_lets_a_position_repeat_across_it() -> None:
    # KataGo's button (aga-button): White's first pass (move 2) takes half a point and starts
    # the repetition history again, so White's ko retake at move 4 is legal although it
    # recreates the start's situation; the game ends at move 6, not 3.
    g = game("button-ko.sgf")
    assert g.replay is not None
    assert codes(g, "RUL") == []
    assert (g.replay.first_pass, g.replay.ended_by_passes) == (WHITE, 6)
    # Without the button the same moves end the game at move 3, and the retake comes after the
    # end and repeats the start's situation (situational superko).
    g = game("button-ko.sgf", rules="aga")
    assert codes(g, "RUL") == [("RUL010", 4, "B3"), ("RUL006", 4, "B3")]


def test_the_button_is_half_a_point_to_the_first_player_to_pass() -> None:
    from conftest import FIXTURES

    from sgfcheck.scoring.adjudicate import score_file
    from sgfcheck.settings import DeadStoneChoice, Settings

    report = score_file(FIXTURES / "button-ko.sgf", Settings(
        compare=("aga",), dead_stones=DeadStoneChoice.NONE))
    button, aga = report.games[0].scores
    # Area: Black 3 stones; White 4 stones, the point C3 and komi 7, and the button.
    assert (button.white.pass_bonus, button.black.pass_bonus) == (0.5, 0.0)
    assert (button.black.total, button.white.total, button.result_text) == (3, 12.5, "W+9.5")
    # AGA counts the same passes as pass stones instead (two each): no button.
    assert (aga.black.pass_bonus, aga.white.pass_bonus, aga.result_text) == (0.0, 0.0, "W+8")
