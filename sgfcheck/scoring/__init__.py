"""Scoring: one way through a file, its games judged, counted and weighed in order (the library
behind ``sgfcheck score`` and ``sgfcheck life``), a game's judgement as one value, a second
opinion (the same stages passed again on an engine's judgement), and every chain's life."""
