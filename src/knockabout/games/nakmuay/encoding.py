"""Nak Muay's observation encoder: a seat's :class:`NakMuayView` as a fixed vector in [0, 1].

Seats are absolute (seat 0 is always the first block of a per-seat field), so actions
such as ``target:S`` keep their meaning; ``seat`` says which one is looking. Card kinds
are in :data:`~knockabout.games.nakmuay.cards.NAMES` order. Counts are divided by the
most the box can hold (:data:`~knockabout.games.nakmuay.cards.COPIES`), so every number
stays in [0, 1]. Built from the typed view's attributes only.
"""

from __future__ import annotations

from typing import Final

from knockabout.core.encoding import DecisionFields, VectorWriter, ViewEncoder
from knockabout.core.plugins import EncodedField
from knockabout.core.view import View
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.actions import MAX_SEATS
from knockabout.games.nakmuay.view import NakMuayView

KINDS: Final = tuple(sorted((
    "action", "attack_response", "countdown_response", "hide_ko", "ko_block", "scout_order",
    "scout_take", "steal_target", "sweep_direction", "triple_name",
)))
KNOWN_DEPTHS: Final = 8
"""Known pile cards are encoded for this many positions below the top."""
N: Final = MAX_SEATS
K: Final = C.NUM_KINDS
_KIND_OF: Final = C.KIND_BY_NAME
_COPIES: Final = C.COPIES

DECISION: Final = DecisionFields(N, KINDS, timed="a Countdown")

FIELDS: Final = (
    EncodedField("players", N - 1, "one-hot: seats at the table (2..5)"),
    EncodedField("turn", 1, "turn / max_turns"),
    EncodedField("strict_end_turn", 1, "1: the 'strict_end_turn' variant"),
    EncodedField("current", N, "one-hot: whose turn it is"),
    EncodedField("clockwise", 1, "1: play goes clockwise"),
    EncodedField("active", N, "per seat: 1 while still in the fight"),
    EncodedField("hand_sizes", N, "per seat: cards in hand / 45"),
    EncodedField("draw_pile", 1, "cards in the draw pile / 45"),
    EncodedField("ko_in_pile", 1, "KO cards in the draw pile / 4"),
    EncodedField("discard_counts", K, "per card kind: copies in the discard / copies in the box"),
    EncodedField("discard_top", K, "one-hot: the kind on top of the discard (all 0: empty)"),
    *DECISION.fields(),
    EncodedField("attacker", N, "one-hot: the seat whose Attack or Countdown is pending"),
    EncodedField("target", N, "one-hot: the target of the pending Attack, Countdown or steal"),
    EncodedField("attack_value", 1, "the pending Attack's value / 3"),
    EncodedField("countdown", 1, "1: a Countdown is running"),
    EncodedField("drawer", N, "one-hot: the seat that drew a KO"),
    EncodedField("ko", 1, "1: a drawn KO waits for its Block or hiding place"),
    EncodedField("draws_left", 1, "draws still owed after the KO / 3"),
    EncodedField("scout", N, "one-hot: the seat resolving a Scout"),
    EncodedField("scout_count", 1, "scouted cards not yet taken or put back / 3"),
    EncodedField("scout_seen", 3 * K, "for the scout only: the seen cards, top first, one-hot kind each"),
    EncodedField("thief", N, "one-hot: the seat stealing with a Clinch"),
    EncodedField("steal", 2, "one-hot: the steal is a pair / a triple"),
    EncodedField("named", K, "per card kind: named so far in a triple steal"),
    EncodedField("no_answers", N * K,
                 "per seat, per card kind: the seat said it holds none since it last gained a card"),
    EncodedField("hand", K, "per card kind: copies in the viewer's hand / copies in the box"),
    EncodedField("known_pile", KNOWN_DEPTHS * K,
                 f"per depth 0..{KNOWN_DEPTHS - 1} below the top: one-hot kind of a pile card the viewer knows"),
)
"""The game's own fields (:class:`ViewEncoder` adds ``seat`` before them and ``legal_count``,
``over`` and ``payoff`` after)."""


class NakMuayEncoder(ViewEncoder[NakMuayView]):
    def __init__(self) -> None:
        super().__init__(NakMuayView, seats=N, legal_scale=20, fields=FIELDS)

    def write(self, w: VectorWriter, view: NakMuayView) -> None:
        w.one_hot("players", view.players - 2)
        w.scalar("turn", view.turn, view.max_turns)
        w.flags("strict_end_turn", (view.end_turn == "strict_end_turn",))
        w.one_hot("current", view.current)
        w.flags("clockwise", (view.direction == "clockwise",))
        w.flags("active", view.active)
        w.scalars("hand_sizes", view.hand_sizes, 45)
        w.scalar("draw_pile", view.draw_pile, 45)
        w.scalar("ko_in_pile", view.ko_in_pile, 4)
        counts = [0] * K
        for name in view.discard:
            counts[_KIND_OF[name]] += 1
        w.scalars("discard_counts", (c / m for c, m in zip(counts, _COPIES, strict=True)), 1)
        if view.discard:
            w.one_hot("discard_top", _KIND_OF[view.discard[-1]])
        DECISION.write(w, view.decision)
        p = view.pending
        w.one_hot("attacker", p.attacker)
        w.one_hot("target", p.target)
        if p.value is not None:
            w.scalar("attack_value", p.value, 3)
        w.flags("countdown", (bool(p.countdown),))
        w.one_hot("drawer", p.drawer)
        w.flags("ko", (bool(p.ko),))
        if p.draws_left is not None:
            w.scalar("draws_left", p.draws_left, 3)
        w.one_hot("scout", p.scout)
        if p.count is not None:
            w.scalar("scout_count", p.count, 3)
        for i, name in enumerate(p.seen or ()):
            w.one_hot("scout_seen", _KIND_OF[name], offset=i * K)
        w.one_hot("thief", p.thief)
        if p.steal is not None:
            w.one_hot("steal", 0 if p.steal == "pair" else 1)
        for name in p.named or ():
            w.one_hot("named", _KIND_OF[name])
        for s, names in view.no_answers.items():
            for name in names:
                w.one_hot("no_answers", _KIND_OF[name], offset=int(s) * K)
        if view.hand is not None:
            counts = [0] * K
            for name in view.hand:
                counts[_KIND_OF[name]] += 1
            w.scalars("hand", (c / m for c, m in zip(counts, _COPIES, strict=True)), 1)
        for known in view.known_pile or ():
            if known.depth < KNOWN_DEPTHS:
                w.one_hot("known_pile", _KIND_OF[known.card], offset=known.depth * K)

    def potential(self, view: View) -> float:
        """The viewer's share of the fighters still standing: 0 once it is out, 1 when it
        alone stands."""
        v = self.view(view)
        seat = v.seat
        if seat is None or not v.active[seat]:
            return 0.0
        standing = sum(v.active)
        return 1.0 / standing
