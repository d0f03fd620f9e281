"""The club installation: each table's MQTT publisher and its outbox, the secrecy filter, the local
Mosquitto broker, the director's dashboard (HTTP, login, the call queue) and a simulated club.

May import the table's heart (an observer of it), the records, the devices' words and the
configuration; the heart never imports the club (``firmware_host.live`` connects them).
"""
