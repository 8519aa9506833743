

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
