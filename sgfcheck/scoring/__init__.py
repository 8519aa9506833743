"""Scoring: one way through a file, its games judged, counted and weighed in order (the library
behind ``sgfcheck score`` and ``sgfcheck life``), a game's judgement as one value, and every
chain's life."""
