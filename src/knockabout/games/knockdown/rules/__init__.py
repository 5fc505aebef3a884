"""The rules of Knockdown, one file per area of the rulebook.

:class:`~knockabout.games.knockdown.state.KnockdownState` holds the position and runs the
two dispatchers; every rule it dispatches to lives here, as functions of the state:

* :mod:`.phases` - the decisions a position can wait for (``Phase``, the ``*Pending`` records);
* :mod:`.tasks` - the rule steps waiting on the task stack;
* :mod:`.events` - the names of the events the rules emit;
* :mod:`.legal` - the legal answers to each decision; :mod:`.payments` - paying a cost;
* :mod:`.draft` - a new match, the skill draft, the opening picks;
* :mod:`.turn` - the actions, the Combo, movement, Reactions;
* :mod:`.attacks` - the Attack Sequence and Blocks; :mod:`.ko` - the Knockdown Test;
* :mod:`.effects` - the effect interpreter; :mod:`.hands` - cards in and out of hands;
* :mod:`.rounds` - turns, rounds and the end of the match.

The package's README.md maps each rulebook section to its function.
"""
