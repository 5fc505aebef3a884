"""The front end is one page: every path it draws (a table, a replay, the studio, a
leaderboard) answers with it, and the page reads the path."""

from __future__ import annotations

from typing import Any

from knockabout.server.routes.pages import INDEX, PAGES


def test_every_front_end_path_answers_with_the_one_page(make_client: Any) -> None:
    with make_client() as client:
        for path in PAGES:
            url = path.replace("{table_id}", "abc").replace("{game_id}", "nak-muay")
            r = client.get(url)
            assert r.status_code == 200 and r.text == INDEX.read_text(encoding="utf-8"), url
