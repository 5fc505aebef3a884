"""KNOCKBACK's observation encoder: a seat's view as a fixed vector of numbers in [0, 1].

Built from the typed view's attributes (:class:`~knockabout.games.knockback.view.KnockbackView`).
The six cards are encoded in label order (A1..A3 belong to seat 0, B1..B3 to seat 1).
The board has no edges, so positions are given relative to the middle of the cards on
it (clipped to :data:`REACH` cells each way), and what decides punches and knockbacks —
which cards touch which, and on which side — is encoded exactly as an adjacency field.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from knockabout.core.encoding import DecisionFields, VectorWriter, ViewEncoder, one_hot_index
from knockabout.core.plugins import EncodedField
from knockabout.core.view import View
from knockabout.games.knockback.view import CardView, KnockbackView

LABELS: Final = ("A1", "A2", "A3", "B1", "B2", "B3")
DIRS: Final = ("N", "E", "S", "W")
PHASES: Final = ("draft", "place", "turn", "symbol", "punch_edge")
SCORING: Final = ("tug", "speed", "best_of")
STATUS: Final = ("hand", "board", "out")
SYMBOLS: Final = ("move", "punch", "move_or_punch")
ABILITIES: Final = ("passive", "punching", "moving")
ROTATIONS: Final = (0, 90, 180, 270)
REACH: Final = 6
STAT: Final = 6.0
"""Attack and heart values are divided by this."""
PAIRS: Final = tuple(combinations(range(len(LABELS)), 2))
CARD: Final = 1 + len(STATUS) + 1 + len(ROTATIONS) + 2 * len(DIRS) + 2 * len(SYMBOLS) + len(ABILITIES) + 2
"""Numbers per card: owner, status, exhausted, rotation, edges, actions, ability, x, y."""


DECISION: Final = DecisionFields(2)

FIELDS: Final = (
    EncodedField("phase", len(PHASES), f"one-hot: the phase ({', '.join(PHASES)})"),
    EncodedField("round", 1, "round / 9"),
    EncodedField("turn", 1, "turn / max_turns"),
    EncodedField("scoring", len(SCORING), f"one-hot: the scoring variant ({', '.join(SCORING)})"),
    EncodedField("best_of", 1, "best_of / 9"),
    EncodedField("whole_line", 1, "1: knockback moves the whole line (else push)"),
    EncodedField("token", 3, "one-hot: the score token is in the middle, with seat 0, with seat 1"),
    EncodedField("wins", 2, "per seat: rounds won / 5"),
    EncodedField("starter", 2, "one-hot: the seat that started the round"),
    EncodedField("current", 2, "one-hot: whose turn it is"),
    *DECISION.fields(),
    EncodedField(
        "cards", len(LABELS) * CARD,
        "per card A1..B3: owner is seat 1; status (hand, board, out); exhausted; rotation one-hot (0, 90, 180, 270);"
        f" per side N, E, S, W attack / {STAT:.0f} and heart / {STAT:.0f} as on the board; its two action symbols"
        f" one-hot ({', '.join(SYMBOLS)}); ability kind one-hot ({', '.join(ABILITIES)}); x and y relative to the"
        f" middle of the board, (d + {REACH}) / {2 * REACH}",
    ),
    EncodedField("adjacent", len(PAIRS) * len(DIRS),
                 "per pair of cards (i < j in label order): one-hot side of i that j touches on the board"),
    EncodedField("activation", len(LABELS) + 2, "one-hot: the card being activated; symbol index / 2; cells moved / 3"),
    EncodedField("punch", 2 * len(LABELS) + 2 * len(DIRS) + 1,
                 "a punch being resolved: attacker one-hot, target one-hot, direction one-hot, the sides offered,"
                 f" attack / {2 * STAT:.0f}"),
    EncodedField("draft", 7, "draft: pool / 12, hand sizes / 6, kept counts / 3, the viewer's hand / 6 and kept / 3"),
)
"""The game's own fields (:class:`ViewEncoder` adds ``seat`` before them and ``legal_count``,
``over`` and ``payoff`` after)."""
_STEP: Final = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _write_card(w: VectorWriter, i: int, c: CardView, mid: tuple[float, float]) -> None:
    o = i * CARD
    w.flags("cards", (c.owner == 1,), o)
    o += 1
    w.one_hot("cards", one_hot_index(c.status, STATUS), o)
    o += len(STATUS)
    w.flags("cards", (c.exhausted,), o)
    o += 1
    w.one_hot("cards", one_hot_index(c.rotation % 360, ROTATIONS), o)
    o += len(ROTATIONS)
    for d in DIRS:
        e = c.board_edges.side(d)
        w.scalars("cards", (e.attack, e.heart), STAT, o)
        o += 2
    for k, sym in enumerate(c.card.actions[:2]):
        w.one_hot("cards", one_hot_index(sym, SYMBOLS), o + k * len(SYMBOLS))
    o += 2 * len(SYMBOLS)
    w.one_hot("cards", one_hot_index(c.card.ability.kind, ABILITIES), o)
    o += len(ABILITIES)
    if c.x is not None and c.y is not None:
        w.scalars("cards", (c.x - mid[0] + REACH, c.y - mid[1] + REACH), 2 * REACH, o)


class KnockbackEncoder(ViewEncoder[KnockbackView]):
    def __init__(self) -> None:
        super().__init__(KnockbackView, seats=2, legal_scale=60, fields=FIELDS)

    def write(self, w: VectorWriter, v: KnockbackView) -> None:
        w.one_hot("phase", one_hot_index(v.phase, PHASES))
        w.scalar("round", v.round, 9)
        w.scalar("turn", v.turn, v.max_turns)
        w.one_hot("scoring", one_hot_index(v.scoring, SCORING))
        w.scalar("best_of", v.best_of, 9)
        w.flags("whole_line", (v.knockback == "whole_line",))
        w.one_hot("token", 0 if v.token is None else 1 + v.token)
        w.scalars("wins", v.wins, 5)
        w.one_hot("starter", v.starter)
        w.one_hot("current", v.current)
        DECISION.write(w, v.decision)
        cards = v.cards
        placed = [(c.x, c.y) for c in cards if c.x is not None and c.y is not None]
        mid = (
            (round(sum(x for x, _ in placed) / len(placed)), round(sum(y for _, y in placed) / len(placed)))
            if placed else (0, 0)
        )
        for i, c in enumerate(cards[: len(LABELS)]):
            _write_card(w, i, c, mid)
        for k, (i, j) in enumerate(PAIRS):
            if j >= len(cards):
                continue
            ci, cj = cards[i], cards[j]
            if ci.x is not None and ci.y is not None and cj.x is not None and cj.y is not None:
                step = (cj.x - ci.x, cj.y - ci.y)
                for n, dname in enumerate(DIRS):
                    if _STEP[dname] == step:
                        w.one_hot("adjacent", n, k * len(DIRS))
        act = v.activation
        if act is not None:
            w.one_hot("activation", one_hot_index(act.card, LABELS))
            w.scalar("activation", act.index, 2, len(LABELS))
            w.scalar("activation", act.moved, 3, len(LABELS) + 1)
        punch = v.punch
        if punch is not None:
            n = len(LABELS)
            w.one_hot("punch", one_hot_index(punch.attacker, LABELS))
            w.one_hot("punch", one_hot_index(punch.target, LABELS), n)
            w.one_hot("punch", one_hot_index(punch.dir, DIRS), 2 * n)
            w.flags("punch", (dname in punch.sides for dname in DIRS), 2 * n + len(DIRS))
            w.scalar("punch", punch.attack, 2 * STAT, 2 * n + 2 * len(DIRS))
        draft = v.draft
        if draft is not None:
            w.scalar("draft", len(draft.pool), 12)
            w.scalars("draft", draft.hand_sizes, 6, 1)
            w.scalars("draft", draft.kept_counts, 3, 3)
            w.scalar("draft", len(draft.hand or ()), 6, 5)
            w.scalar("draft", len(draft.kept or ()), 3, 6)

    def potential(self, view: View) -> float:
        """Rounds won and cards still in the fight, the viewer's share of both seats'."""
        v = self.view(view)
        seat = v.seat
        if seat is None:
            return 0.5
        alive = [0, 0]
        for c in v.cards:
            if c.status != "out":
                alive[c.owner] += 1
        score = [3 * v.wins[p] + alive[p] for p in (0, 1)]
        total = score[0] + score[1]
        return 0.5 if total == 0 else score[seat] / total
