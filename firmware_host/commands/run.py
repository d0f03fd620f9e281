"""``cardtable run --config FILE``: one table with its real devices, until SIGTERM or Ctrl-C."""

from __future__ import annotations

import argparse
import logging
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from firmware_host.config import add_config_arguments

    p = sub.add_parser("run", help="run the table with its real devices (shoe, camera, pins)")
    add_config_arguments(p, required=True)
    p.add_argument("--no-display", action="store_true", help="no terminal display (under systemd)")
    p.add_argument("--events", metavar="PATH", help="also read law events the director enters (JSON Lines) "
                   "from this FIFO, terminal or file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import logging
    import os
    import sys

    from firmware_host.commands.stopping import stop_event
    from firmware_host.config import ConfigError, load_config, overrides_from_args

    # SIGTERM as Ctrl-C, from the first moment: the devices stopped, the journal closed (a signal that
    # comes while the table is being built stops it as soon as it is)
    stopping = stop_event()
    try:  # a shoe unplugged at boot is a state the table waits out, not a configuration error
        cfg = load_config(args.config, env=os.environ, overrides=overrides_from_args(args), check_devices=False)
    except ConfigError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    from vision.watcher import from_sections
    from vision.zones import ConfigError as VisionConfigError

    try:  # [vision] and [zones] checked at start, camera or not: a wrong key is a wrong configuration
        from_sections(cfg.vision, cfg.zones, cfg.source, cfg.camera.decoder)
    except VisionConfigError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "events", None):   # a wrong --events is said now, before the journal or a device is touched
        from firmware_host.table.director_input import check_path

        problem = check_path(args.events)
        if problem:
            print(f"cardtable: --events {args.events}: {problem}", file=sys.stderr)
            return 2
    from firmware_host.devices.display import TerminalDisplay
    from firmware_host.devices.panel import PanelError
    from firmware_host.live import build_table
    from firmware_host.records.journal import JournalError
    from firmware_host.table.controller import ControllerError

    try:   # "cardtable: [Errno 2] No such file or directory: '/proc/dd'" named neither the key nor the option
        cfg.table.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"cardtable: table.data_dir {cfg.table.data_dir}: cannot be made a folder for the journal "
              f"({exc.strerror or exc}); give another with --data-dir or in {cfg.source}", file=sys.stderr)
        return 2
    other = next((f for f in ("session.sqlite3", "federation.sqlite3") if (cfg.table.data_dir / f).exists()), "")
    if other:   # the table's journal was made beside a club's session or event, its folder now of two kinds
        print(f"cardtable: table.data_dir {cfg.table.data_dir}: the folder holds a club's "
              f"{'session' if other == 'session.sqlite3' else 'federation event'} ({other}), not a table's "
              "journal; give the table a folder of its own", file=sys.stderr)
        return 2
    display = None if args.no_display else TerminalDisplay(
        deal_size=20 if cfg.table.game == "euchre" else 52, title=f"cardtable — {cfg.table.name}",
        log_path=os.path.join(cfg.table.data_dir, "cardtable.log"))   # log lines never on the players' screen
    try:
        table = build_table(cfg, display=display)
    except (PanelError, JournalError, ControllerError, OSError, ValueError) as exc:
        if display is not None:
            display.close()
        print(f"cardtable: {exc}", file=sys.stderr)
        # Only a configuration error is exit 2 (systemd does not retry it); a journal that cannot be
        # written now (full disk, another writer's lock, an I/O error) is exit 1: the unit tries again.
        # A pin backend is retried as the panel offline (devices/panel_retry.py); should a PanelError
        # still come through, it is a device, not the configuration: exit 1.
        if isinstance(exc, PanelError):
            return 1
        return 1 if isinstance(exc, JournalError) and _transient(str(exc)) else 2
    snap = table.ctl.snapshot()
    if display is not None:
        display.status(snap)  # the restored state at once, not an empty panel until the next event
    said = waits_for(snap, getattr(table, "results", None))
    if said is not None:
        logging.getLogger("cardtable.run").log(*said)
    if getattr(args, "events", None):
        from firmware_host.table.director_input import EventReader

        EventReader(args.events, table.ctl.submit).start()
    stop_event(table.stop_event.set)
    if stopping.is_set():
        table.stop_event.set()
    try:
        table.run()
    finally:
        table.stop()
    return 0


def waits_for(snap: dict[str, Any], results: Any) -> tuple[int, str] | None:
    """What a table restored in the middle of a deal tells its operator it waits for (a level and a line).

    Only a table that does not record the game waits for a typed result. A euchre table at a night's
    round counts the hand from its cards at the fifth trick: it was told to wait for the director's result,
    and a result typed before the fifth trick sends the night nothing (docs/euchre.md, "What if")."""
    if snap.get("phase") not in ("auction", "play", "scoring") or snap.get("bridge"):
        return None
    at_round = getattr(results, "at_round", None)
    if at_round is not None and at_round():
        return (logging.INFO, f"deal {snap.get('deal')} is in play at the euchre night's round: the table "
                "counts its result from the cards at the fifth trick (play it out; a result typed before then "
                "sends the night nothing)")
    return (logging.WARNING, f"deal {snap.get('deal')} is dealt and the table waits for its result (the "
            "director enters it on the club's dashboard); the shoe deals again after that")


def _transient(text: str) -> bool:
    """SQLite's words for a journal that may work again by itself."""
    return any(w in text for w in ("database is locked", "disk is full", "disk I/O error", "database is busy"))
