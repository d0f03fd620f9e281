"""What the broadcast service has taken from the tables, kept on the club's machine so a restart loses none.

The releaser's state (every board's rows, held until the rule releases them) lives in memory; under
``after-field`` a board's rows wait there for the whole round. A service that stops (SIGTERM, a ``kill -9``,
a power cut) would start again with none of them, and show none of the boards under way. So each ``play``
message taken is appended here, and made durable (``fsync``), *before* it is acknowledged to the broker
(MQTT 5 manual acknowledgement): a message the service had not yet written is delivered again by the
broker (the service's session is persistent), one it had written is read back from here at the next start.

One file a session (its name from the session's digest, ``live.session_id``), one JSON line a message:
``{"topic", "payload"}`` as they came. The file holds cards not yet released: it is never in a folder that
is published (the LIN folder is not used for it). A last line cut by a stop mid-write (a ``kill -9``, a
power cut) is cut off when the file is opened, and counted: its message was never acknowledged (that waits
for the ``fsync``), so the broker sends it again, and it is appended on a line of its own (appended after
the cut, it made one line no run could read, and a second restart lost it). Any other line that cannot be
read is skipped and counted.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


def default_path(digest: str) -> Path:
    """Where the file goes when ``--state`` is not given: the user's state folder (``XDG_STATE_HOME``, else
    ``~/.local/state``), ``cardtable/broadcast-<digest>.jsonl``."""
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "cardtable" / f"broadcast-{digest}.jsonl"


class Received:
    """The messages taken so far (see the module docstring).

    Args:
        path: the file (created with its folder; opened for appending).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.unreadable = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        self._cut_tail()
        self._file = path.open("a", encoding="utf-8")

    def _cut_tail(self) -> None:
        """Cut off a last line without its line end (see the module docstring)."""
        try:
            with self.path.open("rb+") as f:
                size = f.seek(0, os.SEEK_END)
                if not size:
                    return
                f.seek(size - 1)
                if f.read(1) == b"\n":
                    return
                keep = size - 1
                while keep > 0:      # back to the line end before the cut line (the file is read whole anyway)
                    step = min(keep, 65536)
                    f.seek(keep - step)
                    at = f.read(step).rfind(b"\n")
                    if at >= 0:
                        keep = keep - step + at + 1
                        break
                    keep -= step
                f.truncate(keep)
                f.flush()
                os.fsync(f.fileno())
                self.unreadable += 1
        except FileNotFoundError:
            return

    def read(self) -> list[tuple[str, bytes]]:
        """Every message written by earlier runs of this session, in the order taken."""
        out: list[tuple[str, bytes]] = []
        if self.unreadable:
            log.warning("broadcast: %s: its last line was cut by a stop mid-write; cut off (the broker sends its "
                        "message again)", self.path)
        bad = 0
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                    out.append((str(row["topic"]), str(row["payload"]).encode()))
                except (ValueError, KeyError, TypeError):
                    bad += 1
        if bad:
            self.unreadable += bad
            log.warning("broadcast: %s: %d line(s) could not be read; skipped", self.path, bad)
        return out

    def append(self, topic: str, payload: bytes) -> None:
        text = payload.decode("utf-8", errors="replace")
        self._file.write(json.dumps({"topic": topic, "payload": text}, separators=(",", ":")) + "\n")

    def sync(self) -> None:
        """What was appended is on the disk (then, and only then, acknowledged to the broker)."""
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()
