"""Duplicate bridge's files and pages on the host, in sub-rooms named for what they hold: hand records
as files (``handrecords/``), the dealing station (``station/``), a session's results files
(``results/``); beside them the views the pages show (``views.py``), the director's and tables' forms read
as people type them (``forms.py``) and simulated play (``simplay.py``).

The session itself is elsewhere: its pure model in ``laws/session/duplicate/``, its service in
``firmware_host/session/``. May import ``laws``, the records and the session; never the CLI.
"""
