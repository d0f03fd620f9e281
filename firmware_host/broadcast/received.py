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

A file that is not one of these (``--state`` naming the session's journal, a log) is refused before
anything is cut from it (:class:`StateFileError`): cutting its "last line" truncated the file named, a
session's ``session.sqlite3`` included, and its bytes then stopped the command with a traceback.

The file's first line names the session it holds (``{"session": "<digest>"}``, written when the file is
made), and a file of another session is refused: a ``--state`` kept at one path from week to week (a unit
file's) gave this week's run last week's boards as its own, shown at once, and last week's results as the
facts that finish this week's boards, so ``after-field`` showed them at the tables as they were played. A
file written before the line was (no session named) is taken as it is.
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


class StateFileError(ValueError):
    """The file is not a broadcast's state file, or not this session's (nothing in it was changed)."""


class Received:
    """The messages taken so far (see the module docstring).

    Args:
        path: the file (created with its folder; opened for appending).
        session: the session's digest (``live.session_id``), named on the file's first line.

    Raises:
        StateFileError: the file is not a broadcast's state file, or it is another session's.
    """

    def __init__(self, path: Path, session: str = "") -> None:
        self.path = path
        self.session = session
        self.unreadable = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        self._check()
        self._cut_tail()
        self._file = path.open("a", encoding="utf-8")
        if self._file.tell() == 0:
            self._file.write(json.dumps({"session": session}, separators=(",", ":")) + "\n")
            self.sync()

    def _check(self) -> None:
        """Refuse a file this class did not write, before anything is cut from it: what it writes is ASCII
        (``json.dumps``), one ``{"topic", "payload"}`` object a line, so its first line is one (or, cut by a
        stop mid-write, the start of one). A later line damaged is skipped and counted (:meth:`read`).

        Raises:
            StateFileError: naming the file and why.
        """
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        if not data:
            return
        first, nl, _rest = data.partition(b"\n")
        why = ""
        if not nl:
            if not any(start.startswith(first[:len(start)]) for start in (b'{"topic":', b'{"session":')):
                why = 'its only line is not the start of a {"session"} or {"topic", "payload"} line'
        else:
            try:
                row = json.loads(first.decode("utf-8"))
                if isinstance(row, dict) and set(row) == {"session"}:
                    if self.session and row["session"] and row["session"] != self.session:
                        raise StateFileError(
                            f"{self.path}: the state of another session ({row['session']}), not this one's "
                            f"({self.session}); nothing in it was changed (name another file, or none: the default "
                            "is one a session)")
                elif not isinstance(row, dict) or "topic" not in row or "payload" not in row:
                    why = 'its first line is not a {"session"} or {"topic", "payload"} object'
            except UnicodeDecodeError:
                why = "it is not text"
            except ValueError as exc:
                if isinstance(exc, StateFileError):
                    raise
                why = "its first line is not JSON"
        if why:
            raise StateFileError(f"{self.path}: not a broadcast's state file ({why}); nothing in it was changed")

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
        with self.path.open("rb") as f:
            for line in f:
                try:
                    row = json.loads(line.decode("utf-8"))
                    if isinstance(row, dict) and set(row) == {"session"}:
                        continue        # the first line: whose state this is
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
