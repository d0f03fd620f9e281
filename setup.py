"""Build hook (the project's metadata is in pyproject.toml): a wheel carries, besides the Python
packages, the files a table needs at run time, copied into ``firmware_host/shipped/<name>/``. The table
is ``firmware_host.resources.SHIPPED`` (a test checks the two agree). An editable install reads them in
the checkout instead, so nothing is copied there."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED: dict[str, tuple[str, tuple[str, ...]]] = {
    "firmware": ("hardware/shoe/firmware", ("*.py", "shoefw/*.py")),
    "examples": ("tests/data", ("*.jsonl",)),
    "config": ("config", ("table.toml", "mosquitto.conf", "mosquitto.acl")),
    "systemd": ("hardware/systemd", ("cardtable.service",)),
    "udev": ("hardware/udev", ("99-cardtable-shoe.rules",)),
    "docs": ("hardware", ("SETUP.md", "WIRING.md", "BOM.md")),
}


class BuildWithShipped(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        out = Path(self.build_lib) / "firmware_host" / "shipped"
        for name, (folder, patterns) in SHIPPED.items():
            for pattern in patterns:
                found = sorted((here / folder).glob(pattern))
                if not found:
                    raise SystemExit(f"setup.py: nothing matches {folder}/{pattern} (SHIPPED[{name!r}])")
                for src in found:
                    dest = out / name / src.relative_to(here / folder)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dest)


setup(cmdclass={"build_py": BuildWithShipped})
