"""The board against sgfmill's on random games, and the incremental hash against a full rehash."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from sgfcheck.replay.board import BLACK, WHITE, ZOBRIST_BLACK, ZOBRIST_WHITE, Board


def full_hash(board: Board) -> int:
    h = 0
    for p, c in enumerate(board.colour):
        if c == BLACK:
            h ^= ZOBRIST_BLACK[p]
        elif c == WHITE:
            h ^= ZOBRIST_WHITE[p]
    return h


@settings(max_examples=200, deadline=None)
@given(size=st.integers(2, 9), moves=st.lists(st.integers(0, 80), min_size=1, max_size=200))
def test_same_position_as_sgfmill_and_hash_is_incremental(size: int, moves: list[int]) -> None:
    ours = Board(size, size)
    theirs = boards.Board(size)
    colour = BLACK
    for m in moves:
        p = m % (size * size)
        col, row = p % size, p // size
        if ours.colour[p]:
            continue
        ours.play(p, colour)
        # sgfmill rows count from the bottom.
        theirs.play(size - 1 - row, col, "b" if colour == BLACK else "w")
        colour = WHITE if colour == BLACK else BLACK
        for r in range(size):
            for c in range(size):
                mine = {0: None, 1: "b", 2: "w"}[ours.colour[r * size + c]]
                assert mine == theirs.get(size - 1 - r, c)
        assert ours.hash == full_hash(ours)
        for chain in ours.chains():
            libs = {n for s in chain.stones for n in ours.neighbours[s] if ours.colour[n] == 0}
            assert chain.liberties == libs
