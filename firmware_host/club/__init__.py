"""The club installation: MQTT publisher per table, secrecy filter, local broker, director's dashboard."""
