"""Which core runs the hot loops: the compiled one (``sgfcheck._core``, built from ``_core.c``
when the package was installed on a machine with a C compiler) or the pure-Python reference.

The pure-Python modules (:mod:`sgfcheck.replay.replay`, :mod:`sgfcheck.position.analysis`,
:mod:`sgfcheck.judge.benson`, :mod:`sgfcheck.judge.playout`) are the reference and the fallback;
the compiled core gives the same answers to the last bit (tests/test_core.py holds them to it).
Setting ``SGFCHECK_PURE=1`` in the environment forces the pure core. Every hot loop is one
:func:`door` with its two implementations: no other module asks which core it has.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from types import ModuleType
from typing import Concatenate, ParamSpec, TypeVar

FORCED_PURE = os.environ.get("SGFCHECK_PURE", "").strip() not in ("", "0")

BUILT: ModuleType | None
"""The compiled core as built here (None where it is not built, or ``SGFCHECK_PURE`` is set).
Its own tests call it straight; the program goes through :func:`door`."""
_why = ""
if FORCED_PURE:
    BUILT = None
    _why = "SGFCHECK_PURE is set"
else:
    try:
        BUILT = importlib.import_module("sgfcheck._core")
    except ImportError as exc:  # built without a C compiler, or a broken build
        BUILT = None
        _why = f"the compiled core is not built here ({exc})"

_chosen: ModuleType | None = BUILT
"""The core every door opens onto now: :data:`BUILT`, or None for the pure one (see
:func:`using`)."""


def name() -> str:
    """``compiled`` or ``pure``: the core the doors open onto now."""
    return "compiled" if _chosen is not None else "pure"


def describe() -> str:
    """One line saying which core runs and, for the pure one, why."""
    if _chosen is not None:
        return "core: compiled, C extension sgfcheck._core"
    return f"core: pure Python, {_why or 'chosen for a comparison'}"


def fallback_note() -> str | None:
    """What to tell a user once when the compiled core is missing without being asked for."""
    if BUILT is not None or FORCED_PURE:
        return None
    return (f"sgfcheck: {_why}; running the pure-Python core (same results, slower). Reinstall "
            "with a C compiler (gcc and the Python headers) to build it.")


@contextmanager
def using(which: str) -> Iterator[None]:
    """Open every door onto one core for a while (``pure``, or ``compiled`` where it is built):
    how the tests and benches hold the two against each other."""
    global _chosen
    if which not in ("compiled", "pure"):
        raise ValueError(f"no core named {which!r}: compiled or pure")
    if which == "compiled" and BUILT is None:
        raise RuntimeError(describe())
    before = _chosen
    _chosen = BUILT if which == "compiled" else None
    try:
        yield
    finally:
        _chosen = before


Params = ParamSpec("Params")
Result = TypeVar("Result")


def door(compiled: Callable[Concatenate[ModuleType, Params], Result],
         pure: Callable[Params, Result]) -> Callable[Params, Result]:
    """One hot loop with its two implementations: called as ``pure`` is, it runs ``compiled``
    (given the compiled core first) where the core is built and chosen, else ``pure``, the
    reference. The only place the program asks which core it has."""
    @wraps(pure)
    def either(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        fast = _chosen
        if fast is None:
            return pure(*args, **kwargs)
        return compiled(fast, *args, **kwargs)
    return either


def prepare(setup: Callable[[ModuleType], None]) -> None:
    """Hand the compiled core what it keeps (tables built in Python), where it is built."""
    if BUILT is not None:
        setup(BUILT)


Structure = TypeVar("Structure", bound=type)


def contract(cls: Structure) -> Structure:
    """Mark a NamedTuple as a structure the two cores exchange: the compiled core checks, when
    the class is defined, that its fields are exactly the ones it reads and builds, in the same
    order (a field renamed or moved on either side stops the import with the difference instead
    of shifting values)."""
    if BUILT is not None:
        BUILT.set_contract(cls.__name__, cls)
    return cls
