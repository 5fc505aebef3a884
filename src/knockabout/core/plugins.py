"""What a game declares besides its rules: facts about it and its plug-ins.

Generic layers (bots, table, sim, cli, server, web shell) never name a game; whatever
differs per game they find through the :class:`~knockabout.core.protocol.Game` object:

* :class:`GameFacts` — the game's type, declared once (like OpenSpiel's ``GameType``):
  player counts, hidden information, chance, timed decisions, the decision kinds it
  can ask and the reasons a game can end for.
* :class:`HeuristicPlugin` — its rules-of-thumb bot and the search helpers that go with it.
* :class:`TerminalRenderer` — how ``knockabout play`` draws its views.
* challenge makers (:data:`Maker`) — decisions a person answers by solving a puzzle the
  table sets (a dexterity test a person must perform, not a button to press).
* bot budgets — per-level ISMCTS iterations and simulated steps where the defaults
  do not suit.
* the web renderer — the ES module the browser table loads to draw its views.
* :class:`BalancePlugin` — what a content balance run pits against each other (packs,
  fighters), how a pairing is configured, and the game metrics watched in each match;
  and the content a run plays (:class:`RunContent`: its files, its cards and whose they
  are), with each card's neutral stand-in, for ablation and tuning.
* :class:`LobbyInfo` — how the lobby sells the game (a line, a typical length, its rules
  page) and the valid values of its options, with names and one-line summaries
  (:class:`Choice`), so the lobby shows pickers instead of free text.
* :class:`TurnBasedRules` — how the game plays on a turn-based table (moves of hours or
  days): the options that replace its real-time windows, and which option sets cannot.
* :class:`ContentEditor` — how the browser's content editor edits the game's content
  (a pack, a box): schema, shipped documents, checks, TOML files and card previews.
* :class:`ObservationEncoder` — how a seat's view becomes a fixed-size float32 vector for
  the research environments (``knockabout.envs``), declared field by field.
* :class:`Guide` — what the table tells the deciding person: a title and one line of why
  for each decision, each legal action in plain words with its consequence where the
  engine knows it, and hints whose claims about the rules are computed, never written by
  hand (:class:`Guidance`).

Everything here is a declaration: core imports no game and no upper layer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import ConfigError
from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from rich.console import RenderableType

    from knockabout.core.events import Event
    from knockabout.core.protocol import Decision, State
    from knockabout.core.view import DecisionView, TableView, View

D = TypeVar("D", bound=BaseModel)
"""A content document's pydantic model (:meth:`ContentEditor.validated`)."""
TV = TypeVar("TV", bound="TableView")
"""A game's own view class (:meth:`Guide.view_of`)."""


@dataclass(frozen=True)
class GameFacts:
    """A game's type, declared once and checked by the conformance suite."""

    min_players: int
    max_players: int
    default_players: int
    hidden_information: bool
    """True when some seat may not see everything (hands, a pile's order)."""
    chance: Literal["none", "seeded"]
    """``seeded``: shuffles and dice come from the state's own seeded RNG."""
    timed_decisions: bool
    """True when some decision has a time limit (its timeout action is applied when it runs out)."""
    decision_kinds: frozenset[str]
    """Every ``Decision.kind`` the game can ask."""
    outcome_reasons: frozenset[str] = frozenset()
    """Every ``Outcome.reason`` the game can give (a reason may carry a number, see
    :meth:`reason_key`)."""
    length_unit: Literal["turns", "decisions"] = "decisions"
    """How a game's length is counted in results: its own turn counter, or decisions."""

    def reason_key(self, reason: str) -> str:
        """The declared reason a concrete one comes from (numbers in parentheses dropped)."""
        return reason.split(" (", 1)[0]


RolloutPolicy = Callable[["State", Sequence[Action], Rng], Action]
RolloutValue = Callable[["State"], tuple[float, ...]]


@dataclass(frozen=True)
class HeuristicPlugin:
    """A game's rules-of-thumb bot and what search borrows from it.

    ``bot`` builds the ``easy`` level (deciding from its :class:`SeatView` only).
    ``rollout_policy`` is a cheap playout policy handed *sampled* states; it should
    decide as the deciding seat could. ``rollout_value`` with ``rollout_depth`` cuts
    playouts after that many actions and scores them. ``search_prior_visits`` gives the
    heuristic's pick that many virtual wins at the root of a search.
    """

    bot: Callable[[], Bot]
    rollout_policy: RolloutPolicy | None = None
    rollout_value: RolloutValue | None = None
    rollout_depth: int | None = None
    search_prior_visits: int = 0

    def __post_init__(self) -> None:
        if self.rollout_value is not None and (self.rollout_depth is None or self.rollout_depth < 0):
            raise TypeError("a heuristic with rollout_value needs rollout_depth (an int >= 0)")
        if self.search_prior_visits < 0:
            raise TypeError("search_prior_visits must be >= 0")


@dataclass(frozen=True)
class BotBudgets:
    """Per-level overrides of the ISMCTS budgets (iterations, simulated actions)."""

    iterations: Mapping[str, int] = field(default_factory=dict)
    steps: Mapping[str, int] = field(default_factory=dict)


class TerminalRenderer(Protocol):
    """Draws one game's views for the terminal. ``names`` are the seats' display names;
    ``seat`` is who looks (None: a spectator)."""

    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        """Everything public: players, piles, the board, what is pending."""
        ...

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        """What only ``seat`` may see (its hand, cards it knows in the pile)."""
        ...

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        """A short plain-words label for a legal action's text."""
        ...

    def help(self) -> RenderableType:
        """A short reference of the game's pieces and symbols (shown on '?')."""
        ...


@dataclass(frozen=True)
class Choice:
    """One valid value of a game option, as the lobby shows it."""

    value: str
    """What goes into the config (an id, or ``random``)."""
    name: str
    summary: str = ""
    """One line under the name."""
    detail: tuple[str, ...] = ()
    """The full text behind the summary (a fighter's sheet, a pack's cards), public facts only."""
    group: str = ""
    """A heading the value is listed under (the box a fighter comes from)."""

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "name": self.name, "summary": self.summary,
                "detail": list(self.detail), "group": self.group}


@dataclass(frozen=True)
class LobbyInfo:
    """What the lobby says about a game, and the choices its options take."""

    summary: str
    """One or two sentences: what the game is about."""
    minutes: tuple[int, int]
    """Typical length of a game against bots, in minutes (low, high)."""
    rules: str | None = None
    """A Markdown file in the game's own package (e.g. ``"rules.md"``): its rules page."""
    choices: Mapping[str, tuple[Choice, ...]] = field(default_factory=dict)
    """Option name -> its valid values (for a list option: the values of each item)."""
    narrowed_by: Mapping[str, str] = field(default_factory=dict)
    """Option name -> the option whose chosen values its choices must be grouped under
    (e.g. fighters offered from the boxes in play: ``{"fighters": "boxes"}``);
    a choice with no group is always offered."""

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary, "minutes": list(self.minutes), "has_rules": self.rules is not None,
                "choices": {k: [c.to_dict() for c in v] for k, v in self.choices.items()},
                "narrowed_by": dict(self.narrowed_by)}


@dataclass(frozen=True)
class Puzzle:
    """What a challenge maker builds: the payload the person sees, the one right answer,
    and the actions a pass and a fail become.

    ``payload`` must hold only what a person sees when the puzzle opens (never the
    solution, nor how the puzzle will look later). ``min_seconds_per_piece`` is a
    human-speed floor: the table fails an answer of k pieces that came sooner than
    k times this many seconds after the puzzle opened (0: no floor)."""

    kind: str
    payload: dict[str, Any]
    solution: tuple[str, ...]
    pass_action: str
    fail_action: str
    rule: str = ""
    min_seconds_per_piece: float = 0.0
    seconds: float | None = None
    """The feat's own time, for a decision that has no time limit of its own (on a
    turn-based table): the puzzle is then shown only when the person opens it, and these
    seconds run from that moment. None: the decision's own time limit is the puzzle's."""

    def __post_init__(self) -> None:
        if self.min_seconds_per_piece < 0:
            raise ValueError("min_seconds_per_piece must be >= 0")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a puzzle's seconds must be > 0 (or None)")


Maker = Callable[["View", "Decision", Rng], Puzzle]
"""``maker(view, decision, rng)``: a puzzle for the deciding seat, from the table's own RNG."""


@dataclass(frozen=True)
class TurnBasedRules:
    """How a game plays on a turn-based table, where a move may take hours or days.

    A window of seconds (an answer within ten seconds, a feat against the clock) cannot
    wait for a person who comes back tomorrow, so a game with timed decisions names, in
    its own options, the rule that replaces each window there. ``options`` are what a
    turn-based table sets unless its creator chose otherwise; ``refusal(config)`` says
    why an option set (the game's validated config model) cannot be played turn-based,
    in a sentence naming the options to change, or None when it can. On a turn-based
    table no decision may carry a time limit of its own (the conformance suite plays
    games with ``options`` and checks)."""

    options: Mapping[str, Any]
    refusal: Callable[[Any], str | None]

@dataclass(frozen=True)
class EntrantGroup:
    """Entrants that all meet each other in one balance matrix.

    ``config`` holds the table options every match of the group shares (plain data: it
    travels to worker processes); :meth:`BalancePlugin.pairing_config` adds a pairing's
    two entrants. ``title`` heads the group's report (empty: no heading).
    """

    title: str
    entrants: tuple[str, ...]
    config: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class MatchMetrics:
    """What a balance watcher makes of one finished match."""

    first: int = 0
    """The seat that plays first in the match (for the first-player edge)."""
    rounds: list[tuple[int, int | None]] = field(default_factory=list)
    """Each round's first player and its winner (None: a drawn round); empty for games
    without rounds."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Game metrics only the game's :meth:`BalancePlugin.rate_tables` reads (plain data)."""
    cards: list[dict[str, list[int]]] = field(default_factory=list)
    """Per seat, each card the seat had in the match: ``name -> [times drawn, times played]``
    (what "drawn" and "played" mean is the game's: a card taken into hand, a creature
    drafted…); empty when the game does not say. The per-card report reads only this."""


@dataclass(frozen=True)
class BalanceMatch:
    """One finished balance match: entrant ``a`` held seat 0, ``b`` seat 1."""

    a: str
    b: str
    payoffs: tuple[float, ...]
    draw: bool
    metrics: MatchMetrics
    index: int = 0
    """The match's number in its pairing (its deal is derived from it)."""
    length: int = 0
    """Decisions the match took."""


@dataclass(frozen=True)
class RateTable:
    """A table of rates a balance report shows with their 95 % intervals.

    Each row is its leading cells (one per heading in ``columns``), then the points
    scored and out of how many matches; the report adds the count, the rate and its
    Wilson interval under the headings ``count`` and ``rate``.
    """

    columns: tuple[str, ...]
    count: str
    rate: str
    rows: Sequence[tuple[tuple[str, ...], float, int]]


class MatchWatcher(Protocol):
    """Follows one match of a balance run and reports its game metrics."""

    def see(self, state: State, events: Sequence[Event]) -> None:
        """After every action: the state it led to and the events it caused."""
        ...

    def metrics(self) -> MatchMetrics:
        """What was seen, once the match is over."""
        ...


TUNABLE: Final[dict[str, Any]] = {"tunable": True}
"""Marks a content model's whole-number field as one ``balance tune`` may change, within
the field's own ``ge``/``le`` bounds: ``Field(ge=0, le=9, json_schema_extra=TUNABLE)``.
A field without bounds, or a mapping of names to numbers (each value tunable), gives
them in the marker: ``json_schema_extra={"tunable": [1, 6]}``."""


@dataclass(frozen=True)
class ContentFile:
    """One file of the content a balance run plays, as a content version folder holds it."""

    name: str
    """Its path inside a content version folder, with ``/`` (``ember-rush.toml``,
    ``nemesis/attacks.toml``); a folder of these files is a version the plug-in's
    :meth:`BalancePlugin.version_options` loads."""
    source: Path
    """Where its text is read from."""
    model: type[BaseModel]
    """The pydantic model that validates the file. The fields it marks tunable
    (``json_schema_extra={"tunable": True}``) are what ``balance tune`` may change."""


@dataclass(frozen=True)
class ContentPart:
    """A piece of the content that belongs to some entrants: a card, a fighter sheet, a
    box's skill cards. Whatever lies under ``path`` in ``file`` plays only in matches of
    ``owners``; a changed value found under no part belongs to every entrant."""

    file: str
    """The :attr:`ContentFile.name` of its file."""
    path: tuple[str | int, ...]
    """Where it sits in the file's data (keys as the file spells them, list positions
    from 0): ``("cards", 1)``; ``()`` is the whole file."""
    name: str
    """Its name as the per-card statistics give it (:attr:`MatchMetrics.cards`)."""
    owners: tuple[str, ...]
    """The entrants whose matches it plays in (their ids as the groups list them)."""
    card: bool = True
    """True: a card the ablation replaces by its neutral stand-in
    (:meth:`BalancePlugin.neutral`)."""


@dataclass(frozen=True)
class RunContent:
    """The content a balance run with some options plays, file by file."""

    files: tuple[ContentFile, ...]
    parts: tuple[ContentPart, ...]
    options: Mapping[str, Any]
    """The run's options without those that name its content: a written copy of the
    files replaces them (``{**options, **version_options(folder)}``)."""


@dataclass(frozen=True)
class ContentProblem:
    """One thing wrong with a content document, and where: the keys and list positions
    (from 0) of the field in the document's data, ``()`` for the document as a whole."""

    path: tuple[str | int, ...]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": list(self.path), "message": self.message}


@dataclass(frozen=True)
class Playtest:
    """How a table plays a valid content document once it is uploaded as a content version
    (:mod:`knockabout.core.content_versions`; the table's ``content`` option names it)."""

    name: str
    """The document's own name (a pack's, a box's), as the uploader's list shows it."""
    config: Mapping[str, Any]
    """The table options that put the document in play (a pack in the first seat, the box
    as the one in play), beside ``content``."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "config": dict(self.config)}


class ContentEditor(ABC):
    """How the browser's content editor edits one kind of a game's content document (a
    KNOCKBACK pack, a Knockdown box): its data as JSON, the JSON Schema the form is made
    from, the shipped documents to start from, the checks, the files it is written as, and
    each card as the game's web renderer previews it (its ``previewCards(root, cards)``).

    Everything is data: nothing in a document runs as code. A document that fails
    :meth:`check` is never written nor previewed."""

    kind: ClassVar[str]
    """What one document is, in one word (``pack``, ``box``)."""
    playtest_sets: ClassVar[tuple[str, ...]] = ()
    """The table options :meth:`playtest` sets (the studio's playtest form leaves them, and
    the options they narrow, out of the options it offers)."""

    @abstractmethod
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of a document's data (from the content models)."""

    @abstractmethod
    def shipped(self) -> list[Choice]:
        """The documents the game ships, to start from (value: the id :meth:`document` takes)."""

    @abstractmethod
    def document(self, ident: str) -> dict[str, Any]:
        """A shipped document's data; raises :class:`KeyError` for an unknown id."""

    @abstractmethod
    def check(self, data: Any) -> list[ContentProblem]:
        """Every problem of ``data`` (empty: a valid document), each naming its field."""

    @staticmethod
    def validated(model: type[D], data: Any, shape: str,
                  problems: Callable[[ValidationError], list[ContentProblem]]) -> tuple[D | None, list[ContentProblem]]:
        """``data`` read by the document's ``model``, or None and what is wrong: ``shape`` (what
        a document is) when ``data`` is not even a table of keys, else pydantic's errors as
        the game's ``problems`` words them."""
        if not isinstance(data, dict):
            return None, [ContentProblem((), shape)]
        try:
            return model.model_validate(data), []
        except ValidationError as exc:
            return None, problems(exc)

    def valid(self, checked: tuple[D | None, list[ContentProblem]]) -> D:
        """The document of a ``(document, problems)`` check (:meth:`validated` and what the
        game adds to it), or a ValueError naming its first problem: for :meth:`files` and
        :meth:`playtest`, which take only a valid document."""
        doc, problems = checked
        if doc is None:
            raise ValueError(f"not a valid {self.kind}: {problems[0].message}")
        return doc

    @abstractmethod
    def files(self, data: Any) -> dict[str, str]:
        """A valid document as the TOML files ``knockabout content validate`` accepts
        (name -> text; a name may hold a folder: ``nemesis/box.toml``)."""

    @abstractmethod
    def read(self, files: Mapping[str, str]) -> tuple[dict[str, Any] | None, list[ContentProblem]]:
        """A document's data from its TOML files, or None and what is wrong with them."""

    @abstractmethod
    def preview(self, data: Any) -> list[dict[str, Any]]:
        """Each card of a valid document as the web renderer's ``previewCards`` draws it."""

    @abstractmethod
    def playtest(self, data: Any) -> Playtest:
        """How a table plays a valid document uploaded as a content version (its config
        sets exactly :attr:`playtest_sets`); a ValueError, saying why, for a valid document
        no table can play."""


class BalancePlugin(ABC):
    """What a game's content balance run needs to know about the game.

    The generic runner (``knockabout.sim.balance``) plays every ordered pairing of a
    group's entrants head to head (two seats, the same bot level on both), builds the
    win-rate matrix, each entrant's rate against the field and the first-player edge;
    the plug-in says who the entrants are, how a pairing's match is configured, what to
    watch in a match and which tables of game metrics to add to the report.
    """

    entrant_kind: ClassVar[str]
    """What an entrant is, in one word (``pack``, ``fighter``): the matrix's corner."""
    options: ClassVar[Mapping[str, str]] = {}
    """The options a run takes (name -> one line of help); anything else is refused."""

    @abstractmethod
    def groups(self, options: Mapping[str, Any]) -> list[EntrantGroup]:
        """The groups to run for these options (already limited to :attr:`options`);
        raises :class:`~knockabout.core.errors.ConfigError` for a bad value."""

    @abstractmethod
    def pairing_config(self, group: EntrantGroup, a: str, b: str) -> dict[str, Any]:
        """The table options of a match of ``a`` (seat 0) against ``b`` (seat 1)."""

    @abstractmethod
    def watch(self, state: State) -> MatchWatcher:
        """A fresh watcher for a match that starts from ``state``."""

    def label(self, entrant: str) -> str:
        """A short column heading for an entrant."""
        return entrant

    def rate_tables(self, group: EntrantGroup, matches: Sequence[BalanceMatch]) -> list[RateTable]:
        """Tables of game metrics added after the generic report, rows in the order shown
        (none by default)."""
        return []

    def content_digest(self, options: Mapping[str, Any]) -> str:
        """A digest of the content a run with these options plays beyond the game's own
        (``Game.content_hash``), e.g. extra files; a checkpoint of other content is refused."""
        return ""

    def version_options(self, path: str) -> dict[str, Any]:
        """The run options that play the content version at ``path`` (a file or folder)
        instead of the shipped one, for ``balance compare``; raises
        :class:`~knockabout.core.errors.ConfigError` when the game cannot (the default)."""
        raise ConfigError("this game's balance plug-in cannot load another content version")

    def start(self, group: EntrantGroup, a: str, b: str, seed: int) -> State | None:
        """The first state of a match of ``a`` against ``b`` when the plug-in builds it
        itself (a content version the game's ``new_state`` cannot load); None: the runner
        calls ``game.new_state`` with :meth:`pairing_config` (the default)."""
        return None

    def content(self, options: Mapping[str, Any]) -> RunContent:
        """The files a run with these options plays and the parts (cards…) they hold, so
        ablation and tuning can write changed copies of them as a content version;
        raises :class:`~knockabout.core.errors.ConfigError` when the game cannot (the default)."""
        raise ConfigError("this game's balance plug-in does not describe its content files")

    def neutral(self, part: ContentPart, data: Mapping[str, Any]) -> dict[str, Any]:
        """The game's neutral stand-in for the card ``part`` (``data``: the card as its
        file holds it): an unremarkable card of the game, in the same file format, that
        keeps whatever other content refers to (its name, its place in a deck), so an
        ablation measures what the card itself adds. The default refuses."""
        raise ConfigError("this game's balance plug-in has no neutral stand-in for a card")


Tone = Literal["", "quiet", "own", "danger"]
"""How an action's button looks: ``quiet`` a way out (pass, take the hit), ``own`` it
hurts one of your own pieces, ``danger`` it loses you the game or a piece."""


@dataclass(frozen=True)
class Prompt:
    """A decision in a person's words: a short title, one line of why, and the section of
    the game's rules page that explains it (an anchor of the rendered page)."""

    title: str
    why: str
    section: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"title": self.title, "why": self.why, "section": self.section}


@dataclass(frozen=True)
class GuidedAction:
    """One legal action in plain words. ``detail`` is a second line (a skill's text);
    ``claim`` names the consequence ``label`` states, when it states one the engine
    checks (see :attr:`Guide.claims`)."""

    action: str
    label: str
    detail: str = ""
    tone: Tone = ""
    claim: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"action": self.action, "label": self.label, "detail": self.detail, "tone": self.tone,
                "claim": self.claim}


@dataclass(frozen=True)
class Hint:
    """A line of help. ``claim`` names what it promises about ``actions`` (empty: it
    promises nothing a test could check, e.g. how to use the screen)."""

    text: str
    claim: str = ""
    actions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "claim": self.claim, "actions": list(self.actions)}


@dataclass(frozen=True)
class Guidance:
    """What the deciding seat is told about its decision: the prompt, every legal action
    in words (in the order to show them), and hints."""

    kind: str
    prompt: Prompt
    actions: tuple[GuidedAction, ...]
    hints: tuple[Hint, ...] = ()

    def label(self, action: str) -> str:
        """The words for ``action`` (its text when it is not one of :attr:`actions`)."""
        for a in self.actions:
            if a.action == action:
                return a.label
        return action

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "prompt": self.prompt.to_dict(),
                "actions": [a.to_dict() for a in self.actions], "hints": [h.to_dict() for h in self.hints]}


class Guide(ABC):
    """What a game tells a person about a decision, from that seat's own knowledge.

    :meth:`advise` reads the seat's :class:`SeatView` only: its typed view, and sampled
    states (determinizations) for what the engine can say about public facts (is the rival
    in reach? what does this Block leave?), so a guide can never tell what the seat may
    not know; the table hands its result to the deciding seat in its update. Every claim a
    label or a hint makes is one of :attr:`claims`, so a test can apply the action to a
    copy of the true state and check that the promise holds.
    """

    claims: ClassVar[Mapping[str, str]] = {}
    """Claim name -> what it promises about the actions it names."""

    @abstractmethod
    def prompts(self) -> Mapping[str, Prompt]:
        """Every decision kind the game asks (``GameFacts.decision_kinds``) -> its prompt
        in general words (what :meth:`advise` says when it knows nothing more)."""

    @abstractmethod
    def advise(self, seat: SeatView, names: Sequence[str]) -> Guidance:
        """The guidance for ``seat.player``'s pending decision (``names``: the seats'
        display names). Called only when that seat decides."""

    def label(self, view: View, action: str, names: Sequence[str]) -> str:
        """Plain words for one action from a view alone (a replay's step, a terminal
        fallback); the text itself by default."""
        return action

    def view_of(self, view: View, kind: type[TV]) -> TV:
        """``view`` as the game's own view class ``kind``: a guide reads its own game's views
        only (a TypeError for any other)."""
        if not isinstance(view, kind):
            raise TypeError(f"{type(self).__name__} reads a {kind.__name__}, not {type(view).__name__}")
        return view

    def deciding(self, seat: SeatView, kind: type[TV]) -> tuple[TV, DecisionView]:
        """The deciding seat's view (as ``kind``) and its pending decision: what :meth:`advise`
        starts from."""
        view = self.view_of(seat.observation(), kind)
        decision = view.decision
        assert decision is not None and decision.player == seat.player, "guidance is for the seat that decides"
        return view, decision


@dataclass(frozen=True, slots=True)
class EncodedField:
    """One named slice of an observation vector: ``size`` numbers, each in [0, 1]."""

    name: str
    size: int
    meaning: str


class ObservationEncoder(ABC):
    """How one game turns a seat's typed view into a fixed-size float32 vector.

    ``fields`` declares the layout in order (the documentation is generated from it);
    :meth:`encode` fills exactly that layout, every number in [0, 1], from the view
    alone — so an observation can hold nothing the seat may not know. Build the vector
    with :class:`~knockabout.core.encoding.VectorWriter`, which writes by field name and
    refuses a write that does not fit the declaration. An encoder can derive from
    :class:`~knockabout.core.encoding.ViewEncoder`, which reads the game's typed view, writes
    the ``seat``, ``legal_count``, ``over`` and ``payoff`` fields and leaves the rest to it.

    :meth:`potential` is an optional shaping signal (see ``knockabout.envs``): how well
    the seat is doing by its own view, in [0, 1]; environments reward its change only
    when asked to (potential-based shaping, off by default).
    """

    fields: tuple[EncodedField, ...]

    @property
    def size(self) -> int:
        return sum(f.size for f in self.fields)

    def layout(self) -> list[tuple[int, EncodedField]]:
        """Each field with its offset in the vector."""
        out = []
        at = 0
        for f in self.fields:
            out.append((at, f))
            at += f.size
        return out

    @abstractmethod
    def encode(self, view: View) -> array[float]:
        """The view as an ``array('f')`` of :attr:`size` numbers in [0, 1]."""

    def potential(self, view: View) -> float:
        """How well the viewing seat stands, in [0, 1] (0.5 when the game says nothing)."""
        return 0.5


__all__ = [
    "TUNABLE",
    "BalanceMatch",
    "BalancePlugin",
    "BotBudgets",
    "ContentEditor",
    "ContentFile",
    "ContentPart",
    "ContentProblem",
    "EncodedField",
    "EntrantGroup",
    "GameFacts",
    "Guidance",
    "Guide",
    "GuidedAction",
    "HeuristicPlugin",
    "Hint",
    "Maker",
    "MatchMetrics",
    "MatchWatcher",
    "ObservationEncoder",
    "Playtest",
    "Prompt",
    "Puzzle",
    "RateTable",
    "RolloutPolicy",
    "RolloutValue",
    "RunContent",
    "SeatView",
    "TerminalRenderer",
    "Tone",
]
