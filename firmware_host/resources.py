"""Files the program needs besides its Python modules: the shoe firmware the virtual shoe runs, the
example event logs, the configuration template, the systemd unit and the udev rule; and the program's own
path, for every command line it prints (``this_program``).

In a source checkout (and an editable install) they are read where they live in the repository. A wheel
carries a copy of each under ``firmware_host/shipped/`` (``setup.py`` copies them at build time, running
this file for ``SHIPPED``: keep its imports to the standard library), so an installed program finds them
with no checkout around.
"""

from __future__ import annotations

import sys
from pathlib import Path

# name -> (folder in the repository, file patterns shipped). setup.py reads this same table to copy them.
SHIPPED: dict[str, tuple[str, tuple[str, ...]]] = {
    "firmware": ("hardware/shoe/firmware", ("*.py", "shoefw/*.py")),
    "examples": ("tests/data", ("*.jsonl",)),
    "config": ("config", ("table.toml", "mosquitto.conf", "mosquitto.acl", "club.env")),
    "systemd": ("hardware/systemd", ("cardtable.service", "cardtable-*.service")),
    "udev": ("hardware/udev", ("99-cardtable-shoe.rules",)),
    "docs": ("hardware", ("SETUP.md", "WIRING.md", "BOM.md")),
}
PACKAGED = Path(__file__).resolve().parent / "shipped"
SOURCE = Path(__file__).resolve().parents[1]


def resource_dir(name: str) -> Path:
    """The folder holding the shipped files called ``name`` (a key of ``SHIPPED``).

    Raises:
        KeyError: ``name`` is not one of ``SHIPPED``.
        FileNotFoundError: naming both places looked in, when neither holds the files.
    """
    folder, patterns = SHIPPED[name]
    for base in (PACKAGED / name, SOURCE / folder):
        if any(next(base.glob(p), None) for p in patterns):
            return base
    raise FileNotFoundError(f"the {name} files are neither in {PACKAGED / name} (an installed wheel) nor "
                            f"in {SOURCE / folder} (a source checkout): reinstall cardtable")


def resource(name: str, filename: str) -> Path:
    """One shipped file, e.g. ``resource("config", "table.toml")``."""
    path = resource_dir(name) / filename
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: reinstall cardtable")
    return path


def this_program() -> Path:
    """The ``cardtable`` script next to the running interpreter (the venv's ``bin``).

    Every command line the program prints for a person to copy names it by this path: hardware/SETUP.md
    installs it as /opt/cardtable/venv/bin/cardtable, which is not on the admin's PATH, so a bare
    ``cardtable`` copied from a message was "command not found".
    """
    return Path(sys.executable).parent / "cardtable"
