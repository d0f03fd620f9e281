"""A simultaneous across clubs, the services: each club's uplink (its session's results, numbered, sent
again until the federation answers), the federation's service (results taken exactly once, journaled,
the field scored live), and the Mosquitto bridge and ACL that join the clubs' brokers to the
federation's. The pure core (ledger, field, release, message format) is in ``laws/federation``.
"""
