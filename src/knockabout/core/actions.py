"""Actions: small immutable values with a stable text form and integer code.

Each game enumerates every action it can ever offer in an :class:`ActionSpace`.
The code of an action is its index there (a fixed encoding, usable for
reinforcement-learning action masks); its text is what people type, what replay
files store, and what ``str(action)`` prints. ``space.parse(str(a)) is a``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from knockabout.core.errors import ActionParseError


class Action:
    """One action of one game. Compare with ``==``; instances are shared singletons."""

    __slots__ = ("code", "text")

    code: int
    text: str

    def __init__(self, code: int, text: str) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Action):
            return self.code == other.code and self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[type[Action], tuple[int, str]]:
        return (Action, (self.code, self.text))


class ActionSpace(Sequence[Action]):
    """The fixed, ordered list of every action a game can offer."""

    def __init__(self, game_id: str, texts: Iterable[str]) -> None:
        self.game_id = game_id
        self._actions: tuple[Action, ...] = tuple(
            Action(i, t) for i, t in enumerate(texts)
        )
        self._by_text: dict[str, Action] = {}
        for a in self._actions:
            if a.text in self._by_text:
                raise ValueError(f"{game_id}: duplicate action text {a.text!r}")
            if a.text != a.text.strip() or not a.text:
                raise ValueError(f"{game_id}: bad action text {a.text!r}")
            self._by_text[a.text] = a

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, code: int) -> Action:  # type: ignore[override]
        return self._actions[code]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Action) and self._by_text.get(item.text) == item

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
            if self._by_text.get(action.text) == action:
                return self._by_text[action.text]
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
