"""Views have a schema, and browser renderers read only fields it has.

``knockabout schema GAME`` prints the JSON Schema of a game's typed view. Each game that
declares a web renderer must declare its view type too, and every view field its
renderer's JavaScript reads (see :mod:`tests.conformance.js_reads`) must be in that schema."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import TypeAdapter
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.cli.schema import view_schema
from knockabout.core import KnockaboutError, game_ids, get_game
from knockabout.core.protocol import Game
from knockabout.core.view import View
from tests.conformance.js_reads import unknown_reads, view_reads
from tests.conformance.playouts import option_variants, played

GAMES = game_ids()


def renderer_source(game: Game[Any]) -> str:
    assert game.web_renderer is not None
    package = type(game).__module__.rpartition(".")[0]
    return (Path(str(resources.files(package))) / game.web_renderer).read_text(encoding="utf-8")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_field_a_web_renderer_reads_is_in_the_schema(game_id: str) -> None:
    game = get_game(game_id)
    if game.web_renderer is None:
        pytest.skip(f"{game_id} is drawn by the generic renderer")
    if getattr(game, "view_type", None) is None:
        pytest.fail(f"{game_id} declares a web renderer ({game.web_renderer}) but no view_type to check it against")
    reads = view_reads(renderer_source(game))
    assert reads, f"{game_id}: found no view reads in its renderer (is the view still named `view`?)"
    missing = unknown_reads(game.view_type.json_schema(), reads)
    assert not missing, f"{game_id}'s web renderer reads view fields its schema lacks: {missing}"


def _view_type(game_id: str) -> type[View]:
    view_type = getattr(get_game(game_id), "view_type", None)
    if view_type is None:
        pytest.skip(f"{game_id} declares no typed view")
    return view_type  # type: ignore[no-any-return]


@pytest.mark.parametrize("game_id", GAMES)
def test_observe_returns_the_declared_view_type(game_id: str) -> None:
    view_type = _view_type(game_id)
    assert view_type.game_id == game_id
    for cfg in option_variants(game_id):
        s = get_game(game_id).new_state(cfg, 4)
        for seat in (None, *range(s.num_players)):
            view = s.observe(seat)
            assert type(view) is view_type and isinstance(view, View), (cfg, seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_round_trips_through_its_json_schema(game_id: str) -> None:
    """Along random playouts under every declared option choice, each seat's and a
    spectator's view is valid against the view type's schema and reads back equal."""
    view_type = _view_type(game_id)
    adapter = TypeAdapter(view_type)
    assert set(view_type.json_schema()["properties"]) == {f.name for f in fields(view_type)}
    for seed, cfg in enumerate(option_variants(game_id), start=1):
        for s in played(game_id, cfg, seed, 300)[::3]:
            for seat in (None, *range(s.num_players)):
                view = s.observe(seat)
                data = view.to_json()
                assert adapter.validate_python(data) == view, (cfg, seat)
                assert data["game"] == game_id and json.loads(json.dumps(data)) == data


# -- the checker itself, on a small view -------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class _Piece(View):
    name: str
    weight: int


@dataclass(frozen=True, slots=True, kw_only=True)
class _Pending(View):
    kind: str
    cubes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class _TinyView(View):
    game_id: ClassVar[str] = "tiny"
    seat: int | None
    pieces: tuple[_Piece, ...]
    pending: _Pending | None = None
    scores: dict[str, int]
    names: list[str]


_JS = """
// view.commented_out is not a read
function top(view) {
  const p = view.pending || {};
  for (const piece of view.pieces) use(piece.name, piece.weight, piece.colour);
  return `${p.cubes} ${p.kind} ${p.shape} ${view.seat} ${view.scores[String(1)]} ${view.names.length}`;
}
export function renderBoard(el, view, ctx) {
  const p = ctx.names;  // not the view: p is something else here
  el.textContent = (view.pending || {}).kinds + view.pieces[0].weight + view.names.map((n) => n).join() + p.x;
  const heavy = (view.pieces || []).find((x) => x.weight > 1);
  return view.missing;
}
"""


def test_the_js_reader_finds_reads_on_the_view_and_names_bound_to_it() -> None:
    reads = view_reads(_JS)
    assert ("pending", "cubes") in reads and ("pieces", "[]", "name") in reads
    assert ("pieces", "[]", "weight") in reads and ("scores", "[]") in reads and ("names", "length") in reads
    assert ("commented_out",) not in reads and not any(r[0] == "x" for r in reads)
    missing = unknown_reads(_TinyView.json_schema(), reads)
    assert missing == ["missing", "pending.kinds", "pending.shape", "pieces[].colour"]


def test_schema_prints_the_json_schema_of_a_views_type(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game(GAMES[0])
    monkeypatch.setattr(type(game), "view_type", _TinyView, raising=False)
    result = CliRunner().invoke(app, ["schema", game.id])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == _TinyView.json_schema()
    assert view_schema(game)["properties"]["pieces"]["type"] == "array"


def test_schema_of_an_unknown_game_or_one_without_a_view_type_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = CliRunner().invoke(app, ["schema", "no-such-game"])
    assert result.exit_code == 2 and "unknown game 'no-such-game'" in result.output
    assert "Traceback" not in result.output
    game = get_game(GAMES[0])
    monkeypatch.setattr(type(game), "view_type", None, raising=False)
    result = CliRunner().invoke(app, ["schema", game.id])
    assert result.exit_code == 2 and f"{game.id} declares no typed view (view_type)" in result.output
    with pytest.raises(KnockaboutError, match="no typed view"):
        view_schema(game)
