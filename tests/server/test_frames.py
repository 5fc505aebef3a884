"""Frames that scale: a spectator's join costs the others nothing, a game change costs
each connection one frame, and connections that see the same share one built message."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from starlette.websockets import WebSocket, WebSocketState

import knockabout.server.live as live_module
from knockabout.server.live import Connection, LiveTable
from tests.server.conftest import receive_until

pytestmark = pytest.mark.timeout(60)


class Socket:
    """A WebSocket stand-in that counts the frames sent to it."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(text)


def test_300_spectators_cost_linear_frames_and_one_build_per_change(
        make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(max_spectators=300) as c:
        made = c.post("/api/tables", json={"game": "knockdown", "seats": ["me", "open"], "name": "Ann"}).json()
        live: LiveTable = c.app.state.manager.get(made["id"])
        builds = [0]
        real = live.table.updates_for

        def counted(seat: int | None, cursor: int = 0) -> Any:
            builds[0] += 1
            return real(seat, cursor)

        live.table.updates_for = counted  # type: ignore[method-assign]
        patches = [0]
        real_frame = live_module.change_frame

        def counted_frame(*args: Any) -> Any:
            patches[0] += 1
            return real_frame(*args)

        monkeypatch.setattr(live_module, "change_frame", counted_frame)
        sockets = [Socket() for _ in range(300)]

        async def watch_then_join() -> None:
            for s in sockets:
                await live.connect(Connection(cast(WebSocket, s), None))

        c.portal.call(watch_then_join)
        assert [len(s.frames) for s in sockets] == [1] * 300, "each spectator got its sync and nothing more"
        assert builds[0] == 300
        builds[0] = 0
        joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()  # play starts: a change
        assert joined["seat"] == 1
        assert [len(s.frames) for s in sockets] == [2] * 300, "one frame per spectator for one change"
        assert builds[0] == 1, "all 300 spectators share one message"
        assert patches[0] == 1, "... and one frame, built and serialised once"
        assert len({s.frames[1] for s in sockets}) == 1
        assert json.loads(sockets[0].frames[1])["type"] == "patch"

        async def leave() -> None:
            for s in sockets[:150]:
                await live.disconnect(next(conn for conn in live.connections if conn.ws is cast(WebSocket, s)))

        c.portal.call(leave)
        assert sum(len(s.frames) for s in sockets) == 600, "spectators leaving cost nobody a frame"


def test_a_seat_s_connection_still_reaches_the_others(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"}).json()
        with c.websocket_connect(f"/ws/tables/{made['id']}") as watcher:
            watcher.send_json({"type": "hello"})
            receive_until(watcher, lambda m: m["type"] == "sync")
            with c.websocket_connect(f"/ws/tables/{made['id']}") as ann:
                ann.send_json({"type": "hello", "token": made["token"]})
                receive_until(ann, lambda m: m["type"] == "sync")
                upd = receive_until(watcher, lambda m: m["type"] == "update")
                assert upd["table"]["seats"][0]["connected"] is True


def test_frame_text_is_the_standard_librarys_json_text_for_every_frame_of_a_game() -> None:
    """orjson writes the frames; the text must be exactly what ``json.dumps`` would write
    (compact, UTF-8), including the 256-bit seed a finished table's facts carry."""
    import json

    from knockabout.core.registry import get_game
    from knockabout.core.rng import Rng, fresh_seed
    from knockabout.server.frames import frame_text

    for game_id in ("nak-muay", "knockdown", "knockback"):
        state = get_game(game_id).new_state(None, seed=5)
        rng = Rng(5)
        steps = 0
        while state.to_act() is not None and steps < 300:
            for seat in (None, 0, 1):
                data = {"type": "update", "view": state.observe(seat).to_json(), "left": 2.5 / 3, "name": "Zoë"}
                assert frame_text(data) == json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1
    finished = {"table": {"seed": fresh_seed(), "status": "finished"}}
    assert frame_text(finished) == json.dumps(finished, separators=(",", ":"), ensure_ascii=False)
