"""Actions: small immutable values with a stable text form and integer code.

Each game enumerates every action it can ever offer in an :class:`ActionSpace`.
The code of an action is its index there (a fixed encoding, usable for
reinforcement-learning action masks); its text is what people type, what replay
files store, and what ``str(action)`` prints. ``space.parse(str(a)) is a``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

from knockabout.core.errors import ActionParseError

_SPACES: Final[dict[str, ActionSpace]] = {}


def _restore(game_id: str, text: str) -> Action:
    """Unpickling: the shared singleton of that game's action space."""
    if game_id not in _SPACES:
        from knockabout.core.registry import get_game  # import here: registry imports us

        get_game(game_id)
    return _SPACES[game_id].get(text)


class Action:
    """One action of one game.

    Every action a game offers is a singleton of its :class:`ActionSpace`, so equality
    is identity (fast on the hot path); parsing text or unpickling returns the singleton.
    """

    __slots__ = ("code", "game_id", "text")

    code: int
    text: str
    game_id: str

    def __init__(self, code: int, text: str, game_id: str = "") -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "game_id", game_id)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        if self.game_id in _SPACES:
            return (_restore, (self.game_id, self.text))
        raise TypeError(f"action {self.text!r} belongs to no action space and cannot be pickled")


class ActionSpace(Sequence[Action]):
    """The fixed, ordered list of every action a game can offer."""

    def __init__(self, game_id: str, texts: Iterable[str]) -> None:
        self.game_id = game_id
        self._actions: tuple[Action, ...] = tuple(
            Action(i, t, game_id) for i, t in enumerate(texts)
        )
        self._by_text: dict[str, Action] = {}
        for a in self._actions:
            if a.text in self._by_text:
                raise ValueError(f"{game_id}: duplicate action text {a.text!r}")
            if a.text != a.text.strip() or not a.text:
                raise ValueError(f"{game_id}: bad action text {a.text!r}")
            self._by_text[a.text] = a
        _SPACES[game_id] = self

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, code: int) -> Action:  # type: ignore[override]
        return self._actions[code]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Action) and self._by_text.get(item.text) is item

    def get(self, text: str) -> Action:
        """The action with exactly this text (KeyError if none)."""
        return self._by_text[text]

    def parse(self, text: str) -> Action:
        """The action named by ``text`` (surrounding blanks ignored).

        Raises :class:`ActionParseError` naming the text and giving examples.
        """
        if not isinstance(text, str):
            raise ActionParseError(
                f"{self.game_id}: an action must be text, got {type(text).__name__}"
            )
        found = self._by_text.get(text.strip())
        if found is None:
            sample = ", ".join(a.text for a in self._actions[:8])
            raise ActionParseError(
                f"{self.game_id}: {text!r} is not an action of this game "
                f"(examples: {sample}, ...)"
            )
        return found

    def coerce(self, action: Action | str) -> Action:
        """Parse text, or check that an :class:`Action` belongs to this space."""
        if isinstance(action, Action):
            if self._by_text.get(action.text) is action:
                return action
            raise ActionParseError(
                f"{self.game_id}: {action.text!r} (code {action.code}) is not an action of this game"
            )
        return self.parse(action)

    def mask(self, legal: Sequence[Action]) -> list[bool]:
        """A boolean mask over codes: True where the action is legal."""
        m = [False] * len(self._actions)
        for a in legal:
            m[a.code] = True
        return m
