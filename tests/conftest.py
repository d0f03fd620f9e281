"""Suite-wide settings.

Hypothesis's per-example deadline measures wall-clock time; on a shared two-core machine (and in CI) a
single example can take longer than 200 ms for reasons that have nothing to do with the code, and the
test then fails as "flaky". Speed is measured by ``cardtable bench``, never by tests, so the deadline is
off for the whole suite.

lgpio makes its notification pipes when it is imported, in ``$LG_WD`` or else the working folder
(joan2937/lg #22): the contract tests run as the ``cardtable`` user from the root-owned source checkout
(hardware/SETUP.md, step 6), where it cannot write. So the suite points LG_WD at a folder of its own
before anything imports lgpio (one set already, the unit's or the user's, is kept).
"""

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")

if "LG_WD" not in os.environ:   # lgpio's working folder, removed when the process that made it ends
    os.environ["LG_WD"] = tempfile.mkdtemp(prefix="cardtable-lg-")
    atexit.register(shutil.rmtree, os.environ["LG_WD"], True)


# The watchdog that turns a hung test into a named failure (tests/watchdog.py).
from tests.watchdog import (  # noqa: E402,F401
    pytest_configure,
    pytest_runtest_protocol,
    pytest_terminal_summary,
    pytest_unconfigure,
)
