"""The store keeps tables and append-only logs; ``knockabout serve`` fails in one clear line."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.core import GameRecord, replay
from knockabout.store import Store, StoredTable


def test_tables_and_their_logs_round_trip_through_sqlite(tmp_path: Path) -> None:
    store = Store(data_dir=tmp_path / "data")
    assert (tmp_path / "data" / "knockabout.db").exists(), "SQLite file in the data dir by default"
    seats = [{"kind": "person", "name": "Ann", "level": None, "token": "h"}, {"kind": "bot", "name": "B",
                                                                              "level": "random", "token": None}]
    store.create(StoredTable(id="t1", game="nak-muay", rules_version="1.0", config={"players": 2}, seed=9,
                             seats=seats, status="playing"))
    store.create(StoredTable(id="t2", game="nak-muay", rules_version="1.0", config={"players": 2}, seed=3,
                             seats=seats, status="playing"))
    for step, text in enumerate(["draw", "take", "block"]):
        store.append_action("t1", step, step % 2, text, "person")
    store.finish("t2", {"winners": [0], "payoffs": [1.0, 0.0], "draw": False, "reason": "x"})
    store.close()

    again = Store(url=f"sqlite:///{tmp_path / 'data' / 'knockabout.db'}")
    got = again.get("t1")
    assert got is not None and got.actions == ["draw", "take", "block"] and got.seed == 9 and got.seats == seats
    assert [t.id for t in again.unfinished()] == ["t1"]
    assert {t.id for t in again.recent()} == {"t1", "t2"}
    assert again.get("t2").status == "finished"  # type: ignore[union-attr]
    with pytest.raises(IntegrityError):
        again.append_action("t1", 1, 0, "rewrite history", "person")  # a step is written once


runner = CliRunner()


def test_serve_with_a_broken_database_url_fails_in_one_line(tmp_path: Path) -> None:
    r = runner.invoke(app, ["serve", "--db", "nosuchdriver://x/y"])
    assert r.exit_code == 2
    assert "cannot open the database" in r.output and "Traceback" not in r.output


def test_serve_rejects_a_bad_port() -> None:
    r = runner.invoke(app, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "--port" in r.output and "65535" in r.output


def test_a_record_downloaded_from_a_web_table_replays_with_the_names_the_table_showed(
        make_client: Any, tmp_path: Path) -> None:
    # Alice never connects: after a grace of 0 s a stand-in bot plays her seat, so the game ends
    with make_client(grace=0.0) as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Alice [1]"}).json()
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{made['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game ended"
            time.sleep(0.05)
        shown = [s["name"] for s in c.get(f"/api/tables/{made['id']}").json()["seats"]]
        r = c.get(f"/api/tables/{made['id']}/record")
    assert r.status_code == 200 and r.json()["names"] == shown and shown[0] == "Alice [1]"
    record = GameRecord.from_dict(r.json())
    path = tmp_path / "downloaded.json"
    path.write_text(record.to_json())
    out = CliRunner().invoke(app, ["replay", str(path), "--summary"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    winner = shown[replay(record).outcome().winners[0]]  # type: ignore[union-attr]
    assert f"{winner} wins" in out.output, out.output
    assert "Player 1" not in out.output and "Player 2" not in out.output
