"""The club's wire, one room every other room may import: the topics (one object, ``topics.Topics``), the
one checked reader of every message from outside (``reader.read_json``: size and depth limits, the
refusal as data) and the typed messages the tables and the session exchange (``messages``). It imports
nothing of ours but ``laws``, and touches no network."""
