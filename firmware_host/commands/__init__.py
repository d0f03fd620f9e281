"""Subcommands of the ``cardtable`` CLI, one module each (see ``firmware_host.cli``)."""
