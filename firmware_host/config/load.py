"""Reading the configuration: the TOML file, the environment and the command line, in that order, each
value checked and every problem one ``ConfigError`` naming the key and where it came from (the
precedence is in ``firmware_host.config``)."""

from __future__ import annotations

import difflib
import logging
import math
import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from firmware_host.config.duplicate import SCALARS as DUPLICATE_SCALARS
from firmware_host.config.duplicate import build_duplicate
from firmware_host.config.schema import (
    BAUD_RATES,
    BCM_PINS,
    BUTTONS,
    CAMERA_DECODERS,
    DEFAULT_BUTTONS,
    DEFAULT_LAMPS,
    ENV_PREFIX,
    ENV_SHORT,
    GAMES,
    LAMPS,
    MAX_CAMERA_INDEX,
    MAX_CAMERA_SIDE,
    MAX_SECONDS,
    PIN_FACTORIES,
    RESERVED_IDS,
    SHOE_DRIVERS,
    TABLE_ID,
    CameraConfig,
    Config,
    ConfigError,
    MqttConfig,
    PinsConfig,
    ShoeConfig,
    TableConfig,
)

log = logging.getLogger(__name__)

# Scalar keys per section and their kinds; lamps/buttons are checked separately.
TABLE_NAME_AT_MOST = 60
"""The longest table name (``[table] name``), as a player's name is at most 60 characters."""

_SCALARS: dict[str, dict[str, str]] = {
    "table": {"id": "str", "name": "str", "game": "str", "data_dir": "path"},
    "shoe": {"driver": "str", "port": "str", "baudrate": "int"},
    "camera": {"source": "source", "width": "int", "height": "int", "decoder": "str", "exposure_us": "int",
               "gain": "float", "v4l2_gain": "int"},
    "pins": {"factory": "str", "buzzer": "int", "bounce_time": "float", "double_press": "float",
             "long_press": "float"},
    "mqtt": {"host": "str", "port": "int", "username": "str", "password_file": "path", "tls": "bool",
             "reveal_cards": "bool", "ca_file": "path"},
}
_SCALARS["duplicate"] = dict(DUPLICATE_SCALARS)
_SUBTABLES = {"pins": {"lamps": LAMPS, "buttons": BUTTONS}}
_SECTIONS = (*_SCALARS, "vision", "zones")  # the last two passed to the vision module, which checks them
_KIND_NAMES = {"str": "a string", "text": "a string (may be empty)", "path": "a path (string)", "int": "a whole number",
               "float": "a number", "bool": "true or false",
               "source": "a camera index, a path, a URL, 'picamera2', 'synthetic' or 'none'",
               "boards": "a list of board numbers or a text such as \"1-3, 7\""}


_NO_NUL = ("shoe.port", "mqtt.username", "duplicate.section", "duplicate.ns", "duplicate.ew")
"""Text keys (beside every path) that are names a NUL cannot be part of; the table's name has its own check."""


def _show(value: Any) -> str:
    """A value for a message, cut short: a 4000-digit number is not worth printing."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def _suggest(word: str, options: Any) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _from_text(kind: str, text: str, where: str) -> Any:
    """Convert an environment/command-line string to the key's kind."""
    try:
        if kind == "int":
            return int(text, 0)
        if kind == "float":
            return float(text)
    except ValueError:
        raise ConfigError(f"{where}: want {_KIND_NAMES[kind]}, got {text!r}") from None
    if kind == "bool":
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{where}: want true or false, got {text!r}")
    if kind == "source" and text.isdigit():
        return int(text)
    return text


def _check_kind(kind: str, value: Any, where: str) -> Any:
    ok = {
        "str": isinstance(value, str),
        "text": isinstance(value, str),
        "path": isinstance(value, (str, Path)),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "source": isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)),
        "boards": isinstance(value, (str, list)),
    }[kind]
    if not ok:
        raise ConfigError(f"{where}: want {_KIND_NAMES[kind]}, got {_show(value)} ({type(value).__name__})")
    if kind == "str" and not value:
        raise ConfigError(f"{where}: must not be empty")
    if (kind in ("path", "source") or where.endswith(_NO_NUL)) and isinstance(value, str) and "\x00" in value:
        # TOML's "\u0000" passed check-config; run then stopped on "embedded null byte", naming nothing
        raise ConfigError(f"{where}: holds a NUL character (\\u0000), which no name, path or port may hold")
    return float(value) if kind == "float" else value


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory, not a configuration file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: TOML syntax error: {exc}") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise ConfigError(f"{path}: a value TOML cannot hold ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise ConfigError(f"{path}: arrays or tables nested too deeply") from None


def _check_structure(data: dict[str, Any], origin: str) -> None:
    """Unknown sections and keys, with a close match suggested."""
    for section, table in data.items():
        if section not in _SECTIONS:
            raise ConfigError(f"{origin}: unknown section [{section}]{_suggest(section, _SECTIONS)}")
        if not isinstance(table, dict):
            raise ConfigError(f"{origin}: {section} must be a table [{section}], got {table!r}")
        if section in ("vision", "zones"):
            continue
        subtables = _SUBTABLES.get(section, {})
        for key, value in table.items():
            if key in subtables:
                if not isinstance(value, dict):
                    raise ConfigError(f"{origin}: {section}.{key} must be a table [{section}.{key}]")
                for name in value:
                    if name not in subtables[key]:
                        raise ConfigError(f"{origin}: unknown key {section}.{key}.{name}"
                                          f"{_suggest(name, subtables[key])}")
            elif key not in _SCALARS[section]:
                options = [*_SCALARS[section], *subtables]
                raise ConfigError(f"{origin}: unknown key {section}.{key}{_suggest(key, options)}")


def _gather_env(env: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """``section.key -> (text, variable name)`` for every CARDTABLE_* variable; unknown ones are errors."""
    out: dict[str, tuple[str, str]] = {}
    known = {f"{ENV_PREFIX}{s.upper()}_{k.upper()}": f"{s}.{k}" for s, keys in _SCALARS.items() for k in keys}
    known.update(ENV_SHORT)
    for var, text in env.items():
        if not var.startswith(ENV_PREFIX):
            continue
        if var not in known:
            # Other parts of the program may read their own CARDTABLE_* variables: warn, do not stop.
            log.warning("environment variable %s is not a configuration key%s", var, _suggest(var, known))
            continue
        out[known[var]] = (text, f"environment variable {var}")
    return out


def load_config(path: str | Path | None = None, *, env: Mapping[str, str] | None = None,
                overrides: Mapping[str, Any] | None = None, check_devices: bool = True) -> Config:
    """Load, merge and validate the configuration. Touches no hardware.

    Args:
        path: the TOML file; None uses the built-in defaults only.
        env: environment to read ``CARDTABLE_*`` variables from (default ``os.environ``).
        overrides: command-line overrides ``{"section.key": value}``; strings are converted to the
            key's type. A value of None means "not given" and is skipped.
        check_devices: check that a shoe serial device path exists (URLs such as ``socket://`` and
            ``loop://`` are never checked).

    Returns:
        The validated ``Config``.

    Raises:
        ConfigError: one message naming the key and the problem.
    """
    data: dict[str, Any] = {}
    origin = "<defaults>"
    base_dir = Path.cwd()
    if path is not None:
        p = Path(path)
        data = _read_file(p)
        origin = str(p)
        base_dir = p.resolve().parent
        _check_structure(data, origin)
    where: dict[str, str] = {}  # "section.key" -> where the value came from (for messages)
    layered: list[tuple[str, Any, str, bool]] = []
    for key, (text, var) in _gather_env(os.environ if env is None else env).items():
        layered.append((key, text, var, True))
    for key, value in (overrides or {}).items():
        if value is not None:
            layered.append((key, value, f"command-line option {key}", isinstance(value, str)))
    for key, value, src, is_text in layered:
        section, _, name = key.partition(".")
        sub, _, pin_name = name.partition(".")
        if section == "pins" and pin_name in _SUBTABLES["pins"].get(sub, ()):
            pin = _from_text("int", value, f"{src} ({key})") if is_text else value
            data.setdefault("pins", {}).setdefault(sub, {})[pin_name] = pin
            where[key] = src
            continue
        if section not in _SCALARS or name not in _SCALARS[section]:
            options = [f"{s}.{k}" for s, keys in _SCALARS.items() for k in keys]
            raise ConfigError(f"{src}: unknown key {key}{_suggest(key, options)}")
        kind = _SCALARS[section][name]
        data.setdefault(section, {})[name] = _from_text(kind, value, f"{src} ({key})") if is_text else value
        where[key] = src
    return _build(data, origin, where, base_dir, check_devices)


def _build(data: dict[str, Any], origin: str, where: dict[str, str], base_dir: Path,
           check_devices: bool) -> Config:
    def loc(section: str, key: str) -> str:
        src = where.get(f"{section}.{key}", origin)
        return f"{src}: {section}.{key}"

    def values(section: str) -> dict[str, Any]:
        table = data.get(section, {})
        return {k: _check_kind(_SCALARS[section][k], v, loc(section, k))
                for k, v in table.items() if k in _SCALARS[section]}

    def choice(section: str, key: str, value: str, options: tuple[str, ...]) -> None:
        if value not in options:
            raise ConfigError(f"{loc(section, key)}: unknown value {value!r}{_suggest(value, options)}; "
                              f"choose one of {', '.join(options)}")

    t = TableConfig(**values("table"))
    choice("table", "game", t.game, GAMES)
    if not TABLE_ID.fullmatch(t.id) or t.id in RESERVED_IDS:
        raise ConfigError(f"{loc('table', 'id')}: {t.id!r} cannot be a table id: use 1-64 ASCII letters, digits, "
                          f"- or _ (it is an MQTT topic level and the broker login), and not {', '.join(RESERVED_IDS)}")
    if not t.name.isprintable() or len(t.name) > TABLE_NAME_AT_MOST:
        # it is written as the PBN [Site] and on the display: a line break would end the tag mid-value
        raise ConfigError(f"{loc('table', 'name')}: {t.name[:40]!r}{'...' if len(t.name) > 40 else ''}: a table's "
                          f"name is 1 to {TABLE_NAME_AT_MOST} printable characters, no control character (it is "
                          "shown on the display and written as the PBN Site)")
    data_dir = Path(t.data_dir).expanduser()
    # A relative data_dir is relative to the file it is written in; from the environment or the
    # command line it is relative to the current directory.
    anchor = Path.cwd() if "table.data_dir" in where else base_dir
    t = TableConfig(t.id, t.name, t.game, data_dir if data_dir.is_absolute() else anchor / data_dir)
    if t.data_dir.exists() and not t.data_dir.is_dir():
        raise ConfigError(f"{loc('table', 'data_dir')}: {t.data_dir} is not a directory (the journal goes in it)")

    shoe = ShoeConfig(**values("shoe"))
    choice("shoe", "driver", shoe.driver, SHOE_DRIVERS)
    if shoe.baudrate not in BAUD_RATES:
        raise ConfigError(f"{loc('shoe', 'baudrate')}: {_show(shoe.baudrate)} is not a serial baud rate; use one of 9600, 19200, "
                          "38400, 57600, 115200, 230400, 460800, 921600, 1000000 (or another standard rate)")
    if check_devices and shoe.driver != "none" and "://" not in shoe.port:
        port = Path(shoe.port)
        if not port.exists():
            raise ConfigError(f"{loc('shoe', 'port')}: serial port {shoe.port} does not exist "
                              "(is the shoe plugged in? see hardware/SETUP.md for the udev rule)")
        if not stat.S_ISCHR(port.stat().st_mode):
            what = "a directory" if port.is_dir() else "a regular file" if port.is_file() else "not a device"
            raise ConfigError(f"{loc('shoe', 'port')}: {shoe.port} is {what}, not a serial device "
                              "(want a tty such as /dev/ttyUSB0, or a pyserial URL)")

    cam = CameraConfig(**values("camera"))
    choice("camera", "decoder", cam.decoder, CAMERA_DECODERS)
    if isinstance(cam.source, int) and not 0 <= cam.source <= MAX_CAMERA_INDEX:
        raise ConfigError(f"{loc('camera', 'source')}: a device index is 0 to {MAX_CAMERA_INDEX}, got {_show(cam.source)}")
    for key in ("width", "height"):
        if not 0 < getattr(cam, key) <= MAX_CAMERA_SIDE:
            raise ConfigError(f"{loc('camera', key)}: want 1 to {MAX_CAMERA_SIDE} pixels, got {_show(getattr(cam, key))}")
    if not 0 <= cam.exposure_us <= 1_000_000:
        raise ConfigError(f"{loc('camera', 'exposure_us')}: want 0 (automatic) to 1000000 microseconds, "
                          f"got {cam.exposure_us}")
    if not 0 <= cam.gain <= 64:
        raise ConfigError(f"{loc('camera', 'gain')}: want 0 (automatic) to 64, got {cam.gain}")
    if not -1 <= cam.v4l2_gain <= 2**31 - 1:   # a V4L2 control is a 32-bit number; -5 or 2**63 were taken
        raise ConfigError(f"{loc('camera', 'v4l2_gain')}: want -1 (leave the camera's own) or a gain from 0 to "
                          f"{2**31 - 1} in the driver's units, got {_show(cam.v4l2_gain)}")
    if cam.source == "":   # '' was taken and the camera was then offline, with nothing said at check-config
        raise ConfigError(f"{loc('camera', 'source')}: must not be empty (\"none\" for no camera)")

    pins = _build_pins(data.get("pins", {}), values("pins"), loc)
    mqtt = None
    if "mqtt" in data:
        mqtt = MqttConfig(**values("mqtt"))
        if not 0 < mqtt.port < 65536:
            raise ConfigError(f"{loc('mqtt', 'port')}: want a TCP port 1-65535, got {mqtt.port}")
        files = {}
        for key in ("password_file", "ca_file"):
            if getattr(mqtt, key) is not None:
                f = Path(getattr(mqtt, key)).expanduser()
                f = f if f.is_absolute() else base_dir / f
                if not f.is_file():
                    raise ConfigError(f"{loc('mqtt', key)}: file {f} does not exist")
                files[key] = f
        if mqtt.ca_file is not None and not mqtt.tls:
            raise ConfigError(f"{loc('mqtt', 'ca_file')}: a CA file is for TLS; set tls = true as well")
        _check_host(mqtt.host, loc("mqtt", "host"))
        if "password_file" in files:
            _check_password_file(files["password_file"], loc("mqtt", "password_file"))
        if "ca_file" in files:
            _check_ca_file(files["ca_file"], loc("mqtt", "ca_file"))
        mqtt = replace(mqtt, **files)
    vision = dict(data.get("vision", {}))
    hfile = vision.get("homography_file")
    if isinstance(hfile, str) and hfile and not Path(hfile).is_absolute():
        vision["homography_file"] = str(base_dir / hfile)   # beside the configuration, as the other files
    zones = MappingProxyType(dict(data["zones"])) if isinstance(data.get("zones"), dict) else None   # None: absent
    duplicate = build_duplicate(data, values("duplicate"), loc, base_dir, t.game, shoe.driver, mqtt is not None)
    return Config(t, shoe, cam, pins, mqtt, MappingProxyType(vision), origin, duplicate, zones)


PASSWORD_AT_MOST = 4096
"""The largest ``[mqtt] password_file`` read, in bytes: the file holds the password alone (as the
command line's password files, ``commands.guard.SECRET_AT_MOST``)."""


def _check_host(host: str, where: str) -> None:
    """Refuse a broker host no resolver can be asked about: the table's link thread printed the idna
    codec's traceback ("label empty or too long") for ``clüb..local`` and the table ran on without its
    broker, and check-config had passed it."""
    if any(c.isspace() or not c.isprintable() for c in host):
        raise ConfigError(f"{where}: {_show(host)} is not a host name or address (no spaces or control characters)")
    try:
        host.encode("idna")
    except UnicodeError:
        raise ConfigError(f"{where}: {_show(host)} is not a host name or address (an empty label, a label "
                          "over 63 characters or a character no host name may hold)") from None


def _check_password_file(path: Path, where: str) -> None:
    """The password file holds one line of UTF-8 text: checked here, so check-config says what the table
    would otherwise say at start as "'utf-8' codec can't decode byte 0xd2 in position 2" (no file, no key),
    and an empty file is not sent to the broker as an empty password."""
    try:
        with open(path, "rb") as f:
            raw = f.read(PASSWORD_AT_MOST + 1)     # never more: the file may be a log named by mistake
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read {path} ({exc.strerror or exc})") from None
    if len(raw) > PASSWORD_AT_MOST:
        raise ConfigError(f"{where}: {path} is over {PASSWORD_AT_MOST} bytes, too big for a password file "
                          "(it holds the password alone)")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: {path} is not UTF-8 text (byte {exc.start + 1}); it holds the password alone") from None
    if not text:
        raise ConfigError(f"{where}: {path} is empty; it holds the table's broker password")


def _check_ca_file(path: Path, where: str) -> None:
    """The CA file is PEM certificates: checked here, where the table said only "[X509:
    NO_CERTIFICATE_OR_CRL_FOUND] no certificate or crl found (_ssl.c:4154)" at start."""
    import ssl

    try:
        ssl.create_default_context(cafile=str(path))
    except OSError as exc:        # ssl.SSLError is an OSError
        reason = getattr(exc, "reason", None) or exc.strerror or exc
        raise ConfigError(f"{where}: {path} holds no CA certificate TLS can use ({reason}); want the club's "
                          "CA in PEM (cardtable club certs)") from None
    except ValueError as exc:
        raise ConfigError(f"{where}: {path} holds no CA certificate TLS can use ({exc})") from None


def _build_pins(raw: dict[str, Any], scalars: dict[str, Any], loc: Any) -> PinsConfig:
    pins = PinsConfig(**scalars)
    if pins.factory not in PIN_FACTORIES:
        raise ConfigError(f"{loc('pins', 'factory')}: unknown value {pins.factory!r}"
                          f"{_suggest(pins.factory, PIN_FACTORIES)}; choose one of {', '.join(PIN_FACTORIES)}")
    for key in ("bounce_time", "double_press", "long_press"):
        value = getattr(pins, key)
        if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
            raise ConfigError(f"{loc('pins', key)}: want a positive number of seconds up to {MAX_SECONDS:g}, "
                              f"got {value!r}")
    if pins.double_press >= pins.long_press:
        raise ConfigError(f"{loc('pins', 'double_press')}: must be shorter than pins.long_press")
    lamps = dict(DEFAULT_LAMPS)
    lamps.update(raw.get("lamps", {}))
    buttons = dict(DEFAULT_BUTTONS)
    buttons.update(raw.get("buttons", {}))
    used: dict[int, tuple[str, str]] = {}
    entries = [("pins.buzzer", pins.buzzer, loc("pins", "buzzer"))]
    entries += [(f"pins.lamps.{k}", v, loc("pins.lamps", k)) for k, v in lamps.items()]
    entries += [(f"pins.buttons.{k}", v, loc("pins.buttons", k)) for k, v in buttons.items()]
    for name, pin, where in entries:
        _check_kind("int", pin, where)
        if pin not in BCM_PINS:
            raise ConfigError(f"{where}: BCM pin {pin} is not a GPIO on the header (want 2-27)")
        if pin in used:
            first, first_where = used[pin]
            src, other_src = where.rsplit(": ", 1)[0], first_where.rsplit(": ", 1)[0]
            note = f" (from {other_src})" if other_src != src else ""
            raise ConfigError(f"{where}: BCM pin {pin} is used twice, by {first}{note} and by {name}")
        used[pin] = (name, where)
    return PinsConfig(pins.factory, pins.buzzer, pins.bounce_time, pins.double_press, pins.long_press,
                      MappingProxyType(lamps), MappingProxyType(buttons))


def format_config(cfg: Config) -> str:
    """The configuration as TOML text (what ``cardtable check-config`` prints)."""

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        text = str(v).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'

    def table(name: str, obj: Mapping[str, Any]) -> list[str]:
        lines = [f"[{name}]"]
        lines += [f"{k} = {val(v)}" for k, v in obj.items() if v is not None and not isinstance(v, Mapping)]
        return [*lines, ""]

    out = [f"# validated configuration from {cfg.source}", ""]
    for name in ("table", "shoe", "camera", "pins"):
        out += table(name, vars(getattr(cfg, name)))
    out += table("pins.lamps", cfg.pins.lamps) + table("pins.buttons", cfg.pins.buttons)
    if cfg.mqtt is not None:
        out += table("mqtt", vars(cfg.mqtt))
    else:
        out += ["# [mqtt] absent: no broker", ""]
    if cfg.duplicate is not None:
        d = vars(cfg.duplicate) | {"boards": ", ".join(map(str, cfg.duplicate.boards))}
        out += table("duplicate", d)
    if cfg.vision or cfg.zones is not None:
        out += ["# [vision] and [zones] passed to the vision module:"]
        out += [f"#   {k} = {v!r}" for k, v in cfg.vision.items()]
        out += [f"#   zones.{k} = {v!r}" for k, v in (cfg.zones or {}).items()]
    return "\n".join(out).rstrip() + "\n"


def add_config_arguments(parser: Any, *, required: bool = False) -> None:
    """Add ``--config``, ``--game``, ``--data-dir``, ``--shoe-port`` and ``--set KEY=VALUE`` to an
    argparse parser; ``overrides_from_args`` turns the parsed options into ``load_config`` overrides."""
    parser.add_argument("--config", required=required, metavar="FILE", help="the table's TOML file")
    parser.add_argument("--game", choices=GAMES, help="override table.game")
    parser.add_argument("--data-dir", metavar="DIR", help="override table.data_dir")
    parser.add_argument("--shoe-port", metavar="PORT", help="override shoe.port (device path or pyserial URL)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help="override any scalar key (repeatable)")


def overrides_from_args(args: Any) -> dict[str, Any]:
    """The ``{"section.key": value}`` overrides given on the command line (see ``add_config_arguments``).

    Raises:
        ConfigError: for a ``--set`` without ``=``.
    """
    out: dict[str, Any] = {}
    for item in getattr(args, "set", None) or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():   # '=5' was "command-line option : unknown key", naming nothing
            raise ConfigError(f"command-line option --set {item!r}: want SECTION.KEY=VALUE")
        out[key.strip()] = value
    for attr, key in (("game", "table.game"), ("data_dir", "table.data_dir"), ("shoe_port", "shoe.port")):
        if getattr(args, attr, None) is not None:
            out[key] = getattr(args, attr)
    return out
