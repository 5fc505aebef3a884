"""High Card's rules.

Nine cards (1-9) are shuffled and each player gets ``rounds`` of them. Each round the
leader plays a card face up, the other answers with one; the higher card wins the round
(a tie goes to the leader), and the round's winner leads the next. After the last round
whoever won more rounds wins the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from highcard.actions import PLAY, card_of
from highcard.view import HighCardView, PendingDecision, Result
from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Outcome, State
from knockabout.core.rng import Rng


class HighCardState(State):
    __slots__ = ("hands", "leader", "led", "pool", "round", "rounds", "wins")

    hands: list[list[int]]
    pool: list[int]  # the cards nobody holds
    leader: int
    led: int | None
    round: int
    rounds: int
    wins: list[int]

    @classmethod
    def deal(cls, rounds: int, seed: int) -> HighCardState:
        deck = list(range(1, 10))
        Rng(seed).shuffle(deck)
        s = cls.__new__(cls)
        s._legal = None
        s.hands = [sorted(deck[:rounds]), sorted(deck[rounds : 2 * rounds])]
        s.pool = sorted(deck[2 * rounds :])
        s.leader, s.led, s.round, s.rounds, s.wins = 0, None, 1, rounds, [0, 0]
        return s

    def to_act(self) -> Decision | None:
        if self.round > self.rounds:
            return None
        if self.led is None:
            return Decision(self.leader, "lead", prompt="Lead a card")
        return Decision(1 - self.leader, "answer", prompt=f"Answer the {self.led}")

    def _legal_actions(self) -> tuple[Action, ...]:
        d = self.to_act()
        return () if d is None else tuple(PLAY[c] for c in self.hands[d.player])

    def _apply(self, action: Action) -> list[Event]:
        d = self.to_act()
        assert d is not None
        card = card_of(action)
        self.hands[d.player].remove(card)
        events = [Event("played", {"player": d.player, "card": card})]
        if self.led is None:
            self.led = card
            return events
        winner = self.leader if self.led >= card else d.player
        self.wins[winner] += 1
        events.append(Event("round_won", {"player": winner, "round": self.round}))
        self.leader, self.led, self.round = winner, None, self.round + 1
        if self.round > self.rounds:
            out = self.outcome()
            assert out is not None
            events.append(Event("game_over", {"winners": list(out.winners), "reason": out.reason}))
        return events

    def observe(self, player: int | None) -> HighCardView:
        d = self.to_act()
        out = self.outcome()
        return HighCardView(
            seat=player,
            round=min(self.round, self.rounds),
            rounds=self.rounds,
            wins=(self.wins[0], self.wins[1]),
            leader=self.leader,
            led=self.led,
            hand_sizes=(len(self.hands[0]), len(self.hands[1])),
            hand=None if player is None else tuple(self.hands[player]),
            decision=None if d is None else PendingDecision(player=d.player, kind=d.kind),
            legal=tuple(a.text for a in self.legal_actions()) if d is not None and d.player == player else None,
            outcome=None if out is None else Result(winners=out.winners, draw=out.draw, reason=out.reason),
        )

    def outcome(self) -> Outcome | None:
        if self.round <= self.rounds:
            return None
        a, b = self.wins
        if a == b:
            return Outcome.shared((0, 1), 2, "tie")
        return Outcome.win(0 if a > b else 1, 2, f"most rounds ({max(a, b)}-{min(a, b)})")

    def clone(self) -> Self:
        c = type(self).__new__(type(self))
        c._legal = self._legal
        c.hands = [list(h) for h in self.hands]
        c.pool = list(self.pool)
        c.leader, c.led, c.round, c.rounds, c.wins = self.leader, self.led, self.round, self.rounds, list(self.wins)
        return c

    def determinize(self, player: int, rng: Rng) -> Self:
        c = self.clone()
        other = 1 - player
        unknown = c.hands[other] + c.pool
        rng.shuffle(unknown)
        n = len(c.hands[other])
        c.hands[other], c.pool = sorted(unknown[:n]), sorted(unknown[n:])
        c._legal = None
        return c

    def to_dict(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "pool": list(self.pool), "leader": self.leader,
                "led": self.led, "round": self.round, "rounds": self.rounds, "wins": list(self.wins)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighCardState:
        s = cls.__new__(cls)
        s._legal = None
        s.hands = [list(map(int, h)) for h in data["hands"]]
        s.pool = list(map(int, data["pool"]))
        s.leader, s.led, s.round = int(data["leader"]), data["led"], int(data["round"])
        s.rounds, s.wins = int(data["rounds"]), list(map(int, data["wins"]))
        return s

    def turns(self) -> int:
        return min(self.round, self.rounds)

    def _num_players(self) -> int:
        return 2
