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
import contextlib
import os
import shutil
import signal
import tempfile
import time
import warnings

import pytest
from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")

if "LG_WD" not in os.environ:   # lgpio's working folder, removed when the process that made it ends
    os.environ["LG_WD"] = tempfile.mkdtemp(prefix="cardtable-lg-")
    atexit.register(shutil.rmtree, os.environ["LG_WD"], True)


from tests.procs import running_with  # noqa: E402

# The watchdog that turns a hung test into a named failure (tests/watchdog.py).
from tests.watchdog import (  # noqa: E402,F401
    pytest_configure,
    pytest_runtest_protocol,
    pytest_terminal_summary,
    pytest_unconfigure,
)

# The files whose tests take longest in a whole run (`--durations`, and each file's sum from a run's junit
# XML: 40-140 s of test time each). xdist gives a worker a file at a time; by default it orders the files
# by how many tests they hold, which sends these (few tests, long ones) last, and the run then ends waiting
# on one or two of them. The Makefile passes `--no-loadscope-reorder` (the collection's order is kept) and
# this hook puts these first, the longest first; every other file keeps its place. tests/test_suite_order.py
# checks each still exists.
SLOW_FIRST = (
    "tests/vision/test_vision_bench.py",
    "tests/soak/test_soak_run.py",
    "tests/bench/test_duplicate_bench.py",
    "tests/laws/test_fuzz_engine.py",
    "tests/club/test_duplicate_phones.py",
    "tests/soak/test_dup_session_faults.py",
    "tests/club/test_bridge_answers_browser.py",
    "tests/euchre_night/test_director_server.py",
    "tests/install/test_aarch64.py",
    "tests/duplicate/test_results_print.py",
    "tests/table/test_fuzz_restore.py",
    "tests/vision/test_vision_labels.py",
    "tests/soak/test_dup_judge.py",
    "tests/table/test_demo_e2e.py",
    "tests/laws/test_movement.py",
    "tests/duplicate/test_demo.py",
    "tests/duplicate/test_analysis.py",
    "tests/vision/test_labels_vector.py",
    "tests/install/test_wheel.py",
    "tests/install/test_hardware_step.py",
    "tests/club/test_director_screen.py",
    "tests/club/test_duplicate_browser.py",
)


def pytest_collection_modifyitems(config: object, items: list) -> None:  # type: ignore[type-arg]
    rank = {path: k for k, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: others keep order


@pytest.fixture(autouse=True)
def _nothing_outlives_its_test(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """A process a test started in its own folder (``tmp_path``) and left running is killed when the test
    ends, and named in a warning. A ``cardtable run`` left so once kept reconnecting through a dead virtual
    shoe's link to whichever later test's shoe took the same pseudo-terminal number, and 14 tests of other
    files failed on the bytes it stole (tests/soak/test_soak_sigterm.py)."""
    if "tmp_path" not in request.fixturenames or not os.path.isdir("/proc"):
        yield
        return
    folder = str(request.getfixturevalue("tmp_path"))
    yield
    left = running_with(folder)
    if not left:
        return
    time.sleep(1.0)  # one still on its way out (stopped by the test's last line) is given a moment
    for pid in running_with(folder):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        warnings.warn(f"{request.node.nodeid} left process {pid} running in its folder: killed", stacklevel=1)
