"""High Card's observation encoder: what a third-party game declares to get knockabout's
research environments (PettingZoo, Gymnasium, OpenSpiel)."""

from __future__ import annotations

from array import array

from highcard.view import HighCardView
from knockabout.core.encoding import Layout
from knockabout.core.plugins import EncodedField, ObservationEncoder
from knockabout.core.view import View

CARDS = 9

FIELDS = (
    EncodedField("seat", 2, "one-hot: the seat looking"),
    EncodedField("round", 1, "round / rounds"),
    EncodedField("wins", 2, "rounds won per seat / 4"),
    EncodedField("leader", 2, "one-hot: who leads this round"),
    EncodedField("led", CARDS, "one-hot: the card led this round (1..9)"),
    EncodedField("hand", CARDS, "per card 1..9: in the viewer's hand"),
    EncodedField("over", 1, "1: the game is over"),
)


class HighCardEncoder(ObservationEncoder):
    fields = FIELDS

    def __init__(self) -> None:
        self._layout = Layout(FIELDS)

    def encode(self, view: View) -> array[float]:
        assert isinstance(view, HighCardView)
        w = self._layout.writer()
        w.one_hot("seat", view.seat)
        w.scalar("round", view.round, view.rounds)
        w.scalars("wins", view.wins, 4)
        w.one_hot("leader", view.leader)
        if view.led is not None:
            w.one_hot("led", view.led - 1)
        for card in view.hand or ():
            w.one_hot("hand", card - 1)
        w.flags("over", (view.outcome is not None,))
        return w.done()
