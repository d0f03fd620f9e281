"""The suite's watchdog: a hung test ends as a named failure with its stack, never as a silent CI timeout.

pytest-timeout (300 s, signal method) fails a test that runs too long, but it fires once: a teardown that
then waits forever (a thread joined with no timeout, a process never killed) hangs its xdist worker, and
the whole run with it, with nothing printed. The watchdog is faulthandler's own timer in C: when one test
(setup, call and teardown together) has run WATCHDOG_S seconds it writes every thread's stack to a file
and ends the worker; xdist then reports the test as crashed and goes on with a new worker, and the
summary at the end prints the file, so a hang in CI names its test and its stack instead of a timeout.

TESTS_WATCHDOG_S sets the limit (tests/test_watchdog.py uses a short one on a test made to hang).
"""

import faulthandler
import os
import shutil
import tempfile
from pathlib import Path

import pytest

WATCHDOG_S = float(os.environ.get("TESTS_WATCHDOG_S", "420"))
_WATCHDOG_DIR = "TESTS_WATCHDOG_DIR"


def pytest_configure(config: pytest.Config) -> None:
    # The controller (or a run without xdist) makes the folder; workers inherit it through the environment.
    if not hasattr(config, "workerinput") and _WATCHDOG_DIR not in os.environ:
        os.environ[_WATCHDOG_DIR] = tempfile.mkdtemp(prefix="cardtable-watchdog-")
        config._cardtable_watchdog_made = True  # type: ignore[attr-defined]


def _watchdog_file(config: pytest.Config):  # type: ignore[no-untyped-def]
    handle = getattr(config, "_cardtable_watchdog", None)
    if handle is None:
        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        path = Path(os.environ[_WATCHDOG_DIR]) / f"{worker}-{os.getpid()}.txt"
        handle = open(path, "w+", encoding="utf-8")  # noqa: SIM115 - open for the worker's whole life
        config._cardtable_watchdog = handle  # type: ignore[attr-defined]
    return handle


def _header(nodeid: str) -> str:
    return f"{nodeid} ran more than {WATCHDOG_S:g} s; its worker was ended. Every thread:\n"


def _hung_before(nodeid: str, own: str) -> bool:
    """Whether an ended worker's file names this test: xdist's file-by-file scheduling hands a crashed
    worker's unfinished tests, the crashed one among them, to the next worker, which would hang again."""
    header = _header(nodeid)
    for path in Path(os.environ[_WATCHDOG_DIR]).glob("*.txt"):
        if path.name == own:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.startswith(header) and "Timeout (" in text:
            return True
    return False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    handle = _watchdog_file(item.config)
    if _hung_before(item.nodeid, Path(handle.name).name):
        item.add_marker(pytest.mark.skip(reason="it hung in a worker the watchdog ended: see its failure above"))
    handle.seek(0)
    handle.truncate()
    handle.write(_header(item.nodeid))
    handle.flush()
    faulthandler.dump_traceback_later(WATCHDOG_S, exit=True, file=handle)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        handle.seek(0)
        handle.truncate()
        handle.flush()


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    folder = os.environ.get(_WATCHDOG_DIR)
    if hasattr(config, "workerinput") or not folder or not Path(folder).is_dir():
        return
    for path in sorted(Path(folder).glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace").strip()
        if text:
            terminalreporter.section(f"watchdog ({path.stem})", sep="-")
            terminalreporter.write_line(text)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The folder goes when the run that made it ends (its stacks were printed in the summary)."""
    if getattr(config, "_cardtable_watchdog_made", False):
        shutil.rmtree(os.environ.pop(_WATCHDOG_DIR, ""), ignore_errors=True)
