"""Rules of Go as parameters: the :class:`~sgfcheck.rules.ruleset.Ruleset` record, its named
presets, and how ``RU`` values and rule strings map onto them."""
