"""The WebSocket frames a table sends, and how a client follows them.

A connection gets a ``sync`` (everything, with every event so far) when it connects or
asks for one; after that, on each change, what changed for it: a ``patch`` frame, an
RFC 6902 JSON Patch (built by the ``jsonpatch`` library) from the message it was last
sent to its new one, with the new events alongside::

    {"type": "patch", "base": 41, "version": 42, "ops": [...], "events": [...]}

The patched message (its :func:`state_of`) is the whole sync/update message minus
``type`` and ``events``; ``base`` is the version of the message the patch applies to.
When the patch would be longer than the whole message, a full ``update`` goes instead.

Built from one :class:`~knockabout.table.Update` (the table's single redaction point)
and nothing else: a patch holds only values of the connection's last message and its
new one. :func:`frame_text` serialises a frame once, so connections that see the same
share the text. :class:`Follower` is the client's side (tests, benchmarks, any Python
client): it keeps the last message and turns each frame back into the full message.
"""

from __future__ import annotations

import json
import marshal
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

import jsonpatch
import orjson
from jsonpointer import escape

from knockabout.core.events import Event
from knockabout.table import Update

UNPATCHED: Final[tuple[str, ...]] = ("type", "events")  # a frame's fields that are not part of the patched message
SHORT_ARRAY: Final = 16  # a changed array of no more items, and no objects, goes whole in a patch


def frame_text(data: Any) -> str:
    """A frame's JSON text: compact UTF-8, the same text as
    ``json.dumps(data, separators=(",", ":"), ensure_ascii=False)``, from orjson, which
    writes it several times faster (docs/measurements.md); serialising frames was the event
    loop's largest cost under load once frames went uncompressed.
    Any JSON value may be given (tests compare parts of messages by their texts).
    orjson stops at 64-bit integers, so a frame that carries a finished table's 256-bit
    seed is written by the standard library instead."""
    try:
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def update_message(
    up: Update,
    kind: str,
    info: dict[str, Any],
    clock: dict[str, Any] | None,
    event_json: Callable[[int, Event], dict[str, Any]],
    start_names: list[str] | None = None,
    first_player: int | None = None,
    *,
    can_undo: bool | None = None,
) -> dict[str, Any]:
    """The WebSocket frame for one :class:`~knockabout.table.Update`: the view's wire JSON
    (``view.to_json()``), the new events narrated, the pending decision, the seat's legal
    actions, challenge and guidance, and whether the seat may take back its last move
    (the update's ``can_undo``, or the caller's, who may know more reasons not to).
    ``start_names`` adds the opening "who goes first" line (a sync)."""
    events = [event_json(s, e) for s, e in up.events]
    if start_names is not None and first_player is not None:
        events.insert(0, {"step": 0, "type": "start", "data": {"player": first_player},
                          "text": f"The cards are dealt: {start_names[first_player]} goes first."})
    return {
        "type": kind,
        "seat": up.seat,
        "table": info,
        "version": up.version,
        "view": up.view.to_json(),
        "events": events,
        "decision": None if up.decision is None else up.decision.to_dict(),
        "legal": list(up.legal),
        "outcome": None if up.outcome is None else up.outcome.to_dict(),
        "clock": clock,
        "challenge": up.challenge,
        "guide": None if up.guidance is None else up.guidance.to_dict(),
        "can_undo": up.can_undo if can_undo is None else can_undo,
    }


def state_of(message: dict[str, Any]) -> dict[str, Any]:
    """The part of a sync or update message that patches carry: all of it but its
    ``type`` and ``events`` (events are sent once each, new ones with every frame)."""
    return {k: v for k, v in message.items() if k not in UNPATCHED}


SPLIT: Final[tuple[str, ...]] = ("table", "view")
"""Members of a message that :class:`Shown` marks member by member (when they are objects):
each change alters a few of their members (the table's version, a fighter, the pile) and
leaves the rest as they were. Within them, an array of objects (a game's fighters, its
cards on a board) is marked item by item."""

Shape = tuple[tuple[str | int, "Shape | None"], ...]
"""How a shown message is laid out: the names (or indexes) of an object's (array's) members
in order, each with its own shape where it is marked part by part, else None."""

_SHAPES: Final[dict[Shape, Shape]] = {}
"""One copy of every shape seen (a server's messages have a few dozen): each :class:`Shown`
holds that copy, and equal shapes are then the same object. Past :data:`MAX_SHAPES` a new
shape is not kept (its messages are then diffed whole: slower, the same patch)."""
MAX_SHAPES: Final = 10_000


@dataclass(frozen=True)
class Shown:
    """A message as a connection was sent it: the UTF-8 JSON text of its :func:`state_of`
    (what the next patch starts from; equal texts share a patch), its :data:`Shape`, where
    in the text each part's value starts and ends, and its version.

    Only the text is kept, not the message's objects: a connection keeps its last message
    until the next change, long enough for the garbage collector's young generations to
    walk its few hundred lists and dicts (a large game's message) again and again and then
    promote them to the oldest, whose full collections they made frequent. With 1,000
    connections that was most of the young collections' work (and a text per member, tried
    too, doubled the server's memory). The next patch compares the two texts part by part
    and reads back (orjson) and diffs only the parts that differ, so a change to one
    fighter reads that fighter, not the whole message. A state with a member orjson
    cannot read back exactly (a finished table's 256-bit seed, which it would read as a
    float) is kept as it is."""

    text: bytes
    shape: Shape
    spans: array[int]
    version: int
    exact: dict[str, Any] | None = None

    @classmethod
    def of(cls, message: dict[str, Any]) -> Shown:
        state = state_of(message)
        try:
            return cls._written(state, orjson.dumps, None)
        except orjson.JSONEncodeError:  # an integer past 64 bits
            return cls._written(state, _dumps_exactly, state)

    @classmethod
    def _written(cls, state: dict[str, Any], dumps: Callable[[Any], bytes], exact: dict[str, Any] | None) -> Shown:
        pieces: list[bytes] = []
        spans: array[int] = array("I")
        shape = _write(state, 0, dumps, pieces, spans, 0)[0]
        kept = _SHAPES.get(shape)
        if kept is None and len(_SHAPES) < MAX_SHAPES:
            kept = _SHAPES[shape] = shape
        return cls(b"".join(pieces), shape if kept is None else kept, spans, state["version"], exact)

    @property
    def size(self) -> int:
        """The length of the whole text in UTF-8."""
        return len(self.text)

    def state(self) -> dict[str, Any]:
        """The message's state (a new copy each call, unless kept)."""
        if self.exact is not None:
            return self.exact
        state: dict[str, Any] = orjson.loads(self.text)
        return state


def _dumps_exactly(value: Any) -> bytes:
    return frame_text(value).encode()  # (the standard library where orjson cannot)


_NAMES: Final[dict[str, bytes]] = {}
"""A member name's JSON text and its colon, for the names seen so far."""


def _name(name: str) -> bytes:
    text = _NAMES.get(name)
    if text is None:
        text = orjson.dumps(name) + b":"
        if len(_NAMES) < 10_000:  # (a message's names are a few hundred at most)
            _NAMES[name] = text
    return text


def _marked(key: str | int, value: Any, depth: int) -> bool:
    if depth == 0:
        return key in SPLIT and type(value) is dict and len(value) > 0
    return depth == 1 and type(value) is list and len(value) > 0 and all(type(x) is dict for x in value)


def _write(value: dict[str, Any] | list[Any], depth: int, dumps: Callable[[Any], bytes],
           pieces: list[bytes], spans: array[int], at: int) -> tuple[Shape, int]:
    """Append ``value``'s JSON text to ``pieces`` (it starts at offset ``at``) and the start
    and end of each unmarked part's value to ``spans``; its shape, and where it ends."""
    is_object = type(value) is dict
    items: Iterable[tuple[str | int, Any]] = value.items() if is_object else enumerate(value)  # type: ignore[union-attr]
    pieces.append(b"{" if is_object else b"[")
    at += 1
    shape: list[tuple[str | int, Shape | None]] = []
    for key, member in items:
        if shape:
            pieces.append(b",")
            at += 1
        if type(key) is str:
            name = _name(key)
            pieces.append(name)
            at += len(name)
        if _marked(key, member, depth):
            inner, at = _write(member, depth + 1, dumps, pieces, spans, at)
            shape.append((key, inner))
        else:
            text = dumps(member)
            pieces.append(text)
            spans.append(at)
            at += len(text)
            spans.append(at)
            shape.append((key, None))
    pieces.append(b"}" if is_object else b"]")
    return tuple(shape), at + 1


def _diff(shape: Shape, old: Shown, new: Shown, at: int, value: Any, base: str, ops: list[dict[str, Any]]) -> int:
    """Add to ``ops`` the patch of ``value`` (laid out as ``shape``, at ``base``) from
    ``old`` to ``new``, whose unmarked parts start at span ``at``: only the parts whose
    texts differ are read back and diffed. Returns the next span."""
    for key, inner in shape:
        if inner is not None:
            at = _diff(inner, old, new, at, value[key], f"{base}/{escape(str(key))}", ops)
            continue
        a, b = old.spans[at], old.spans[at + 1]
        c, d = new.spans[at], new.spans[at + 1]
        at += 2
        if b - a == d - c and old.text[a:b] == new.text[c:d]:
            continue
        ops += patch_ops(orjson.loads(old.text[a:b]), value[key], f"{base}/{escape(str(key))}")
    return at


def _changes(last: Shown, new: Shown, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The patch from ``last`` to ``new`` (whose state is ``state``): part by part when both
    have the same shape, else (or when a text cannot be read back exactly) the whole states."""
    ops: list[dict[str, Any]] = []
    if last.exact is None and last.shape is new.shape:
        _diff(new.shape, last, new, 0, state, "", ops)
        return ops
    return patch_ops(last.state(), state)


def change_frame(last: Shown | None, new: Shown, message: dict[str, Any]) -> str | None:
    """The frame text that takes a client from ``last`` to ``message`` (an update whose
    :class:`Shown` is ``new``): a patch, or the whole update when that is shorter (or
    there is nothing to patch from). None when nothing changed (no new state, no events)."""
    events = message["events"]
    if last is None:
        return frame_text(message)
    if last.text == new.text and not events:
        return None
    ops = _changes(last, new, state_of(message))
    text = frame_text({"type": "patch", "base": last.version, "version": new.version, "ops": ops, "events": events})
    size = len(text) if text.isascii() else len(text.encode())  # (both sizes in UTF-8)
    if size < new.size:  # the whole update is longer still: it holds that state and the events
        return text
    full = frame_text(message)
    return text if len(text) < len(full) else full


def _same(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same, as JSON: ``==`` (fast, in C) confirmed by
    their JSON texts, which tell 1, 1.0 and True apart (``==`` does not) and see member
    order. orjson writes the texts (a third less time per patch than marshal); a value
    with an integer past 64 bits is compared by marshal instead."""
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if type(a) is not dict and type(a) is not list:
        return True
    try:
        return orjson.dumps(a) == orjson.dumps(b)
    except orjson.JSONEncodeError:
        return marshal.dumps(a, 2) == marshal.dumps(b, 2)


def _has_object(value: list[Any]) -> bool:
    return any(isinstance(x, dict) or (isinstance(x, list) and _has_object(x)) for x in value)


def _ends_changed(old: list[Any], new: list[Any], path: str) -> list[dict[str, Any]] | None:
    """The ops for an array of plain values that only gained or lost items at one end (a
    discard pile that grows, a known pile drawn from), the same ops ``make_patch`` finds
    for them at a fraction of its cost; None for any other change."""
    n, m = len(old), len(new)
    if m > n and _same(old, new[:n]):
        return [{"op": "add", "path": f"{path}/{i}", "value": new[i]} for i in range(n, m)]
    if m > n and _same(old, new[m - n:]):
        return [{"op": "add", "path": f"{path}/{i}", "value": new[i]} for i in range(m - n)]
    if m < n and _same(new, old[n - m:]):
        return [{"op": "remove", "path": f"{path}/0"} for _ in range(n - m)]
    if m < n and _same(new, old[:m]):
        return [{"op": "remove", "path": f"{path}/{m}"} for _ in range(n - m)]
    return None


def patch_ops(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The RFC 6902 operations that turn ``old`` into ``new``, member order included (a
    renderer draws an object's members in their order). Objects, and arrays of objects of
    the same length (records by position: seats, fighters, cards), are compared member by
    member, skipping those that are the same; a short array of plain values (a hand of
    card names) that changed goes whole, and every other one that changed is diffed by
    ``jsonpatch.make_patch`` (which matches up moved and inserted items). Diffing only
    what changed keeps a patch's cost far below the whole ``make_patch`` of a large
    message (docs/measurements.md), and its ops as short.

    Most members of a message are the same from one change to the next, so the loops
    below spend as little as they can on one that is: a path is made only for a member
    that changed, and an object whose members kept their names and order (nearly all of
    them) skips the reordering checks."""
    ops: list[dict[str, Any]] = []
    if type(old) is dict and type(new) is dict:
        if len(old) == len(new) and list(old) == list(new):  # the same members in the same order
            for k, v in new.items():
                w = old[k]
                if w is v:
                    continue
                t = type(v)
                if t is type(w) and w == v and ((t is not dict and t is not list) or _same(w, v)):
                    continue
                ops += patch_ops(w, v, f"{path}/{escape(k)}")
            return ops
        kept = [k for k in old if k in new]
        if kept + [k for k in new if k not in old] != list(new):  # an added member goes last
            return [{"op": "replace", "path": path, "value": new}]
        ops = [{"op": "remove", "path": f"{path}/{escape(k)}"} for k in old if k not in new]
        for k, v in new.items():
            if k not in old:
                ops.append({"op": "add", "path": f"{path}/{escape(k)}", "value": v})
            elif not _same(old[k], v):
                ops += patch_ops(old[k], v, f"{path}/{escape(k)}")
        return ops
    if type(old) is list and type(new) is list:
        if len(old) == len(new) and all(type(x) is dict for x in old) and all(type(x) is dict for x in new):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if not _same(a, b):
                    ops += patch_ops(a, b, f"{path}/{i}")
            return ops
        if not (_has_object(old) or _has_object(new)):
            if len(old) <= SHORT_ARRAY and len(new) <= SHORT_ARRAY:
                return [{"op": "replace", "path": path, "value": new}]  # as short as make_patch's ops, far cheaper
            ends = _ends_changed(old, new, path)
            if ends is not None:
                return ends
        found = jsonpatch.make_patch(old, new).patch
        if _has_object(new) and not _same(jsonpatch.apply_patch(old, found), new):
            # make_patch adds an object's new members last: when that changes the order
            # (which marshal, unlike ==, sees), the array goes whole
            return [{"op": "replace", "path": path, "value": new}]
        for op in found:
            moved = {**op, "path": path + op["path"]}
            if "from" in op:
                moved["from"] = path + op["from"]
            ops.append(moved)
        return ops
    return [{"op": "replace", "path": path, "value": new}]


class OutOfStep(Exception):
    """A patch that does not fit the client's last message: ask for a fresh sync."""


class Follower:
    """A client's copy of the table as its frames tell it. :meth:`read` turns every frame
    back into what the server would have sent whole: a ``sync`` or ``update`` replaces the
    copy, a ``patch`` changes it (read as the ``update`` it stands for); other frames
    (errors, pongs, challenges) pass as they are. A patch that does not fit the copy
    (another base version, an op that fails) raises :class:`OutOfStep`, and the client
    then sends ``{"type": "sync"}`` (or reconnects).

    With ``keep=False`` patches are applied in place (about 3x cheaper): each message read
    is then valid only until the next one (a client that keeps none, like a load test)."""

    def __init__(self, keep: bool = True) -> None:
        self.state: dict[str, Any] | None = None
        self.keep = keep

    def read(self, frame: dict[str, Any]) -> dict[str, Any]:
        kind = frame.get("type")
        if kind in ("sync", "update"):
            self.state = state_of(frame)
            return frame
        if kind != "patch":
            return frame
        if self.state is None or frame.get("base") != self.state.get("version"):
            have = None if self.state is None else self.state.get("version")
            raise OutOfStep(f"a patch from version {frame.get('base')} does not fit version {have}")
        try:
            state: dict[str, Any] = jsonpatch.apply_patch(self.state, frame["ops"], in_place=not self.keep)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, KeyError, TypeError) as exc:
            self._spoilt()
            raise OutOfStep(f"the patch does not apply: {exc}") from None
        if state.get("version") != frame.get("version"):
            self._spoilt()
            raise OutOfStep(f"the patch gave version {state.get('version')}, not {frame.get('version')}")
        self.state = state
        return {"type": "update", **state, "events": frame["events"]}

    def _spoilt(self) -> None:
        if not self.keep:  # patched part way in place: only a sync (or whole update) helps now
            self.state = None
