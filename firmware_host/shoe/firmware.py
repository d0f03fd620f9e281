"""Loads the reference shoe firmware (``hardware/shoe/firmware/shoefw``) so that CPython runs the very
code the RP2040 runs. The firmware is flat MicroPython modules, not a package of ours, so its folder is
put on ``sys.path`` once (appended: it can shadow nothing of ours). An installed wheel carries a copy of
the folder (``firmware_host.resources``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from firmware_host.resources import SHIPPED, SOURCE, resource_dir


def _firmware_dir() -> Path:
    try:
        return resource_dir("firmware")
    except FileNotFoundError:
        return SOURCE / SHIPPED["firmware"][0]


FIRMWARE_DIR = _firmware_dir()


def load_firmware() -> tuple[ModuleType, ModuleType]:
    """The firmware's ``shoefw.shoe`` and ``shoefw.wire`` modules.

    Raises:
        FileNotFoundError: naming the folder when the firmware is missing (a broken install).
    """
    if not (FIRMWARE_DIR / "shoefw" / "shoe.py").is_file():
        raise FileNotFoundError(f"shoe firmware not found in {FIRMWARE_DIR} (reinstall cardtable)")
    path = str(FIRMWARE_DIR)
    if path not in sys.path:
        sys.path.append(path)
    return importlib.import_module("shoefw.shoe"), importlib.import_module("shoefw.wire")
