"""The configuration's shape: its sections as frozen dataclasses, the values each key may take, and
``ConfigError``. Reading and checking a file is ``firmware_host.config.load``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

GAMES = ("contract-bridge", "euchre", "duplicate-bridge")
DUPLICATE_DEALS = ("boards", "shoe")  # how a duplicate table's cards reach the players
SHOE_DRIVERS = ("shoe", "scanner", "none")
CAMERA_DECODERS = ("zxing", "pyzbar")
PIN_FACTORIES = ("auto", "mock", "rpigpio", "lgpio")
LAMPS = ("redeal", "shuffle", "replace_pack", "shoe_offline", "camera_offline",
         "attention_N", "attention_E", "attention_S", "attention_W", "journal_fault")
BUTTONS = ("seat_N", "seat_E", "seat_S", "seat_W", "director_ack")
BCM_PINS = range(2, 28)  # usable BCM GPIO numbers on the 40-pin header
# The table id is an MQTT topic level and the broker login (docs/mqtt.md): ASCII letters, digits, - and _;
# "dashboard" is the dashboard's own login.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
RESERVED_IDS = ("dashboard", "session", "spectate", "broadcast", "spectator")
# The rates a Linux UART / USB serial driver runs at (termios' B50..B4000000, pyserial's list).
BAUD_RATES = (50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200,
              230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000,
              3500000, 4000000)
MAX_SECONDS = 60.0  # button timings (bounce, double and long press) are fractions of a second
MAX_CAMERA_SIDE = 10000  # pixels; the largest Pi camera sensors are under 10000 wide
MAX_CAMERA_INDEX = 255
ENV_PREFIX = "CARDTABLE_"
ENV_SHORT = {"CARDTABLE_GAME": "table.game", "CARDTABLE_DATA_DIR": "table.data_dir"}


class ConfigError(ValueError):
    """A configuration problem; the message names the key and what is wrong."""


@dataclass(frozen=True)
class TableConfig:
    id: str = "table-01"
    name: str = "Table 1"
    game: str = "contract-bridge"
    data_dir: Path = Path("/var/lib/cardtable")


@dataclass(frozen=True)
class ShoeConfig:
    driver: str = "shoe"
    port: str = "/dev/cardtable-shoe"
    baudrate: int = 115200


@dataclass(frozen=True)
class CameraConfig:
    source: int | str = "picamera2"      # the camera module on the CSI connector (hardware/SETUP.md)
    width: int = 1280
    height: int = 720
    decoder: str = "zxing"
    exposure_us: int = 2000  # shutter: 0 = the camera's auto exposure (vision/camera.py says why 2 ms)
    gain: float = 4.0  # picamera2 AnalogueGain with a fixed exposure
    v4l2_gain: int = -1  # a V4L2 camera's CAP_PROP_GAIN in its driver's units; -1 leaves it


DEFAULT_LAMPS = {"redeal": 5, "shuffle": 6, "replace_pack": 12, "shoe_offline": 13, "camera_offline": 16,
                 "attention_N": 17, "attention_E": 22, "attention_S": 23, "attention_W": 27,
                 "journal_fault": 21}
DEFAULT_BUTTONS = {"seat_N": 24, "seat_E": 25, "seat_S": 26, "seat_W": 19, "director_ack": 20}


@dataclass(frozen=True)
class PinsConfig:
    """BCM pin numbers. ``lamps`` and ``buttons`` are read-only mappings name -> BCM pin."""

    factory: str = "auto"
    buzzer: int = 18
    bounce_time: float = 0.02
    double_press: float = 0.4
    long_press: float = 1.5
    lamps: Mapping[str, int] = field(default_factory=lambda: MappingProxyType(dict(DEFAULT_LAMPS)))
    buttons: Mapping[str, int] = field(default_factory=lambda: MappingProxyType(dict(DEFAULT_BUTTONS)))


@dataclass(frozen=True)
class MqttConfig:
    host: str = "localhost"
    port: int = 1883
    username: str | None = None
    password_file: Path | None = None
    tls: bool = False
    reveal_cards: bool = False  # show card identities of a deal before its play has ended (opt-in)
    ca_file: Path | None = None  # with tls: the club's own CA (PEM) instead of the system's CAs


@dataclass(frozen=True)
class DuplicateConfig:
    """A duplicate table (``[duplicate]``, with ``table.game = "duplicate-bridge"``): the session's hand
    records, how the cards reach the players, where the table is, and, when it plays alone (no club
    session), the round, pairs and boards it plays."""

    records: Path | None = None   # the hand records file; None: a session table, sent them by the session
    first: int = 1            # the first board of a file without numbers (BRI, DUP without control); 1: none named
    deal: str = "boards"      # "boards": physical boards; "shoe": the table's shoe deals each board
    session: bool = False     # round, pairs and boards from the club's session (needs [mqtt])
    section: str = "A"
    table: int = 1            # this table's number in its section
    round: int = 1            # alone: the round
    ns: str = "1"             # alone: the pairs
    ew: str = "2"
    boards: tuple[int, ...] = ()   # alone: the boards in the order played (empty: every board of the records)
    commitment: str = ""      # session: the published commitment the session's records must match ("": the session's)


@dataclass(frozen=True)
class Config:
    """The whole validated configuration. ``mqtt`` is None when there is no broker; ``vision`` and
    ``zones`` are the raw ``[vision]`` and ``[zones]`` tables (``vision.homography_file`` made absolute
    beside the configuration file), validated by the vision module (``vision.watcher.from_sections``)."""

    table: TableConfig = field(default_factory=TableConfig)
    shoe: ShoeConfig = field(default_factory=ShoeConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    mqtt: MqttConfig | None = None
    vision: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    source: str = "<defaults>"
    duplicate: DuplicateConfig | None = None
    zones: Mapping[str, Any] | None = None   # None: no [zones] section, the default zones
