"""The documented Python API: the examples in sgfcheck's docstring run as they are written."""

from __future__ import annotations

import doctest
import os

from conftest import ROOT

import sgfcheck


def test_the_api_examples_run() -> None:
    here = os.getcwd()
    os.chdir(ROOT)  # the examples read fixtures/ as a user in the checkout would
    try:
        result = doctest.testmod(sgfcheck, optionflags=doctest.ELLIPSIS)
    finally:
        os.chdir(here)
    assert result.attempted >= 7 and result.failed == 0


def test_the_api_names_what_it_exports() -> None:
    for name in sgfcheck.__all__:
        assert getattr(sgfcheck, name) is not None
    # Names kept for a version never released are gone.
    for gone in ("judge_dead_stones", "CheckOptions", "ScoreOptions"):
        assert not hasattr(sgfcheck, gone)
