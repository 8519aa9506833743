"""The dead-stone estimate: proofs, seeded playouts, confidence, uncertain chains."""

from __future__ import annotations

from dataclasses import replace

from conftest import FIXTURES

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.counting.count import count
from sgfcheck.counting.ways import other_ways
from sgfcheck.judge.deadstones import DeadStones
from sgfcheck.judge.estimate import ChainVerdict, ChainVerdicts, judge
from sgfcheck.judge.playout import Playouts
from sgfcheck.output.reasons import sentence as said
from sgfcheck.position.analysis import analyse
from sgfcheck.records.record import load_file
from sgfcheck.records.results import parse_result
from sgfcheck.replay.board import Board
from sgfcheck.replay.replay import replay
from sgfcheck.rules.presets import JAPANESE
from sgfcheck.scoring.adjudicate import score_file
from sgfcheck.status import Source, Status
from sgfcheck.verdict.decide import AS_JUDGED, Outcome, check_result
from sgfcheck.verdict.readings import Reading

ESTIMATE, UNCERTAIN = Source.ESTIMATE, Status.UNCERTAIN


def final_board(name: str) -> Board:
    game = load_file(FIXTURES / name).games[0]
    return replay(game, game.main_line(), JAPANESE).board


def verdicts(board: Board, seed: int = 0) -> dict[tuple[int, int], tuple[str, str]]:
    return {board.point(c.stones[0]): (c.status, c.source) for c in judge(board, seed).chains}


def test_dead_stone_in_territory_is_dead_and_walls_alive() -> None:
    board = final_board("dead-in-territory.sgf")
    j = judge(board)
    by_point = {board.point(c.stones[0]): c for c in j.chains}
    h5 = by_point[(7, 4)]
    assert (h5.status, h5.source, h5.colour) == ("dead", "estimate", 2)
    # Dead from both sides: White keeps it in under 40% of the playouts whoever moves first;
    # the confidence is the weaker side's.
    assert h5.shares is not None and max(h5.shares) < 0.4
    assert h5.confidence == round(1 - max(h5.shares), 3)
    assert {(c.status, len(c.stones)) for c in j.chains if c is not h5} == {
        ("alive", 9), ("alive", 10)}
    assert j.dead == {board.index(7, 4)} and j.uncertain == []


def test_score_without_markup_uses_the_estimate_and_checks_re() -> None:
    (game,) = score_file(FIXTURES / "dead-in-territory.sgf").games
    assert game.dead is not None and game.dead.source == "estimate"
    assert game.dead.names(game.position.board) == ["H5"]  # type: ignore[union-attr]
    japanese = game.scores[0]
    assert (japanese.black.empty, japanese.black.dead, japanese.white.empty) == (26, 1, 36)
    assert japanese.result_text == "W+9.5"
    assert game.result_check is not None and game.result_check.status == "match"


def test_proofs_come_first_and_seki_survives_the_playouts() -> None:
    board = final_board("pass-alive.sgf")
    assert verdicts(board) == {(1, 0): ("alive", "benson"), (2, 0): ("dead", "benson")}
    assert judge(board).playouts == 0  # everything proven: no playout needed
    seki = final_board("seki.sgf")
    playouts = Playouts(seki, seed=3)
    playouts.run(64)
    # B7-A6-B6-C6 and D7-D6-E6-F6-F7 share C7: neither fills it (self-atari), so both stay
    # unless an outside wall falls to a random invasion first.
    for point in ((1, 0), (3, 0)):
        chain = seki.chain_of[seki.index(*point)]
        assert chain is not None
        assert playouts.share(chain.stones, chain.colour) >= 0.8
    assert {status for status, _ in verdicts(seki).values()} == {"alive"}


def test_same_seed_same_judgement() -> None:
    board = final_board("dead-in-territory.sgf")
    first = [(c.stones, c.share) for c in judge(board, seed=7).chains]
    assert first == [(c.stones, c.share) for c in judge(board, seed=7).chains]
    a, b = Playouts(board, seed=1), Playouts(board, seed=2)
    a.run(16)
    b.run(16)
    assert (a.black, a.white) != (b.black, b.white)  # the seed matters


def test_uncertain_chains_make_the_check_unverifiable_unless_the_winner_stays() -> None:
    game = load_file(FIXTURES / "dead-in-territory.sgf").games[0]
    rules = replace(JAPANESE, komi=0.5)
    rep = replay(game, game.main_line(), rules)
    board = rep.board
    h5 = {board.index(7, 4)}
    alive = count(analyse(board, set()), rep, rules, 0)
    dead = count(analyse(board, h5), rep, rules, 0)
    # H5 alive: Black's side is no territory (it touches a white stone).
    assert (alive.result_text, dead.result_text) == ("W+36.5", "W+9.5")
    stones = DeadStones(set(), Source.ESTIMATE)
    own = Reading(rules, True)
    outcomes = [Outcome(own, AS_JUDGED, alive), Outcome(own, "W H5 dead", dead)]
    check = check_result(parse_result("W+9.5"), outcomes, stones, True)
    assert check.status == "match" and "W H5 dead" in said(check)
    check = check_result(parse_result("B+0.5"), outcomes, stones, True)
    assert check.status == "mismatch" and "whichever way" in said(check)
    # A chain whose fate decides the winner: the check cannot be made.
    flipped = count(analyse(board, set(range(9 * 9)) & {p for p, c in enumerate(board.colour)
                                                       if c == 2}), rep, rules, 0)
    assert flipped.winner is BLACK
    check = check_result(parse_result("W+9.5"), [
        Outcome(own, AS_JUDGED, alive), Outcome(own, "all white dead", flipped)], stones, True)
    assert check.status == "unverifiable" and "all white dead" in said(check)


def test_false_eye_group_is_dead() -> None:
    board = final_board("false-eye.sgf")
    assert verdicts(board) == {(1, 0): ("dead", "estimate"), (3, 0): ("dead", "estimate"),
                               (5, 0): ("alive", "estimate")}
    # The same shape with D6 black (C7 a real eye): two eyes, proven alive.
    board.set_stones([board.index(3, 1)], [], [])
    j = judge(board)
    black = [c for c in j.chains if c.colour == 1]
    assert [(len(c.stones), c.status, c.source) for c in black] == [(7, "alive", "benson")]


def test_uncertain_chains_are_counted_every_way_they_may_go() -> None:
    board = final_board("false-eye.sgf")
    b7 = board.chain_of[board.index(1, 0)]
    d7 = board.chain_of[board.index(3, 0)]
    f7 = board.chain_of[board.index(5, 0)]
    assert b7 is not None and d7 is not None and f7 is not None
    judgement = ChainVerdicts([
        ChainVerdict(sorted(b7.stones), BLACK, UNCERTAIN, ESTIMATE, 0.5, 0.5),
        ChainVerdict(sorted(d7.stones), BLACK, UNCERTAIN, ESTIMATE, 0.55, 0.45),
        ChainVerdict(sorted(f7.stones), WHITE, Status.ALIVE, ESTIMATE, 1.0, 1.0)], 32, 0)
    dead = DeadStones(set(), ESTIMATE, judgement=judgement)
    # B7's chain and D7-E7 are one black area (joined through the eye C7): they go together.
    assert other_ways(board, dead) == [("B B7 dead", set(b7.stones) | set(d7.stones))]
    f7_dead = ChainVerdicts([*judgement.chains[:2], ChainVerdict(
        sorted(f7.stones), WHITE, UNCERTAIN, ESTIMATE, 0.5, 0.5)], 32, 0)
    ways = other_ways(board, DeadStones(set(), ESTIMATE, judgement=f7_dead))
    assert [how for how, _ in ways] == ["W F7 dead", "B B7 dead", "B B7, W F7 dead"]


def test_nakade_kills_a_group_whose_eye_space_holds_a_stone() -> None:
    """Black's only eye space A1-B1-C1 holds a white stone at B1. White A1 (or C1) puts two
    stones in atari - a nakade: Black's capture leaves a two-point space, one eye. The playouts
    play it (a self-atari of up to two stones inside an opponent's space that only the opponent
    encloses), so Black is dead; before, the standoff read as a seki."""
    board = final_board("nakade.sgf")
    found = verdicts(board)
    assert found[(0, 4)] == ("dead", "estimate")  # the black group (A3...D1)
    assert found[(0, 3)] == ("alive", "estimate")  # the white wall
    judged = judge(board)
    black = next(c for c in judged.chains if c.colour == BLACK)
    assert len(black.stones) == 9 and black.confidence >= 0.9


def test_a_real_seki_is_not_a_nakade() -> None:
    """In the seki fixture the shared liberties touch both colours' stones: no nakade is
    played there and the seki stays."""
    board = final_board("seki.sgf")
    statuses = {c.status for c in judge(board).chains}
    assert Status.DEAD not in statuses


def test_an_uncertain_chain_is_counted_as_most_playouts_left_it() -> None:
    """The ko of fixtures/ko.sgf is unsettled: the estimate decides none of its stones. White's
    C5 survives 46% of the playouts (both sides' together): counted dead, Black's B5 (64%)
    alive; both stay uncertain, and the band's other ways read each of them the other way."""
    game = score_file(FIXTURES / "ko.sgf").games[0]
    dead, board = game.dead, game.position.board
    assert dead is not None and dead.judgement is not None
    shares = {board.name(c.stones[0]): c.share for c in dead.uncertain}
    assert shares == {"B5": 0.645, "C5": 0.458, "C4": 0.62, "D4": 0.568, "C3": 0.579}
    assert dead.names(board) == ["C5"]
    assert dead.uncertain_names(board) == ["B5 counted alive", "C5 counted dead",
                                           "C4 counted alive", "D4 counted alive",
                                           "C3 counted alive"]
    assert "uncertain: W C5 (1 stone, own in 46% of playouts): counted dead, as most playouts " \
           "left it" in dead.notes
    # C5 back alive is one of the ways the count's band spans.
    ways = {how: sorted(board.name(p) for p in stones)
            for how, stones in other_ways(board, dead)}
    assert ways["W C5 alive"] == [] and ways["W D4 dead"] == ["C3", "C5", "D4"]
