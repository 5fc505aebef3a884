"""Stepping many games of one game at once: the loop under the batched environment.

:class:`BatchStepper` holds ``batch`` games of one table (game, configuration, seats). One
:meth:`~BatchStepper.step` applies one action code per game, deals a finished game again in
place, and writes, for every game, the observation of the seat to act (through the game's
:class:`~knockabout.core.state_encoding.StateEncoder`), its legal action codes, the reward
of the seat that acted, whether the game ended and who acts next — as plain lists, which
``knockabout.envs.vector`` turns into its numpy buffers. It names no game and imports no
numpy; the compiled build compiles it with the engines (``knockabout.compiled``).

Seeds are per game: game ``i``'s ``k``-th deal (from 0) is seeded ``seed + i + k * batch``,
so no two deals of a run repeat and each game's sequence replays from its seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from librt.strings import BytesWriter, write_i32_le

from knockabout.core.errors import ActionParseError, IllegalActionError
from knockabout.core.state_encoding import POSITION_LIMIT, Scatter, StateEncoder

if TYPE_CHECKING:
    from knockabout.core.actions import Action
    from knockabout.core.protocol import Game, State


class BatchStepper:
    """``batch`` games of one table, stepped together (see the module text).

    After :meth:`reset` or :meth:`step`: ``scatter`` holds every game's observation row
    (row ``i``: game ``i``), ``legal`` the flat positions ``i * actions + code`` of every
    legal code (int32 bytes), ``seat`` the seat to act in each game, and after a step
    ``reward`` (the acting seat's) and ``done``; ``ended`` lists the games that just ended, ``final``
    holds every seat's reward of each (row ``i``; other rows keep older values) and
    ``final_scatter`` the acting seat's observation of its last position; ``seeds`` holds
    each game's current deal.
    """

    game: Game[Any]
    config: Any
    players: int
    batch: int
    size: int
    actions: int
    encoder: StateEncoder
    by_code: tuple[Action, ...]
    states: list[State]
    seeds: list[int]
    deals: list[int]
    first_seed: int
    scatter: Scatter
    legal: BytesWriter
    seat: list[int]
    reward: list[float]
    done: list[bool]
    final: list[list[float]]
    ended: list[int]
    final_scatter: Scatter
    finished: int

    def __init__(self, game: Game[Any], config: Any, players: int, batch: int, encoder: StateEncoder) -> None:
        if batch * max(encoder.size, len(game.actions)) >= POSITION_LIMIT:
            raise ValueError(f"a batch of {batch} games is too large to address (at most {POSITION_LIMIT} numbers)")
        self.game = game
        self.config = config
        self.players = players
        self.batch = batch
        self.size = encoder.size
        self.by_code = tuple(game.actions)
        self.actions = len(self.by_code)
        self.encoder = encoder
        self.states = []
        self.seeds = [0] * batch
        self.deals = [0] * batch
        self.first_seed = 0
        self.scatter = Scatter()
        self.legal = BytesWriter()
        self.seat = [0] * batch
        self.reward = [0.0] * batch
        self.done = [False] * batch
        self.final = [[0.0] * players for _ in range(batch)]
        self.ended = []
        self.final_scatter = Scatter()
        self.finished = 0

    def _deal(self, i: int) -> State:
        """Game ``i``'s next deal (skipping any deal that ends before anyone decides)."""
        while True:
            seed = self.first_seed + i + self.deals[i] * self.batch
            self.deals[i] += 1
            s = self.game.new_state(self.config, seed, players=self.players)
            if s.to_act() is not None:
                self.seeds[i] = seed
                return s

    def reset(self, seed: int) -> None:
        """Deal every game afresh from ``seed`` and observe each."""
        self.first_seed = seed
        self.deals = [0] * self.batch
        self.finished = 0
        self.states = [self._deal(i) for i in range(self.batch)]
        self.scatter = Scatter()
        self.legal = BytesWriter()
        self.ended = []
        self.final_scatter = Scatter()
        for i in range(self.batch):
            self.reward[i] = 0.0
            self.done[i] = False
            self._observe(i, self.states[i])

    def _observe(self, i: int, s: State) -> None:
        d = s.to_act()
        assert d is not None  # a finished game is dealt again before it is observed
        seat = d.player
        self.seat[i] = seat
        out = self.scatter
        out.begin(i)
        self.encoder.encode(s, seat, out)
        out.end()
        legal = self.legal
        at = i * self.actions
        for a in s.legal_actions():
            write_i32_le(legal, at + a.code)

    def check(self, codes: list[int]) -> None:
        """Refuse the whole batch, changing nothing, unless every code is legal in its game:
        an :class:`ActionParseError` for a list of the wrong length or a value that is not a
        code, an :class:`IllegalActionError` naming the game, the action and what is legal."""
        if len(codes) != self.batch:
            raise ActionParseError(
                f"{self.game.id}: expected {self.batch} action codes, one per game, got {len(codes)}"
            )
        n = self.actions
        by_code = self.by_code
        states = self.states
        for i in range(self.batch):
            code = codes[i]
            if not 0 <= code < n:
                raise ActionParseError(
                    f"{self.game.id}: game {i}: {code!r} is not an action code (codes are 0..{n - 1})"
                )
            s = states[i]
            legal = s.legal_actions()
            if by_code[code] not in legal:
                raise IllegalActionError(by_code[code], s.to_act(), legal, where=f"{self.game.id}: game {i}")

    def step(self, codes: list[int]) -> None:
        """Apply ``codes[i]`` in game ``i`` for every game (all checked first: see :meth:`check`)."""
        self.check(codes)
        by_code = self.by_code
        states = self.states
        n = self.players
        self.scatter = Scatter()
        self.legal = BytesWriter()
        self.ended = []
        ended = self.ended
        self.final_scatter = last = Scatter()
        encoder = self.encoder
        for i in range(self.batch):
            s = states[i]
            seat = self.seat[i]
            s.apply(by_code[codes[i]])
            if s.to_act() is None:
                o = s.outcome()
                assert o is not None
                final = self.final[i]
                for p in range(n):
                    final[p] = (n * o.payoffs[p] - 1.0) / (n - 1)
                self.reward[i] = final[seat]
                self.done[i] = True
                ended.append(i)
                last.begin(i)
                encoder.encode(s, seat, last)
                last.end()
                s = states[i] = self._deal(i)
            else:
                self.reward[i] = 0.0
                self.done[i] = False
            self._observe(i, s)
        self.finished += len(ended)
