"""What one seat (or a spectator) sees of a Knockdown table: the typed view.

:func:`observe` builds a :class:`KnockdownView` from a state; ``KnockdownState.observe``
calls it. Hands, wounds, tokens, the board and the Attack Row are open to everyone (see
the state module's text); the deck order and the skill draft are not: a seat also gets
its own draft (:class:`Draft`) and, when it decides, its legal actions. A field a viewer
may not see, or that does not apply now, is None (``draft`` for a spectator, ``attack``
outside an Attack Sequence, the parts of :class:`Pending` that do not apply).

The wire JSON (``view.to_json()``) and the JSON Schema (``KnockdownView.json_schema()``)
come from these declarations; the terminal renderer, the tower challenge and the browser
renderer read these fields and no others.

What never changes during a match (the arena's spaces, the card catalog, the fighter
sheets, skill texts) is built once per match setup and shared by every view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar, Final, Literal

from pydantic import ConfigDict, Field

from knockabout.core.memo import BoundedCache
from knockabout.core.view import TableView, decision_view, outcome_view
from knockabout.games.knockdown.content.match import MatchSetup
from knockabout.games.knockdown.content.text import ARENA_RULE_TEXT, skill_text
from knockabout.games.knockdown.content.vocabulary import SYMBOLS, TOKENS
from knockabout.games.knockdown.rules.phases import PAY_REACT, PHASE_KINDS, TRIGGERS, Phase
from knockabout.games.knockdown.rules.rounds import CANDLE

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

_BY_ALIAS = ConfigDict(serialize_by_alias=True)

Purpose = Literal["hand_limit", "discard", "reveal", "pick_revealed", "discard_for_tokens", "block_card"]
"""Why a card is being chosen (``choose_card``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillView:
    """A Skill card as its holder reads it."""

    name: str
    initiative: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetSpecial:
    """One Special Attack on a fighter sheet."""

    name: str
    type: str
    cost: tuple[str, ...]
    """The symbols its payment needs, one per slot."""
    range: str
    heavy: int
    light: int
    ko: bool
    trigger: str
    """``none``, or what a Reaction answers (``opponent_moves``, ``attacked``)."""
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet:
    """A fighter sheet: its Special Attacks and K.O. effect, as data and as text."""

    __pydantic_config__: ClassVar[ConfigDict] = _BY_ALIAS

    name: str
    fighter_class: Annotated[str, Field(alias="class")]
    ko_effect: str
    specials: tuple[SheetSpecial, ...]
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardInfoView:
    """What a player reads on an Attack card (the Contamination card has no symbol)."""

    symbols: tuple[str, ...]
    heavy: int
    light: int
    range: str
    type: str
    ko: bool
    text: str
    """The whole card in words."""
    effect: str = ""
    """What it does besides its wound pool (its effect, what taking it costs), as its face prints
    it; empty when nothing."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FighterView:
    """One fighter at the table (every part of it is open information)."""

    __pydantic_config__: ClassVar[ConfigDict] = _BY_ALIAS

    seat: int
    id: str
    name: str
    fighter_class: Annotated[str, Field(alias="class")]
    box: str
    space: int
    """The arena space it stands on (an index into ``arena.spaces``)."""
    heavy: int
    """Heavy wounds (■ in the terminal)."""
    light: int
    """Light wounds (□ in the terminal)."""
    tokens: dict[str, int]
    """Tokens it holds, by name (only those it has)."""
    hand: tuple[str, ...]
    hand_symbols: tuple[tuple[str, ...], ...]
    """Per hand card, the symbols it pays with for this fighter (skills may add some)."""
    hand_limit: int
    skills: tuple[SkillView, ...]
    """Its active (face-up, or revealed) Skill cards."""
    hidden_skills: int
    """Skill cards it holds face down."""
    victories: int
    specials: tuple[str, ...]
    """Its Special Attacks' names (``special:N`` and ``react:N`` count from 0 here)."""
    sheet: Sheet


@dataclass(frozen=True, slots=True, kw_only=True)
class Space:
    """One arena space: where it is drawn, its tags (``start``, ``dangerous``, ``center``...)
    and its board coordinate (``c2``)."""

    x: int
    y: int
    tags: tuple[str, ...]
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Trap:
    space: int
    owner: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ArenaView:
    name: str
    box: str
    rule: str
    rule_text: str
    width: int
    height: int
    spaces: tuple[Space, ...]
    starts: tuple[int, ...]
    corridors: tuple[int, ...]
    """Spaces with a Technical Corridor."""
    candles: tuple[int, int] | None
    """The burning columns under the Fading Menhir (everything at or beyond them burns), or None."""
    traps: tuple[Trap, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackView:
    """The Attack Sequence under way."""

    by: int
    name: str
    type: Literal["strike", "ability", "reaction"]
    heavy: int
    light: int
    effect_blocked: bool
    ignored: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Pending:
    """What the pending decision is about, as far as it is public; every field that does
    not apply is None.

    * paying for a Special Attack (``pay``): ``special``, ``reaction``;
    * a step of a move (``move_step``): ``mover``, ``moves_left``, ``optional``, ``dash``;
    * a Blink (``blink``): ``mover``, ``spaces`` (where it may land);
    * a card to choose (``choose_card``): ``purpose``, ``owner`` (whose hand), ``left``,
      ``revealed`` (hand positions revealed or picked so far);
    * a Reaction (``reaction``): ``trigger``, ``by``, ``reactions`` (the names on offer);
    * the tower (``tower_challenge``): ``tested``, ``cubes``, ``seconds``, ``bot_pass_chance``;
    * tokens to spend (``token_count``): ``token``, ``have``;
    * a card from the Attack Row (``take_from_row``, ``opening_pick``): ``cards_left``;
    * the skill draft: ``chosen`` (per seat: has it chosen yet).
    """

    special: str | None = None
    reaction: bool | None = None
    mover: int | None = None
    moves_left: int | None = None
    optional: bool | None = None
    dash: bool | None = None
    spaces: tuple[int, ...] | None = None
    purpose: Purpose | None = None
    owner: int | None = None
    left: int | None = None
    revealed: tuple[int, ...] | None = None
    trigger: str | None = None
    by: int | None = None
    reactions: tuple[str, ...] | None = None
    tested: int | None = None
    cubes: int | None = None
    seconds: int | None = None
    bot_pass_chance: float | None = None
    token: str | None = None
    have: int | None = None
    cards_left: int | None = None
    chosen: tuple[bool, bool] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Draft:
    """The viewer's own skill draft: dealt to it, kept, passed to it, which one is face up
    (0: the first kept; ``faceup:N`` counts the same way)."""

    dealt: tuple[SkillView, ...]
    kept: tuple[SkillView, ...] | None = None
    received: tuple[SkillView, ...] | None = None
    face_up: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class KnockdownView(TableView):
    """One seat's view of a Knockdown table (``seat`` None: a spectator's)."""

    game_id: ClassVar[str] = "knockdown"

    game: Literal["knockdown"] = "knockdown"
    round: int
    knockdown_test: Literal["dice", "tower"]
    rounds_to_win: int | None = None
    """How many round wins take the match, when the table changed it (None: two, as printed)."""
    first: int
    """Who played first this round."""
    current: int
    """Whose turn it is."""
    phase: str
    """The kind of decision the table waits for (``over`` at the end)."""
    actions_done: int
    actions_allowed: int
    arena: ArenaView
    fighters: tuple[FighterView, FighterView]
    row: tuple[str | None, ...]
    """The Attack Row's four slots (None: empty); ``attack:N`` and ``row:N`` count from 0 here."""
    cards: dict[str, CardInfoView]
    """Every card of the match by name: what a player reads on it."""
    deck: int
    """Cards left in the deck."""
    candles_in_deck: int
    discard: tuple[str, ...]
    contamination_left: int
    pending: Pending
    attack: AttackView | None = None
    """The Attack Sequence under way, while one is (else None)."""
    combo_used: tuple[str, ...] | None = None
    """Special Attacks already used in the Combo under way (else None)."""
    draft: Draft | None = None
    """The viewer's own skill draft (None for a spectator)."""
    legal: tuple[str, ...] | None = None
    """The viewer's legal actions when it is the one deciding, else None."""


# ---------------------------------------------------------------- parts of a match setup
@dataclass(frozen=True, slots=True)
class _Static:
    """The parts of the views that never change during one match."""

    setup: MatchSetup
    spaces: tuple[Space, ...]
    cards: dict[str, CardInfoView]
    sheets: tuple[Sheet, Sheet]
    skills: tuple[SkillView, ...]
    names: tuple[str, ...]
    specials: tuple[tuple[str, ...], tuple[str, ...]]


def _sheet(data: dict[str, object]) -> Sheet:
    specials = data["specials"]
    assert isinstance(specials, list)
    return Sheet(
        name=str(data["name"]),
        fighter_class=str(data["class"]),
        ko_effect=str(data["ko_effect"]),
        specials=tuple(
            SheetSpecial(name=sp["name"], type=sp["type"], cost=tuple(sp["cost"]), range=sp["range"],
                         heavy=sp["heavy"], light=sp["light"], ko=sp["ko"], trigger=sp["trigger"], text=sp["text"])
            for sp in specials
        ),
        text=str(data["text"]),
    )


def _build_static(setup: MatchSetup) -> _Static:
    arena = setup.arena
    return _Static(
        setup=setup,
        spaces=tuple(
            Space(x=arena.xs[i], y=arena.ys[i], tags=tuple(sorted(arena.tags[i])), label=arena.label(i))
            for i in range(arena.size)
        ),
        cards={
            name: CardInfoView(symbols=tuple(c["symbols"]), heavy=c["heavy"], light=c["light"], range=c["range"],
                               type=c["type"], ko=c["ko"], text=c["text"], effect=c["effect"])
            for name, c in setup.catalog.items()
        },
        sheets=(_sheet(setup.sheets[0]), _sheet(setup.sheets[1])),
        skills=tuple(SkillView(name=sk.name, initiative=sk.initiative, text=skill_text(sk)) for sk in setup.skills),
        names=tuple(c.name for c in setup.cards),
        specials=(tuple(sp.name for sp in setup.specials[0]), tuple(sp.name for sp in setup.specials[1])),
    )


_STATIC: BoundedCache[int, _Static] = BoundedCache(256)


def _static(setup: MatchSetup) -> _Static:
    # setups are shared, cached objects (match.build_setup), so their view parts are too
    hit = _STATIC.get(id(setup))
    if hit is None or hit.setup is not setup:
        hit = _STATIC.put(id(setup), _build_static(setup))
    return hit


def card_catalog(setup: MatchSetup) -> dict[str, CardInfoView]:
    """Every card of a match by name, as the views show it (``KnockdownView.cards``)."""
    return _static(setup).cards


# ---------------------------------------------------------------- the changing parts
_PURPOSES: tuple[Purpose, ...] = (
    "hand_limit", "discard", "reveal", "pick_revealed", "discard_for_tokens", "block_card",
)
_ATTACK_TYPES: tuple[Literal["strike", "ability", "reaction"], ...] = ("strike", "ability", "reaction")
ATTACK_PHASES: Final = frozenset((Phase.BLOCK, Phase.REACT, Phase.KO, Phase.TOWER, Phase.PAY, Phase.CARD, Phase.STEP,
                            Phase.BLINK, Phase.COUNT, Phase.ROW))
"""The phases in which the Attack Sequence under way is shown (``attack``)."""
_NOTHING_PENDING = Pending()


def _pending(s: KnockdownState) -> Pending:
    ph = s.phase
    pend = s.pend
    if ph == Phase.PAY:
        return Pending(special=s.setup.specials[pend[1]][pend[2]].name, reaction=pend[0] == PAY_REACT)
    if ph == Phase.STEP:
        return Pending(mover=pend[0], moves_left=pend[1], optional=pend[2], dash=pend[3])
    if ph == Phase.BLINK:
        return Pending(mover=pend[0], spaces=tuple(pend[2]))
    if ph == Phase.CARD:
        return Pending(purpose=_PURPOSES[pend[0]], owner=pend[1], left=pend[3], revealed=tuple(pend[4]))
    if ph == Phase.REACT:
        sp = s.setup.specials[s.decider]
        return Pending(trigger=TRIGGERS[pend[0]], by=pend[1], reactions=tuple(sp[k].name for k in pend[2]))
    if ph == Phase.TOWER:
        return Pending(tested=pend[0], cubes=pend[2], seconds=10, bot_pass_chance=s.tower_pass_chance(pend[2]))
    if ph == Phase.COUNT:
        return Pending(token=TOKENS[pend[1]], have=s.tokens[pend[0]][pend[1]])
    if ph in (Phase.ROW, Phase.OPENING):
        return Pending(cards_left=pend[0])
    if ph == Phase.DRAFT1:
        return Pending(chosen=(s.keep1[0] >= 0, s.keep1[1] >= 0))
    if ph == Phase.DRAFT2:
        return Pending(chosen=(s.keep2[0] >= 0, s.keep2[1] >= 0))
    if ph == Phase.FACEUP:
        return Pending(chosen=(s.up[0] >= 0, s.up[1] >= 0))
    return _NOTHING_PENDING


def _attack(s: KnockdownState) -> AttackView | None:
    if s.atk_by < 0 or s.phase not in ATTACK_PHASES:
        return None
    return AttackView(by=s.atk_by, name=s.attack_name(), type=_ATTACK_TYPES[s.atk_type], heavy=s.atk_h,
                      light=s.atk_l, effect_blocked=s.atk_blockfx, ignored=s.atk_void)


def _combo_used(s: KnockdownState) -> tuple[str, ...] | None:
    if s.phase == Phase.COMBO or (s.phase in (Phase.PAY, Phase.STEP) and s.combo_used):
        specials = s.setup.specials[s.current]
        return tuple(specials[k].name for k in range(len(specials)) if s.combo_used >> k & 1)
    return None


def _draft(s: KnockdownState, player: int, skills: tuple[SkillView, ...]) -> Draft:
    kept: tuple[SkillView, ...] | None = None
    if s.keep1[player] >= 0:
        kept = (skills[s.keep1[player]],)
        if s.keep2[player] >= 0:
            kept += (skills[s.keep2[player]],)
    recv = s.recv[player]
    return Draft(
        dealt=tuple(skills[i] for i in s.dealt[player]),
        kept=kept,
        received=tuple(skills[i] for i in recv) if recv else None,
        face_up=s.up[player] if s.up[player] >= 0 else None,
    )


def _fighter(s: KnockdownState, p: int, st: _Static) -> FighterView:
    setup = s.setup
    f = setup.fighters[p]
    names = st.names
    hand = s.hands[p]
    symtab = s.symtab[p]
    active = s.active_skills(p)
    return FighterView(
        seat=p,
        id=f.id,
        name=f.name,
        fighter_class=f.fighter_class,
        box=setup.picks.fighters[p][0],
        space=s.pos[p],
        heavy=s.heavy[p],
        light=s.light[p],
        tokens={TOKENS[t]: n for t, n in enumerate(s.tokens[p]) if n},
        hand=tuple(names[d] for d in hand),
        hand_symbols=tuple(tuple(SYMBOLS[k] for k in symtab[d]) for d in hand),
        hand_limit=s.hand_limit(p),
        skills=tuple(st.skills[i] for i in active),
        hidden_skills=(2 - len(active)) if s.keep2[p] >= 0 else 0,
        victories=s.victories[p],
        specials=st.specials[p],
        sheet=st.sheets[p],
    )


def observe(s: KnockdownState, player: int | None) -> KnockdownView:
    """The view of ``player`` (None: a spectator) of state ``s``."""
    st = _static(s.setup)
    arena = s.setup.arena
    names = st.names
    d = s.to_act()
    r = s.result
    draft = legal = None
    if player is not None:
        draft = _draft(s, player, st.skills)
        if d is not None and d.player == player:
            legal = tuple(a.text for a in s.legal_actions())
    return KnockdownView(
        seat=player,
        round=s.round_no,
        turn=s.turn,
        max_turns=s.cfg[3],
        knockdown_test="tower" if s.cfg[0] == "tower" else "dice",
        rounds_to_win=None if s.cfg[5] == 2 else s.cfg[5],
        first=s.first,
        current=s.current,
        phase=PHASE_KINDS[s.phase],
        actions_done=s.actions_done,
        actions_allowed=s.actions_allowed,
        arena=ArenaView(
            name=arena.name,
            box=arena.box,
            rule=arena.rule,
            rule_text=ARENA_RULE_TEXT[arena.rule],
            width=arena.width,
            height=arena.height,
            spaces=st.spaces,
            starts=arena.starts,
            corridors=arena.corridors,
            candles=s.candle_columns(),
            traps=tuple(Trap(space=m // 2, owner=m % 2) for m in s.traps),
        ),
        fighters=(_fighter(s, 0, st), _fighter(s, 1, st)),
        row=tuple(names[d] if d >= 0 else None for d in s.row),
        cards=st.cards,
        deck=len(s.deck),
        candles_in_deck=s.deck.count(CANDLE),
        discard=tuple(names[k] for k in s.discard),
        contamination_left=s.contam_left,
        decision=None if d is None else decision_view(d),
        pending=_pending(s),
        outcome=None if r is None else outcome_view(r),
        attack=_attack(s),
        combo_used=_combo_used(s),
        draft=draft,
        legal=legal,
    )
