"""Ratings: how strong each account and each bot level is at each game.

The model is openskill's Weng-Lin Bayesian rating with the Plackett-Luce likelihood
(:class:`openskill.models.PlackettLuce`): each player has a mean skill ``mu`` and an
uncertainty ``sigma``, a finished game of any number of seats (2-5 here; teams too)
updates everyone at once from the seats' ranks, and a new player's large ``sigma`` makes
their first games count more. Why this and not Elo or Glicko-2: docs/live-play.md
(*Ratings*).

What a person is shown is ``mu`` on a familiar scale, :func:`shown`: 1500 for a new
player, 60 points per unit of ``mu`` (so one ``beta``, the skill gap that makes a win
about 76 % likely in a two-player game, is 250 points). Leaderboards order by the
cautious estimate ``mu - 3 sigma`` (openskill's ordinal), so a lucky first game does not
top them.

Who is rated is decided by :func:`rated_seats`:

* a table of **people only**, each signed in (guests are never rated), on the game's
  **standard options** (:func:`standard_config`), where nobody **abandoned the table
  before their first move** (a stand-in made it), rates every person;
* a table of signed-in people and **bots**, on the same terms, rates the **bots** only:
  a bot level gets its rating from its own games against people, on the same scale,
  while the people's ratings come from games against people alone (so nobody climbs
  by farming a bot);
* anything else (bots only, a guest, other options, a table that let people take back
  moves) rates nobody.

A rating is keyed by a player key, :func:`account_key` or :func:`bot_key`; nothing
here names a game or reads a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from openskill.models import PlackettLuce, PlackettLuceRating

from knockabout.core.protocol import Game, Outcome

MU = 25.0
SIGMA = MU / 3
SHOWN_START = 1500
SHOWN_PER_MU = 60.0
PROVISIONAL_GAMES = 5
"""Fewer rated games than this: the rating is marked provisional."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

BOT_PRIOR_SHOWN: Mapping[str, int] = {"random": 900, "easy": 1350, "medium": 1550, "hard": 1700}
"""Where a bot level starts before it has played people (shown points); its own games
against people then move it. A level not listed starts as a new player."""


def account_key(account_id: int | str) -> str:
    return f"account:{account_id}"


def bot_key(level: str) -> str:
    return f"bot:{level}"


def shown(mu: float) -> int:
    """A skill mean on the scale people see (1500 for a new player)."""
    return round(SHOWN_START + SHOWN_PER_MU * (mu - MU))


def mu_of(points: float) -> float:
    """The skill mean a shown rating stands for (the inverse of :func:`shown`)."""
    return MU + (points - SHOWN_START) / SHOWN_PER_MU


@dataclass(frozen=True)
class Rating:
    """One player's rating at one game, with its record of rated games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def cautious(self) -> float:
        """``mu - 3 sigma``: what the leaderboards order by."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def win_rate(self) -> float | None:
        return None if self.games == 0 else self.wins / self.games

    def to_dict(self) -> dict[str, Any]:
        return {"rating": self.shown, "plus_minus": round(2 * SHOWN_PER_MU * self.sigma), "games": self.games,
                "wins": self.wins, "draws": self.draws, "provisional": self.provisional,
                "win_rate": None if self.win_rate is None else round(self.win_rate, 3)}


def starting(key: str) -> Rating:
    """The rating a player key has before its first rated game."""
    kind, _, name = key.partition(":")
    if kind == "bot" and name in BOT_PRIOR_SHOWN:
        return Rating(mu=mu_of(BOT_PRIOR_SHOWN[name]))
    return Rating()


# -- which tables count

SeatKindText = Literal["person", "bot", "empty"]


@dataclass(frozen=True)
class SeatFacts:
    """What rating needs to know of a seat: who sat there (a person's account, None for a
    guest; a bot's level) and who made the seat's first move (``person``, ``bot``,
    ``stand-in``, ``timeout``, ``judged``; None: it never moved)."""

    kind: SeatKindText
    account: int | str | None = None
    level: str | None = None
    first_move_by: str | None = None

    @property
    def key(self) -> str | None:
        if self.kind == "bot" and self.level:
            return bot_key(self.level)
        if self.kind == "person" and self.account is not None:
            return account_key(self.account)
        return None


def standard_config(game: Game[Any], players: int, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game's default options for ``players`` seats (with ``extra`` over them: the
    options a turn-based table sets), as stored in a record."""
    data: dict[str, Any] = dict(extra or {})
    if "players" in game.config_model.model_fields:
        data["players"] = players
    out: dict[str, Any] = game.make_config(data).model_dump(mode="json")
    return out


def unrated_because(game: Game[Any], config: Mapping[str, Any], seats: Sequence[SeatFacts],
                    standard: Sequence[Mapping[str, Any]] = (), *, undo: bool = False) -> str | None:
    """Why a table rates nobody, or None when it is rated. ``standard`` lists the option
    sets that count as standard besides the defaults (a turn-based table's); ``undo``: the
    table let people take back moves."""
    if undo:
        return "moves could be taken back at this table"
    if not any(s.kind == "person" for s in seats):
        return "no person plays at this table"
    if any(s.kind == "person" and s.account is None for s in seats):
        return "a guest plays at this table (only signed-in players are rated)"
    if any(s.kind == "empty" for s in seats):
        return "a seat is empty"
    mine = game.make_config(config).model_dump(mode="json")
    allowed = [standard_config(game, len(seats))] + [standard_config(game, len(seats), s) for s in standard]
    if mine not in allowed:
        return "the table does not use the game's standard options"
    if any(s.kind == "person" and s.first_move_by not in (None, "person", "judged") for s in seats):
        return "a player left before making a first move"
    return None


def rated_seats(game: Game[Any], config: Mapping[str, Any], seats: Sequence[SeatFacts],
                standard: Sequence[Mapping[str, Any]] = (), *, undo: bool = False) -> list[int]:
    """The seats whose ratings a finished table updates (see the module doc)."""
    if unrated_because(game, config, seats, standard, undo=undo) is not None:
        return []
    bots = [i for i, s in enumerate(seats) if s.kind == "bot"]
    return bots or [i for i, s in enumerate(seats) if s.kind == "person"]


def rank_places(outcome: Outcome) -> list[int]:
    """Each seat's place (1 = best), from the payoffs: seats with the same payoff share a place."""
    return [1 + sum(1 for q in outcome.payoffs if q > p) for p in outcome.payoffs]


def rate(current: Mapping[str, Rating], keys: Sequence[str], outcome: Outcome,
         update: Sequence[int]) -> dict[str, Rating]:
    """The new ratings of the seats in ``update`` after a game whose seats were played by
    ``keys`` (``current`` holds their ratings; a key missing there starts afresh). Every
    seat takes part in the update with its rating; only ``update``'s keys change. A key at
    several seats (two bots of one level) moves by the mean of its seats' changes."""
    if len(keys) != len(outcome.payoffs):
        raise ValueError(f"{len(keys)} seats but an outcome for {len(outcome.payoffs)}")
    before = [current.get(k) or starting(k) for k in keys]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after: list[list[PlackettLuceRating]] = MODEL.rate(teams, ranks=[float(x) for x in rank_places(outcome)])
    moved: dict[str, list[tuple[float, float, int]]] = {}
    for seat in update:
        new = after[seat][0]
        won = seat in outcome.winners
        result = 2 if outcome.draw and won else 1 if won else 0
        moved.setdefault(keys[seat], []).append((new.mu - before[seat].mu, new.sigma, result))
    out: dict[str, Rating] = {}
    for key, changes in moved.items():
        old = current.get(key) or starting(key)
        n = len(changes)
        out[key] = replace(
            old,
            mu=old.mu + sum(c[0] for c in changes) / n,
            sigma=sum(c[1] for c in changes) / n,
            games=old.games + n,
            wins=old.wins + sum(1 for c in changes if c[2] == 1),
            draws=old.draws + sum(1 for c in changes if c[2] == 2),
        )
    return out


def closest_bot(points: float, bots: Mapping[str, Rating], levels: Sequence[str]) -> str:
    """The bot level (of ``levels``) whose rating is nearest ``points`` (shown scale): the
    bot a quick match seats for a person of that rating. ``bots`` holds the levels'
    ratings so far (a level missing there is at its starting rating)."""
    if not levels:
        raise ValueError("no bot levels to choose from")
    return min(levels, key=lambda lvl: (abs((bots.get(bot_key(lvl)) or starting(bot_key(lvl))).shown - points),
                                        levels.index(lvl)))
