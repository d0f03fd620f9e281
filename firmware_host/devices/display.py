"""The terminal display: the game (``table_view``: board, dealer, vulnerability, the auction, whose turn,
the contract, the tricks, the result and how to confirm it), lamps, the card bar, score, and each ruling
with its law and reason, large enough to read across the table (rich).

On a terminal a live panel at the bottom shows the game and the table while rulings scroll above it.
The program's log lines (warnings included) never reach the players' screen: while the panel is live
they go to the log file given (``log_path``; ``cardtable run`` names one beside the journal), or, with
none, are kept out of sight. Elsewhere (a log file, CI, systemd) the same facts are printed as lines when
the phase changes, and log lines go to standard error as usual. Every line fits 80 columns; on a
narrower terminal the panel's lines wrap, nothing of them cut.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import deque
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel as RichPanel
from rich.table import Table
from rich.text import Text

from firmware_host.devices.display_text import title
from firmware_host.devices.table_view import game_lines, status_line
from laws.rulings import Remedy, Ruling

LAMP_LABELS = {"redeal": "REDEAL", "shuffle": "SHUFFLE+CUT", "replace_pack": "NEW PACK"}
# The fault lamps share one segment, naming only what is out, so the line fits 80 columns with every
# lamp lit.
FAULT_LABELS = {"shoe_offline": "SHOE", "camera_offline": "CAMERA", "journal_fault": "JOURNAL"}
_STYLE = {Remedy.REDEAL: "bold white on red", Remedy.MISDEAL: "bold white on red",
          Remedy.LOSE_DEAL: "bold white on red", Remedy.REPLACE_PACK: "bold black on yellow",
          Remedy.NEW_SHUFFLE_AND_CUT: "bold black on yellow", Remedy.NEW_CUT: "bold black on yellow",
          Remedy.CLAIM_OPTION: "bold white on blue", Remedy.PENALTY: "bold white on magenta"}


WIDTH = 76  # the inside of the live panel on an 80-column terminal; every line of ours fits it
LOG_LINES = 4  # log lines kept (out of sight) while the panel is live and no log file is given


def lamp_text(lamps: dict[str, bool]) -> Text:
    out = Text()
    for name, label in LAMP_LABELS.items():
        on = lamps.get(name, False)
        out.append(f"{'●' if on else '○'} {label} ", style="bold red" if on else "dim")
    out_ = [label for name, label in FAULT_LABELS.items() if lamps.get(name)]
    out.append(f"● NO {' '.join(out_)} " if out_ else "○ DEVICES OK ", style="bold red" if out_ else "dim")
    seats = [s for s in "NESW" if lamps.get(f"attention_{s}")]
    out.append(f"● ATTENTION {''.join(seats)}" if seats else "○ ATTENTION",
               style="bold blue" if seats else "dim")
    return out


def score_text(score: dict[str, Any]) -> str:
    """One line of score: bridge totals, games and vulnerability; euchre points and games."""
    def pair(d: dict[str, Any]) -> str:
        return f"NS {d.get('NS', 0)} EW {d.get('EW', 0)}"
    if "totals" in score:  # bridge
        vul = [side for side, v in (score.get("vulnerable") or {}).items() if v]
        def ns_ew(d: dict[str, Any]) -> str:
            return f"{d.get('NS', 0)}-{d.get('EW', 0)}"
        return (f"game {score.get('game')}  NS-EW: below {ns_ew(score.get('below') or {})}  total "
                f"{ns_ew(score['totals'])}  games {ns_ew(score.get('games') or {})}  vul "
                f"{' '.join(vul) or 'none'}")
    return (f"game {score.get('game')}   points {pair(score.get('score') or {})}   games won "
            f"{pair(score.get('games_won') or {})}")


def progress_text(snap: dict[str, Any], deal_size: int) -> Text:
    """The card bar: the cards dealt (per seat) while a deal is made; once the auction is recorded, the
    cards played. A duplicate board from its pockets is whole at once (its cards are not dealt here). A
    missing card found and restored to its hand (``CB-missing-found``) is counted in its seat and said
    apart: ``51/52 dealt, 1 found  N 13 E 13 S 13 W 13``."""
    counts = snap.get("counts") or {}
    dealt = snap.get("cards_dealt", 0)
    dup = snap.get("duplicate") or {}
    bridge = snap.get("bridge") or {}
    what = "dealt"
    if dup.get("how") == "board" and not dealt:
        dealt, counts = deal_size, {s: deal_size // 4 for s in "NESW"}
    if bridge.get("contract"):
        what, dealt = "played", int(bridge.get("played") or 0)
    width = 12
    filled = min(width, round(width * dealt / deal_size)) if deal_size else 0
    bar = "█" * filled + "·" * (width - filled)
    seats = " ".join(f"{s} {counts.get(s, 0):2d}" for s in "NESW") if what == "dealt" else ""
    # a missing card found and restored to the short hand counts in its seat, not among the cards dealt:
    # "51/52 dealt" beside four hands of 13 said nothing of where the 52nd came from
    found = sum(n for n in counts.values() if isinstance(n, int)) - dealt if what == "dealt" else 0
    what += f", {found} found" if found > 0 else ""
    name = f"board {dup['board']}" if dup.get("board") else f"deal {snap.get('deal', 0)}"
    line = f"{name}  [{bar}] {dealt:2d}/{deal_size} {what}  {seats}".rstrip()
    return Text(f"{line}  phase {phase_words(snap)}")


def phase_words(snap: dict[str, Any]) -> str:
    """The phase as a player reads it. The law engine's play phase begins with the first card played, so
    from the close of the auction to the opening lead (a claim made then included) it is still in its
    auction phase; the line said "phase auction" under THE CONTRACT. Once a contract stands it says
    "opening lead" until the lead is made."""
    phase = str(snap.get("phase") or "starting")
    if phase == "auction" and (snap.get("bridge") or {}).get("contract"):
        return "opening lead"
    return phase


class _LogTail(logging.Handler):
    """Keeps the last log lines for the live panel, which shows them under itself."""

    def __init__(self, on_record: Any) -> None:
        super().__init__(logging.INFO)
        self.lines: deque[str] = deque(maxlen=LOG_LINES)
        self.on_record = on_record
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record).splitlines()[0]
        except Exception:  # noqa: BLE001 - a log line must never stop the display
            return
        self.lines.append(text if len(text) <= 80 else text[:79] + "…")
        self.on_record()


def _mute(record: logging.LogRecord) -> bool:
    return False


def _on_a_terminal(handler: logging.StreamHandler) -> bool:  # type: ignore[type-arg]
    """Whether the handler's stream is a terminal (where a raw log line would tear through the screen)."""
    return _stream_is_a_terminal(handler.stream)


def _stream_is_a_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):   # no isatty, or a closed stream
        return False


class TerminalDisplay:
    """What the players see.

    Args:
        console: a rich console (default: standard output).
        deal_size: cards in a full deal (52 for bridge, 20 for euchre), for the progress bar.
        live: use a live panel when the console is a terminal.
    """

    def __init__(self, console: Console | None = None, deal_size: int = 52, live: bool = True,
                 title: str = "cardtable", log_path: str | None = None) -> None:
        self.console = console or Console()
        self.deal_size = deal_size
        self.title = title
        self.log_path = log_path
        self._snap: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._live: Live | None = None
        self._last_phase: tuple[Any, ...] | None = None
        self._tail: _LogTail | None = None
        self._file: logging.FileHandler | None = None
        self._muted: list[logging.Handler] = []
        if live and self.console.is_terminal:
            # stderr on the same terminal is taken over (a stray line prints above the panel); stderr that
            # is no terminal (``2>FILE``, the journal) keeps its lines: taken over, each warning went
            # through the panel's console onto the players' screen and never reached it
            self._live = Live(self._render(), console=self.console, auto_refresh=False, transient=False,
                              redirect_stderr=_stream_is_a_terminal(sys.stderr))
            self._live.start()
            self._capture_logs()

    def _capture_logs(self) -> None:
        """While live, log records also go to the log file (``log_path``), and the root's stream handlers
        that write to a terminal, whose raw lines would tear through the players' screen, are muted;
        without a file those lines are kept (the last few) out of sight. A stream that is no terminal
        (under systemd, stderr is the journal: ``journalctl -u cardtable``) keeps its lines."""
        root = logging.getLogger()
        self._tail = _LogTail(lambda: None)
        self._tail.setLevel(root.getEffectiveLevel())
        self._muted = [h for h in root.handlers if isinstance(h, logging.StreamHandler)
                       and not isinstance(h, logging.FileHandler) and _on_a_terminal(h)]
        for h in self._muted:
            h.addFilter(_mute)
        root.addHandler(self._tail)
        if self.log_path:
            try:
                self._file = logging.FileHandler(self.log_path, encoding="utf-8")
            except OSError as exc:   # the screen must still come up; say so where it can be seen once
                self._tail.lines.append(f"log file {self.log_path}: {exc.strerror}")
                return
            self._file.setLevel(root.getEffectiveLevel())
            self._file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
            root.addHandler(self._file)

    def _refresh(self) -> None:
        if self._live is not None and self._lock.acquire(blocking=False):
            try:
                self._live.update(self._render(), refresh=True)
            finally:
                self._lock.release()

    def close(self) -> None:
        if self._file is not None:
            logging.getLogger().removeHandler(self._file)
            self._file.close()
            self._file = None
        if self._tail is not None:
            logging.getLogger().removeHandler(self._tail)
            for h in self._muted:
                h.removeFilter(_mute)
            self._tail, self._muted = None, []
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _render(self) -> RichPanel:
        snap = self._snap
        grid = Table.grid(padding=(0, 1))
        for line in game_lines(snap):
            # wrapped, never cut: on a narrow terminal an ellipsis took the vulnerability or the pairs
            grid.add_row(Text(line, style="bold", overflow="fold"))
        grid.add_row(lamp_text(snap.get("lamps") or {}))
        grid.add_row(progress_text(snap, self.deal_size))
        score = snap.get("score") or {}
        if score:
            grid.add_row(Text(score_text(score), style="cyan"))
        for name, why in sorted((snap.get("offline") or {}).items()):  # why, not only in the log
            grid.add_row(Text(f"{str(name).upper()} OFFLINE: {why}", style="bold red"))
        status = status_line(snap)
        if status:
            grid.add_row(Text(status, style="yellow"))
        return RichPanel(Group(grid), title=self.title, border_style="green", width=min(80, self.console.width))

    def _print(self, renderable: Any) -> None:
        if self._live is not None:
            self._live.console.print(renderable)
        else:
            self.console.print(renderable)

    def status(self, snap: dict[str, Any]) -> None:
        with self._lock:
            self._snap = snap
            if self._live is not None:
                self._live.update(self._render(), refresh=True)
                return
            key = (phase_words(snap), snap.get("deal"), tuple(sorted(snap.get("lamps", {}).items())))
            if key != self._last_phase:
                self._last_phase = key
                self.console.print(progress_text(snap, self.deal_size))
                self.console.print(lamp_text(snap.get("lamps") or {}))

    def ruling(self, r: Ruling, deal: int) -> None:
        head = title(r)
        body = Text()
        body.append(r.reason + "\n")
        body.append(f"{r.law}  [{r.clause}]", style="italic")
        with self._lock:
            self._print(RichPanel(body, title=Text(f" {head} ", style=_STYLE.get(r.remedy, "bold")),
                                  subtitle=f"deal {deal}", title_align="left"))

    def device(self, name: str, online: bool, reason: str) -> None:
        with self._lock:
            self._print(Text(f"{name} {'back online' if online else 'OFFLINE'}"
                             f"{': ' + reason if reason else ''}", style="green" if online else "bold red"))

    def note(self, text: str) -> None:
        with self._lock:
            self._print(Text(text, style="yellow"))

    def say(self, text: str, style: str = "bold") -> None:
        """A line from the demo's narrator (what happens at the table)."""
        with self._lock:
            self._print(Text(text, style=style))
