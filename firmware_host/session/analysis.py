"""Hand records analysed: double-dummy tricks for every declarer and strain, and each board's par.

endplay ships the DDS solver (binary wheels for x86-64 and the Pi's aarch64); this module turns our
values into its calls and its answers back into ours, and does nothing else, so its cost over calling
endplay directly stays small (``cardtable bench duplicate`` measures both side by side).

- ``analyse(boards)`` solves a batch of hand records (``laws.duplicate.deal.Board``, whole deals by
  construction): one ``calc_all_tables`` call for every deal (DDS shares its work between them), then
  ``par`` per board with the board's own dealer and vulnerability (DB-2).
- Every call into DDS runs in a thread whose working folder is a scratch folder of its own
  (``in_scratch_folder``): DDS writes ``dump.txt`` in the working folder when it refuses a deal, and
  that file must never land in a user's folder (one was committed to the repository by mistake).
- ``Analyser`` runs it in a thread of its own, so nothing at the tables waits: a session's boards are
  handed in once, and each analysis is read (or waited for) when a traveller or an export needs it.
- A deal is solved once a process: the sections of an event and the clubs of a simultaneous play the same
  deals, and a session opened again (a restart, an export from the command line) analyses its boards
  again. ``analyse`` keeps each answer (bounded, oldest out first) keyed by what it depends on, the deal,
  the dealer and the vulnerability, never by the board's number; ``SOLVED.clear()`` forgets them.

An analysis is a plain value. ``tricks[seat][strain]`` is what declarer ``seat`` takes double dummy in
``strain`` (``NT``, ``S``, ``H``, ``D``, ``C``); ``par_score`` is from North-South's point of view (the
PBN tag ``[OptimumScore "NS 620"]``); ``par_contracts`` are endplay's spellings (``4SN=``, ``5DXE-1``);
``dd_hex`` is BridgeComposer's ``[DoubleDummyTricks]``: 20 hexadecimal digits, declarers N, S, E, W,
each with strains NT, S, H, D, C.
"""

from __future__ import annotations

import atexit
import ctypes
import logging
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from laws.cards import Seat
from laws.duplicate.boards import Vulnerability
from laws.duplicate.deal import Board, Deal

log = logging.getLogger(__name__)

STRAINS = ("NT", "S", "H", "D", "C")
HEX_SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)  # BridgeComposer's order of declarers


class AnalysisError(RuntimeError):
    """The solver is not installed or failed; the message names the board."""


@dataclass(frozen=True)
class Analysis:
    """One board analysed (see the module docstring)."""

    number: int
    tricks: Mapping[Seat, Mapping[str, int]]
    par_score: int
    par_contracts: tuple[str, ...]

    @property
    def dd_hex(self) -> str:
        """BridgeComposer's ``[DoubleDummyTricks]`` value."""
        return "".join(f"{self.tricks[seat][strain]:x}" for seat in HEX_SEATS for strain in STRAINS)

    @property
    def optimum_score(self) -> str:
        """PBN's ``[OptimumScore]`` value: ``NS 620`` or ``EW 100`` (``NS 0`` for a board passed out at par)."""
        return f"NS {self.par_score}" if self.par_score >= 0 else f"EW {-self.par_score}"

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.number, "tricks": {s.value: dict(v) for s, v in self.tricks.items()},
                "par_score": self.par_score, "par_contracts": list(self.par_contracts),
                "dd_hex": self.dd_hex}


_VUL = {Vulnerability.NONE: "none", Vulnerability.NS: "ns", Vulnerability.EW: "ew", Vulnerability.ALL: "both"}
_PLAYER = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}
_DENOM = {"NT": "nt", "S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


# DDS keeps its work in the library's own memory: two solves at once in one process corrupt each other
# (its "Sum n is not four", then a crash), as two sessions' analysers in one process would. One at a time.
_SOLVER = threading.Lock()


def _endplay() -> Any:
    try:
        import endplay.dds as dds
        from endplay import types
    except ImportError as exc:  # endplay is the club extra's: pip install 'cardtable[club]'
        raise AnalysisError(f"double-dummy analysis needs endplay ({exc}): install the club's extra, "
                            "pip install -c constraints.txt 'cardtable[club]' (hardware/SETUP.md)") from None
    return dds, types


_T = TypeVar("_T")
_CLONE_FS = 0x200      # Linux: the calling thread gets a working folder of its own


def _own_working_folder() -> bool:
    """Give the calling thread a working folder of its own (``unshare(CLONE_FS)``), so a ``chdir`` in it
    moves no other thread; False where the system cannot (then nothing is changed)."""
    try:
        return ctypes.CDLL(None, use_errno=True).unshare(_CLONE_FS) == 0
    except (OSError, AttributeError):     # not Linux, or no unshare in its C library
        return False


SCRATCH_PREFIX = "cardtable-dds-"


def sweep_stale_scratch(folder: str | os.PathLike[str] | None = None) -> list[str]:
    """Remove the scratch folders (``cardtable-dds-<pid>-*``) of processes that are gone, in ``folder`` (the
    temporary folder by default); returns the names removed.

    A process ends its own folder at exit, but one killed outright (``kill -9``, the power cut) cannot; the
    next one to start cleans up after it, so a club machine's ``/tmp`` does not fill evening by evening. A
    folder whose process still runs, or whose number now belongs to another process, is left."""
    root = Path(folder if folder is not None else tempfile.gettempdir())
    removed = []
    try:
        entries = list(root.glob(SCRATCH_PREFIX + "*-*"))
    except OSError:
        return removed
    for entry in entries:
        pid_text = entry.name[len(SCRATCH_PREFIX):].split("-", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
            continue                      # still running
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError, OSError):
            continue                      # running as another user, or not a number a process can have
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry.name)
    return removed


class _ScratchThread:
    """The one thread every call into DDS runs on, for the process's life, its working folder a
    temporary one of its own (made on first use, named with the process's number, removed when the process
    ends; those of processes killed outright are removed by the next one, :func:`sweep_stale_scratch`).

    One long-lived thread, not one a call: DDS keeps state by the calling thread and starts worker
    threads of its own from it, which share its working folder; a thread a call (with a folder deleted
    after each) crashed the process inside ``CalcAllTables`` once in a full test run.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self.folder = ""

    def _enter(self) -> None:
        if _own_working_folder():
            os.chdir(self.folder)

    def run(self, fn: Callable[[], _T]) -> _T:
        with self._lock:
            if self._pool is None:
                sweep_stale_scratch()
                self.folder = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
                atexit.register(shutil.rmtree, self.folder, True)
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="dds-scratch", initializer=self._enter)
            pool = self._pool
        try:
            return pool.submit(fn).result()
        finally:
            dump = Path(self.folder, "dump.txt")
            if dump.exists():
                first = dump.read_text(encoding="ascii", errors="replace").split("\n", 1)[0]
                log.warning("the double-dummy solver wrote a dump (%s); discarded", first)
                dump.unlink(missing_ok=True)


_SCRATCH = _ScratchThread()


def in_scratch_folder(fn: Callable[[], _T]) -> _T:
    """``fn()`` on the solver's own thread, whose working folder is a temporary one of its own.

    DDS writes ``dump.txt`` in the working folder when it is given a deal it refuses; run this way, the
    dump lands in the scratch folder and is discarded (logged, never left in the user's folder, which no
    other thread sees change). Where a thread cannot have a folder of its own, ``fn`` runs in the
    process's folder as before (not on Linux, which the Pi runs). An exception of ``fn`` is raised here.
    """
    return _SCRATCH.run(fn)


_Key = tuple[Deal, Seat, Vulnerability]


def _key(board: Board) -> _Key:
    """What a board's analysis depends on: its deal, its dealer and its vulnerability (par), not its number."""
    return board.deal, board.dealer, board.vulnerability


class SolvedDeals:
    """The analyses this process has made, keyed by :func:`_key`; at most ``size``, the oldest out first.

    An entry is an :class:`Analysis` (frozen, its tables read-only once made), as it was made: with the number
    of the board that was solved (``analyse`` gives each asking board its own)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._known: OrderedDict[_Key, Analysis] = OrderedDict()

    def get(self, board: Board) -> Analysis | None:
        with self._lock:
            known = self._known.get(_key(board))
            if known is not None:
                self._known.move_to_end(_key(board))
            return known

    def put(self, board: Board, analysis: Analysis) -> None:
        with self._lock:
            self._known[_key(board)] = analysis
            self._known.move_to_end(_key(board))
            while len(self._known) > self.size:
                self._known.popitem(last=False)

    def __len__(self) -> int:
        return len(self._known)

    def clear(self) -> None:
        with self._lock:
            self._known.clear()


SOLVED = SolvedDeals()


def analyse(boards: Sequence[Board]) -> list[Analysis]:
    """Double-dummy tricks and par for each board, in the order given. (A ``Board`` holds a whole deal
    by construction: DDS, which may crash the process on a deal short of cards, never meets one.)

    A deal this process has solved before (with the same dealer and vulnerability) is not solved again
    (``SOLVED``); the others go to the solver in one batch.

    Raises:
        AnalysisError: the solver failed, naming the board.
    """
    found: dict[_Key, Analysis] = {}
    todo: dict[_Key, Board] = {}
    for b in boards:
        k = _key(b)
        if k not in found and k not in todo:
            known = SOLVED.get(b)
            if known is None:
                todo[k] = b
            else:
                found[k] = known
    if todo:
        for (k, b), solved in zip(todo.items(), _solve(list(todo.values()))):
            SOLVED.put(b, solved)
            found[k] = solved
    out = [found[_key(b)] for b in boards]
    return [a if a.number == b.number else replace(a, number=b.number) for a, b in zip(out, boards)]


def _solve(boards: Sequence[Board]) -> list[Analysis]:
    """``analyse`` without the cache: one batch for the solver, on its own thread, one batch at a time."""
    dds, types = _endplay()

    def solve() -> tuple[list[Any], list[Any]]:
        try:
            tables = list(dds.calc_all_tables([types.Deal(b.deal.pbn()) for b in boards]))
        except Exception as exc:  # a DDSError names the fault, not the board
            raise AnalysisError(f"boards {boards[0].number}-{boards[-1].number}: the solver failed ({exc})") from None
        return tables, [dds.par(table, getattr(types.Vul, _VUL[b.vulnerability]),
                                getattr(types.Player, _PLAYER[b.dealer])) for b, table in zip(boards, tables)]

    with _SOLVER:
        tables, pars = in_scratch_folder(solve)     # a dump DDS writes never reaches the user's folder
    out = []
    for b, table, par in zip(boards, tables, pars):
        tricks = {seat: MappingProxyType({strain: int(table[getattr(types.Player, _PLAYER[seat]),
                                                            getattr(types.Denom, _DENOM[strain])])
                                          for strain in STRAINS}) for seat in Seat}
        out.append(Analysis(b.number, MappingProxyType(tricks), int(par.score), tuple(_contract(c) for c in par)))
    return out


def _contract(c: Any) -> str:
    """A par contract as ``4SN=``, ``5DXE-1``, ``3NTS+1``: level, strain, doubled, declarer, result."""
    strain = {"nt": "NT", "spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}[c.denom.name]
    doubled = {"passed": "", "doubled": "X", "redoubled": "XX"}.get(c.penalty.name, "")
    result = "=" if c.result == 0 else f"{c.result:+d}"
    return f"{c.level}{strain}{doubled}{c.declarer.abbr}{result}"


class Analyser:
    """Analyses a session's boards in a background thread; ``get`` waits at most ``timeout`` seconds.

    The work is one batch (``analyse``); when the batch fails each board is tried alone, so a board
    whose analysis failed is logged and answers None while the rest are still given.
    """

    def __init__(self, boards: Iterable[Board]) -> None:
        self._boards = list(boards)
        self._done = threading.Event()
        self._results: dict[int, Analysis] = {}
        self.problem: str | None = None
        self._thread = threading.Thread(target=self._run, name="dd-analysis", daemon=True)

    def start(self) -> Analyser:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self._results = {a.number: a for a in analyse(self._boards)}
        except AnalysisError as exc:
            self.problem = str(exc)
            log.warning("double-dummy analysis: %s; analysing the boards one by one", exc)
            for b in self._boards:
                try:
                    self._results[b.number] = analyse([b])[0]
                except AnalysisError as one:
                    log.warning("double-dummy analysis: %s", one)
        finally:
            self._done.set()

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def get(self, number: int, timeout: float | None = 0.0) -> Analysis | None:
        """The analysis of board ``number``, or None when it is not done within ``timeout`` (or failed)."""
        self._done.wait(timeout)
        return self._results.get(number) if self._done.is_set() else None

    def all(self, timeout: float | None = None) -> dict[int, Analysis]:
        """Every analysis, waiting for the work to finish (``timeout`` None: as long as it takes)."""
        self._done.wait(timeout)
        return dict(self._results)
