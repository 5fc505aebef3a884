"""Uploaded content versions in the store: their files, each uploader's list, and the
tables made to play them.

A version's row (``content_versions``) is its files, keyed by their hash
(:func:`knockabout.core.content_versions.version_id`), and never changes. An upload
(``content_uploads``) puts a version in its uploader's list; the same files uploaded by two
people are one version in two lists. Only the uploader reads, lists or removes an upload
(every method here takes the owner; another owner's version is as good as absent).
Removing an upload takes it off the list; the version's files stay while another upload or
a table (``content_tables``) names it, so the tables made with it still replay exactly,
and go with the last of them otherwise.

Each call is its own short transaction (the server calls them on a worker thread);
uploads are rare, so none of it goes through the tables' group commit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from knockabout.core.content_versions import check_files, version_id
from knockabout.core.errors import KnockaboutError
from knockabout.store.schema import ContentTableRow, ContentUploadRow, ContentVersionRow


class TooManyVersions(KnockaboutError):
    """An uploader's list is full."""


@dataclass(frozen=True, slots=True)
class ContentVersion:
    """A version as its uploader's list shows it: ``tables`` counts the tables made with it."""

    id: str
    game: str
    kind: str
    name: str
    size: int
    uploaded_at: float
    tables: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "game": self.game, "kind": self.kind, "name": self.name, "size": self.size,
                "uploaded_at": self.uploaded_at, "tables": self.tables}


class ContentStore:
    """Content versions, uploads and playtest tables in the store's database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def add(self, owner: str, game: str, kind: str, name: str, files: Mapping[str, str],
            limit: int) -> tuple[ContentVersion, bool]:
        """Put the version made of ``files`` in ``owner``'s list (True: newly). The same
        files again are the same version (False; nothing changes); a list of ``limit``
        versions takes no more (:class:`TooManyVersions`)."""
        check_files(files)
        ident = version_id(game, files)
        size = sum(len(t) for t in files.values())
        now = self.clock()
        for attempt in (1, 2):
            try:
                with Session(self.engine) as s, s.begin():
                    row = s.get(ContentUploadRow, (owner, ident))
                    if row is not None:
                        return self._version(s, row), False
                    held = s.scalar(select(func.count()).select_from(ContentUploadRow)
                                    .where(ContentUploadRow.owner == owner)) or 0
                    if held >= limit:
                        raise TooManyVersions(f"you keep {held} content versions already (at most {limit}); "
                                              "remove one you no longer need")
                    if s.get(ContentVersionRow, ident) is None:
                        s.add(ContentVersionRow(id=ident, game=game, files=dict(files), size=size, created_at=now))
                        s.flush()
                    up = ContentUploadRow(owner=owner, version_id=ident, kind=kind, name=name, uploaded_at=now)
                    s.add(up)
                    s.flush()
                    return self._version(s, up), True
            except IntegrityError:  # the same version stored meanwhile by another request
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _version(self, s: Session, up: ContentUploadRow) -> ContentVersion:
        v = s.get(ContentVersionRow, up.version_id)
        assert v is not None
        tables = s.scalar(select(func.count()).select_from(ContentTableRow).where(
            ContentTableRow.version_id == up.version_id, ContentTableRow.owner == up.owner)) or 0
        return ContentVersion(v.id, v.game, up.kind, up.name, v.size, up.uploaded_at, tables)

    def mine(self, owner: str, game: str | None = None) -> list[ContentVersion]:
        """``owner``'s versions, newest first (of one game, or all)."""
        with Session(self.engine) as s:
            q = select(ContentUploadRow).where(ContentUploadRow.owner == owner)
            if game is not None:
                q = q.join(ContentVersionRow, ContentVersionRow.id == ContentUploadRow.version_id).where(
                    ContentVersionRow.game == game)
            rows = s.scalars(q.order_by(ContentUploadRow.uploaded_at.desc())).all()
            return [self._version(s, r) for r in rows]

    def get(self, owner: str, ident: str) -> ContentVersion | None:
        """``owner``'s version ``ident``, or None (not theirs, or none)."""
        with Session(self.engine) as s:
            row = s.get(ContentUploadRow, (owner, ident))
            return None if row is None else self._version(s, row)

    def files_of(self, owner: str, ident: str) -> dict[str, str] | None:
        """The files of ``owner``'s version ``ident``, or None."""
        with Session(self.engine) as s:
            if s.get(ContentUploadRow, (owner, ident)) is None:
                return None
            v = s.get(ContentVersionRow, ident)
            return None if v is None else dict(v.files)

    def fetch(self, ident: str) -> tuple[str, dict[str, str]] | None:
        """Any stored version's game and files (for a table that names it: the server's
        :data:`~knockabout.core.content_versions.Fetcher`; no owner is asked)."""
        with Session(self.engine) as s:
            v = s.get(ContentVersionRow, ident)
            return None if v is None else (v.game, dict(v.files))

    def link_table(self, ident: str, table_id: str, owner: str) -> None:
        """Record that table ``table_id`` was made by ``owner`` to play version ``ident``."""
        with Session(self.engine) as s, s.begin():
            if s.get(ContentTableRow, (ident, table_id)) is None:
                s.add(ContentTableRow(version_id=ident, table_id=table_id, owner=owner, created_at=self.clock()))

    def link_rematch(self, old_table: str, new_table: str) -> None:
        """Record that ``new_table`` (a rematch of ``old_table``) plays the version the old
        table was made for, as its maker's (nothing when the old table was no playtest)."""
        with Session(self.engine) as s, s.begin():
            for row in s.scalars(select(ContentTableRow).where(ContentTableRow.table_id == old_table)).all():
                if s.get(ContentTableRow, (row.version_id, new_table)) is None:
                    s.add(ContentTableRow(version_id=row.version_id, table_id=new_table, owner=row.owner,
                                          created_at=self.clock()))

    def tables(self, owner: str, ident: str) -> list[str]:
        """The tables ``owner`` made with version ``ident``, newest first."""
        with Session(self.engine) as s:
            return list(s.scalars(select(ContentTableRow.table_id).where(
                ContentTableRow.version_id == ident, ContentTableRow.owner == owner)
                .order_by(ContentTableRow.created_at.desc())).all())

    def remove(self, owner: str, ident: str) -> bool:
        """Take version ``ident`` off ``owner``'s list (False: it was not there); its files
        go too unless another upload or a table still names it."""
        with Session(self.engine) as s, s.begin():
            row = s.get(ContentUploadRow, (owner, ident))
            if row is None:
                return False
            s.delete(row)
            s.flush()
            named = (s.scalar(select(func.count()).select_from(ContentUploadRow)
                              .where(ContentUploadRow.version_id == ident)) or 0) + (
                s.scalar(select(func.count()).select_from(ContentTableRow)
                         .where(ContentTableRow.version_id == ident)) or 0)
            if not named:
                s.execute(delete(ContentVersionRow).where(ContentVersionRow.id == ident))
            return True
