"""Ratings in the store: each player's rating at each game, and what each rated table did.

The rating arithmetic is not here (it is ``knockabout.ladder.ratings``, handed in by the
server as a function): :meth:`RatingStore.rate` reads what a finished table was, hands it to
that function with the ratings of everyone who sat there, and writes what it returns, all in
one transaction, with the rating rows locked (``FOR UPDATE`` where the database has it), so
two tables ending at once never lose one of their updates. A table is rated once: its
``rating_changes`` rows mark it. Everything here is synchronous (the server calls it on a
worker thread); ratings change once per finished game, so none of it goes through the
tables' group commit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from knockabout.store.schema import ActionRow, RatingChangeRow, RatingRow, TableRow


@dataclass(frozen=True, slots=True)
class StoredRating:
    player: str
    game: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0


@dataclass(frozen=True)
class RatedTable:
    """What rating needs to know of a finished table: its game and options, its seats as
    stored (kind, name, level), its time per move, its result, who made each seat's first
    move (``person``, ``stand-in``, ...), the account (an id) holding each person's seat, and
    whether people could take back moves there."""

    id: str
    game: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    move_time: float | None
    result: dict[str, Any]
    first_move_by: dict[int, str]
    accounts: dict[int, str]
    undo: bool = False


@dataclass(frozen=True)
class RatingUpdate:
    """What a rated table changes: the new ratings (by player key) and, per seat whose
    rating moved, (seat, player, mu before)."""

    ratings: Mapping[str, StoredRating]
    seats: Sequence[tuple[int, str, float]] = field(default_factory=tuple)


Rater = Callable[[RatedTable, Mapping[str, StoredRating]], RatingUpdate | None]
"""Given a finished table and the ratings of the players named by ``keys(table)``, what
changes (None: the table rates nobody)."""


RETRIES = 20
"""Times :meth:`RatingStore.rate` runs a transaction that lost a race with another table's."""


def _rating(row: RatingRow) -> StoredRating:
    return StoredRating(row.player, row.game, row.mu, row.sigma, row.games, row.wins, row.draws)


class RatingStore:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def get(self, game: str, players: Sequence[str]) -> dict[str, StoredRating]:
        """The ratings these players have at ``game`` (a player without one is left out)."""
        if not players:
            return {}
        with Session(self.engine) as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(players)))
            return {r.player: _rating(r) for r in rows}

    def of_player(self, player: str) -> list[StoredRating]:
        """Every game's rating of one player."""
        with Session(self.engine) as s:
            return [_rating(r) for r in s.scalars(select(RatingRow).where(RatingRow.player == player)
                                                  .order_by(RatingRow.game))]

    def top(self, game: str, prefix: str, limit: int = 100) -> list[StoredRating]:
        """The best ratings at ``game`` among players whose key starts with ``prefix``
        (``account:``, ``bot:``), by ``mu - 3 sigma`` (the cautious estimate), best first."""
        cautious = RatingRow.mu - 3 * RatingRow.sigma
        query = (select(RatingRow).where(RatingRow.game == game, RatingRow.player.startswith(prefix))
                 .order_by(cautious.desc(), RatingRow.games.desc()).limit(limit))
        with Session(self.engine) as s:
            return [_rating(r) for r in s.scalars(query)]

    def changes(self, table_id: str) -> list[dict[str, Any]]:
        """What a rated table did to each seat's rating (empty: it was not rated)."""
        with Session(self.engine) as s:
            return self._changes_in(s, table_id)

    def player_changes(self, player: str, limit: int = 20) -> list[dict[str, Any]]:
        """A player's latest rating changes, newest first (a profile's recent games)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(RatingChangeRow).where(RatingChangeRow.player == player)
                             .order_by(RatingChangeRow.at.desc()).limit(limit))
            return [{"table_id": r.table_id, "seat": r.seat, "game": r.game, "mu_before": r.mu_before,
                     "mu_after": r.mu_after} for r in rows]

    def rate(self, table_id: str, accounts: Mapping[int, str], keys: Callable[[RatedTable], Sequence[str]],
             rater: Rater) -> list[dict[str, Any]]:
        """Rate a finished table once (``rater`` decides who and how; ``keys`` names the
        players whose ratings it reads); returns its changes (empty: rated nobody, or not
        finished). A table already rated is left as it was.

        Two tables ending together may name the same player: on PostgreSQL the second waits
        for the first's locked rows; a player's first rating made by both at once, or (on
        SQLite) a transaction whose reads another one's commit made stale, fails and is run
        again from the start, so no update is lost."""
        for attempt in range(RETRIES):
            try:
                return self._rate(table_id, accounts, keys, rater)
            except (IntegrityError, OperationalError):
                if attempt == RETRIES - 1:
                    raise
                time.sleep(0.01 * (attempt + 1))
        return []  # (not reached)

    def _rate(self, table_id: str, accounts: Mapping[int, str], keys: Callable[[RatedTable], Sequence[str]],
              rater: Rater) -> list[dict[str, Any]]:
        with Session(self.engine) as s, s.begin():
            if self.engine.dialect.name == "sqlite":  # take the write lock before reading (no stale reads)
                s.connection().exec_driver_sql("BEGIN IMMEDIATE")
            row = s.get(TableRow, table_id)
            if row is None or row.status != "finished" or row.result is None:
                return []
            done = s.scalar(select(func.count()).select_from(RatingChangeRow)
                            .where(RatingChangeRow.table_id == table_id))
            if done:
                return self._changes_in(s, table_id)
            firsts = s.execute(select(ActionRow.seat, ActionRow.by, func.min(ActionRow.step))
                               .where(ActionRow.table_id == table_id).group_by(ActionRow.seat, ActionRow.by)).all()
            first_move_by: dict[int, tuple[int, str]] = {}
            for seat, by, step in firsts:
                if seat not in first_move_by or step < first_move_by[seat][0]:
                    first_move_by[seat] = (step, by)
            facts = RatedTable(row.id, row.game, dict(row.config), [dict(x) for x in row.seats], row.move_time,
                               dict(row.result), {k: v[1] for k, v in first_move_by.items()}, dict(accounts),
                               row.undo)
            players = sorted(set(keys(facts)))
            current = {r.player: _rating(r) for r in s.scalars(
                select(RatingRow).where(RatingRow.game == row.game, RatingRow.player.in_(players)).with_for_update())}
            update = rater(facts, current)
            if update is None:
                return []
            now = self.clock()
            for key, new in update.ratings.items():
                # a player the locked read did not find is inserted, never updated: had another
                # transaction made their row since that read, the insert fails and all is run
                # again (updating the row read now would write over that transaction's result)
                have = s.get(RatingRow, (row.game, key)) if key in current else None
                if have is None:
                    s.add(RatingRow(game=row.game, player=key, mu=new.mu, sigma=new.sigma, games=new.games,
                                    wins=new.wins, draws=new.draws, updated_at=now))
                else:
                    have.mu, have.sigma, have.games = new.mu, new.sigma, new.games
                    have.wins, have.draws, have.updated_at = new.wins, new.draws, now
            for seat, key, before in update.seats:
                after = update.ratings[key]
                s.add(RatingChangeRow(table_id=table_id, seat=seat, player=key, game=row.game, mu_before=before,
                                      mu_after=after.mu, sigma_after=after.sigma, at=now))
            s.flush()
            return self._changes_in(s, table_id)

    @staticmethod
    def _changes_in(s: Session, table_id: str) -> list[dict[str, Any]]:
        rows = s.scalars(select(RatingChangeRow).where(RatingChangeRow.table_id == table_id)
                         .order_by(RatingChangeRow.seat))
        return [{"seat": r.seat, "player": r.player, "game": r.game, "mu_before": r.mu_before,
                 "mu_after": r.mu_after, "sigma_after": r.sigma_after} for r in rows]
