"""The named rulesets: nothing but values of :class:`~sgfcheck.rules.ruleset.Ruleset`, each
citing its source (the manual's rulesets page compares them)."""

from __future__ import annotations

from sgfcheck.rules.ruleset import (
    HandicapBonus,
    KoRule,
    LongCycle,
    Ruleset,
    Scoring,
    SuicideRule,
    Tax,
)

TROMP_TAYLOR = Ruleset(
    "tromp-taylor", ko=KoRule.POSITIONAL, suicide=SuicideRule.ALLOWED, scoring=Scoring.AREA,
    komi=7.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.NONE, play_may_resume=False,
    source="Tromp-Taylor rules (tromp.github.io/go.html): PSK, suicide allowed, area counting of "
    "everything on the board; komi not fixed by the rules, 7.5 as in KataGo.",
)
CHINESE = Ruleset(
    "chinese", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=7.5,
    handicap_bonus=HandicapBonus.N, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    long_cycle=LongCycle.VOID,
    source="Chinese rules 2002 as practised (KataGo `chinese`): simple ko with long cycles voided "
    "by the referee (Art. 20), suicide forbidden, area counting, komi 7.5 (3.75 zi), White +N "
    "for N handicap stones.",
)
JAPANESE = Ruleset(
    "japanese", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.TERRITORY,
    komi=6.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.SEKI, long_cycle=LongCycle.NO_RESULT, bent_four_dead=True,
    source="Japanese rules 1989: simple ko (Art. 6), long cycle = no result (Art. 12), suicide "
    "forbidden (Art. 4), territory + prisoners, no territory in seki (Art. 8), komi 6.5, bent "
    "four in the corner dead without play (Art. 7 commentary).",
)
KOREAN = Ruleset(
    "korean", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.TERRITORY, komi=6.5,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.SEKI,
    long_cycle=LongCycle.DRAW,
    source="Korean (KBA 2016): as Japanese, but a repetition ends the game as a draw.",
)
AGA = Ruleset(
    "aga", ko=KoRule.SITUATIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=7.5,
    handicap_bonus=HandicapBonus.N_MINUS_ONE, pass_stones=True, white_passes_last=True,
    tax=Tax.NONE,
    source="AGA concise rules (1991, current summary): SSK, self-capture illegal, area counting "
    "or territory with pass stones (equal by design), White passes last, komi 7.5 (0.5 in "
    "handicap games), White +N-1 under area counting.",
)
BGA = Ruleset(
    "bga", ko=KoRule.NATURAL_SITUATIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA,
    komi=7.5, handicap_bonus=HandicapBonus.N_MINUS_ONE, pass_stones=True, white_passes_last=True,
    tax=Tax.NONE,
    source="BGA rules (britgo.org interpretation of AGA Rule 6): NSSK, otherwise as AGA.",
)
ING = Ruleset(
    "ing", ko=KoRule.POSITIONAL, suicide=SuicideRule.MULTI_STONE, scoring=Scoring.AREA, komi=8.0,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    black_wins_ties=True, komi_fixed=True,
    source="Ing SST laws 1991 / GOE 1996: multi-stone suicide legal, single-stone not; area "
    "(fill-in) counting; komi 8 with Black winning ties; no handicap compensation in the "
    "official texts. Ing's fighting/disturbing ko rule is approximated by PSK, as KataGo does.",
)
NEW_ZEALAND = Ruleset(
    "new-zealand", ko=KoRule.SITUATIONAL, suicide=SuicideRule.ALLOWED, scoring=Scoring.AREA,
    komi=7.0, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.NONE,
    source="New Zealand rules: SSK counting positions after passes, suicide allowed, area "
    "counting, integer komi 7 (jigo possible), no handicap compensation.",
)
WMSG = Ruleset(
    "wmsg", ko=KoRule.POSITIONAL, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.AREA, komi=6.5,
    handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False, tax=Tax.NONE,
    white_first_pass_bonus=1.0,
    source="World Mind Sports Games 2008 (IGF): PSK, suicide forbidden, area counting, komi 6.5 "
    "plus 1 point to White if White passed first. Handicap not covered (even games): 0 assumed.",
)
STONE_SCORING = Ruleset(
    "stone-scoring", ko=KoRule.SIMPLE, suicide=SuicideRule.FORBIDDEN, scoring=Scoring.STONE,
    komi=7.5, handicap_bonus=HandicapBonus.ZERO, pass_stones=False, white_passes_last=False,
    tax=Tax.ALL, long_cycle=LongCycle.NO_RESULT, play_may_resume=False,
    source="Ancient stone scoring (KataGo `stone-scoring`): only stones on the board count, so "
    "every living group pays 2 points for its eyes; simple ko; komi 7.5.",
)

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        TROMP_TAYLOR, CHINESE, JAPANESE, KOREAN, AGA, BGA, ING, NEW_ZEALAND, WMSG, STONE_SCORING
    )
}
