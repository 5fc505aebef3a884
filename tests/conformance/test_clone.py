"""Clone completeness: every attribute of every game's state class is either copied by
``clone()`` or declared shared (``State.shared_on_clone``).

The engines write their ``clone()`` field by field (the compiled build needs it), which is
where a new field is easily forgotten. A forgotten field is unset on the clone (or, had it a
class default, silently the default); a list assigned instead of copied is shared, so the
clone's moves change the original. :func:`clone_problems` finds both, at positions along
random games of every registered game and its variants; the last tests show it failing on a
clone that leaves a field out or shares a list, on the real state classes and on a small
state class made up here.
"""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core import Rng, State, game_ids, get_game
from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Outcome
from tests.envs.positions import VARIANTS

MUTABLE = (list, dict, set, bytearray, Rng)
"""What a clone must not share with the original outside the declared attributes."""


def attributes(cls: type) -> list[str]:
    """Every instance attribute a class declares, through its bases: ``__slots__`` in the
    plain build, ``__mypyc_attrs__`` in the compiled one."""
    out: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names = (slots,) if isinstance(slots, str) else tuple(slots)
        for name in (*names, *klass.__dict__.get("__mypyc_attrs__", ())):
            if name not in ("__dict__", "__weakref__") and name not in out:
                out.append(name)
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal values: containers item by item, a generator by its state."""
    if isinstance(a, Rng) and isinstance(b, Rng):
        return a.state == b.state
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _shared(a: Any, b: Any, where: str) -> str | None:
    """Where the copy ``b`` still holds a mutable object of ``a`` (None: nowhere)."""
    if isinstance(a, MUTABLE) and a is b:
        return where
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _shared(x, y, f"{where}[{i}]")
            if found:
                return found
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() & b.keys():
            found = _shared(a[k], b[k], f"{where}[{k!r}]")
            if found:
                return found
    return None


def clone_problems(original: State, copy: State) -> list[str]:
    """Each attribute ``copy`` (a clone of ``original``) fails to copy: unset, different, or
    sharing a list, dict, set or generator with the original while not declared shared."""
    problems = []
    shared = type(original).shared_on_clone
    for name in attributes(type(original)):
        if not hasattr(original, name):
            continue
        if not hasattr(copy, name):
            problems.append(f"{name}: not set by clone()")
            continue
        a, b = getattr(original, name), getattr(copy, name)
        if not _same(a, b):
            problems.append(f"{name}: the clone has {b!r}, the original {a!r}")
        elif name not in shared:
            where = _shared(a, b, name)
            if where:
                problems.append(f"{name}: the clone shares {where} with the original"
                                " (copy it, or declare it in shared_on_clone)")
    unknown = shared - set(attributes(type(original)))
    if unknown:
        problems.append(f"shared_on_clone names no attribute: {sorted(unknown)}")
    return problems


def _positions(game_id: str) -> list[State]:
    """Positions along random games of every variant walked (the end included)."""
    g = get_game(game_id)
    out: list[State] = []
    for config in [{}, *VARIANTS.get(game_id, [])]:
        for players in sorted({g.min_players, g.max_players}):
            for seed in range(3):
                rng = Rng(seed + 50)
                s = g.new_state(config, seed, players=players)
                k = 0
                while s.to_act() is not None and k < 600:
                    if k % 7 == 0:
                        out.append(s.clone())
                    legal = s.legal_actions()
                    s.apply(legal[rng.below(len(legal))])
                    k += 1
                out.append(s)
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_clone_copies_every_attribute(game_id: str) -> None:
    positions = _positions(game_id)
    assert len(positions) > 20
    for s in positions:
        assert clone_problems(s, s.clone()) == [], f"{game_id}: {s.to_dict()}"


# ------------------------------------------------------------------ the check fails when it should
def _clone_leaving_out(s: State, left_out: str) -> State:
    """What ``clone()`` would give had it forgotten ``left_out``: a fresh state given every
    other attribute of a real clone."""
    full = s.clone()
    c = type(s)()
    for name in attributes(type(s)):
        if name != left_out and hasattr(full, name):
            setattr(c, name, getattr(full, name))
    return c


@pytest.mark.parametrize("game_id", game_ids())
def test_the_check_finds_a_field_left_out(game_id: str) -> None:
    s = _positions(game_id)[5]
    complete = _clone_leaving_out(s, "")
    assert clone_problems(s, complete) == []
    names = [n for n in attributes(type(s)) if hasattr(s, n) and n != "_legal"]  # the constructor sets _legal
    assert len(names) > 10
    for name in names:
        assert clone_problems(s, _clone_leaving_out(s, name)) == [f"{name}: not set by clone()"]


@pytest.mark.parametrize("game_id", game_ids())
def test_the_check_finds_a_shared_list(game_id: str) -> None:
    s = _positions(game_id)[5]
    lists = [n for n in attributes(type(s)) if isinstance(getattr(s, n, None), list)
             and n not in type(s).shared_on_clone]
    assert lists
    for name in lists:
        c = s.clone()
        setattr(c, name, getattr(s, name))
        assert clone_problems(s, c) == [
            f"{name}: the clone shares {name} with the original (copy it, or declare it in shared_on_clone)"
        ]
    c = s.clone()
    c.rng = s.rng  # type: ignore[attr-defined]  # every game's state has its generator
    assert clone_problems(s, c)[0].startswith("rng: the clone shares rng")


class _Tally(State):
    """A made-up state whose clone() forgets a field it gained later (``log``) and shares
    the scores it should copy."""

    __slots__ = ("log", "scores", "turn")
    shared_on_clone = frozenset({"turn"})

    def __init__(self) -> None:
        self._legal = None
        self.turn = 0
        self.scores = [0, 0]
        self.log: list[str] = []

    def clone(self) -> _Tally:
        c = _Tally.__new__(_Tally)
        c._legal = self._legal
        c.turn = self.turn
        c.scores = self.scores
        return c

    def to_act(self) -> Decision | None:
        return None

    def observe(self, player: int | None) -> Any:
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        return None

    def determinize(self, player: int, rng: Rng) -> _Tally:
        return self.clone()

    def to_dict(self) -> dict[str, Any]:
        return {}

    def _legal_actions(self) -> tuple[Action, ...]:
        return ()

    def _apply(self, action: Action) -> list[Event]:
        return []

    def _num_players(self) -> int:
        return 2


def test_the_check_fails_a_made_up_state_class() -> None:
    s = _Tally()
    assert clone_problems(s, s.clone()) == [
        "log: not set by clone()",
        "scores: the clone shares scores with the original (copy it, or declare it in shared_on_clone)",
    ]
