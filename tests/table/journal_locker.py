"""Helper process: holds the journal's write lock for a while, as another writer or a stalled disk would.
Prints ``locked`` once it holds the lock, then commits after the given seconds, or, given ``told``
instead of seconds, once a line (or the end) comes on its standard input: a test that must do something
while the lock is held (kill the writer) says when it is done, however slowly a loaded machine got there."""

from __future__ import annotations

import sqlite3
import sys
import time


def main(path: str, hold: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    if hold == "told":
        sys.stdin.readline()  # the test has done what needed the lock held
    else:
        time.sleep(float(hold))  # the stall being simulated, not a wait for something
    conn.execute("COMMIT")
    conn.close()
    print("released", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
