"""Reading PBN 2.1 auction sections into the auction model, and PBN's card spelling.

PBN (the Portable Bridge Notation, version 2.1, sections 3.5, 3.6 and 3.9) writes a card suit first
(``SK`` is the king of spades, where the event format writes ``KS``). Its auction section lists the calls
in columns from the seat its tag names (the dealer, in export format; in import format another seat, with
``-`` for each column before the dealer), and may end with ``AP``: every player still to call passes.
Irregularities the players accepted are marked: ``^I`` before an insufficient bid, ``^S`` in the place of
a player whose turn a call out of rotation passed over. Notes (``=1=``), annotation glyphs (``$3``),
suffixes (``!``, ``?!``) and comments (``{…}``, ``; …``) carry no calls and are skipped; ``*`` and ``+``
end the calls given.

Writing: :meth:`laws.bridge.auction.Auction.pbn_lines`, and :func:`play_lines` for the play section.
"""

from __future__ import annotations

import re

from laws.bridge.auction import Auction, AuctionError
from laws.bridge.calls import PASS, CallError, parse_call
from laws.bridge.play import Play
from laws.bridge.tricks import RevokeStatus
from laws.cards import Card, Seat, clockwise_from

_TOKEN = re.compile(r"\^[ISRL]|=\d+=|\$\d+|[!?]{1,2}|\*|\+|[A-Za-z0-9-]+|\S")
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")


def card_pbn(card: Card) -> str:
    """PBN's token for ``card``: suit then rank (``SK``)."""
    return card.suit + card.rank


def parse_pbn_card(token: str) -> Card:
    """A card from PBN's suit-then-rank token (``SK``, ``h2``); raises ``ValueError`` naming the token."""
    if len(token) != 2:
        raise ValueError(f"{token!r} is not a PBN card (suit then rank, e.g. 'SK')")
    return Card(token[1].upper(), token[0].upper())


def tokens(text: str) -> list[str]:
    """PBN section text as tokens, comments removed."""
    return _TOKEN.findall(_COMMENT.sub(" ", text))


def read_auction(text: str, first: Seat, dealer: Seat | None = None) -> Auction:
    """Replay a PBN auction section into an :class:`Auction`.

    Args:
        text: the lines after the ``[Auction]`` tag (notes, glyphs and comments may be there).
        first: the seat of the first column (the ``[Auction]`` tag's value).
        dealer: the dealer when it is not ``first`` (import format: a ``-`` fills each column before
            the dealer's).

    Returns:
        The auction, with accepted irregularities standing as :meth:`Auction.accept` records them.

    Raises:
        ValueError: a token that is no call, or calls the auction model refuses (the message says which
            call, and why).
    """
    auction = Auction(dealer or first)
    col = first
    started = False
    insufficient = False
    for tok in tokens(text):
        if tok in ("*", "+"):
            break
        if tok[0] in "=$!?":
            continue
        if tok == "^I":
            insufficient = True
            continue
        if tok == "^S" or (tok == "-" and not started):
            col = col.left
            continue
        if auction.closed:
            raise ValueError(f"PBN auction: {tok!r} after the auction had closed")
        try:
            if tok.upper() == "AP":
                while auction.turn is not None:
                    auction.add(auction.turn, PASS)
                break
            call = parse_call(tok)
            started = True
            if col == auction.turn and not insufficient:
                auction.add(col, call)
            else:
                auction.accept(col, call)
        except (CallError, AuctionError) as exc:
            raise ValueError(f"PBN auction: {tok!r} by {col.value}: {exc}") from None
        col = col.left
        insufficient = False
    return auction


def play_lines(play: Play) -> list[str]:
    """The play as PBN 2.1's play section (3.6, 3.9): the ``[Play "<opening leader>"]`` tag, then one
    line a trick with the cards in seat columns clockwise from the opening leader (not in the order
    played), suit then rank. ``-`` is a card not played; ``^R`` marks a revoke not corrected and
    ``^L`` an accepted lead out of turn; ``*`` ends the play at a claim; while play goes on, ``+``
    stands in the column of the player to play."""
    order = clockwise_from(play.opening_leader)
    marked = {(r.trick, r.seat) for r in play.revokes if r.status is not RevokeStatus.CORRECTED}
    going = play.turn is not None
    lines = [f'[Play "{play.opening_leader.value}"]']
    record = play.tricks + ([play.current] if play.current.cards or going else [])
    for t in record:
        row = []
        for s in order:
            c = t.cards.get(s)
            if c is None:
                row.append("+" if going and t is play.current and s == play.to_play else "-")
                continue
            mark = ("^R " if (t.number, s) in marked else "") + (
                "^L " if t.led_out_of_turn and s == t.leader else "")
            row.append(mark + card_pbn(c))
        lines.append(" ".join(row))
    if play.claim_state is not None:
        lines.append("*")
    return lines
