"""What the table tells a Knockdown player about each decision (the game's :class:`Guide`).

Labels are read from the deciding seat's view (hands, the row, the arena and the sheets are
open in Knockdown); what an action will do is worked out by the engine itself, by applying
it to a state sampled from the seat's knowledge (:meth:`SeatView.sample`): whether an
Attack card reaches the rival from here, how many wounds a Block ignores, how many wounds a
Knockdown Test is taken against. Only what every sample agrees on is said (the deck order
and the rival's secret skill play no part in it). Each consequence is one of
:data:`CLAIMS`; the guide tests check them on a copy of the true state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from knockabout.core.bot import SeatView
from knockabout.core.events import Event
from knockabout.core.plugins import Guidance, Guide, GuidedAction, Hint, Prompt, Tone
from knockabout.core.protocol import State
from knockabout.core.rng import Rng
from knockabout.core.view import View
from knockabout.games.knockdown.presentation.view import KnockdownView, SkillView

CLAIMS: Mapping[str, str] = {
    "misses": "the Attack card goes to your hand and its attack does not reach the rival",
    "reaches": "the attack reaches the rival from where you stand",
    "block_ignores": "the Block ignores exactly the wounds (and the effect) its label names",
    "test_against": "the Knockdown Test is taken against the number of wounds the hint names",
}

_DRAFT = "the-skill-draft"
PROMPTS: Mapping[str, Prompt] = {
    "skill_draft": Prompt("Skill draft", "Keep one of the Skill cards offered; the others go on. Your kept Skills "
                          "change how your fighter plays.", _DRAFT),
    "skill_face_up": Prompt("Skill draft: face up", "Choose which of your two Skills lies face up and works from "
                            "now on; the other stays secret until you lose a round.", _DRAFT),
    "opening_pick": Prompt("Opening pick", "Take a card from the Attack Row into your hand before the first turn.",
                           "the-opening-pick"),
    "turn": Prompt("Your turn", "Move one space, attack with a card from the Attack Row, or start a Combo of your "
                   "Special Attacks.", "your-turn"),
    "take_from_row": Prompt("Take a card", "Take a card from the Attack Row into your hand.", "the-attack-row"),
    "move_step": Prompt("Move", "Move the fighter one space, or stop.", "moving"),
    "blink": Prompt("Blink", "Choose the space where the fighter lands.", "moving"),
    "combo": Prompt("Combo", "Play a Special Attack from your sheet or a Dash from your hand; end the Combo when you "
                    "are done.", "combos-and-special-attacks"),
    "pay": Prompt("Pay the cost", "Choose the hand cards whose symbols pay for this Special Attack; they are "
                  "discarded.", "combos-and-special-attacks"),
    "block": Prompt("Block?", "You are hit by a Strike: discard a card with a Block symbol to ignore some of it, or "
                    "take it all.", "blocking"),
    "choose_card": Prompt("Choose a card", "Choose a card of the hand shown.", "cards-in-hand"),
    "reaction": Prompt("Reaction?", "Your rival's move lets you answer with a Reaction from your sheet, paid like a "
                       "Special Attack.", "reactions"),
    "knockdown": Prompt("Knockdown Test?", "Your attack has a K.O. effect: you may put your rival to a Knockdown "
                        "Test. If they fail it, you win the round.", "the-knockdown-test"),
    "tower_challenge": Prompt("Knockdown Test: the tower", "Stack all your wound cubes into a tower before the "
                              "time runs out, or you lose the round.", "the-knockdown-test"),
    "token_count": Prompt("Spend tokens", "Choose how many of these tokens to spend.", "tokens"),
}

DIR_WORD = {"up": "up", "down": "down", "left": "left", "right": "right"}
PURPOSE_VERB = {"reveal": "Reveal", "pick_revealed": "Discard", "block_card": "Discard"}
_FIXED = {
    "potion": "Drink a Potion (heal 2 light wounds)",
    "pass": "Pass (nothing else is possible)",
    "stop": "Stop moving",
    "done": "Done: discard no more",
    "block:none": "Do not block",
    "ko:test": "Start the Knockdown Test",
    "ko:skip": "No Knockdown Test",
    "tower:pass": "The tower stands",
    "tower:fail": "The tower fell",
}
_QUIET = frozenset({"pass", "done", "stop", "block:none", "react:none", "ko:skip"})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def offered_skills(view: KnockdownView) -> tuple[SkillView, ...]:
    if view.draft is None:
        return ()
    return view.draft.received or view.draft.dealt


def _row_name(view: KnockdownView, i: int) -> str:
    """A row card by name, with its place (#1-#4) when the row holds two of the same name."""
    name = view.row[i] or "?"
    return f"{name} (#{i + 1})" if sum(1 for n in view.row if n == name) > 1 else name


def _card_words(name: str, text: str) -> str:
    """A card's generated text as one sentence after its name: without the symbols and the
    name it starts with, its lines joined."""
    body = text.split(" - ", 1)[1] if " - " in text else text
    return f"{name}: " + "; ".join(line.strip() for line in body.splitlines() if line.strip())


def label(text: str, view: KnockdownView, names: Sequence[str]) -> str:
    """Plain words for one action text, given the deciding seat's view."""
    d = view.decision
    me = d.player if d is not None and d.player >= 0 else (view.seat or 0)
    head, _, arg = text.partition(":")
    p = view.pending
    spaces = view.arena.spaces
    hand = view.fighters[me].hand
    if head == "move":
        return f"Move {DIR_WORD.get(arg, arg)}"
    if head == "attack":
        return f"Attack with {_row_name(view, int(arg))}" if view.row[int(arg)] else text
    if head == "row":
        return f"Take {_row_name(view, int(arg))}"
    if text == "combo":
        return "Combo: Special Attacks and Dashes"
    if text == "combo:end":
        return "End the Combo"
    if head == "special":
        return f"Special Attack: {view.fighters[me].specials[int(arg)]}"
    if head == "react":
        return "Let it happen" if arg == "none" else f"React: {view.fighters[me].specials[int(arg)]}"
    if head == "dash":
        return f"Dash: discard {hand[int(arg)]}"
    if head == "pay":
        return "Pay with " + " + ".join(hand[int(i)] for i in arg.split("+") if int(i) < len(hand))
    if head == "card":
        owner_hand = view.fighters[p.owner if p.owner is not None else me].hand
        i = int(arg)
        name = owner_hand[i] if i < len(owner_hand) else arg
        return f"{PURPOSE_VERB.get(p.purpose or '', 'Discard')} {name}"
    if head == "space":
        return f"Land on {spaces[int(arg)].label}"
    if head == "corridor":
        sp = spaces[int(arg)]
        cost = "1 light wound" if "center" in sp.tags else "1 heavy wound"
        return f"Technical Corridor to {sp.label} ({cost})"
    words = _FIXED.get(text)
    if words is not None:
        return words
    if head == "count":
        token = p.token if p.token else "token"
        return f"Spend {_plural(int(arg), token)}"
    if head == "block":
        kind, _, h = arg.partition(":")
        heavy = f"{_plural(int(h), 'heavy wound')}" if h and h != "0" else "no heavy wound"
        if kind == "effect":
            return "Discard a Block card: ignore the effect"
        if kind == "wounds":
            return f"Discard a Block card: ignore {heavy} and some light ones"
        return f"Discard two Block cards: ignore the effect, {heavy} and some light ones"
    if head == "faceup":
        kept = view.draft.kept if view.draft is not None else None
        i = int(arg)
        return f"Put {kept[i].name} face up" if kept is not None and i < len(kept) else text
    if head == "skill":
        offered = offered_skills(view)
        i = int(arg)
        return f"Keep {offered[i].name}" if i < len(offered) else text
    return text


def _skill_words(sk: SkillView) -> str:
    """A skill's effect for its button (its name is the button's label already)."""
    return f"{sk.text.split('): ', 1)[-1]} (initiative {sk.initiative})"


def _first(events: list[Event], kind: str) -> dict[str, Any] | None:
    for e in events:
        if e.type == kind:
            return dict(e.data)
    return None


class _Sample:
    """One state sampled from the seat's knowledge, made when first needed; each question
    is asked of a fresh copy of it (a copy costs less than a new sample)."""

    def __init__(self, seat: SeatView) -> None:
        self.seat = seat
        self.state: State | None = None

    def fresh(self) -> State:
        if self.state is None:
            self.state = self.seat.sample(Rng(0))
        return self.state.clone()


def fail_chance(wounds: int) -> float:
    """The chance that three dice sum to less than ``wounds``."""
    below = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c < wounds)
    return below / 216


class KnockdownGuide(Guide):
    """The :class:`~knockabout.core.plugins.Guide` of Knockdown."""

    claims = CLAIMS

    def prompts(self) -> Mapping[str, Prompt]:
        return PROMPTS

    def label(self, view: View, action: str, names: Sequence[str]) -> str:
        return label(action, self.view_of(view, KnockdownView), names)

    def advise(self, seat: SeatView, names: Sequence[str]) -> Guidance:
        v, d = self.deciding(seat, KnockdownView)
        me = seat.player
        rival = 1 - me
        legal = v.legal or ()
        actions: list[GuidedAction] = []
        hints: list[Hint] = []
        misses: list[str] = []
        me_view = v.fighters[me]
        sheet = me_view.sheet.specials
        sample = _Sample(seat)
        for text in legal:
            words = label(text, v, names)
            head, _, arg = text.partition(":")
            tone: Tone = "quiet" if text in _QUIET else ""
            claim = ""
            detail = ""
            if head == "attack":
                events = sample.fresh().apply(text)
                name = _row_name(v, int(arg))
                if _first(events, "out_of_range") is not None:
                    words, claim = f"Take {name} (out of reach: no hit)", "misses"
                    misses.append(text)
                elif _first(events, "sequence") is not None or _first(events, "attack_ignored") is not None:
                    words, claim = f"Attack with {name} (in reach)", "reaches"
                elif name in v.cards and v.cards[name].type == "ability":
                    words = f"Use {name} (an Ability: it works at any distance), then keep it"
            elif head == "block" and arg != "none":
                got = self._block(sample, seat.player, text)
                if got is not None:
                    words, claim = self._block_words(got), "block_ignores"
            elif head == "skill":
                offered = offered_skills(v)
                detail = _skill_words(offered[int(arg)]) if int(arg) < len(offered) else ""
            elif head == "faceup":
                kept = v.draft.kept if v.draft is not None and v.draft.kept else ()
                detail = _skill_words(kept[int(arg)]) if int(arg) < len(kept) else ""
            elif head in ("special", "react") and arg != "none":  # (the row's cards and the hand are on the board)
                sp = sheet[int(arg)] if int(arg) < len(sheet) else None
                detail = sp.text.removeprefix(f"{sp.name} - ") if sp is not None else ""  # (the label names it)
            actions.append(GuidedAction(text, words, detail=detail, tone=tone, claim=claim))
        prompt = self._prompt(v, names, me)
        if d.kind == "block" and v.attack is not None and v.attack.name in v.cards:
            hints.append(Hint(_card_words(v.attack.name, v.cards[v.attack.name].text)))
        if d.kind == "turn" and misses:
            hints.append(Hint(f"{names[rival]} is out of reach of some row cards: taking one puts it in your hand "
                              "but hits nothing.", "misses", tuple(misses)))
        if d.kind == "knockdown":
            wounds = self._test_wounds(sample)
            if wounds is not None:
                if v.knockdown_test == "dice":
                    chance = round(100 * fail_chance(wounds))
                    hints.append(Hint(f"{names[rival]} will have {_plural(wounds, 'wound')}: they must roll {wounds} "
                                      f"or more on three dice, and fail {chance}% of the time.", "test_against",
                                      ("ko:test",)))
                else:
                    hints.append(Hint(f"{names[rival]} will have {_plural(wounds, 'wound')}: they must stack a "
                                      f"tower of {wounds} cubes in 10 seconds.", "test_against", ("ko:test",)))
        return Guidance(d.kind, prompt, tuple(actions), tuple(hints))

    # -- what the engine says, on a state sampled from the seat's knowledge
    @staticmethod
    def _block(sample: _Sample, player: int, action: str) -> dict[str, Any] | None:
        """The ``block`` event the Block ``action`` leads to (its Block card chosen first
        when there is a choice); None when the sample does not get there."""
        s = sample.fresh()
        events = s.apply(action)
        for _ in range(4):
            got = _first(events, "block")
            if got is not None:
                return got
            d = s.to_act()
            if d is None or d.player != player or d.kind != "choose_card":
                return None
            events = s.apply(s.legal_actions()[0])
        return None

    @staticmethod
    def _block_words(got: dict[str, Any]) -> str:
        cards = len(got["cards"])
        parts = []
        if got["heavy"]:
            parts.append(_plural(got["heavy"], "heavy wound"))
        if got["light"]:
            parts.append(_plural(got["light"], "light wound"))
        ignored = " and ".join(parts)
        if got["effect"]:
            ignored = f"the effect and {ignored}" if ignored else "the effect"
        which = "a Block card" if cards == 1 else "two Block cards"
        return f"Discard {which}: ignore {ignored or 'nothing'}"

    @staticmethod
    def _test_wounds(sample: _Sample) -> int | None:
        """How many wounds the Knockdown Test will be taken against (after the sheet's K.O.
        effect), when the engine gets there without another decision."""
        events = sample.fresh().apply("ko:test")
        got = _first(events, "test_result")
        if got is not None:
            return int(got["wounds"])
        tower = _first(events, "tower_challenge")
        return None if tower is None else int(tower["cubes"])

    @staticmethod
    def _prompt(v: KnockdownView, names: Sequence[str], me: int) -> Prompt:
        assert v.decision is not None
        kind = v.decision.kind
        base = PROMPTS[kind]
        p = v.pending
        f = v.fighters[me]
        if kind == "turn":
            return Prompt(f"Your turn: action {v.actions_done + 1} of {v.actions_allowed}", base.why, base.section)
        if kind == "skill_draft":
            if v.draft is not None and v.draft.received:
                return Prompt(base.title, "Keep one of the two Skill cards your rival passed you; the other leaves "
                              "the game.", base.section)
            return Prompt(base.title, "Keep one of the three Skill cards dealt to you; the other two go to your "
                          "rival.", base.section)
        if kind == "choose_card":
            left = p.left or 1
            owner = p.owner if p.owner is not None else me
            if p.purpose == "hand_limit":
                return Prompt("Hand limit", f"You hold {_plural(len(f.hand), 'card')} and may keep {f.hand_limit}. "
                              f"Discard {'one' if left == 1 else left}.", "the-hand-limit")
            if p.purpose == "block_card":
                return Prompt("Block: which card?", "Choose the Block card you discard to pay for the Block.",
                              "blocking")
            if p.purpose == "reveal":
                return Prompt("Reveal a card", f"An effect makes you show {names[owner] if owner != me else 'your'} "
                              "cards: choose one to reveal.", base.section)
            if p.purpose == "pick_revealed":
                return Prompt("Pick a revealed card", f"Choose which of {names[owner]}'s revealed cards is "
                              "discarded.", base.section)
            if p.purpose == "discard_for_tokens":
                return Prompt("Discard for tokens", "Discard cards with the symbol asked for to gain tokens, or "
                              "stop.", "tokens")
            some = "a card" if left == 1 else f"{left} cards"
            return Prompt("Discard", f"An effect makes you discard: choose {some}.", base.section)
        if kind == "pay" and p.special:
            return Prompt(f"Pay for {p.special}", base.why, base.section)
        if kind == "move_step" and p.mover is not None:
            who = "your fighter" if p.mover == me else f"{names[p.mover]}'s fighter"
            steps = f" ({_plural(p.moves_left, 'step')} left)" if p.moves_left else ""
            return Prompt(base.title, f"Move {who} one space{steps}" + (", or stop." if p.optional else "."),
                          base.section)
        if kind == "reaction" and p.by is not None:
            what = "moves" if p.trigger == "opponent_moves" else "attacks you"
            return Prompt(base.title, f"{names[p.by]} {what}: you may answer with a Reaction from your sheet, paid "
                          "like a Special Attack.", base.section)
        if kind == "token_count" and p.token:
            return Prompt(base.title, f"You have {_plural(p.have or 0, p.token + ' token')}: choose how many to "
                          "spend.", base.section)
        if kind == "block" and v.attack is not None:
            a = v.attack
            hits = " and ".join(x for x in (_plural(a.heavy, "heavy wound") if a.heavy else "",
                                            _plural(a.light, "light wound") if a.light else "") if x)
            return Prompt(base.title, f"{names[a.by]}'s {a.name} hits you for {hits or 'its effect'}: discard a card "
                          "with a Block symbol to ignore some of it, or take it all.", base.section)
        if kind == "tower_challenge" and p.cubes is not None:
            return Prompt(base.title, f"Stack your {_plural(p.cubes, 'wound cube')} into a tower, 1 first, before the "
                          f"{p.seconds or 10} seconds run out, or you lose the round.", base.section)
        return base


GUIDE = KnockdownGuide()
