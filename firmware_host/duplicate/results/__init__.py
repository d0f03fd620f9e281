"""A session's results files: the export entry point (``export.py``), the data every format reads
(``results_data.py``), PBN, USEBIO and the printable page (``results_pbn.py``, ``results_usebio.py``,
``results_html.py`` with its parts ``results_parts.py``), the folder a club publishes
(``results_site.py``), and the board-level export of the tables' journals (``board_export.py``)."""
