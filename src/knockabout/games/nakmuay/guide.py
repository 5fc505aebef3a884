"""What the table tells a Nak Muay player about each decision (the game's :class:`Guide`).

Everything here is read from the deciding seat's own view: its hand, the pile counts,
the pending reaction and the table's options (``end_turn`` decides whether a card played
on your turn saves you the draw). Each consequence a label or a hint states is one of
:data:`CLAIMS`; the guide tests apply the action to a copy of the true state and check it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from knockabout.core.bot import SeatView
from knockabout.core.plugins import Guidance, Guide, GuidedAction, Hint, Prompt, Tone
from knockabout.core.view import View
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.narration import countdown_title
from knockabout.games.nakmuay.view import NakMuayView

TITLE = dict(zip(C.NAMES, C.TITLES, strict=True))

CLAIMS: Mapping[str, str] = {
    "avoids_draw": "your turn ends without you drawing a card",
    "still_draws": "you still draw a card this turn, unless the game ends or you are knocked out before",
    "ko_knocks_out": "a KO drawn first knocks you out",
    "block_saves": "a KO drawn first is met by your Block, not a knock-out",
    "cancels_attack": "you draw no card for this Attack",
    "draws_n": "you draw the Attack's number of cards, unless a KO knocks you out or both piles run empty first",
    "survives": "you are still in the fight once it is answered",
    "knocked_out": "you are knocked out",
    "ko_on_top": "the KO lies on top of the draw pile",
    "redraws_ko": "the next card you draw is that same KO",
    "draws_first_listed": "the card you draw next is the first one you put back",
    "steals_nothing": "you get no card (the fighter holds none)",
}

PROMPTS: Mapping[str, Prompt] = {
    "action": Prompt("Your turn", "Play one card for its effect, or just draw a card.", "your-turn"),
    "attack_response": Prompt("You are attacked", "Dodge to cancel the Attack, or take the hit and draw its cards.",
                              "attack"),
    "countdown_response": Prompt("Countdown!", "Answer with a Block, a Dodge or any Clinch card before the time runs "
                                 "out, or you are out.", "10-second-countdown"),
    "ko_block": Prompt("You drew a KO", "Play your Block to stay in the fight; then you hide the KO in the pile.",
                       "ko"),
    "hide_ko": Prompt("Hide the KO", "Put the KO back anywhere in the draw pile. Only you will know where it lies.",
                      "ko"),
    "scout_take": Prompt("Scout: take a card", "Take one of the cards you see (never a KO); the others go back on "
                         "top.", "scout"),
    "scout_order": Prompt("Scout: put them back", "Choose the order the other cards go back on top of the pile: the "
                          "first you list is drawn first.", "scout"),
    "sweep_direction": Prompt("Sweep: which way?", "The pile is shuffled. Keep the direction of play, or reverse "
                              "it.", "sweep"),
    "steal_target": Prompt("Clinch: whom to rob?", "Choose the fighter you take a card from.", "clinch-steals"),
    "triple_name": Prompt("Clinch: name a card", "Name a card: if they hold one they must hand it over. Or stop and "
                          "take a card at random.", "clinch-steals"),
}

_MAJOR = ("attack:1", "attack:2", "attack:3", "countdown", "scout", "sweep")


def next_active(view: NakMuayView, seat: int) -> int:
    """The next seat still in the fight after ``seat``, in the direction of play."""
    n = view.players
    step = 1 if view.direction == "clockwise" else -1
    q = (seat + step) % n
    while not view.active[q]:
        q = (q + step) % n
    return q


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _major(text: str) -> bool:
    return text in _MAJOR or text.startswith(("pair:", "triple:"))


def label(text: str, view: NakMuayView, names: Sequence[str]) -> str:
    """Plain words for one action text, given the deciding seat's view."""
    kind = view.decision.kind if view.decision else ""
    seat = view.seat
    head, _, arg = text.partition(":")
    pend = view.pending
    target = names[next_active(view, seat)] if seat is not None else "the next player"
    if text == "draw":
        return "Draw a card"
    if head == "attack":
        return f"Attack +{arg} on {target}"
    if text == "countdown":
        return f"{countdown_title(view.countdown_seconds)} on {target}"
    if text == "dodge":
        return "Dodge: end your turn without drawing" if kind == "action" else "Dodge it"
    if text == "scout":
        return "Scout the top 3 cards"
    if text == "sweep":
        return "Sweep: shuffle the draw pile"
    if head == "pair":
        return f"Clinch pair ({TITLE[arg].removeprefix('Clinch: ')} ×2): steal a random card"
    if head == "triple":
        holds = ", ".join(TITLE[h].removeprefix("Clinch: ") for h in arg.split("+"))
        return f"Clinch triple ({holds}): ask for a card"
    if head == "target":
        who = int(arg)
        return f"Clinch {names[who]} ({_cards(view.hand_sizes[who])})"
    if head == "name":
        return f"Ask for {TITLE[arg]}"
    if text == "take-random":
        return "Stop asking: take a random card"
    if text == "keep":
        return f"Keep the direction ({view.direction})"
    if text == "reverse":
        other = "counterclockwise" if view.direction == "clockwise" else "clockwise"
        return f"Reverse the direction (to {other})"
    if text == "take":
        return f"Take the hit: draw {'?' if pend.value is None else _cards(pend.value)}"
    if text == "block":
        return "Block the Countdown" if kind == "countdown_response" else "Play your Block on the KO"
    if head == "clinch":
        return f"Answer with {TITLE[arg]}"
    if text == "no-response":
        return "Give up: no answer (you are counted out)"
    if head == "hide":
        k = int(arg)
        if k == 0:
            return "Hide the KO on top"
        if k == view.draw_pile:
            return "Hide the KO at the bottom"
        return f"Hide the KO {k} down"
    if head == "scout-take":
        if arg == "none":
            return "Take nothing (they are all KOs)"
        seen = pend.seen or ()
        i = int(arg)
        if i >= len(seen):
            return text
        alike = sum(1 for s in seen if s == seen[i]) > 1
        return f"Take {TITLE[seen[i]]}" + (f" (card {i + 1} from the top)" if alike else "")
    if head == "order":
        seen = pend.seen or ()
        order = [int(x) for x in arg.split(",")]
        if all(i < len(seen) for i in order):
            return "Put back, top first: " + ", ".join(TITLE.get(seen[i], seen[i]) for i in order)
    return text


class NakMuayGuide(Guide):
    """The :class:`~knockabout.core.plugins.Guide` of Nak Muay Knockout."""

    claims = CLAIMS

    def prompts(self) -> Mapping[str, Prompt]:
        return PROMPTS

    def label(self, view: View, action: str, names: Sequence[str]) -> str:
        return label(action, self.view_of(view, NakMuayView), names)

    def advise(self, seat: SeatView, names: Sequence[str]) -> Guidance:
        v, d = self.deciding(seat, NakMuayView)
        legal = v.legal or ()
        kind = d.kind
        strict = v.end_turn == "strict_end_turn"
        hand = v.hand or ()
        has_block = "block" in hand
        prompt = self._prompt(kind, v, names, strict)
        actions: list[GuidedAction] = []
        hints: list[Hint] = []
        piles = f"{v.ko_in_pile} of the {_cards(v.draw_pile)} in the draw pile are KOs"
        shown = self._shown(legal, v)
        for text in shown:
            words = label(text, v, names)
            tone: Tone = ""
            claim = ""
            if kind == "action":
                if text == "draw":
                    tone = "quiet"
                elif text == "dodge":
                    claim = "avoids_draw"
                elif _major(text):
                    claim = "avoids_draw" if strict else "still_draws"
                    words += ", ending your turn (no draw)" if strict else ", then draw"
            elif text == "take":
                tone, claim = "quiet", "draws_n"
            elif text == "no-response":
                tone, claim = "danger", "knocked_out"
            elif kind == "countdown_response" or text == "block":
                claim = "survives"
            elif kind == "attack_response" and text == "dodge":
                claim = "cancels_attack"
            elif kind == "steal_target" and v.pending.steal == "pair" and v.hand_sizes[int(text[7:])] == 0:
                tone, claim = "quiet", "steals_nothing"
                words += ": nothing to steal"
            actions.append(GuidedAction(text, words, tone=tone, claim=claim))
        if kind == "action":
            majors = tuple(a for a in shown if _major(a))
            if strict and majors:
                hints.append(Hint("Under this table's rules any card you play ends your turn at once: you do not "
                                  "draw.", "avoids_draw", majors + (("dodge",) if "dodge" in shown else ())))
            elif "dodge" in shown:
                hints.append(Hint("Only a Dodge ends your turn without a draw; after any other card you still draw.",
                                  "avoids_draw", ("dodge",)))
            if has_block:
                hints.append(Hint(f"Your Block saves you if you draw a KO ({piles}).", "block_saves", ("draw",)))
            else:
                hints.append(Hint(f"You hold no Block: a KO drawn now knocks you out ({piles}).", "ko_knocks_out",
                                  ("draw",)))
        elif kind == "attack_response":
            if "dodge" in shown:
                hints.append(Hint("Your Dodge cancels the Attack: you draw nothing for it.", "cancels_attack",
                                  ("dodge",)))
            if not has_block:
                hints.append(Hint(f"You hold no Block: a KO among the cards you draw knocks you out ({piles}).",
                                  "ko_knocks_out", ("take",)))
        elif kind == "countdown_response":
            answers = tuple(a for a in shown if a != "no-response")
            if answers:
                hints.append(Hint("Any of your answers keeps you in the fight.", "survives", answers))
            else:
                hints.append(Hint("You hold no Block, Dodge or Clinch card: nothing can answer this Countdown.",
                                  "knocked_out", ("no-response",)))
        elif kind == "hide_ko":
            owed = v.pending.draws_left or 0
            if owed:
                hints.append(Hint(f"You still draw {_cards(owed)} for this hit: hidden on top, the KO comes straight "
                                  "back to you.", "redraws_ko", ("hide:0",)))
            else:
                hints.append(Hint("Hidden on top, the KO is the next card drawn, unless someone shuffles or scouts "
                                  "first.", "ko_on_top", ("hide:0",)))
        elif kind == "scout_order" and not strict:
            hints.append(Hint("Then you draw: the first card you put back is the one you get.", "draws_first_listed",
                              tuple(shown)))
        return Guidance(kind, prompt, tuple(actions), tuple(hints))

    @staticmethod
    def _prompt(kind: str, v: NakMuayView, names: Sequence[str], strict: bool) -> Prompt:
        base = PROMPTS[kind]
        p = v.pending
        if kind == "action":
            why = ("Play one card (it ends your turn, no draw), or draw a card." if strict
                   else "Play one card if you like, then draw a card; a Dodge skips the draw.")
            return Prompt(base.title, why, base.section)
        if kind == "attack_response" and p.attacker is not None and p.value is not None:
            return Prompt(base.title, f"{names[p.attacker]} played Attack +{p.value} on you: Dodge to cancel it, or "
                          f"take the hit and draw {_cards(p.value)}.", base.section)
        if kind == "countdown_response" and p.attacker is not None:
            return Prompt(base.title, f"{names[p.attacker]} started a {countdown_title(v.countdown_seconds)}: answer "
                          "with a Block, a Dodge or any Clinch card before the time runs out, or you are out.",
                          base.section)
        if kind == "triple_name" and p.target is not None:
            return Prompt(base.title, f"Name a card: if {names[p.target]} holds one they must hand it over. Or stop "
                          "and take a card at random.", base.section)
        return base

    @staticmethod
    def _shown(legal: Sequence[str], v: NakMuayView) -> list[str]:
        """The actions to offer, in order: real answers first, giving up last; orders that
        put back the same cards in the same order (two alike swapped) leave the same pile,
        so only the first of them is offered."""
        seen = v.pending.seen or ()
        piles: set[tuple[str, ...]] = set()
        kept = []
        for a in legal:
            if a.startswith("order:"):
                pile = tuple(seen[int(i)] if int(i) < len(seen) else i for i in a[6:].split(","))
                if pile in piles:
                    continue
                piles.add(pile)
            kept.append(a)
        last = ("take", "no-response")
        return [a for a in kept if a not in last] + [a for a in kept if a in last]


GUIDE = NakMuayGuide()
