"""The dealing station: a shoe duplicating the session's boards (``dealing.py``), its journal read back
and the duplication report (``station_log.py``)."""
