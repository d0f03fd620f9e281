"""A local Mosquitto broker for a small club (and for the tests): config, passwords, ACL, process.

``LocalBroker`` writes a configuration like ``config/mosquitto.conf`` into a directory of its own (its
port, its files), makes the password file with ``mosquitto_passwd``, writes the ACL (the same rules as
``config/mosquitto.acl``) and runs ``mosquitto`` as a child process. It never touches a system service.
"""

from __future__ import annotations

import getpass
import logging
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from firmware_host.wire.topics import SPECTATOR_USER, TOPICS, Topics

log = logging.getLogger(__name__)

DASHBOARD_USER = "dashboard"
READY_MARK = " running"


def expected_warning(line: str, topics: Topics = TOPICS) -> bool:
    """Whether ``line`` of mosquitto's log is its start-up warning about our one ACL pattern without
    ``%u``: the round called (``pattern read <round>``) is the one topic every login reads, and a pattern
    is the only way an ACL file grants a topic to logins it does not name. Mosquitto warns of any such
    pattern, taking it for a mistake; ours is not one, so a director is not shown it as a warning."""
    return "Warning: ACL pattern" in line and f"'{topics.round}'" in line and "does not contain" in line


class BrokerError(RuntimeError):
    """Mosquitto is missing, or would not start; the message says why."""


def acl_text(dashboards: tuple[str, ...] = (DASHBOARD_USER,), topics: Topics = TOPICS,
             spectators: tuple[str, ...] = (SPECTATOR_USER,)) -> str:
    """The ACL rules (``config/mosquitto.acl`` without its comments), made from the topics' one object
    (``wire.topics.Topics.acl``); ``dashboards``: the logins with the dashboard's rights (a second
    dashboard needs a login of its own: one login is one session); ``spectators`` likewise, the logins
    with a spectator's rights (a second spectators' page needs its own)."""
    return topics.acl(dashboards, spectators=spectators)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mosquitto_binary() -> str:
    """The path of ``mosquitto`` (Debian puts it in /usr/sbin)."""
    for cand in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if cand and Path(cand).exists():
            return cand
    raise BrokerError("mosquitto is not installed (Debian package 'mosquitto'; `make test` installs it)")


def make_password_file(path: Path, users: Mapping[str, str]) -> None:
    """Write ``users`` (name -> password) to ``path`` hashed by ``mosquitto_passwd -U``."""
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(tool).exists():
        raise BrokerError("mosquitto_passwd is not installed (Debian package 'mosquitto')")
    for name, pw in users.items():
        if not name or ":" in name or "\n" in name or "\n" in pw:
            raise ValueError(f"user name {name!r} or its password cannot go in a password file")
    path.write_text("".join(f"{u}:{p}\n" for u, p in users.items()), encoding="utf-8")
    path.chmod(0o600)
    done = subprocess.run([tool, "-U", str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BrokerError(f"mosquitto_passwd -U {path} failed: {done.stderr.strip() or done.stdout.strip()}")


def broker_config(port: int, password_file: Path, acl_file: Path, *, bind: str = "127.0.0.1",
                  log_file: Path | None = None, persistence_dir: Path | None = None,
                  tls: tuple[Path, Path] | None = None, max_packet: int = 65536) -> str:
    """The text of a mosquitto.conf for a local club broker (``persistence_dir``: keep sessions and
    queued messages of persistent clients across a restart, in that folder; ``tls``: the listener
    speaks only TLS 1.2 or later with this certificate and key; ``max_packet``: the largest packet a
    client may send, 64 KiB as every message's limit, more where a reader beyond judges the size itself
    and must be reached to answer: the federation's broker)."""
    lines = [
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {password_file}",
        f"acl_file {acl_file}",
        "persistence true" if persistence_dir else "persistence false",
        *([f"persistence_location {persistence_dir}/"] if persistence_dir else []),
        f"max_packet_size {int(max_packet)}",
        "max_inflight_messages 100",
        "max_queued_messages 100000",
        f"listener {port} {bind}",
        # A client's id is its login: no login can take over another's session (and knock it off the
        # broker, throwing away what was queued for it), and a table's persistent session is its own.
        # A listener's option: it must follow the `listener` line (before it, Mosquitto opens port 1883).
        "use_username_as_clientid true",
        *([f"certfile {tls[0]}", f"keyfile {tls[1]}", "tls_version tlsv1.2"] if tls else []),
        f"log_dest {'file ' + str(log_file) if log_file else 'stderr'}",
        "log_type error", "log_type warning", "log_type notice", "log_type information",
        "connection_messages true",
    ]
    if os.geteuid() == 0:
        lines.append(f"user {getpass.getuser()}")  # do not drop to 'mosquitto': it could not read our files
    return "\n".join(lines) + "\n"


class LocalBroker:
    """A Mosquitto child process on a loopback port with password and ACL files in ``workdir``.

    Args:
        workdir: a directory for the generated files (created).
        users: user name -> password (tables by id, and ``dashboard``).
        port: TCP port; 0 picks a free one.
        bind: address to listen on.
        persistence: keep persistent sessions across a restart (saved in ``workdir``).
        tls: (certificate, key) PEM files: the listener speaks TLS only.
        dashboards: the logins with the dashboard's rights (read everything, send commands).
        spectators: the logins with a spectator's rights (read the broadcast's released topics).
        on_line: called with each line of mosquitto's own log (connections, refused logins, takeovers);
            by default they go to this module's logger at DEBUG.
    """

    def __init__(self, workdir: str | Path, users: Mapping[str, str], port: int = 0,
                 bind: str = "127.0.0.1", persistence: bool = False,
                 tls: tuple[Path, Path] | None = None, dashboards: tuple[str, ...] = (DASHBOARD_USER,),
                 on_line: Callable[[str], None] | None = None,
                 spectators: tuple[str, ...] = (SPECTATOR_USER,)) -> None:
        self.dashboards = dashboards
        self.spectators = spectators
        self.on_line = on_line
        self.persistence = persistence
        self.tls = tls
        self.workdir = Path(workdir)
        self.users = dict(users)
        self.port = port or free_port()
        self._picked = not port   # chosen here: it may be chosen again if taken before the first start
        self.bind = bind
        self.proc: subprocess.Popen[str] | None = None
        self.log_lines: list[str] = []
        self._reader: threading.Thread | None = None
        self._written = False     # this object's files are on disk (a restart reuses them)

    @property
    def conf_path(self) -> Path:
        return self.workdir / "mosquitto.conf"

    def write_files(self) -> None:
        """Write mosquitto.conf, the hashed password file and the ACL."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        pw, acl = self.workdir / "mosquitto.passwd", self.workdir / "mosquitto.acl"
        make_password_file(pw, self.users)
        acl.write_text(acl_text(self.dashboards, spectators=self.spectators), encoding="utf-8")
        acl.chmod(0o600)
        self.conf_path.write_text(broker_config(self.port, pw, acl, bind=self.bind, tls=self.tls,
                                                persistence_dir=self.workdir if self.persistence else None),
                                  encoding="utf-8")
        self._written = True

    def start(self, timeout: float = 10.0) -> None:
        """Start mosquitto and return once it says it is running (from its own log). A port this object
        chose (``port=0``) can be taken by another program between choosing and binding it; the first
        start then chooses another, up to three times. A port given, or a restart, keeps its port."""
        for attempt in range(3):
            try:
                self._start(timeout)
                break
            except BrokerError as exc:
                if not (self._picked and attempt < 2 and "address already in use" in str(exc).lower()):
                    raise
                self.port = free_port()
                self.write_files()
        self._picked = False

    def _start(self, timeout: float) -> None:
        # This object's settings, written at its first start: files left in the folder by an earlier
        # process (another port, bind, passwords or TLS) are never taken as they are, or the broker would
        # listen where the caller was not told and let in logins it no longer has. A restart of the same
        # object reuses what it wrote.
        if not self._written:
            self.write_files()
        self.log_lines = []
        ready = threading.Event()   # set when mosquitto says it runs, or when its output ends
        running = threading.Event()  # it said it runs (its output ending is no such thing)
        self.proc = subprocess.Popen([mosquitto_binary(), "-c", str(self.conf_path)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        proc = self.proc

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.log_lines.append(line.rstrip())
                if self.on_line is not None and not expected_warning(line):
                    self.on_line(line.rstrip())
                else:
                    log.debug("mosquitto: %s", line.rstrip())
                if READY_MARK in line and "version" in line:
                    running.set()
                    ready.set()
            ready.set()

        self._reader = threading.Thread(target=read, name="mosquitto-log", daemon=True)
        self._reader.start()
        # (a mosquitto that failed may have closed its output and not yet exited: poll() alone is not enough)
        if not ready.wait(timeout) or not running.is_set() or proc.poll() is not None:
            out = "\n".join(self.log_lines[-10:])
            self.stop()
            raise BrokerError(f"mosquitto did not start on port {self.port}:\n{out}")
        log.info("mosquitto running on %s:%s (pid %s)", self.bind, self.port, proc.pid)

    def stop(self) -> None:
        """Stop mosquitto (SIGTERM, then SIGKILL) and wait for it."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self._reader is not None:
            self._reader.join(2)
        self.proc = None

    def __enter__(self) -> LocalBroker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
