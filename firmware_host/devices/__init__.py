"""The table's own devices beside the shoe and the camera: lamps, buzzer and buttons on gpiozero pins
(``panel``), the terminal display (``display``) and the words every screen uses (``display_text``).

May import ``laws`` and the configuration; never the table's heart, the club or the commands (the
heart drives the devices, not the other way round).
"""
