"""The Raspberry Pi host program: shoe link, lamps and buttons, table controller, journal, CLI."""
