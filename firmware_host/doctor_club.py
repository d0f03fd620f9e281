"""``cardtable doctor --club``: is the club's machine ready for the evening? One check per line, each OK
or the fix, as ``cardtable doctor`` does for a table (the same ``Check`` lines and exit statuses).

The machine is described by ``/etc/cardtable/club.env``, the options file its services read
(``cardtable install-files --club``): the CLI parses the broker's and the dashboard's options with the
commands' own parsers and hands this module a ``ClubSetup`` of plain values. The checks, in the order of
``CLUB_CHECKS``:

* ``broker``: the broker accepts the dashboard's user and password (with TLS and the club CA when the
  dashboard's options say so), through the same MQTT client the dashboard uses;
* ``dashboard``: the dashboard answers HTTP (or HTTPS) on its port;
* ``tls``: every TLS file named exists and this user may read it; each certificate parses and is valid
  for at least ``CERT_DAYS_LEFT`` more days (``openssl x509 -checkend``);
* ``disk``: the sessions' disk has ``MIN_FREE_BYTES`` free;
* ``clock``: the kernel says the clock is synchronised (results and journals carry times);
* ``session``: the sessions' folder exists and is writable, and the evening's session journal (the one
  named, else the newest) verifies (integrity, hash chain);
* ``backup``: a copy of that journal is made into the backups' folder with SQLite's online backup (safe
  while the session writes) and the copy is read back: its chain intact, at least as many rows;
* ``service``: the broker's unit is active, and the dashboard's or a session's.
"""

from __future__ import annotations

import http.client
import os
import shutil
import sqlite3
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_host.doctor import MIN_FREE_BYTES, Check, Runner, check_clock, kernel_clock_state, run_command
from firmware_host.resources import this_program
from firmware_host.wire.subscribed import stop_loop

CLUB_CHECKS = ("broker", "dashboard", "tls", "disk", "clock", "session", "backup", "service")
CERT_DAYS_LEFT = 30
SESSION_FILE = "session.sqlite3"  # firmware_host.session.duplicate_session.SESSION_FILE
BROKER_UNIT, DASHBOARD_UNIT = "cardtable-broker.service", "cardtable-dashboard.service"


@dataclass(frozen=True)
class ClubSetup:
    """What the checks need to know about the club's machine, read from its options file.

    ``tls_files`` are (what it is, path, whether it is a certificate) for every TLS file the options name.
    ``session`` is the session's folder name under ``sessions`` to check, or "" for the newest.
    """

    broker_host: str
    broker_port: int
    broker_tls: bool
    ca_file: Path | None
    mqtt_user: str
    password_file: Path
    dashboard_host: str
    dashboard_port: int
    dashboard_https: bool
    tls_files: tuple[tuple[str, Path, bool], ...]
    sessions: Path
    backups: Path
    session: str = ""


# --- the broker and the dashboard ----------------------------------------------------------------------

def mqtt_login(host: str, port: int, user: str, password: str, *, tls: bool, ca_file: Path | None,
               client_id: str, timeout: float = 5.0) -> Any:
    """Connect once with these credentials: the broker's reason code, or None when it never answered."""
    import paho.mqtt.client as mqtt

    done = threading.Event()
    result: list[Any] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                         clean_session=True)
    client.username_pw_set(user, password)

    def on_connect(c: Any, u: Any, flags: Any, reason_code: Any, props: Any) -> None:
        result.append(reason_code)
        done.set()

    client.on_connect = on_connect
    try:
        if tls:
            client.tls_set(ca_certs=str(ca_file) if ca_file else None, cert_reqs=ssl.CERT_REQUIRED)
        client.connect(host, port, keepalive=10)
        client.loop_start()
        done.wait(timeout)
    except (OSError, ValueError, ssl.SSLError):
        pass
    finally:
        stop_loop(client)
        client.disconnect()
    return result[0] if result else None


def _tcp_problem(host: str, port: int, tls: bool, ca_file: Path | None, timeout: float) -> str:
    import socket

    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            if tls:
                ctx = ssl.create_default_context(cafile=str(ca_file) if ca_file else None)
                with ctx.wrap_socket(sock, server_hostname=host):
                    pass
    except ssl.SSLCertVerificationError as exc:
        return f"its TLS certificate is not trusted ({exc.verify_message}): is --ca-file the club CA?"
    except ssl.SSLError as exc:
        return f"the TLS handshake failed ({exc.reason or exc}): does --tls match the broker's port?"
    except OSError as exc:
        return str(exc.strerror or exc)
    return "the connection dropped during the MQTT handshake"


def check_club_broker(club: ClubSetup, timeout: float = 5.0) -> Check:
    where = f"{club.broker_host}:{club.broker_port}{' (TLS)' if club.broker_tls else ''}"
    try:
        password = club.password_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        return Check("broker", False, f"cannot read {club.password_file} ({exc.strerror or exc}) -- fix: the "
                     "broker writes it at its first start (systemctl start cardtable-broker); run doctor as "
                     "the services' user (sudo -u cardtable)")
    code = mqtt_login(club.broker_host, club.broker_port, club.mqtt_user, password, tls=club.broker_tls,
                      ca_file=club.ca_file, client_id="cardtable-doctor-club", timeout=timeout)
    if code is None:
        why = _tcp_problem(club.broker_host, club.broker_port, club.broker_tls, club.ca_file, timeout)
        return Check("broker", False, f"{where}: {why} -- fix: systemctl status cardtable-broker; --broker-host, "
                     "--broker-port and --tls in DASHBOARD_ARGS must match BROKER_ARGS")
    if code.is_failure:
        return Check("broker", False, f"{where} refused user {club.mqtt_user!r}: {code} -- fix: "
                     "--mqtt-password-file must be the broker's passwords/dashboard.password")
    return Check("broker", True, f"{where} accepts the dashboard's user {club.mqtt_user!r}")


def check_dashboard(club: ClubSetup, timeout: float = 5.0) -> Check:
    host = "127.0.0.1" if club.dashboard_host in ("0.0.0.0", "::", "") else club.dashboard_host
    url = f"{'https' if club.dashboard_https else 'http'}://{host}:{club.dashboard_port}/"
    ctx = None
    if club.dashboard_https:  # whether it answers, not whom it is: its certificate is the tls check's
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    try:
        with urllib.request.urlopen(url, timeout=timeout, context=ctx) as resp:  # noqa: S310 (our own URL)
            status = int(resp.status)
    except urllib.error.HTTPError as exc:  # a login page or a refusal is an answer
        status = exc.code
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:  # not HTTP at all, too
        reason = getattr(exc, "reason", None) or exc.__class__.__name__
        return Check("dashboard", False, f"{url}: no answer ({reason}) -- fix: systemctl status "
                     "cardtable-dashboard (or the evening's cardtable-session@NAME); journalctl says why")
    if status >= 500:
        return Check("dashboard", False, f"{url} answers {status} -- fix: journalctl -u cardtable-dashboard -e")
    return Check("dashboard", True, f"{url} answers (HTTP {status})")


# --- TLS files, disk, sessions, backups ----------------------------------------------------------------

def check_tls(club: ClubSetup, run: Runner = run_command, days: int = CERT_DAYS_LEFT) -> Check:
    if not club.tls_files:
        return Check("tls", True, "no TLS configured: the tables and the dashboard speak plain MQTT (keep the "
                     "club's network to itself)")
    found = []
    for what, path, is_cert in club.tls_files:
        if not path.is_file():
            return Check("tls", False, f"{what} {path} does not exist -- fix: sudo {this_program()} club "
                         f"certs --dir {path.parent} --host NAME (hardware/SETUP.md, step C3)")
        if not os.access(path, os.R_OK):
            return Check("tls", False, f"{what} {path}: this user may not read it -- fix: sudo chgrp cardtable "
                         f"{path} && sudo chmod 0640 {path}")
        if not is_cert:
            continue
        rc, out = run(["openssl", "x509", "-noout", "-enddate", "-checkend", str(days * 86400), "-in", str(path)])
        end = out.splitlines()[0].partition("=")[2] if out.startswith("notAfter=") else ""
        if rc == 127:
            return Check("tls", False, "openssl is not installed -- fix: sudo apt install openssl")
        if not end:
            return Check("tls", False, f"{what} {path} is not a PEM certificate -- fix: make it again with "
                         f"sudo {this_program()} club certs --dir {path.parent} --host NAME (step C3)")
        if rc != 0:
            return Check("tls", False, f"{what} {path} expires {end} (less than {days} days) -- fix: sudo "
                         f"{this_program()} club certs --dir {path.parent} --host NAME again (step C3), then "
                         "sudo systemctl restart cardtable-broker (the tables keep the same CA)")
        found.append(f"{what} until {end}")
    return Check("tls", True, f"{len(club.tls_files)} file(s) readable; {'; '.join(found)}")


def check_disk(club: ClubSetup, min_free: int = MIN_FREE_BYTES) -> Check:
    where = next((p for p in (club.sessions, *club.sessions.parents) if p.exists()), Path("/"))
    free = shutil.disk_usage(where).free
    if free < min_free:
        return Check("disk", False, f"{where}: only {free // 2**20} MB free -- fix: free at least "
                     f"{min_free // 2**20} MB (old sessions' exports, old backups)")
    return Check("disk", True, f"{where}: {free // 2**20} MB free")


def evening_session(club: ClubSetup) -> Path | None:
    """The session's journal to check: the one named, else the newest of SESSIONS (None: no session)."""
    if club.session:
        return club.sessions / club.session / SESSION_FILE
    found = [p for p in club.sessions.glob(f"*/{SESSION_FILE}") if p.is_file()]
    return max(found, key=lambda p: (p.stat().st_mtime, str(p))) if found else None


def check_session(club: ClubSetup) -> Check:
    from firmware_host.records.journal import Journal, JournalError

    folder = club.sessions
    if not folder.is_dir():
        return Check("session", False, f"{folder} does not exist -- fix: sudo install -d -o cardtable -g "
                     f"cardtable -m 0750 {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        return Check("session", False, f"{folder}: this user may not make sessions there -- fix: sudo chown "
                     f"cardtable:cardtable {folder}")
    path = evening_session(club)
    if path is None:
        return Check("session", True, f"{folder} is ready; no session yet (sudo -u cardtable "
                     f"{this_program()} duplicate open --dir {folder}/NAME ..., step C9)")
    try:
        with Journal.open_readonly(path) as journal:
            result = journal.verify()
            rows = journal.head()[0]
    except JournalError as exc:
        return Check("session", False, f"{exc} -- fix: keep the file as it is and restore the newest backup "
                     f"from {club.backups} into a new session folder")
    if not result.ok:
        return Check("session", False, f"{result.message()} -- fix: keep the file as it is and tell the "
                     f"director; the newest backup in {club.backups} holds the rows as they were")
    return Check("session", True, f"{path}: journal intact, {rows} rows")


def check_backup(club: ClubSetup, now: Callable[[], float] = time.time) -> Check:
    from firmware_host.records.journal import Journal, JournalError

    path = evening_session(club)
    if path is None or not path.is_file():
        return Check("backup", True, "no session journal to back up yet")
    if not club.backups.is_dir() or not os.access(club.backups, os.W_OK | os.X_OK):
        return Check("backup", False, f"{club.backups} does not exist or this user may not write it -- fix: "
                     f"sudo install -d -o cardtable -g cardtable -m 0750 {club.backups}")
    stamp = datetime.fromtimestamp(now(), UTC).strftime("%Y%m%dT%H%M%SZ")
    dest = club.backups / f"{path.parent.name}-{stamp}.sqlite3"
    partial = dest.with_name(dest.name + ".partial")
    try:
        with Journal.open_readonly(path) as journal:
            rows_before = journal.head()[0]
        source = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=10.0)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)  # SQLite's online backup: a consistent copy while the session writes
        finally:
            target.close()
            source.close()
        partial.replace(dest)
        with Journal.open_readonly(dest) as copy:
            result = copy.verify()
            rows = copy.head()[0]
    except (JournalError, sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        return Check("backup", False, f"copying {path} to {dest} failed ({exc}) -- fix: is {club.backups} full "
                     "or read-only?")
    if not result.ok or rows < rows_before:
        return Check("backup", False, f"{dest}: the copy does not verify ({rows} of {rows_before} rows) -- fix: "
                     "run doctor again; if it fails again, copy the session's folder by hand")
    same_disk = os.stat(club.backups).st_dev == os.stat(path).st_dev
    where = " (on the session's own disk: a USB stick would keep it if this one fails)" if same_disk else ""
    return Check("backup", True, f"{dest}: a copy of {rows} rows, chain intact{where}")


# --- the services -------------------------------------------------------------------------------------

def check_club_service(run: Runner = run_command) -> Check:
    rc, broker = run(["systemctl", "is-active", BROKER_UNIT])
    if rc == 127:
        return Check("service", False, "systemctl is not here -- fix: on the club's machine see "
                     "hardware/SETUP.md (or --skip service where there is no systemd)")
    _, dashboard = run(["systemctl", "is-active", DASHBOARD_UNIT])
    _, sessions = run(["systemctl", "list-units", "--state=active", "--plain", "--no-legend",
                       "cardtable-session@*.service"])
    running = [line.split()[0] for line in sessions.splitlines() if line.strip()]
    if broker != "active":
        return Check("service", False, f"{BROKER_UNIT} is {broker or 'unknown'} -- fix: sudo systemctl enable "
                     "--now cardtable-broker; journalctl -u cardtable-broker -e says why it stopped")
    if dashboard != "active" and not running:
        return Check("service", False, f"{DASHBOARD_UNIT} is {dashboard or 'unknown'} and no session runs -- fix: "
                     "sudo systemctl enable --now cardtable-dashboard, or start the evening's "
                     "cardtable-session@NAME")
    shown = running[0] if running else DASHBOARD_UNIT
    return Check("service", True, f"{BROKER_UNIT} and {shown} are active")


def run_club_checks(club: ClubSetup, skip: Sequence[str] = (), *, clock: Callable[[], int] = kernel_clock_state,
                    run: Runner = run_command, now: Callable[[], float] = time.time) -> list[Check]:
    """Every check of ``CLUB_CHECKS`` not in ``skip``, in that order (``run`` answers for systemctl)."""
    funcs: dict[str, Callable[[], Check]] = {
        "broker": lambda: check_club_broker(club), "dashboard": lambda: check_dashboard(club),
        "tls": lambda: check_tls(club), "disk": lambda: check_disk(club),
        "clock": lambda: check_clock(clock), "session": lambda: check_session(club),
        "backup": lambda: check_backup(club, now), "service": lambda: check_club_service(run)}
    return [funcs[name]() for name in CLUB_CHECKS if name not in skip]
