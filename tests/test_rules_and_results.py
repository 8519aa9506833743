"""Rulesets, RU spellings, KataGo strings, RE spellings."""

from __future__ import annotations

import pytest

from sgfcheck.records.context import Origin
from sgfcheck.records.results import parse_result
from sgfcheck.rules.presets import PRESETS
from sgfcheck.rules.ruleset import HandicapBonus, KoRule, Scoring, SuicideRule, Tax
from sgfcheck.rules.spellings import parse_rules_string, rules_from_ru
from sgfcheck.settings import Settings


@pytest.mark.parametrize(
    ("ru", "name"),
    [
        ("Japanese", "japanese"), ("japanese", "japanese"), ("Japanese Rules", "japanese"),
        ("Chinese", "chinese"), ("Chinese, Pair Go", "chinese"), ("cn", "chinese"),
        ("AGA", "aga"), ("NZ", "new-zealand"), ("New Zealand", "new-zealand"),
        ("GOE", "ing"), ("Ing Goe", "ing"), ("Tromp/Taylor", "tromp-taylor"),
        ("Korean", "korean"), ("BGA", "bga"), ("Old Chinese", "stone-scoring"),
    ],
)
def test_ru_spellings(ru: str, name: str) -> None:
    ruleset, detail = rules_from_ru(ru)
    assert ruleset is not None and ruleset.name == name
    assert detail.startswith(f"RU[{ru}] -> {name}")


def test_katago_legacy_string() -> None:
    ruleset, _ = rules_from_ru("koPOSITIONALscoreAREAtaxNONEsui1")
    assert ruleset is not None
    assert (ruleset.ko, ruleset.scoring, ruleset.tax, ruleset.suicide) == (
        KoRule.POSITIONAL, Scoring.AREA, Tax.NONE, SuicideRule.MULTI_STONE)
    aga, _ = rules_from_ru("koSITUATIONALscoreAREAtaxNONEsui0whbN-1fpok1")
    assert aga is not None and aga.handicap_bonus is HandicapBonus.N_MINUS_ONE
    assert aga.suicide is SuicideRule.FORBIDDEN


def test_katago_json() -> None:
    ruleset, _ = rules_from_ru('{"ko":"SITUATIONAL","scoring":"TERRITORY","suicide":false,'
                               '"komi":6.5}')
    assert ruleset is not None
    assert (ruleset.ko, ruleset.scoring, ruleset.tax, ruleset.komi) == (
        KoRule.SITUATIONAL, Scoring.TERRITORY, Tax.SEKI, 6.5)


def test_unknown_ru() -> None:
    assert rules_from_ru("Klingon")[0] is None


def test_canonical_string_round_trips() -> None:
    for ruleset in PRESETS.values():
        assert parse_rules_string(ruleset.to_string()) == ruleset


def test_preset_with_overrides() -> None:
    r = parse_rules_string("japanese:komi=0.5,ko=positional")
    assert (r.name, r.komi, r.ko) == ("japanese", 0.5, KoRule.POSITIONAL)
    with pytest.raises(ValueError):
        parse_rules_string("japanese:colour=blue")
    with pytest.raises(ValueError):
        parse_rules_string("martian")


def test_preset_values_from_rules_md() -> None:
    assert PRESETS["aga"].handicap_bonus.points(9) == 8
    assert PRESETS["chinese"].handicap_bonus.points(9) == 9
    assert PRESETS["chinese"].handicap_bonus.points(1) == 0
    assert PRESETS["new-zealand"].komi == 7.0
    assert PRESETS["ing"].komi == 8.0 and PRESETS["ing"].black_wins_ties
    assert PRESETS["wmsg"].white_first_pass_bonus == 1.0
    assert PRESETS["bga"].ko is KoRule.NATURAL_SITUATIONAL
    assert PRESETS["stone-scoring"].tax is Tax.ALL
    for ruleset in PRESETS.values():
        assert ruleset.source


@pytest.mark.parametrize(
    ("raw", "winner", "margin", "kind"),
    [
        ("B+3.5", "B", 3.5, "score"), ("W+3.50", "W", 3.5, "score"), ("B+R", "B", None, "resign"),
        ("B+Resign", "B", None, "resign"), ("W+T", "W", None, "time"),
        ("W+Time", "W", None, "time"), ("B+F", "B", None, "forfeit"), ("0", None, 0.0, "draw"),
        ("Draw", None, 0.0, "draw"), ("Jigo", None, 0.0, "draw"), ("Void", None, None, "void"),
        ("?", None, None, "unknown"), ("W+0.0", "W", None, "win"), ("B+0.0", "B", None, "win"),
        ("W+2.25", "W", 4.5, "score"), ("B+", "B", None, "win"), ("W", "W", None, "win"),
        ("白胜43.5目", "W", 43.5, "score"), ("黑中盘胜", "B", None, "resign"),
        ("黑胜2又3/4子", "B", 5.5, "score"), ("257手完, 黒中押し勝ち", "B", None, "resign"),
        ("黒3目半勝ち", "B", 3.5, "score"), ("White resigns.", "B", None, "resign"),
        ("Black resigns. W 25.5 B 17.0", "W", None, "resign"),
        ("has adjourned.", None, None, "void"),
    ],
)
def test_result_spellings(raw: str, winner: str | None, margin: float | None, kind: str) -> None:
    r = parse_result(raw)
    assert (r.winner.letter if r.winner else None, r.margin, r.kind) == (winner, margin, kind)


@pytest.mark.parametrize(("raw", "as_counted"), [
    ("B+3.5", True), ("W+12", True), ("W+2.25", False), ("黑胜2又3/4子", False), ("黑胜3子", False),
    ("W+3.2", False), ("White wins by 0.75", False),
])
def test_a_margin_read_from_zi_or_not_in_half_points_is_not_a_count_as_written(
        raw: str, as_counted: bool) -> None:
    assert parse_result(raw).margin_as_counted is as_counted


def test_unreadable_result() -> None:
    assert parse_result("john wins").parsed is False


def test_explicit_parameters_are_those_the_string_sets() -> None:
    from sgfcheck.rules.spellings import explicit_parameters

    assert explicit_parameters("japanese:komi=0.5,ko=positional") == {"komi", "ko"}
    assert explicit_parameters("japanese") == frozenset()
    assert explicit_parameters("koPOSITIONALscoreAREAtaxNONEsui1komi7") == frozenset()


def test_a_komi_in_the_rules_string_wins_over_km() -> None:
    from sgfcheck.replay.check import check_bytes

    data = b"(;GM[1]SZ[9]KM[6.5]RU[Japanese];B[ee])"
    (game,) = check_bytes(data, settings=Settings(rules="japanese:komi=0.5")).games
    assert game.context is not None
    assert (game.context.komi, game.context.komi_origin, game.context.komi_detail) == (
        0.5, Origin.USER, "--rules")
    (game,) = check_bytes(data, settings=Settings(rules="japanese:ko=positional")).games
    assert game.context is not None and (game.context.komi, game.context.komi_origin) == (
        6.5, Origin.RECORD)
