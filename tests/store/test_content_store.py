"""Uploaded content versions in the store, on SQLite and PostgreSQL: a version is its files
under their hash, in each uploader's own list (the same files twice are one version); only
its uploader reads, lists or removes it; a full list takes no more; removing it keeps the
files while a table made with it or another uploader still names it."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.content_versions import version_id
from knockabout.store import Store, StoredTable, TooManyVersions

pytestmark = pytest.mark.timeout(120)

FILES = {"my-pack.toml": 'game = "knockback"\nid = "my-pack"\nname = "<b>Mine</b>"\n'}
OTHER = {"other.toml": 'game = "knockback"\nid = "other"\n'}


@pytest.fixture
def store(db_url: str) -> Any:
    s = Store(db_url, writer="thread")
    yield s
    s.close()


def test_an_upload_is_its_files_in_its_uploaders_list(store: Store) -> None:
    v, new = store.content.add("ann", "knockback", "pack", "<b>Mine</b>", FILES, limit=5)
    assert new and v.id == version_id("knockback", FILES) and v.size == len(FILES["my-pack.toml"])
    assert (v.game, v.kind, v.name, v.tables) == ("knockback", "pack", "<b>Mine</b>", 0)
    again, new = store.content.add("ann", "knockback", "pack", "renamed", FILES, limit=5)
    assert not new and again == v  # the same files are the same version: nothing changes
    assert store.content.mine("ann") == [v]
    assert store.content.mine("ann", "knockback") == [v] and store.content.mine("ann", "knockdown") == []
    assert store.content.get("ann", v.id) == v and store.content.files_of("ann", v.id) == FILES
    assert store.content.fetch(v.id) == ("knockback", FILES)
    assert store.content.fetch("0" * 32) is None


def test_another_uploader_cannot_see_list_or_remove_it(store: Store) -> None:
    v, _ = store.content.add("ann", "knockback", "pack", "Mine", FILES, limit=5)
    assert store.content.mine("bo") == []
    assert store.content.get("bo", v.id) is None and store.content.files_of("bo", v.id) is None
    assert store.content.remove("bo", v.id) is False
    assert store.content.get("ann", v.id) == v
    # the same files uploaded by another person: one version, in two lists
    w, new = store.content.add("bo", "knockback", "pack", "His", FILES, limit=5)
    assert new and w.id == v.id and w.name == "His"
    assert store.content.remove("bo", v.id) and store.content.get("ann", v.id) == v


def test_a_full_list_takes_no_more(store: Store) -> None:
    store.content.add("ann", "knockback", "pack", "Mine", FILES, limit=1)
    with pytest.raises(TooManyVersions, match="at most 1"):
        store.content.add("ann", "knockback", "pack", "Other", OTHER, limit=1)
    store.content.add("ann", "knockback", "pack", "Mine", FILES, limit=1)  # one already held: fine
    assert [v.name for v in store.content.mine("ann")] == ["Mine"]


def test_removed_files_stay_while_a_table_names_them(store: Store) -> None:
    v, _ = store.content.add("ann", "knockback", "pack", "Mine", FILES, limit=5)
    store.create(StoredTable(id="t1", game="knockback", rules_version="1.0", config={"content": v.id}, seed=1,
                             seats=[]))
    store.content.link_table(v.id, "t1", "ann")
    store.content.link_table(v.id, "t1", "ann")  # once
    assert store.content.get("ann", v.id).tables == 1  # type: ignore[union-attr]
    assert store.content.tables("ann", v.id) == ["t1"] and store.content.tables("bo", v.id) == []
    assert store.content.remove("ann", v.id) and store.content.mine("ann") == []
    assert store.content.fetch(v.id) == ("knockback", FILES), "the table still replays"
    w, _ = store.content.add("ann", "knockback", "pack", "Other", OTHER, limit=5)
    assert store.content.remove("ann", w.id)
    assert store.content.fetch(w.id) is None, "named by nothing: its files go"
