"""The table's side of the club link, apart from the publisher's machinery: topic names, the broker's
password and why a connection fails, and the check every command from the dashboard passes before
the table hears of it (``docs/mqtt.md``).
"""

from __future__ import annotations

import ssl
from typing import Any

from firmware_host.config import MqttConfig
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TABLE_ID, TOPICS

__all__ = ["COMMANDS", "MAX_COMMAND_BYTES", "PREFIX", "TABLE_ID", "check_command", "connect_problem", "read_password",
           "topic"]

PREFIX = TOPICS.prefix
MAX_COMMAND_BYTES = 4096
COMMANDS = ("ack", "result", "choose", "search", "bid", "discard", "call", "correct", "accept", "decline", "withdraw", "spread", "bar",
            "correct_revoke", "claim", "claim_reply", "claim_ruled")


def topic(table: str, *parts: str) -> str:
    """``<prefix>/<table>/<parts...>`` (``wire.topics.TOPICS``: ``command``, ``<kind>`` or ``pack``, name)."""
    if parts and parts[0] == "command":
        return TOPICS.command(table, parts[1])
    return TOPICS.table(table, parts[0], *parts[1:2])


def read_password(config: MqttConfig) -> str | None:
    """The password in ``config.password_file`` (the file holds the password alone), or None."""
    if config.password_file is None:
        return None
    return config.password_file.read_text(encoding="utf-8").strip()


def connect_problem(config: MqttConfig, timeout: float = 3.0) -> str:
    """Why a connection to the broker fails, in words: the TCP or TLS error a direct attempt gets."""
    import socket

    try:
        with socket.create_connection((config.host, config.port), timeout=timeout) as sock:
            if config.tls:
                ctx = ssl.create_default_context(cafile=str(config.ca_file) if config.ca_file else None)
                with ctx.wrap_socket(sock, server_hostname=config.host):
                    pass
    except ssl.SSLCertVerificationError as exc:
        return f"the broker's TLS certificate is not trusted ({exc.verify_message}); check [mqtt] ca_file"
    except ssl.SSLError as exc:
        return f"TLS handshake failed ({exc.reason or exc}); is tls = true right for this port?"
    except OSError as exc:
        return f"{exc.strerror or exc}"
    return "the connection dropped during the MQTT handshake" + ("" if config.tls else
                                                                  " (a TLS-only port? set tls = true)")


def check_command(table: str, topic_name: str, payload: bytes) -> tuple[str, Any, str]:
    """A command as it arrived on ``topic_name``: its kind, its decoded body and the problem ("" when
    there is none: a JSON object for this table, of a known kind, within ``MAX_COMMAND_BYTES``, UTF-8
    text without a lone surrogate escape)."""
    kind = topic_name.rsplit("/", 1)[-1]
    problem = ""
    body: Any = None
    if len(payload) > MAX_COMMAND_BYTES:
        problem = f"payload of {len(payload)} bytes (limit {MAX_COMMAND_BYTES})"
    elif kind not in COMMANDS:
        problem = f"unknown command {kind!r}"
    else:
        read = read_json(payload, max_bytes=MAX_COMMAND_BYTES)  # the one checked reader: UTF-8, depth, JSON
        if read.refusal is not None:
            r = read.refusal
            problem = f"payload is not JSON ({r.detail if r.kind == 'json' else r.why})" \
                if r.kind in ("json", "utf8") else f"payload refused: {r.why}"
        else:
            body = read.value
            if not isinstance(body, dict):
                problem = "payload is not a JSON object"
            elif body.get("table") != table:
                problem = f"command names table {body.get('table')!r}, not this table"
    return kind, body, problem
