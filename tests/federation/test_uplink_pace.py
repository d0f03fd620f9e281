"""A club's uplink at a human pace: a result confirmed long after the last answer is sent once, not
twice (the wait for its answer starts when it is sent, not at the last answer)."""

from __future__ import annotations

from typing import Any

from firmware_host.federation.topics import EventTopics
from firmware_host.federation.uplink import ClubUplink


class _Answer:
    def __init__(self, verdict: str, number: int, expect: int) -> None:
        self.payload = f'{{"verdict": "{verdict}", "number": {number}, "expect": {expect}}}'.encode()


def test_a_result_after_a_quiet_spell_is_sent_once_then_again_only_after_resend() -> None:
    messages: list[dict[str, Any]] = [{"op": "entry", "number": 1, "club": "c1"}]
    now = [100.0]
    up = ClubUplink("c1", EventTopics("e"), lambda: list(messages), "127.0.0.1", 1, "u", "p", resend=2.0,
                    clock=lambda: now[0])
    sent: list[tuple[float, int]] = []
    up.client.publish = lambda topic, payload, qos=0, retain=False: sent.append(  # type: ignore[method-assign]
        (now[0], int(payload.split('"number": ')[1].split(",")[0].rstrip("}"))))
    up.messages = list(messages)
    up.pump(100.0)
    up._on_message(None, None, _Answer("taken", 1, 2))
    assert up.expect == 2 and sent == [(100.0, 1)]
    now[0] = 160.0                                   # a board later, the next result
    messages.append({"op": "line", "number": 2, "club": "c1"})
    up.messages = list(messages)
    up.pump(160.0)
    up.pump(160.1)
    up.pump(161.0)
    assert sent == [(100.0, 1), (160.0, 2)]            # on main: sent again at 160.1
    now[0] = 162.5
    up.pump(162.5)                                   # no answer within resend: sent again
    assert sent[-1] == (162.5, 2)


def test_with_no_answer_each_resend_waits_twice_as_long_until_an_answer_comes() -> None:
    now = [100.0]
    messages: list[dict[str, Any]] = [{"op": "entry", "number": 1, "club": "c1"}]
    up = ClubUplink("c1", EventTopics("e"), lambda: list(messages), "127.0.0.1", 1, "u", "p", resend=2.0,
                    clock=lambda: now[0])
    sent: list[float] = []
    up.client.publish = lambda topic, payload, qos=0, retain=False: sent.append(now[0])  # type: ignore[method-assign]
    up.messages = list(messages)
    for t in range(1000, 1400):                     # 40 s of a federation that answers nothing
        now[0] = t / 10
        up.pump(now[0])
    assert sent == [100.0, 102.0, 106.0, 114.0, 130.0]   # waits of 2, 4, 8, 16 s (on main: every 2 s)
    up._on_message(None, None, _Answer("taken", 1, 2))    # an answer: back to the first wait
    messages.append({"op": "line", "number": 2, "club": "c1"})
    up.messages = list(messages)
    for t in range(1400, 1445):
        now[0] = t / 10
        up.pump(now[0])
    assert sent[5:] == [140.0, 142.0]


def test_the_federation_back_after_an_outage_is_sent_again_at_once() -> None:
    """Backed off to a 16 s wait, the uplink sends again as soon as the federation says it is back (the
    ``gap`` numbered 0 it sends every club on connecting), from the number it expects."""
    now = [100.0]
    messages: list[dict[str, Any]] = [{"op": "entry", "number": 1, "club": "c1"},
                                      {"op": "line", "number": 2, "club": "c1"}]
    up = ClubUplink("c1", EventTopics("e"), lambda: list(messages), "127.0.0.1", 1, "u", "p", resend=2.0,
                    clock=lambda: now[0])
    sent: list[tuple[float, int]] = []
    up.client.publish = lambda topic, payload, qos=0, retain=False: sent.append(  # type: ignore[method-assign]
        (now[0], int(payload.split('"number": ')[1].split(",")[0].rstrip("}"))))
    up.messages = list(messages)
    for t in range(1000, 1200):                     # 20 s with no answer: resends at 100, 102, 106, 114
        now[0] = t / 10
        up.pump(now[0])
    assert [t for t, n in sent if n == 1] == [100.0, 102.0, 106.0, 114.0]
    now[0] = 120.0
    up._on_message(None, None, _Answer("gap", 0, 1))  # the federation connects again
    up.pump(120.0)
    assert sent[-2:] == [(120.0, 1), (120.0, 2)]      # at once, not at 130
