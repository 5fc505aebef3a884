"""The game protocol every game implements and every caller uses.

A :class:`Game` makes states; a :class:`State` says who must decide what
(:meth:`State.to_act`), which actions are legal, applies one (the single checked
entry point, :meth:`State.apply`), gives each player a view holding only what that
player may know (:meth:`State.observe`), and supports search (:meth:`State.clone`,
:meth:`State.determinize`). Rules never read a clock and draw randomness only from
the state's own :class:`~knockabout.core.rng.Rng`.
"""

from __future__ import annotations

import functools
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Self, TypeVar, cast

from mypy_extensions import mypyc_attr
from pydantic import BaseModel, ValidationError

from knockabout.core import plugins
from knockabout.core.actions import Action, ActionSpace
from knockabout.core.errors import ActionParseError, ConfigError, IllegalActionError, ReplayError, listed
from knockabout.core.events import Event
from knockabout.core.rng import Rng
from knockabout.core.view import View

if TYPE_CHECKING:
    from knockabout.core.state_encoding import StateEncoder


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending choice: who decides, what kind of choice, and for timed ones the clock.

    ``time_limit`` is in seconds; whoever runs the table enforces it and applies
    ``timeout_action`` when it runs out. Rules themselves never look at a clock.
    """

    player: int
    kind: str
    time_limit: float | None = None
    timeout_action: Action | None = None
    prompt: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "kind": self.kind,
            "time_limit": self.time_limit,
            "timeout_action": None if self.timeout_action is None else str(self.timeout_action),
            "prompt": self.prompt,
        }

    def __reduce__(self) -> tuple[Any, ...]:  # frozen: the compiled build cannot set fields on unpickling
        return (type(self), (self.player, self.kind, self.time_limit, self.timeout_action, self.prompt))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``payoffs[p]`` is 1 for a sole winner, 0 for a loser;
    a draw shares 1 point equally among the players it names."""

    winners: tuple[int, ...]
    payoffs: tuple[float, ...]
    draw: bool = False
    reason: str = ""

    def __reduce__(self) -> tuple[Any, ...]:  # frozen: the compiled build cannot set fields on unpickling
        return (type(self), (self.winners, self.payoffs, self.draw, self.reason))

    @classmethod
    def win(cls, winner: int, players: int, reason: str = "") -> Outcome:
        pay = tuple(1.0 if p == winner else 0.0 for p in range(players))
        return cls((winner,), pay, False, reason)

    @classmethod
    def shared(cls, among: Sequence[int], players: int, reason: str = "") -> Outcome:
        share = 1.0 / len(among) if among else 0.0
        pay = tuple(share if p in among else 0.0 for p in range(players))
        return cls(tuple(among), pay, True, reason)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "payoffs": list(self.payoffs),
            "draw": self.draw,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Outcome:
        """The outcome :meth:`to_dict` gave (a saved state's ``result``)."""
        return cls(tuple(d["winners"]), tuple(d["payoffs"]), bool(d["draw"]), str(d["reason"]))


C = TypeVar("C", bound=BaseModel)
M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound="State")

LISTED: Final = 10
"""The most items an error message lists (of unknown keys, of problems): a request naming
thousands of them gets an answer of a few hundred bytes, not one as large again."""


def validation_problems(exc: ValidationError, top: str, key: str = "option") -> list[str]:
    """One line per problem of a pydantic validation error, each naming its field (a dotted
    path; ``top`` when the whole input is wrong) and, for a short wrong value, the value.
    Unknown top-level keys are named together (``no such options: a, b``); at most
    :data:`LISTED` keys and :data:`LISTED` problems are listed, then how many more, and each
    name and value repeated is clipped to 40 characters."""
    problems = []
    unknown = []  # keys the model does not have, named together
    for err in exc.errors():
        if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
            unknown.append(_clipped(str(err["loc"][0])))
            continue
        where = _clipped(".".join(str(p) for p in err["loc"]) or top)
        given = err.get("input")
        shown = (f" (got {_clipped(repr(given))})"
                 if err["type"] != "missing" and isinstance(given, str | int | float) else "")
        msg = err["msg"].removeprefix("Value error, ")
        problems.append(f"{where}: {msg}{shown}")
    if unknown:
        problems.insert(0, f"no such {key}{'s' if len(unknown) > 1 else ''}: {_first_of(unknown)}")
    if len(problems) > LISTED:
        problems[LISTED:] = [f"and {len(problems) - LISTED:,} other problems"]
    return problems


def option_title(model: type[BaseModel], name: str) -> str:
    """An option's name as a player reads it: its declared title, else its key in words."""
    field = model.model_fields.get(name)
    if field is not None and field.title:
        return field.title
    return name.replace("_", " ").capitalize()


def plain_problem(model: type[BaseModel], err: Mapping[str, Any]) -> str:
    """One validation problem of a configuration as a sentence a player reads: the option by
    its title, what it must be, what was given (never an option key or a validator's words)."""
    loc = err.get("loc") or ()
    name = loc[0] if loc and isinstance(loc[0], str) else ""
    title = option_title(model, name) if name else "An option"
    ctx = {k: f"{v:g}" if isinstance(v, float) else v for k, v in (err.get("ctx") or {}).items()}
    given = err.get("input")
    you = f" (you gave {given:g})" if isinstance(given, int | float) and not isinstance(given, bool) else ""
    match err.get("type"):
        case "greater_than":
            return f"{title} must be more than {ctx.get('gt')}{you}."
        case "greater_than_equal":
            return f"{title} must be at least {ctx.get('ge')}{you}."
        case "less_than":
            return f"{title} must be less than {ctx.get('lt')}{you}."
        case "less_than_equal":
            return f"{title} must be at most {ctx.get('le')}{you}."
        case "int_parsing" | "int_from_float" | "int_type":
            return f"{title} must be a whole number."
        case "float_parsing" | "float_type" | "finite_number":
            return f"{title} must be a number."
        case "bool_parsing" | "bool_type":
            return f"{title} must be on or off."
        case "too_short":
            least = ctx.get("min_length", 1)
            return f"{title}: choose at least {least}." if least != 1 else f"{title}: choose at least one."
        case "too_long":
            return f"{title}: choose at most {ctx.get('max_length')}."
        case "missing":
            return f"{title} is missing."
        case "extra_forbidden":
            return f"{title} is not an option of this game."
        case "literal_error" | "enum":
            return f"{title}: that is not one of its choices."
        case _:
            msg = str(err.get("msg", "is not valid")).removeprefix("Value error, ")
            return f"{title}: {msg[:1].lower()}{msg[1:]}" + ("" if msg.endswith(".") else ".")


def plain_problems(model: type[BaseModel], exc: ValidationError) -> str:
    """The problems of a configuration in a player's words (:func:`plain_problem` each),
    unknown options named together and at most :data:`LISTED` sentences, then how many more."""
    def unknown_key(err: Mapping[str, Any]) -> bool:
        return err["type"] == "extra_forbidden" and len(err["loc"]) == 1

    errors = exc.errors()
    unknown = [_clipped(option_title(model, str(err["loc"][0]))) for err in errors if unknown_key(err)]
    lines = [plain_problem(model, err) for err in errors if not unknown_key(err)]
    if len(unknown) == 1:
        lines.insert(0, f"{unknown[0]} is not an option of this game.")
    elif unknown:
        lines.insert(0, f"These are not options of this game: {_first_of(unknown)}.")
    if len(lines) > LISTED:
        lines[LISTED:] = [f"And {len(lines) - LISTED:,} other problems."]
    return " ".join(lines)


def _clipped(text: str, most: int = 40) -> str:
    """``text``, cut to ``most`` characters (an error repeats what it was given)."""
    return text if len(text) <= most else text[:most - 1] + "…"


def _first_of(items: Sequence[str]) -> str:
    """The first :data:`LISTED` of ``items`` joined, then ``and 2,990 more``."""
    shown = ", ".join(items[:LISTED])
    return shown if len(items) <= LISTED else f"{shown} and {len(items) - LISTED:,} more"


@mypyc_attr(allow_interpreted_subclasses=True)  # games and plug-ins subclass it uncompiled
class State(ABC):
    """One position of one game. Subclasses implement the ``_``-prefixed hooks."""

    __slots__ = ("_legal",)

    game: ClassVar[Game[Any]]
    shared_on_clone: ClassVar[frozenset[str]] = frozenset()
    """Attributes :meth:`clone` gives the copy as they are, not copied: values the rules never
    change in place (they replace them). Every other attribute a clone must copy: the
    conformance suite (``tests/conformance/test_clone.py``) checks that a clone sets every
    attribute of the class and shares no list, dict, set or generator with the original
    outside these."""

    _legal: tuple[Action, ...] | None

    # -- the protocol ---------------------------------------------------------
    @abstractmethod
    def to_act(self) -> Decision | None:
        """The pending decision, or None when the game is over."""

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the pending decision allows (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return legal

    def apply(self, action: Action | str) -> list[Event]:
        """Apply one action: the single checked entry point.

        Text is parsed; an unknown or illegal action raises
        :class:`~knockabout.core.errors.KnockaboutError` naming the action, the decision
        and what is legal, and the state is left exactly as it was.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        if action not in legal:
            if isinstance(action, str):
                text = action
                try:
                    action = self.game.actions.parse(text)
                except ActionParseError:  # examples from this decision, not from the whole game
                    raise ActionParseError(f"{self.game.id}: {text.strip()!r} is not an action of this game; "
                                           f"legal now: {listed(legal, 8)}") from None
            if action not in legal:
                raise IllegalActionError(action, self.to_act(), legal)
        self._legal = None
        return self._apply(action)

    @abstractmethod
    def observe(self, player: int | None) -> View:
        """The typed view holding only what ``player`` may know (None: a spectator)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (changing one never changes the other)."""

    @abstractmethod
    def determinize(self, player: int, rng: Rng) -> Self:
        """A full state consistent with everything ``player`` knows.

        Hidden cards are dealt at random from what ``player`` cannot rule out, and the
        state's own RNG is reseeded from ``rng`` so the future is not the true one.
        """

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-able data (hidden information included)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`to_dict` output (games whose records resume override
        this; a malformed input may raise KeyError, TypeError, ValueError or IndexError)."""
        raise NotImplementedError(f"{cls.__name__} cannot rebuild a saved state")

    def turns(self) -> int | None:
        """The game's own turn counter, for games whose facts count length in turns."""
        return None

    # -- hooks ----------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> tuple[Action, ...]: ...

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Apply a legal action (already checked)."""

    # -- conveniences ---------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_act() is None

    @property
    def num_players(self) -> int:
        return int(self._num_players())

    @abstractmethod
    def _num_players(self) -> int: ...

    # -- pickling (worker processes) ---------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Every attribute by name, whether the class and its bases are plain Python
        (``__slots__``) or compiled by mypyc (``__mypyc_attrs__``), in any mix."""
        out: dict[str, Any] = {}
        for klass in type(self).__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names = (slots,) if isinstance(slots, str) else tuple(slots)
            for name in names + tuple(klass.__dict__.get("__mypyc_attrs__", ())):
                if name != "__dict__" and name not in out and hasattr(self, name):
                    out[name] = getattr(self, name)
        if hasattr(self, "__dict__"):  # a subclass without __slots__
            out.update(vars(self))
        return out

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)


@functools.cache
def _find(package: str, where: str) -> tuple[Any, bool]:
    """The object ``where`` (``"module:NAME"`` in ``package``, see :attr:`Game.plug_ins`)
    names, imported once, and whether it is called to make the plug-in (``Name()``)."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(f".{module}", package), name.removesuffix("()")), name.endswith("()")


@mypyc_attr(allow_interpreted_subclasses=True)  # games and plug-ins subclass it uncompiled
class Game(ABC, Generic[C]):
    """A game: its identity, rules version, facts, options, content and plug-ins.

    Everything generic layers need to know about a game is declared here: the
    :class:`~knockabout.core.plugins.GameFacts`, the typed view class, and the plug-ins
    (heuristic bot, terminal renderer, table challenges, bot budgets, web renderer).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    rules_version: ClassVar[str]
    facts: ClassVar[plugins.GameFacts]
    view_type: ClassVar[type[View]]
    config_model: ClassVar[type[BaseModel]]
    budgets: ClassVar[plugins.BotBudgets] = plugins.BotBudgets()
    web_renderer: ClassVar[str | None] = None
    """A file in the game's own package (e.g. ``"web/renderer.js"``): the ES module the
    browser table loads to draw this game's views; None: the generic renderer."""
    tutorial: ClassVar[str | None] = None
    """A file in the game's own package (e.g. ``"tutorial.toml"``): its scripted lesson,
    run by :mod:`knockabout.tutorial` (``knockabout learn``, the lobby's "Learn to play");
    None: the game has none."""
    learned_policy: ClassVar[str | None] = None
    """A file in the game's own package (e.g. ``"learned.npz"``): the trained network the
    ``learned`` bot level plays with (:mod:`knockabout.bots.learned`); None: the game ships
    none, so it offers no ``learned`` level."""
    plug_ins: ClassVar[Mapping[str, str]] = {}
    """Where the game keeps what its plug-in methods hand out, by method name, each as
    ``"module:NAME"``: the module relative to the game's package, imported the first time the
    method is called (so a process that never draws a terminal never loads the terminal
    code), and the object in it. ``"module:Name()"`` makes a fresh one at each call instead (a
    class or function called with no arguments). Read by :meth:`lobby`,
    :meth:`terminal_renderer`, :meth:`content_editor`, :meth:`guide`, :meth:`encoder` and
    :meth:`state_encoder` (the plug-in itself), and by :meth:`narrate`,
    :meth:`validate_content` and :meth:`content_hash` (the function they call). A method a
    game overrides decides for itself."""
    actions: ActionSpace

    @property
    def package(self) -> str:
        """The dotted name of the game's own package (where its plug-ins and files live)."""
        module = type(self).__module__
        return module.rpartition(".")[0] or module

    @property
    def folder(self) -> Path:
        """The game's own package folder, wherever it is installed (its files: the web
        renderer, the tutorial, templates ...)."""
        return Path(str(resources.files(self.package)))

    def plug_in(self, method: str) -> Any:
        """What :attr:`plug_ins` names for ``method``, imported (made, for ``Name()``); None
        when the game names nothing for it."""
        where = self.plug_ins.get(method)
        if where is None:
            return None
        found, make = _find(self.package, where)
        return found() if make else found

    @property
    def min_players(self) -> int:
        return self.facts.min_players

    @property
    def max_players(self) -> int:
        return self.facts.max_players

    # -- plug-ins (overridden by games that have them) --------------------------
    def heuristic(self) -> plugins.HeuristicPlugin | None:
        """The game's rules-of-thumb bot and search helpers (None: it has none)."""
        return None

    def terminal_renderer(self) -> plugins.TerminalRenderer | None:
        """How the terminal draws this game's views (None: the generic renderer)."""
        return cast("plugins.TerminalRenderer | None", self.plug_in("terminal_renderer"))

    def challenges(self) -> Mapping[str, plugins.Maker]:
        """Decision kinds a person answers by solving a puzzle, with their makers."""
        return {}

    def balance(self) -> plugins.BalancePlugin | None:
        """What a content balance run pits against each other, and the metrics it watches."""
        return None

    def content_editor(self) -> plugins.ContentEditor | None:
        """How the browser's content editor edits the game's content (a pack, a box); None:
        the game has no content to edit."""
        return cast("plugins.ContentEditor | None", self.plug_in("content_editor"))

    def lobby(self) -> plugins.LobbyInfo | None:
        """How the lobby presents the game and the valid values of its options (None: the
        lobby shows its name and plain option fields)."""
        return cast("plugins.LobbyInfo | None", self.plug_in("lobby"))

    def guide(self) -> plugins.Guide | None:
        """What the table tells a person about each decision (prompts, actions in words,
        hints whose claims the engine checks); None: the generic words."""
        return cast("plugins.Guide | None", self.plug_in("guide"))

    def turn_based(self) -> plugins.TurnBasedRules | None:
        """How the game plays on a turn-based table (None: the game has no real-time
        window, so every option set plays turn-based as it is)."""
        return None

    def encoder(self) -> plugins.ObservationEncoder | None:
        """How a seat's view becomes a float32 vector for the research environments
        (``knockabout.envs``); None: the game offers none."""
        return cast("plugins.ObservationEncoder | None", self.plug_in("encoder"))

    def state_encoder(self) -> StateEncoder | None:
        """The same observation as :meth:`encoder`, written straight from a state for one seat
        without building its view (:mod:`knockabout.core.state_encoding`): what the batched
        environment (``knockabout.envs.vector``) steps with; None: it encodes the views."""
        return cast("StateEncoder | None", self.plug_in("state_encoder"))

    def check_players(self, players: int | None) -> int | None:
        """``players`` as given, or :class:`ConfigError` when it is outside the game's range."""
        if players is not None and not self.min_players <= players <= self.max_players:
            span = (f"exactly {self.min_players}" if self.min_players == self.max_players
                    else f"between {self.min_players} and {self.max_players}")
            raise ConfigError(f"{self.id}: players must be {span} (got {players})")
        return players

    def make_config(self, config: Mapping[str, Any] | BaseModel | None = None) -> C:
        """Validate a configuration (a mapping of options) into the game's config model.

        Raises :class:`ConfigError` with one line per problem, naming the option.
        """
        model = self.config_model
        if isinstance(config, model):
            return config  # type: ignore[return-value]
        data = dict(config.model_dump() if isinstance(config, BaseModel) else (config or {}))
        try:
            return model.model_validate(data)  # type: ignore[return-value]
        except ValidationError as exc:
            known = ", ".join(model.model_fields)
            raise ConfigError(
                f"{self.id}: invalid configuration: " + "; ".join(validation_problems(exc, "config"))
                + f" (options: {known})",
                plain=plain_problems(model, exc),
            ) from None

    @abstractmethod
    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> State:
        """A fresh game with this configuration, all randomness drawn from ``seed``.

        ``players`` is the number of seats; None takes it from the configuration (or the
        game's default). A count outside the game's range raises :class:`ConfigError`.
        """

    def arrange(
        self, config: Mapping[str, Any] | BaseModel | None, arrangement: Mapping[str, Any], seed: int = 0
    ) -> State:
        """A game that starts from an arranged position instead of a random deal: the cards
        in each hand, the top of the deck, the fighters and where they stand, whatever the
        game lets ``arrangement`` say (its tutorial starts this way). Everything it leaves
        open is dealt as in a real game, and later chance (shuffles, dice) still comes from
        ``seed``, so ``(config, arrangement, seed, actions)`` replays like any game
        (:class:`~knockabout.core.replay.GameRecord` keeps the arrangement).

        Games that can arrange override this; a bad arrangement raises :class:`ConfigError`
        naming the field. The default refuses.
        """
        raise ConfigError(f"{self.id}: this game cannot start from an arranged position")

    def arranged(self, model: type[M], arrangement: Mapping[str, Any], place: Callable[[M], S]) -> S:
        """What :meth:`arrange` returns: ``place`` given ``arrangement`` as read by the game's
        ``model`` of one; a mistake, in the arrangement or in what ``place`` is asked to do (a
        ValueError), is one :class:`ConfigError` naming it."""
        arr = self.read_arrangement(model, arrangement)
        try:
            return place(arr)
        except ValueError as exc:
            raise ConfigError(f"{self.id}: invalid arrangement: {exc}") from None

    def read_arrangement(self, model: type[M], arrangement: Mapping[str, Any]) -> M:
        """``arrangement`` validated by the game's own model of one (for :meth:`arrange`);
        a mistake is a :class:`ConfigError` with one line per problem, naming the field."""
        try:
            return model.model_validate(dict(arrangement))
        except ValidationError as exc:
            raise ConfigError(
                f"{self.id}: invalid arrangement: " + "; ".join(validation_problems(exc, "arrangement", "field"))
            ) from None

    state_type: ClassVar[type[State] | None] = None
    """The game's state class, whose ``from_dict`` :meth:`state_from_dict` calls."""

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output; anything that is not one is a
        :class:`ReplayError` naming the game."""
        if self.state_type is None:
            raise ReplayError(f"{self.id}: this game cannot rebuild saved states (it declares no state_type)")
        try:
            return self.state_type.from_dict(data)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ReplayError(f"{self.id}: not a saved state ({exc!r})") from None

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        """One plain sentence describing an event for logs (None: not worth a line).

        ``names`` gives each seat's display name. The game's ``narrate`` function (see
        :attr:`plug_ins`) says it; the fallback prints the event's type and data.
        """
        narrate = self.plug_in("narrate")
        if narrate is not None:
            return cast("str | None", narrate(event, names))
        data = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.type}: {data}" if data else event.type

    def validate_content(self, path: Path) -> list[str]:
        """Check one content file of this game; each problem is one line naming the file,
        the entry and the field. An empty list means the file is valid."""
        validate = self.plug_in("validate_content")
        if validate is not None:
            return cast("list[str]", validate(Path(path)))
        return [f"{path}: {self.id} has no content files"]

    def templates(self) -> dict[str, Path]:
        """Commented example content files to copy and edit, by kind (``{"pack": …/my-pack.toml}``).

        Found in the game's own package, wherever it is installed: each sub-folder of
        ``templates/`` is one kind and holds the one file to copy, named as the copy
        should be named. A game without a ``templates/`` folder has none.
        """
        folder = self.folder / "templates"
        out: dict[str, Path] = {}
        if not folder.is_dir():
            return out
        for kind in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            files = sorted(f for f in kind.iterdir() if f.is_file() and not f.name.startswith("."))
            if len(files) == 1:
                out[kind.name] = files[0]
        return out

    def content_hash(self) -> str:
        """A hash of the content files the rules read (empty when there are none)."""
        content_hash = self.plug_in("content_hash")
        return "" if content_hash is None else cast(str, content_hash())

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for menus and the lobby."""
        return {
            "id": self.id,
            "name": self.name,
            "rules_version": self.rules_version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.config_model.model_json_schema(),
        }
