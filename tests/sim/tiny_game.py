"""Tiny Duel: a made-up two-seat game, small enough to read in a minute, for testing the
generic layers (bots, sim, balance) without any real game.

Each seat holds a deck of three numbered cards. A match is ``rounds`` rounds; in each,
the round's first player plays a card face up, then the other does; the higher card
wins the round (equal cards: a drawn round) and the loser starts the next round (after a
drawn round the other seat does). The seat with more round wins takes the match;
otherwise it is a draw. Who starts round 1 is drawn from the seed.

Two games are declared: ``tiny-duel`` with no plug-ins but a balance run (its entrants
are the decks), and ``tiny-duel-coached`` which adds a heuristic (play the highest card)
and bot budgets of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict

from knockabout.core.actions import Action, ActionSpace
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import ConfigError
from knockabout.core.events import Event
from knockabout.core.plugins import (
    BalanceMatch,
    BalancePlugin,
    BotBudgets,
    EntrantGroup,
    GameFacts,
    HeuristicPlugin,
    MatchMetrics,
    RateTable,
)
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.registry import register, unregister
from knockabout.core.rng import Rng
from knockabout.core.view import View

DECKS: dict[str, tuple[int, int, int]] = {"aces": (9, 1, 1), "even": (4, 4, 4), "steps": (2, 4, 6)}


class TinyConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    decks: tuple[str, str] = ("even", "even")
    rounds: int = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class TinyView(View):
    hands: tuple[tuple[int, ...], ...]
    wins: tuple[int, ...]
    first: int
    played: int | None


class TinyState(State):
    __slots__ = ("first", "hands", "played", "rng", "rounds_left", "to_move", "wins")

    def __init__(self, hands: list[list[int]], rounds: int, first: int, rng: Rng) -> None:
        self._legal = None
        self.hands = hands
        self.rounds_left = rounds
        self.first = self.to_move = first
        self.played: int | None = None
        self.wins = [0, 0]
        self.rng = rng

    def to_act(self) -> Decision | None:
        if self.rounds_left == 0:
            return None
        return Decision(self.to_move, "play")

    def _legal_actions(self) -> tuple[Action, ...]:
        if self.rounds_left == 0:
            return ()
        return tuple(self.game.actions[i] for i in range(len(self.hands[self.to_move])))

    def _apply(self, action: Action) -> list[Event]:
        p = self.to_move
        card = self.hands[p].pop(action.code)
        events = [Event("played", {"player": p, "card": card})]
        if self.played is None:
            self.played = card
            self.to_move = 1 - p
            return events
        first_card, self.played = self.played, None
        winner = None if card == first_card else (p if card > first_card else 1 - p)
        events.append(Event("round_over", {"winner": winner}))
        if winner is not None:
            self.wins[winner] += 1
        self.rounds_left -= 1
        if self.rounds_left:
            self.first = self.to_move = (1 - winner) if winner is not None else 1 - self.first
            events.append(Event("round_start", {"first": self.first}))
        return events

    def observe(self, player: int | None) -> TinyView:
        return TinyView(
            hands=tuple(tuple(h) for h in self.hands), wins=tuple(self.wins), first=self.first, played=self.played
        )

    def outcome(self) -> Outcome | None:
        if self.rounds_left:
            return None
        if self.wins[0] == self.wins[1]:
            return Outcome.shared((0, 1), 2, "even")
        return Outcome.win(0 if self.wins[0] > self.wins[1] else 1, 2, "most rounds")

    def clone(self) -> Self:
        c = type(self)([list(h) for h in self.hands], self.rounds_left, self.first, self.rng.copy())
        c.to_move, c.played, c.wins = self.to_move, self.played, list(self.wins)
        return c

    def determinize(self, player: int, rng: Rng) -> Self:
        c = self.clone()
        c.rng = Rng(rng.next64())
        return c

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "wins": self.wins, "first": self.first, "to_move": self.to_move}

    def _num_players(self) -> int:
        return 2


class TinyWatcher:
    """Round 1's first player, each round's first player and winner, and each seat's cards
    (drawn: in the starting hand; played: played)."""

    def __init__(self, state: State) -> None:
        assert isinstance(state, TinyState)
        self.match_first = self.first = state.first
        self.rounds: list[tuple[int, int | None]] = []
        self.steps = 0
        self.cards: list[dict[str, list[int]]] = [{}, {}]
        for seat, hand in enumerate(state.hands):
            for card in hand:
                self.cards[seat].setdefault(str(card), [0, 0])[0] += 1

    def see(self, state: State, events: Sequence[Event]) -> None:
        self.steps += 1
        for e in events:
            if e.type == "played":
                self.cards[int(e.data["player"])][str(e.data["card"])][1] += 1
            if e.type == "round_over":
                self.rounds.append((self.first, e.data["winner"]))
            elif e.type == "round_start":
                self.first = int(e.data["first"])

    def metrics(self) -> MatchMetrics:
        return MatchMetrics(first=self.match_first, rounds=self.rounds, extra={"steps": self.steps}, cards=self.cards)


class TinyBalance(BalancePlugin):
    entrant_kind: ClassVar[str] = "deck"
    options: ClassVar[Mapping[str, str]] = {"rounds": "rounds a match", "decks": "the decks that meet"}

    def groups(self, options: Mapping[str, Any]) -> list[EntrantGroup]:
        decks = tuple(options.get("decks", DECKS))
        if any(d not in DECKS for d in decks):
            raise ConfigError(f"unknown deck among {decks}")
        return [EntrantGroup("Tiny decks", decks, {"rounds": options.get("rounds", 3)})]

    def pairing_config(self, group: EntrantGroup, a: str, b: str) -> dict[str, Any]:
        return {**group.config, "decks": [a, b]}

    def watch(self, state: State) -> TinyWatcher:
        return TinyWatcher(state)

    def label(self, entrant: str) -> str:
        return entrant[:2]

    def rate_tables(self, group: EntrantGroup, matches: Sequence[BalanceMatch]) -> list[RateTable]:
        """Each deck's points in the matches where it started round 1."""
        tally: dict[str, list[float]] = {}
        for m in matches:
            deck = (m.a, m.b)[m.metrics.first]
            t = tally.setdefault(deck, [0.0, 0])
            t[0] += m.payoffs[m.metrics.first]
            t[1] += 1
        rows = [((deck,), points, int(n)) for deck, (points, n) in sorted(tally.items())]
        return [RateTable(("deck",), "started", "starter wins", rows)]


class TinyDuel(Game[TinyConfig]):
    id: ClassVar[str] = "tiny-duel"
    name: ClassVar[str] = "Tiny Duel"
    rules_version: ClassVar[str] = "1"
    facts: ClassVar[GameFacts] = GameFacts(
        min_players=2,
        max_players=2,
        default_players=2,
        hidden_information=False,
        chance="seeded",
        timed_decisions=False,
        decision_kinds=frozenset({"play"}),
        outcome_reasons=frozenset({"most rounds", "even"}),
    )
    view_type: ClassVar[type[View]] = TinyView
    config_model: ClassVar[type[BaseModel]] = TinyConfig
    state_type: ClassVar[type[TinyState]] = TinyState

    def __init__(self) -> None:
        self.actions = ActionSpace(self.id, ["play 1st", "play 2nd", "play 3rd"])

    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> TinyState:
        if players not in (None, 2):
            raise ConfigError(f"{self.id} is played by 2 players, not {players}")
        cfg = self.make_config(config)
        for d in cfg.decks:
            if d not in DECKS:
                raise ConfigError(f"{self.id}: unknown deck {d!r}")
        rng = Rng(seed)
        return self.state_type([list(DECKS[d]) for d in cfg.decks], cfg.rounds, rng.below(2), rng)

    def state_from_dict(self, data: Mapping[str, Any]) -> TinyState:
        raise NotImplementedError

    def balance(self) -> BalancePlugin:
        return TinyBalance()


class HighCardBot(Bot):
    """Plays its highest card (reads its seat's view only)."""

    name = "high card"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        obs = view.observation()
        assert isinstance(obs, TinyView)
        hand = obs.hands[view.player]
        return legal[max(range(len(legal)), key=lambda i: hand[i])]


class CoachedState(TinyState):
    __slots__ = ()


class TinyDuelCoached(TinyDuel):
    """Tiny Duel with a heuristic plug-in and budgets of its own."""

    id: ClassVar[str] = "tiny-duel-coached"
    state_type: ClassVar[type[TinyState]] = CoachedState
    budgets: ClassVar[BotBudgets] = BotBudgets(iterations={"medium": 7}, steps={"hard": 99})

    def heuristic(self) -> HeuristicPlugin:
        return HeuristicPlugin(bot=HighCardBot, search_prior_visits=3)


TINY = TinyDuel()
TinyState.game = TINY
COACHED = TinyDuelCoached()
CoachedState.game = COACHED


@contextmanager
def registered() -> Iterator[None]:
    """Both tiny games in the registry for the duration, forgotten after."""
    register(TINY)
    register(COACHED)
    try:
        yield
    finally:
        unregister(TINY.id)
        unregister(COACHED.id)
