"""The duplicate session on the host: hand-record files (PBN, DUP, BRI) in and out, new deals from the
operating system's randomness, the dealing station, a session's state and its results exports.

May import ``laws`` (boards, movements, scoring) and the records; never the CLI. The pure parts (a
board's dealer and vulnerability, hand records as values, movements, scores) are in ``laws/``.
"""
