"""Ratings and quick match: what brings people back to a game, as pure logic.

* :mod:`.ratings` — the Weng-Lin (openskill) ratings of accounts and bot levels per game,
  which tables are rated, and the shown numbers.
* :mod:`.matching` — the quick-match queue of one game and player count: pairs people of
  close rating, widens the window with waiting time, fills a table with bots after a set
  wait. Time comes from an injected clock (a test or a simulation drives it by hand).

Nothing here reads a clock of its own, touches the store or names a game; the server
(``server/``) keeps the queues and stores the ratings.
"""
