"""Scoring: the final position analysed, counted under each ruleset, the counts compared, and
the recorded result checked (the library behind ``sgfcheck score`` and ``sgfcheck life``)."""
