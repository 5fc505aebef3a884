"""Patch frames (issue 15, item 3): after its sync a connection gets RFC 6902 patches of
the message it was last sent. Over whole seeded games of every game, for every seat and
a spectator: a patch applied to the last message gives exactly the whole update the
server would have sent, it holds nothing that seat may not know, and spectators who saw
the same share one patch, built once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any, cast

import jsonpatch
import pytest
from starlette.websockets import WebSocket, WebSocketState

import knockabout.server.live as live_module
from knockabout.server.frames import Follower, OutOfStep, Shown, change_frame, frame_text, patch_ops, state_of
from knockabout.server.live import Connection, LiveTable
from knockabout.table import TableError
from tests.server.conftest import GAMES, receive, receive_until
from tests.table.conftest import FakeClock

pytestmark = pytest.mark.timeout(240)

SEATS = {"nak-muay": 3, "knockdown": 2, "knockback": 2}


def canonical(message: dict[str, Any]) -> str:
    """A message as text: its kind, its state exactly (the members of every object in
    their order: a renderer draws them so; 1, 1.0 and True apart) and its events."""
    return " ".join((message["type"], frame_text(state_of(message)), frame_text({"e": message["events"]})))


class Watcher:
    """An in-memory WebSocket for one seat (or a spectator) that keeps every frame it gets
    and, when ``oracle``, the whole update the server would have sent in its place (built
    the way frames were built before patches: from ``updates_for`` at the cursor)."""

    application_state = WebSocketState.CONNECTED

    def __init__(self, live: LiveTable, seat: int | None, oracle: bool = True, follow: bool = True) -> None:
        self.live, self.seat, self.oracle, self.follow = live, seat, oracle, follow
        self.conn = Connection(cast(WebSocket, self), seat)
        self.copy = Follower()
        self.cursor = 0
        self.frames: list[str] = []
        self.expected: list[dict[str, Any] | None] = []
        self.shown: dict[str, Any] | None = None  # the whole message the frames give so far

    async def send_text(self, text: str) -> None:
        self.frames.append(text)
        if not self.follow:
            return
        frame = json.loads(text)
        whole = None
        if self.oracle and frame["type"] in ("update", "patch"):
            whole, _ = self.live._build(self.seat, self.cursor, "update")
        self.expected.append(whole)
        self.cursor = self.conn.cursor
        self.shown = self.copy.read(frame)


async def play_out(live: LiveTable, watchers: list[Watcher], seed: int, ready: list[bool] | None = None) -> None:
    """Connect the watchers (then set ``ready``), then play seat 0 (a person) at random on
    what its frames show, until the game ends."""
    for w in watchers:
        await live.connect(w.conn)
    if ready is not None:
        ready.append(True)
    me, rng = watchers[0], random.Random(seed)
    while not live.table.over:
        shown = me.shown
        d = None if shown is None else shown["decision"]
        if shown is not None and d is not None and d["player"] == 0 and shown["legal"]:
            with contextlib.suppress(TableError):  # a bot's window closed first: choose again
                await live.act(me.conn, rng.choice(shown["legal"]), shown["version"])
        await asyncio.sleep(0)
    async with live.lock:  # the last change is sent once it is durable, under the lock
        pass


@pytest.fixture
def frozen(make_client: Any) -> Iterator[Any]:
    """A server whose clock stands still (so a clock's "time left" is the same when the
    test rebuilds a message as when the server built it)."""
    with make_client(clock=FakeClock(), max_spectators=400) as c:
        yield c


def new_table(c: Any, game_id: str, seed: int) -> LiveTable:
    seats = ["me"] + ["random"] * (SEATS[game_id] - 1)
    made = c.post("/api/tables", json={"game": game_id, "seats": seats, "name": "Ann", "seed": seed}).json()
    live: LiveTable = c.app.state.manager.get(made["id"])
    return live


@pytest.mark.parametrize("game_id", GAMES)
def test_a_patch_applied_to_the_last_message_gives_the_whole_update(frozen: Any, game_id: str) -> None:
    for seed in (1, 2):
        live = new_table(frozen, game_id, seed)
        watchers = [Watcher(live, s) for s in range(SEATS[game_id])] + [Watcher(live, None)]
        frozen.portal.call(play_out, live, watchers, seed)
        assert live.table.over
        for w in watchers:
            copy = Follower()
            kinds = []
            for text, whole in zip(w.frames, w.expected, strict=True):
                frame = json.loads(text)
                kinds.append(frame["type"])
                got = copy.read(frame)
                if whole is not None:
                    assert canonical(got) == canonical(whole), f"{game_id} seat {w.seat}: frame {len(kinds)}"
            assert kinds[0] == "sync" and w.shown is not None and w.shown["outcome"] is not None
            assert kinds.count("patch") >= 0.9 * (len(kinds) - 1), (game_id, w.seat, kinds.count("update"))
            assert len(kinds) > 20


def scalars(value: Any) -> Iterator[str]:
    """Every leaf of a JSON value (and every key), as JSON text."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield json.dumps(k)
            yield from scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from scalars(v)
    else:
        yield json.dumps(value)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_patch_frame_holds_nothing_its_seat_may_not_know(frozen: Any, game_id: str) -> None:
    """Every value a patch carries is in the seat's own new message (or moved from its last
    one), and every event in it is one the seat's whole update had: a patch is built only
    from the two messages ``updates_for`` gave that seat, never from another's."""
    live = new_table(frozen, game_id, 7)
    watchers = [Watcher(live, s) for s in range(SEATS[game_id])] + [Watcher(live, None)]
    frozen.portal.call(play_out, live, watchers, 7)
    others_private = 0
    for w in watchers:
        copy = Follower()
        for text, whole in zip(w.frames, w.expected, strict=True):
            frame = json.loads(text)
            before = copy.state
            got = copy.read(frame)
            if frame["type"] != "patch":
                continue
            assert before is not None and whole is not None
            known = set(scalars(before)) | set(scalars(got))
            for op in frame["ops"]:
                assert op["op"] in ("add", "remove", "replace", "move", "copy")
                assert set(scalars(op.get("value"))) <= known, (game_id, w.seat, op)
                if "from" in op:
                    jsonpatch.JsonPointer(op["from"]).resolve(before)  # moved from what it had
            assert frame["events"] == whole["events"]
            assert set(frame) == {"type", "base", "version", "ops", "events"}
        # what the other seats hold privately never shows up in this seat's frames
        for other in watchers:
            if other.seat is None or other.seat == w.seat or other.shown is None:
                continue
            theirs = other.shown["view"].get("hand")
            mine = w.shown["view"] if w.shown else {}
            if theirs and mine.get("hand") != theirs and frame_text(theirs) not in frame_text(mine):
                others_private += 1
                assert not any(frame_text(theirs) in t for t in w.frames), (game_id, w.seat, other.seat)
    if game_id == "nak-muay":
        assert others_private, "the check saw someone's private hand"


def test_300_spectators_share_one_patch_built_once_per_change_over_a_whole_game(frozen: Any) -> None:
    builds: list[int] = []
    real = live_module.change_frame

    def counted(*args: Any) -> Any:
        builds.append(1)
        return real(*args)

    live_module.change_frame = counted  # type: ignore[assignment]
    try:
        live = new_table(frozen, "knockdown", 3)
        spectators = [Watcher(live, None, oracle=False, follow=False) for _ in range(300)]
        changes: list[int] = []  # patch builds per broadcast, once everyone is connected
        ready: list[bool] = []
        real_broadcast = live.broadcast

        async def broadcast() -> None:
            builds.clear()
            await real_broadcast()
            if ready:
                changes.append(len(builds))

        live.broadcast = broadcast  # type: ignore[method-assign]
        frozen.portal.call(play_out, live, [Watcher(live, 0, oracle=False), *spectators], 3, ready)
    finally:
        live_module.change_frame = real  # type: ignore[assignment]
    assert live.table.over and len(changes) > 50
    # each change: one frame for the seat, one shared by all 300 spectators (who saw the
    # same), so at most 2 patch builds however many watch (the first broadcast may also
    # catch up spectators who connected on either side of a bot's move)
    assert max(changes[1:]) <= 2, changes
    for s in spectators:
        since = json.loads(s.frames[0])["version"]
        assert len(s.frames) - 1 <= 2 * (live.table.version - since), "at most 2 frames per spectator per change"
    late = spectators[-1].frames[-100:]
    assert all(s.frames[-100:] == late for s in spectators), "one text for all"
    patches = [t for t in late if json.loads(t)["type"] == "patch"]
    assert len(patches) >= 90


# -- the pieces
def shown(message: dict[str, Any]) -> Shown:
    return Shown.of(message)


def test_nothing_changed_sends_nothing_and_a_long_patch_sends_the_whole_update() -> None:
    base = {"type": "update", "seat": None, "version": 3, "view": {"a": list(range(50))}, "events": []}
    assert change_frame(shown(base), shown(base), base) is None, "an unchanged message is skipped"
    new = {**base, "version": 4, "events": [{"step": 3, "type": "x", "data": {}, "text": "x"}]}
    frame = json.loads(change_frame(shown(base), shown(new), new) or "")
    assert frame == {"type": "patch", "base": 3, "version": 4,
                     "ops": [{"op": "replace", "path": "/version", "value": 4}], "events": new["events"]}
    other = {**base, "version": 4, "view": {"b": [str(i) for i in range(50)]}}
    assert change_frame(shown(base), shown(other), other) == frame_text(other), "shorter whole"
    assert change_frame(None, shown(other), other) == frame_text(other)
    assert shown(other).text.decode() == frame_text({k: v for k, v in other.items() if k not in ("type", "events")})


def test_a_connection_keeps_its_last_message_as_text_and_patches_from_it_exactly() -> None:
    message = {"type": "update", "seat": 0, "version": 7, "view": {"hand": ["jab", "cross"], "hp": 1.0},
               "table": {"seed": None}, "events": []}
    kept = shown(message)
    assert kept.exact is None, "no objects of the message are kept: the garbage collector never walks them"
    assert kept.version == 7 and kept.state() == state_of(message)
    assert kept.state() is not kept.state()
    # a finished table's 256-bit seed: orjson would read its text back as a float, so that state is kept whole
    seed = 2**255 + 12345
    over = {**message, "version": 8, "table": {"seed": seed}}
    last = shown(over)
    assert last.exact is not None and last.state()["table"]["seed"] == seed
    after = {**over, "version": 9}
    frame = json.loads(change_frame(last, shown(after), after) or "")
    assert frame["ops"] == [{"op": "replace", "path": "/version", "value": 9}], "the seed is not sent again"


@pytest.mark.parametrize(("old", "new"), [
    ({"a": 1}, {"a": True}), ({"a": 1}, {"a": 1.0}), ({"a": [1, 2]}, {"a": [True, 2]}),
    ({"a": [{"x": 0}]}, {"a": [{"x": False}]}), ({"a": {"b": [1, 2, 3]}}, {"a": {"b": [0, 1, 2, 3]}}),
    ({"a": [{"x": 1}, {"y": 2}]}, {"a": [{"y": 2}]}), ({"a": "x"}, {"a": None}), ({"a/b~": 1}, {"a/b~": 2}),
    ({"a": {"k": 1}}, {"b": {"k": 1}}), ({"l": ["x", "y", "z"]}, {"l": ["z", "x", "y"]}),
    ({"t": {"a": 1, "c": 1}}, {"t": {"a": 1, "b": 1, "c": 1}}), ({"t": {"a": 1, "b": 2}}, {"t": {"b": 2, "a": 1}}),
    ({"l": [{"a": 1, "c": 1}]}, {"l": [{"a": 1, "b": 1, "c": 1}, {"d": 1}]}),
    ({"l": [[{"a": 1, "c": 1}], 2]}, {"l": [[{"a": 1, "b": 1, "c": 1}]]}),
])
def test_patch_ops_give_exactly_the_new_value(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Including what ``==`` alone would miss (1, 1.0 and True are equal in Python; members
    in another order are equal too, but a renderer draws them in their order)."""
    ops = patch_ops(old, new)
    assert ops, "a change is never an empty patch"
    assert json.dumps(jsonpatch.apply_patch(old, ops)) == json.dumps(new)


def test_a_long_array_is_diffed_and_a_short_one_goes_whole() -> None:
    old = {"l": [f"card {i}" for i in range(40)], "h": ["a", "b", "c"]}
    new = {"l": ["new", *old["l"][:10], *old["l"][11:]], "h": ["a", "c"]}
    ops = patch_ops(old, new)
    assert ops == [{"op": "add", "path": "/l/0", "value": "new"}, {"op": "remove", "path": "/l/11"},
                   {"op": "replace", "path": "/h", "value": ["a", "c"]}], ops
    assert jsonpatch.apply_patch(old, ops) == new


PILE = [f"card {i}" for i in range(30)]


@pytest.mark.parametrize("new", [
    [*PILE, "x", "y"], ["x", "y", *PILE], PILE[2:], PILE[:-2], [*PILE, 1, 1.0, True], [1, *PILE],
], ids=["grew at the end", "grew at the start", "lost its first", "lost its last", "odd values", "an int"])
def test_a_long_plain_array_changed_at_one_end_gets_make_patchs_ops_without_it(new: list[Any]) -> None:
    """A discard pile that grows, a known pile drawn from: the same ops ``make_patch`` finds."""
    ops = patch_ops({"l": PILE}, {"l": new})
    assert ops == jsonpatch.make_patch({"l": PILE}, {"l": new}).patch
    assert json.dumps(jsonpatch.apply_patch({"l": PILE}, ops)) == json.dumps({"l": new})


def test_the_follower_refuses_a_patch_that_does_not_fit() -> None:
    copy = Follower()
    with pytest.raises(OutOfStep):
        copy.read({"type": "patch", "base": 0, "version": 1, "ops": [], "events": []})
    copy.read({"type": "sync", "version": 5, "view": {"a": 1}, "events": []})
    with pytest.raises(OutOfStep, match="version 4 does not fit version 5"):
        copy.read({"type": "patch", "base": 4, "version": 5, "ops": [], "events": []})
    with pytest.raises(OutOfStep, match="does not apply"):
        copy.read({"type": "patch", "base": 5, "version": 6,
                   "ops": [{"op": "remove", "path": "/view/b"}], "events": []})
    with pytest.raises(OutOfStep, match="gave version 5, not 6"):
        copy.read({"type": "patch", "base": 5, "version": 6, "ops": [], "events": []})
    assert copy.state == {"version": 5, "view": {"a": 1}}, "a refused patch changes nothing"
    got = copy.read({"type": "patch", "base": 5, "version": 6, "events": [],
                     "ops": [{"op": "replace", "path": "/version", "value": 6}]})
    assert got == {"type": "update", "version": 6, "view": {"a": 1}, "events": []}
    assert copy.read({"type": "patch", "base": 6, "version": 7, "events": [], "ops": [
        {"op": "replace", "path": "/version", "value": 7}, {"op": "add", "path": "/view/b", "value": 2}]})
    assert got["view"] == {"a": 1}, "a kept message stays as it was read"
    fast = Follower(keep=False)
    fast.read({"type": "update", "version": 1, "view": {"a": 1}, "events": []})
    with pytest.raises(OutOfStep):
        fast.read({"type": "patch", "base": 1, "version": 2, "events": [], "ops": [
            {"op": "replace", "path": "/version", "value": 2}, {"op": "remove", "path": "/nothing"}]})
    with pytest.raises(OutOfStep):  # patched part way in place: it waits for a sync
        fast.read({"type": "patch", "base": 1, "version": 2, "events": [], "ops": []})


def test_a_client_out_of_step_asks_for_a_sync_and_gets_one(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann",
                                           "seed": 2}).json()
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            first = receive(ws)
            assert first["type"] == "sync"
            ws.send_json({"type": "sync", "extra": 1})
            err = receive_until(ws, lambda m: m["type"] == "error")  # the bot may move first
            assert err["type"] == "error" and "extra" in err["message"] and "nothing changed" in err["message"]
            ws.send_json({"type": "sync"})
            again = receive_until(ws, lambda m: m["type"] == "sync")
            assert again["version"] >= first["version"] and again["events"][0]["type"] == "start"
            assert again["view"] == c.app.state.manager.get(made["id"]).table.updates_for(0).view.to_json()


def test_values_with_integers_past_64_bits_are_compared_too() -> None:
    """A finished table's facts carry its 256-bit seed (orjson stops at 64 bits)."""
    from knockabout.core.rng import fresh_seed
    from knockabout.server.frames import patch_ops

    seed = fresh_seed()
    old = {"table": {"seed": None, "status": "playing"}, "version": 3}
    new = {"table": {"seed": seed, "status": "finished"}, "version": 4}
    assert patch_ops(old, new) == [{"op": "replace", "path": "/table/seed", "value": seed},
                                   {"op": "replace", "path": "/table/status", "value": "finished"},
                                   {"op": "replace", "path": "/version", "value": 4}]
    assert patch_ops(new, {"table": dict(new["table"]), "version": 4}) == []
    assert patch_ops(new, {"table": {"seed": seed + 1, "status": "finished"}, "version": 4}) == [
        {"op": "replace", "path": "/table/seed", "value": seed + 1}]


def test_parts_that_did_not_change_are_not_read_back_and_any_shape_gives_the_same_patch() -> None:
    """A patch reads back only the parts whose texts changed: here the unchanged fighter's
    text is made unreadable in both messages alike, and the patch is built all the same.
    A message whose shape is not the kept one (past ``MAX_SHAPES``) is diffed whole, to
    the same ops."""
    fighter = {"name": "Ada", "hp": 5, "sheet": {"moves": list(range(40))}}
    base = {"type": "update", "seat": 0, "version": 1, "table": {"id": "t", "version": 1},
            "view": {"fighters": [fighter, {**fighter, "name": "Bo"}], "discard": [str(i) for i in range(30)]},
            "events": []}
    new = {**base, "version": 2, "table": {"id": "t", "version": 2},
           "view": {"fighters": [fighter, {**fighter, "name": "Bo", "hp": 4}],
                    "discard": [str(i) for i in range(31)]}}
    last, now = shown(base), shown(new)
    assert last.shape is now.shape
    whole = json.loads(change_frame(last, now, new) or "")
    assert [op["path"] for op in whole["ops"]] == ["/version", "/table/version", "/view/fighters/1/hp",
                                                   "/view/discard/30"]

    def spoilt(s: Shown) -> Shown:  # the first fighter's value overwritten with the same junk
        text = s.text
        at = text.index(frame_text(fighter).encode())
        junk = text[:at] + b"#" * len(frame_text(fighter)) + text[at + len(frame_text(fighter)):]
        return Shown(junk, s.shape, s.spans, s.version)

    assert json.loads(change_frame(spoilt(last), spoilt(now), new) or "") == whole, "never read back"
    with pytest.raises(ValueError):  # (orjson's decode error) the whole state is read when the shapes differ
        change_frame(spoilt(last), Shown(now.text, tuple(list(now.shape)), now.spans, now.version), new)
    other = Shown(now.text, tuple(list(now.shape)), now.spans, now.version)
    assert other.shape == now.shape and other.shape is not now.shape
    assert json.loads(change_frame(last, other, new) or "") == whole, "diffed whole: the same patch"
