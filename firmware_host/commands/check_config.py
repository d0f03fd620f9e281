"""``cardtable check-config --config FILE``: validate the configuration and print it, or the one error.

It checks what ``cardtable run`` checks at start: the configuration, the ``[vision]`` and ``[zones]``
sections, and a duplicate table's hand records (``table_records``, the same function), so a file that
passes here is not refused by ``run`` with exit 2."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("check-config", help="validate a table configuration file and print it")
    from firmware_host.config import add_config_arguments

    add_config_arguments(p, required=True)
    p.add_argument("--no-devices", action="store_true",
                   help="do not check that the shoe's serial device exists (for checking on another machine)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError, format_config, load_config, overrides_from_args
    from vision.watcher import from_sections
    from vision.zones import ConfigError as VisionConfigError

    try:
        cfg = load_config(args.config, overrides=overrides_from_args(args), check_devices=not args.no_devices)
        from_sections(cfg.vision, cfg.zones, cfg.source, cfg.camera.decoder)   # [vision], [zones], the homography
        if cfg.duplicate is not None:   # the hand records read as `cardtable run` reads them at start
            from firmware_host.duplicate.handrecords.table_records import table_records

            table_records(cfg.duplicate, cfg.source)
    except (ConfigError, VisionConfigError) as exc:
        print(f"cardtable: configuration error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(format_config(cfg))
    return 0
