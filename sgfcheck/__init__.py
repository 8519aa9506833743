"""sgfcheck: replay Go game records under any ruleset, report illegal moves, compare scores."""

__version__ = "0.1.0"
