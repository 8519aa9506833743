"""Replay: a game's moves on a board under its ruleset, every illegal move a finding (the
library behind ``sgfcheck check``)."""
