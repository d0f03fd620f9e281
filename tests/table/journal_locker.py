"""Helper process: holds the journal's write lock for a while, as another writer or a stalled disk would.
Prints ``locked`` once it holds the lock, then commits after the given seconds."""

from __future__ import annotations

import sqlite3
import sys
import time


def main(path: str, seconds: float) -> None:
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    time.sleep(seconds)  # the stall being simulated, not a wait for something
    conn.execute("COMMIT")
    conn.close()
    print("released", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
