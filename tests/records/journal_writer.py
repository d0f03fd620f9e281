"""Helper process for the kill -9 test: appends rows in a loop, printing each seq after append returns."""

from __future__ import annotations

import sys

from firmware_host.records.journal import Journal


def main() -> None:
    path, start = sys.argv[1], int(sys.argv[2])
    journal = Journal.open(path)
    i = start
    while True:
        kind = ("event", "ruling", "lamp", "note")[i % 4]
        seq = journal.append(kind, {"i": i, "pad": "x" * (i % 97)}, t=float(i))
        sys.stdout.write(f"{seq} {i}\n")
        sys.stdout.flush()
        i += 1


if __name__ == "__main__":
    main()
