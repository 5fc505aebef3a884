"""The lead's CLI commands: games, demo, replay, content validate. Errors are one clear line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.core import GameRecord, replay

runner = CliRunner()


def test_games_lists_nak_muay_with_its_options() -> None:
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0
    assert "nak-muay" in r.output and "countdown_seconds" in r.output


def test_demo_plays_a_whole_game_and_writes_a_record_that_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(app, ["demo", "nak-muay", "--players", "3", "--seed", "5", "--record", str(rec)])
    assert r.exit_code == 0, r.output
    assert "Turn 2" in r.output
    assert "wins" in r.output or "draw" in r.output
    record = GameRecord.load(rec)
    state = replay(record)
    assert state.outcome() is not None
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0 and "replayed exactly" in again.output


def test_demo_is_reproducible_by_seed() -> None:
    a = runner.invoke(app, ["demo", "--seed", "9", "--players", "4"])
    b = runner.invoke(app, ["demo", "--seed", "9", "--players", "4"])
    assert a.output == b.output


def test_demo_public_only_hides_drawn_cards() -> None:
    r = runner.invoke(app, ["demo", "--seed", "2", "--public-only"])
    assert r.exit_code == 0
    assert " drew " not in r.output


def test_demo_errors_are_one_clear_line() -> None:
    r = runner.invoke(app, ["demo", "nope"])
    assert r.exit_code == 2 and "unknown game 'nope'" in r.output
    r = runner.invoke(app, ["demo", "--players", "9"])
    assert r.exit_code == 2 and "players" in r.output
    r = runner.invoke(app, ["demo", "--bots", "random,random,random", "--players", "2"])
    assert r.exit_code == 2 and "2 seats" in r.output
    r = runner.invoke(app, ["demo", "--bots", "genius"])
    assert r.exit_code == 2 and "unknown bot level 'genius'" in r.output
    r = runner.invoke(app, ["demo", "-o", "max_turns"])
    assert r.exit_code == 2 and "key=value" in r.output
    r = runner.invoke(app, ["demo", "-o", "end_turn=never"])
    assert r.exit_code == 2 and "end_turn" in r.output


def test_list_options_can_be_typed_with_commas_on_the_command_line(tmp_path: Path) -> None:
    rec = tmp_path / "kd.json"
    args = ["demo", "knockdown", "--bots", "random", "--seed", "2", "--record", str(rec)]
    r = runner.invoke(app, [*args, "-o", "boxes=nemesis", "-o", "fighters=puppy, katie"])
    assert r.exit_code == 0, r.output
    config = GameRecord.load(rec).config
    assert list(config["boxes"]) == ["nemesis"] and list(config["fighters"]) == ["puppy", "katie"]
    r = runner.invoke(app, ["demo", "knockback", "--bots", "random", "-o", "packs=iron-knuckles,tide-breakers"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["demo", "knockdown", "-o", "boxes=nemesis,moon"])
    assert r.exit_code == 2 and "boxes" in r.output and "moon" in r.output
    r = runner.invoke(app, ["demo", "knockdown", "-o", "fighters=puppy"])
    assert r.exit_code == 2 and "fighters: give one fighter per seat (2, not 1)" in r.output
    r = runner.invoke(app, ["demo", "knockback", "-o", "packs=a,b,c"])
    assert r.exit_code == 2 and "packs: give one pack per seat (2, not 3)" in r.output
    assert "Value error" not in r.output


def test_replay_reports_a_broken_record_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "not valid JSON" in r.output
    rec = {"game": "nak-muay", "rules_version": "1.0", "config": {}, "seed": 1, "actions": ["attack:3"]}
    bad.write_text(json.dumps(rec))
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "step 1" in r.output
    r = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.output


def test_content_validate_explains_unusable_files(tmp_path: Path) -> None:
    no_game = tmp_path / "a.toml"
    no_game.write_text("x = 1\n")
    broken = tmp_path / "b.toml"
    broken.write_text("[[card\n")
    r = runner.invoke(app, ["content", "validate", str(no_game), str(broken), str(tmp_path / "c.toml")])
    assert r.exit_code == 1
    assert "missing top-level key `game`" in r.output
    assert "not valid TOML" in r.output
    assert "no such file" in r.output


def test_content_validate_checks_every_file_of_a_folder(tmp_path: Path) -> None:
    from knockabout.games.knockdown.content.loader import CONTENT_DIR

    r = runner.invoke(app, ["content", "validate", str(CONTENT_DIR / "nemesis")])
    assert r.exit_code == 0, r.output
    for name in ("box", "arena", "fighters", "attacks", "skills"):
        assert f"{name}.toml (knockdown): valid" in r.output
    empty = tmp_path / "empty"
    empty.mkdir()
    r = runner.invoke(app, ["content", "validate", str(empty)])
    assert r.exit_code == 1 and "no content files (*.toml)" in r.output


def test_the_cli_offers_the_learned_level_where_a_network_ships() -> None:
    from knockabout.bots.levels import levels_for
    from knockabout.cli.play import build_table

    r = runner.invoke(app, ["games", "nak-muay"])
    assert r.exit_code == 0 and "bots: random, easy, medium, hard, learned" in r.output
    for command in ("play", "sim"):
        assert "learned" in runner.invoke(app, [command, "--help"]).output
    r = runner.invoke(app, ["sim", "nak-muay", "--bots", "learned,easy", "-n", "4", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "learned" in r.output
    r = runner.invoke(app, ["demo", "nak-muay", "--bots", "learned", "--seed", "3"])
    assert r.exit_code == 0 and ("wins" in r.output or "draw" in r.output), r.output
    # `knockabout play` seats it; a person plays it through to the end
    t = build_table("nak-muay", 2, "me,learned", None, 4, [], bot_delay=0, pace=0)
    assert t.seats[1].level == "learned"
    while not t.over:
        d = t.decision()
        assert d is not None
        if d.player == 0:
            t.act(0, t.updates_for(0).legal[0], t.version)
        else:
            t.tick()
    # a game that ships no network does not list it
    for game in ("knockback", "knockdown"):
        if "learned" not in levels_for(game):
            r = runner.invoke(app, ["sim", game, "--bots", "learned"])
            assert r.exit_code == 2 and "learned level is not available" in r.output
