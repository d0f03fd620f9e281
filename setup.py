"""Build hook (the project's metadata is in pyproject.toml): a wheel carries, besides the Python
packages, the files a table needs at run time, copied into ``firmware_host/shipped/<name>/``. The table
is ``firmware_host.resources.SHIPPED``, the one the program looks them up in. An editable install reads
them in the checkout instead, so nothing is copied there."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# The one table of shipped files, run from its file by path rather than imported: a build does not promise
# the checkout is on sys.path (resources.py imports only the standard library).
SHIPPED: dict[str, tuple[str, tuple[str, ...]]] = runpy.run_path(
    str(Path(__file__).resolve().parent / "firmware_host" / "resources.py"))["SHIPPED"]


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
