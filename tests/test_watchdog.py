"""The watchdog (tests/watchdog.py) must turn a hang into a named failure: shown here on a test made to hang.

The test made to hang fails under pytest-timeout first and then waits forever in its own clean-up, the
shape that once held a CI run until its time ran out with nothing printed.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HANGING = '''
import threading
import time


def test_before():
    pass


def test_hangs_in_its_clean_up():
    never = threading.Event()
    try:
        time.sleep(60)
    finally:
        never.wait()


def test_after():
    pass
'''


def test_a_test_that_hangs_is_named_with_its_stack_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "test_hanging.py").write_text(HANGING)
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 1\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TESTS_WATCHDOG", "PYTEST_"))}
    # Only the plugins the watchdog works with (xdist, pytest-timeout): each of the run's four processes
    # (the controller, two workers, the one that replaces the ended worker) would otherwise load every
    # installed plugin, most of this test's time on a busy machine.
    env.update(TESTS_WATCHDOG_S="3", PYTHONPATH=str(ROOT), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "xdist", "-p", "timeout", "-p", "tests.watchdog",
         "-p", "no:cacheprovider", "-n", "2", "--dist", "loadfile", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240,
    )
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "2 passed" in out and "1 failed" in out and "1 skipped" in out, out
    # One crash only: the hung test, re-scheduled on the new worker, is skipped rather than run again.
    # (The short summary may repeat the message on its FAILED line, so count the report's own lines.)
    assert len(re.findall(r"^worker '\w+' crashed while running", out, re.MULTILINE)) == 1, out
    assert "test_hanging.py::test_hangs_in_its_clean_up ran more than 3 s" in out, out
    assert "never.wait()" in out or "in test_hangs_in_its_clean_up" in out, out
