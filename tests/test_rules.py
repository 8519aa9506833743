

def test_a_rulesets_hash_is_worked_out_once_and_never_travels_with_a_pickle() -> None:
    import pickle
    from dataclasses import replace

    from sgfcheck.rules.presets import PRESETS

    japanese = PRESETS["japanese"]
    same = replace(japanese)  # another value, equal field for field
    assert same is not japanese and same == japanese and hash(same) == hash(japanese)
    assert hash(replace(japanese, komi=0.5)) != hash(japanese)  # komi 6.5 vs 0.5
    copied = pickle.loads(pickle.dumps(japanese))
    assert "_hash" in japanese.__dict__ and "_hash" not in copied.__dict__
    assert copied == japanese and {japanese: "row"}[copied] == "row"


def test_a_game_with_km_minus_zero_keeps_its_sign_beside_one_with_km_zero() -> None:
    """A game's ruleset is one value per rules and komi; -0.0 and 0.0 are equal numbers, and
    the value kept for one is not handed to the other."""
    import math

    from sgfcheck.records.context import resolve
    from sgfcheck.records.record import load_bytes
    from sgfcheck.records.results import parse_result
    from sgfcheck.settings import Settings

    def komi_of(km: str) -> float:
        (game,) = load_bytes(f"(;GM[1]SZ[9]RU[Japanese]KM[{km}];B[ee])".encode()).games
        context, _ = resolve(game, Settings(), parse_result(game.result_raw))
        return context.ruleset.komi

    zero, minus = komi_of("0"), komi_of("-0")
    assert zero == minus == 0.0
    assert math.copysign(1, zero) == 1.0 and math.copysign(1, minus) == -1.0
    assert komi_of("6.5") == 6.5
