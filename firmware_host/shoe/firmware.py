"""Loads the reference shoe firmware (``hardware/shoe/firmware/shoefw``) so that CPython runs the very
code the RP2040 runs. The firmware is flat MicroPython modules, not part of the installed package, so
its folder is put on ``sys.path`` once (appended: it can shadow nothing of ours)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "hardware" / "shoe" / "firmware"


def load_firmware() -> tuple[ModuleType, ModuleType]:
    """The firmware's ``shoefw.shoe`` and ``shoefw.wire`` modules.

    Raises:
        FileNotFoundError: naming the folder when the firmware is not next to this package (an install
            without the source tree).
    """
    if not (FIRMWARE_DIR / "shoefw" / "shoe.py").is_file():
        raise FileNotFoundError(f"shoe firmware not found in {FIRMWARE_DIR} (run from a source checkout)")
    path = str(FIRMWARE_DIR)
    if path not in sys.path:
        sys.path.append(path)
    return importlib.import_module("shoefw.shoe"), importlib.import_module("shoefw.wire")
