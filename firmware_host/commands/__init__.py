"""Subcommands of the ``cardtable`` CLI, one module each with ``register(subparsers)``
(``firmware_host.cli``). They may import every room; no room imports them."""
