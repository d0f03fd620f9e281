"""The table's configuration: one TOML file, validated into frozen dataclasses before any device opens.

Precedence, lowest first:

1. the built-in defaults (the same values as the commented ``config/table.toml``);
2. the TOML file given with ``--config``;
3. environment variables ``CARDTABLE_<SECTION>_<KEY>`` for any scalar key of ``[table]``, ``[shoe]``,
   ``[camera]``, ``[pins]``, ``[mqtt]`` and ``[duplicate]`` (``CARDTABLE_SHOE_PORT``, ``CARDTABLE_CAMERA_SOURCE``, ...),
   plus the short forms ``CARDTABLE_GAME`` and ``CARDTABLE_DATA_DIR`` for ``table.game`` and
   ``table.data_dir``. Lamp and button pins are not overridable from the environment;
4. overrides from the command line: a dict ``{"section.key": value}`` (``load_config(overrides=...)``);
   lamp and button pins too, as ``{"pins.lamps.redeal": 5}``.

Values from the environment and the command line are strings; they are converted to the key's type
(``"115200"`` -> 115200, ``"true"`` -> True). Every problem raises ``ConfigError`` with one message that
names the key (and the file or variable it came from) and what is wrong.
"""

from firmware_host.config.load import (
    add_config_arguments,
    format_config,
    load_config,
    overrides_from_args,
)
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
    DuplicateConfig,
    MqttConfig,
    PinsConfig,
    ShoeConfig,
    TableConfig,
)

__all__ = ["BAUD_RATES", "BCM_PINS", "BUTTONS", "CAMERA_DECODERS", "CameraConfig", "Config", "ConfigError", "DuplicateConfig", "DEFAULT_BUTTONS", "DEFAULT_LAMPS", "ENV_PREFIX", "ENV_SHORT", "GAMES", "LAMPS", "MAX_CAMERA_INDEX", "MAX_CAMERA_SIDE", "MAX_SECONDS", "MqttConfig", "PIN_FACTORIES", "PinsConfig", "RESERVED_IDS", "SHOE_DRIVERS", "ShoeConfig", "TABLE_ID", "TableConfig", "add_config_arguments", "format_config", "load_config", "overrides_from_args"]
