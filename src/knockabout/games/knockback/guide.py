"""What the table tells a KNOCKBACK player about each decision (the game's :class:`Guide`).

Labels are read from the deciding seat's view; what a punch does is worked out by the
engine itself: the punch is applied to a state sampled from the seat's knowledge (the grid
hides nothing, so every sample agrees) and its attack, the heart it meets and whether the
target is knocked out are read from the result, abilities, auras and the option
``knockback`` included. Each such consequence is one of :data:`CLAIMS`; the guide tests
check them on a copy of the true state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from knockabout.core.bot import SeatView
from knockabout.core.plugins import Guidance, Guide, GuidedAction, Hint, Prompt, Tone
from knockabout.core.protocol import State
from knockabout.core.rng import Rng
from knockabout.core.view import View
from knockabout.games.knockback.view import CardView, KnockbackView

DIRS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
BACK = {"N": "S", "S": "N", "E": "W", "W": "E"}
SYMBOL = {"move": "MOVE", "punch": "PUNCH", "move_or_punch": "MOVE/PUNCH"}

CLAIMS: Mapping[str, str] = {
    "knocks_out": "the punch knocks its target out",
    "holds": "the punch does not knock its target out",
    "edge_choice": "the target is exhausted: you choose the edge that takes the punch next",
    "passes": "resting readies nothing: it only ends your turn",
}

PROMPTS: Mapping[str, Prompt] = {
    "draft": Prompt("Draft: keep a card", "Keep one card of the hand you hold; the rest pass to your rival. "
                    "You fight with the three you keep.", "the-draft"),
    "place": Prompt("Place a card", "Put one of your cards on an empty cell next to a card already on the grid.",
                    "placing-your-cards"),
    "turn": Prompt("Your turn", "Activate one of your rested cards to use its symbols in order, or rest to ready "
                   "your exhausted cards.", "your-turn"),
    "symbol": Prompt("Use the next symbol", "Your active card takes its symbols one by one: use this one, or skip "
                     "it.", "moving-and-punching"),
    "punch_edge": Prompt("Choose the edge", "The card you punch is exhausted: you choose which of its free edges "
                         "takes the punch.", "punching-an-exhausted-card"),
}


def cards_of(view: KnockbackView) -> dict[str, CardView]:
    return {c.label: c for c in view.cards}


def name_of(view: KnockbackView, label: str) -> str:
    c = cards_of(view).get(label)
    return f"{c.card.name} ({label})" if c else label


def cells_of(view: KnockbackView) -> dict[tuple[int, int], CardView]:
    return {(c.x, c.y): c for c in view.cards if c.x is not None and c.y is not None}


def active_card(view: KnockbackView) -> CardView | None:
    act = view.activation
    a = cards_of(view).get(act.card) if act is not None else None
    return a if a is not None and a.x is not None else None


def _whose(view: KnockbackView, c: CardView) -> str:
    """Whose card ``c`` is, seen by the viewer: ``your own`` or ``the rival's``."""
    if view.seat is None:
        return ""
    return "your own " if c.owner == view.seat else "the rival's "


def _beside(view: KnockbackView, cell: tuple[int, int], mover: CardView) -> str:
    """Where a move lands, in the cards a player sees around that cell (the grid shows no
    coordinates): ``next to your Undertow (A3) and the rival's Brawl Boar (B2)``, or ``into the
    open`` (a first step of two may leave every card behind)."""
    at = cells_of(view)
    near = [c for dx, dy in DIRS.values() if (c := at.get((cell[0] + dx, cell[1] + dy))) is not None
            and c.label != mover.label]
    if not near:
        return "into the open"
    names = [f"{_whose(view, c).replace('your own ', 'your ')}{c.card.name} ({c.label})" for c in near]
    return "next to " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def _target(view: KnockbackView, d: str) -> CardView | None:
    a = active_card(view)
    if a is None or a.x is None or a.y is None:
        return None
    dx, dy = DIRS[d]
    return cells_of(view).get((a.x + dx, a.y + dy))


def label(text: str, view: KnockbackView) -> str:
    """Plain words for one action text, from the deciding seat's view alone."""
    parts = text.split(":")
    head = parts[0]
    cards = cards_of(view)
    if head == "keep":
        hand = view.draft.hand if view.draft is not None and view.draft.hand is not None else ()
        i = int(parts[1])
        return f"Keep {hand[i].name}" if i < len(hand) else text
    if head == "place" and len(parts) == 2:
        return f"Place {name_of(view, parts[1])} at the centre"
    if head == "place":  # the card it goes next to names the cell (the grid has no coordinates to read)
        return f"Place {name_of(view, parts[1])} {WORD[parts[3]]} of {name_of(view, parts[2])}"
    if head == "activate":
        c = cards.get(parts[1])
        syms = " → ".join(SYMBOL[s] for s in c.card.actions) if c else ""
        return f"Activate {name_of(view, parts[1])}: {syms}"
    if text == "rest":
        return "Rest: your exhausted cards become rested"
    if text == "skip":
        return "Skip this symbol"
    a = active_card(view)
    if a is not None and a.x is not None and a.y is not None and head in ("move", "punch"):
        d = parts[1]
        dx, dy = DIRS[d]
        t = cells_of(view).get((a.x + dx, a.y + dy))
        if head == "move":
            if t is not None:
                return f"Move {WORD[d]}, shoving {_whose(view, t)}{t.card.name} ({t.label})"
            return f"Move {WORD[d]}, {_beside(view, (a.x + dx, a.y + dy), a)}"
        if t is not None:
            tired = "exhausted " if t.exhausted else ""
            return f"Punch {_whose(view, t)}{tired}{t.card.name} ({t.label}) to the {WORD[d]}"
    if head == "hit" and view.punch is not None:
        t = cards.get(view.punch.target)
        if t is not None:
            return f"Hit its {WORD[parts[1]]} edge (heart {t.board_edges.side(parts[1]).heart})"
    return text


def _punch_result(sample: State, action: str) -> dict[str, Any] | None:
    """The engine's ``punch`` event for ``action`` on a copy of a sampled state (None: the
    punch waits for the choice of an edge first)."""
    for e in sample.clone().apply(action):
        if e.type == "punch":
            return dict(e.data)
    return None


class KnockbackGuide(Guide):
    """The :class:`~knockabout.core.plugins.Guide` of KNOCKBACK."""

    claims = CLAIMS

    def prompts(self) -> Mapping[str, Prompt]:
        return PROMPTS

    def label(self, view: View, action: str, names: Sequence[str]) -> str:
        return label(action, self.view_of(view, KnockbackView))

    def advise(self, seat: SeatView, names: Sequence[str]) -> Guidance:
        v, d = self.deciding(seat, KnockbackView)
        legal = v.legal or ()
        actions: list[GuidedAction] = []
        hints: list[Hint] = []
        knocks: list[str] = []
        holds: list[str] = []
        own_target = False
        sample: State | None = None
        for text in legal:
            words = label(text, v)
            tone: Tone = ""
            claim = ""
            head, _, arg = text.partition(":")
            if text in ("rest", "skip"):
                tone = "quiet"
                if text == "rest" and not any(c.exhausted and c.status == "board" and c.owner == seat.player
                                              for c in v.cards):
                    words, claim = "Rest (nothing of yours is exhausted: this only ends your turn)", "passes"
            elif head in ("punch", "hit"):
                target = _target(v, arg) if head == "punch" else cards_of(v).get(v.punch.target if v.punch else "")
                mine = target is not None and target.owner == seat.player
                own_target = own_target or mine
                if mine:
                    tone = "own"
                if sample is None:
                    sample = seat.sample(Rng(0))
                got = _punch_result(sample, text)
                if got is None:
                    words, claim = words + ": you choose the edge next", "edge_choice"
                else:
                    if head == "hit":
                        words = f"Hit its {WORD[arg]} edge"
                    if got["ko"] and got["attack"] == got["heart"]:  # the knockout_on_tie house rule
                        words += f": attack {got['attack']} matches heart {got['heart']}, knocks it out"
                    elif got["ko"]:
                        words += f": attack {got['attack']} beats heart {got['heart']}, knocks it out"
                    else:
                        words += f": attack {got['attack']} does not beat heart {got['heart']}, it holds"
                    claim = "knocks_out" if got["ko"] else "holds"
                    (knocks if got["ko"] else holds).append(text)
            actions.append(GuidedAction(text, words, tone=tone, claim=claim))
        if d.kind == "punch_edge" and v.punch is not None:
            target = cards_of(v).get(v.punch.target)
            whose = "your own card" if own_target else "the rival's card"
            if own_target and holds:
                hints.append(Hint(f"This is {whose}: these edges keep it on the grid.", "holds", tuple(holds)))
            elif own_target:
                hints.append(Hint(f"This is {whose}, and every edge you may pick knocks it out.", "knocks_out",
                                  tuple(knocks)))
            elif knocks:
                hints.append(Hint(f"These edges knock {target.card.name if target else 'it'} out.", "knocks_out",
                                  tuple(knocks)))
            else:
                hints.append(Hint(f"No edge you may pick lets this punch knock {whose} out.", "holds", tuple(holds)))
        elif d.kind == "symbol" and any(a.tone == "own" for a in actions):
            hints.append(Hint("A punch hits whatever card is next to yours, your own too: those buttons are marked "
                              "as yours.", ""))
        return Guidance(d.kind, self._prompt(v), tuple(actions), tuple(hints))

    @staticmethod
    def _prompt(v: KnockbackView) -> Prompt:
        assert v.decision is not None
        base = PROMPTS[v.decision.kind]
        act = v.activation
        if v.decision.kind == "symbol" and act is not None:
            sym = act.symbols[act.index]
            what = {"move": "move one cell", "punch": "punch a neighbouring card",
                    "move_or_punch": "move one cell or punch a neighbouring card"}[sym]
            return Prompt(f"{SYMBOL[sym]} ({act.index + 1} of {len(act.symbols)})",
                          f"{name_of(v, act.card)} may {what} now, or skip this symbol.", base.section)
        if v.decision.kind == "place" and not any(c.status == "board" for c in v.cards):
            return Prompt(base.title, "The first card goes in the middle of the grid; every later one goes next to a "
                          "card already there.", base.section)
        if v.decision.kind == "punch_edge" and v.punch is not None:
            return Prompt(base.title, f"{name_of(v, v.punch.target)} is exhausted: you choose which of its free edges "
                          f"takes your attack of {v.punch.attack}.", base.section)
        return base


GUIDE = KnockbackGuide()
