"""Engines sgfcheck can ask about dead stones: what is installed, and installing KataGo.

``sgfcheck engines install katago`` fetches the ``katrain`` wheel from PyPI (KaTrain is MIT
licensed; it bundles KataGo 1.18.1, whose code is under KataGo's MIT-style licence, as an
AppImage, and the ``b10c384h6nbttflrs`` network), unpacks the AppImage without FUSE, and writes an
analysis config that loads a shipped OpenCL tuning file (KataGo's own first-run tuning crashed on
pocl 3.1). On a CPU, KataGo's OpenCL build needs an OpenCL driver: Debian's
``ocl-icd-libopencl1`` and ``pocl-opencl-icd``.
"""

from __future__ import annotations

import ctypes.util
import functools
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from sgfcheck.colour import BLACK
from sgfcheck.judge.interface import EngineStatus
from sgfcheck.judge.katago import NAME, KataGo, KataGoError, find_katago, installed_setup
from sgfcheck.replay.board import Board

KATRAIN = "katrain==1.20.0"
WHEEL_BINARY = "katrain/KataGo/katago"
WHEEL_MODEL = "katrain/models/b10c384h6nbttflrs.bin.gz"
OPENCL_HELP = "apt-get install ocl-icd-libopencl1 pocl-opencl-icd (Debian), or a GPU's driver"


@functools.cache
def opencl_present() -> bool:
    """An OpenCL loader and at least one driver (ICD) are installed (looked up once a process:
    ``find_library`` runs ``ldconfig``, and ``--engine auto`` asks before each second opinion)."""
    vendors = Path("/etc/OpenCL/vendors")
    has_icd = vendors.is_dir() and any(vendors.iterdir())
    return ctypes.util.find_library("OpenCL") is not None and has_icd


def analysis_config(folder: Path, tuning: Path) -> str:
    return (f"logDir = {folder / 'logs'}\nlogToStderr = false\n"
            "reportAnalysisWinratesAs = BLACK\nnumAnalysisThreads = 1\nnumSearchThreads = 2\n"
            "nnMaxBatchSize = 8\nnnCacheSizePowerOfTwo = 18\nnnRandomize = false\n"
            f"openclTunerFile = {tuning}\n")


def install_katago(log: Callable[[str], None] = print) -> Path:
    """Fetch and unpack KataGo and its network into the per-user data folder; raises
    KataGoError with what went wrong. Returns the folder."""
    folder = installed_setup().config.parent
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sgfcheck-") as tmp:
        log(f"downloading {KATRAIN} from PyPI (about 106 MB)...")
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                               KATRAIN, "-d", tmp], capture_output=True, text=True, check=False)
        wheels = list(Path(tmp).glob("katrain-*.whl"))
        if done.returncode != 0 or not wheels:
            raise KataGoError(f"pip download {KATRAIN} failed: "
                              f"{(done.stderr or done.stdout).strip()[-300:]}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member, target in ((WHEEL_BINARY, folder / "katago"),
                                   (WHEEL_MODEL, folder / Path(WHEEL_MODEL).name)):
                with wheel.open(member) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
    binary = folder / "katago"
    binary.chmod(0o755)
    shutil.rmtree(folder / "squashfs-root", ignore_errors=True)
    log("unpacking the KataGo AppImage...")
    done = subprocess.run([str(binary), "--appimage-extract"], cwd=folder, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0 or not installed_setup().binary.exists():
        raise KataGoError(f"unpacking {binary} failed: {done.stderr.strip()[-300:]}")
    tuning = folder / "opencl-tune.txt"
    tuning.write_text(resources.files("sgfcheck").joinpath("data/katago-opencl-tune.txt")
                      .read_text(encoding="utf-8"), encoding="utf-8")
    installed_setup().config.write_text(analysis_config(folder, tuning), encoding="utf-8")
    log(f"KataGo installed in {folder}")
    return folder


def katago_usable() -> bool:
    """KataGo is installed (or configured) and an OpenCL driver is there for it: what
    ``--engine auto`` needs before it asks (a failure after that is a note, not a finding)."""
    return find_katago() is not None and opencl_present()


def katago_status(start: bool = True) -> EngineStatus:
    """KataGo: found, with its OpenCL driver, and (``start``) whether it answers a query."""
    name = NAME
    setup = find_katago()
    if setup is None:
        return EngineStatus(name, False, "not installed (sgfcheck engines install katago, or "
                            "SGFCHECK_KATAGO/_MODEL/_CONFIG)")
    where = f"{setup.binary}, model {setup.model}, config {setup.config}"
    if not opencl_present():
        return EngineStatus(name, False, f"{where}; no OpenCL driver: {OPENCL_HELP}")
    if not start:
        return EngineStatus(name, True, f"{where}; found (not started)")
    try:
        engine = KataGo(setup)
        try:
            engine.ownership(Board(9, 9), BLACK, 7.0, territory=False)
        finally:
            engine.close()
    except KataGoError as exc:
        return EngineStatus(name, False, f"{where}; {exc}")
    return EngineStatus(name, True, f"{where}; answered a query")
