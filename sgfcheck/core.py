"""Which core runs the hot loops: the compiled one (``sgfcheck._core``, built from ``_core.c``
when the package was installed on a machine with a C compiler) or the pure-Python reference.

The pure-Python modules (:mod:`sgfcheck.replay.replay`, :mod:`sgfcheck.position.analysis`,
:mod:`sgfcheck.judge.benson`, :mod:`sgfcheck.judge.playout`) are the reference and the fallback;
the compiled core gives the same answers to the last bit (tests/test_core.py holds them to it).
Setting ``SGFCHECK_PURE=1`` in the environment forces the pure core.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TypeVar

FORCED_PURE = os.environ.get("SGFCHECK_PURE", "").strip() not in ("", "0")

compiled: ModuleType | None
_why = ""
if FORCED_PURE:
    compiled = None
    _why = "SGFCHECK_PURE is set"
else:
    try:
        compiled = importlib.import_module("sgfcheck._core")
    except ImportError as exc:  # built without a C compiler, or a broken build
        compiled = None
        _why = f"the compiled core is not built here ({exc})"


def name() -> str:
    """``compiled`` or ``pure``."""
    return "compiled" if compiled is not None else "pure"


def describe() -> str:
    """One line saying which core runs and, for the pure one, why."""
    if compiled is not None:
        return "core: compiled, C extension sgfcheck._core"
    return f"core: pure Python, {_why}"


def fallback_note() -> str | None:
    """What to tell a user once when the compiled core is missing without being asked for."""
    if compiled is not None or FORCED_PURE:
        return None
    return (f"sgfcheck: {_why}; running the pure-Python core (same results, slower). Reinstall "
            "with a C compiler (gcc and the Python headers) to build it.")


Structure = TypeVar("Structure", bound=type)


def contract(cls: Structure) -> Structure:
    """Mark a NamedTuple as a structure the two cores exchange: the compiled core checks, when
    the class is defined, that its fields are exactly the ones it reads and builds, in the same
    order (a field renamed or moved on either side stops the import with the difference instead
    of shifting values)."""
    if compiled is not None:
        compiled.set_contract(cls.__name__, cls)
    return cls
