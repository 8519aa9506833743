"""MkDocs hook: the manual builds from the virtual environment's ``mkdocs`` without activating
it. mkdocs-typer2 runs the ``typer`` command from PATH to make the option reference; this puts
the environment's own scripts (where ``mkdocs`` runs from) first on PATH."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def on_startup(**_: Any) -> None:
    scripts = str(Path(sys.executable).parent)
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")
