"""Game records and results for live tables, accounts, and uploaded content (SQLAlchemy; SQLite by default)."""

from knockabout.store.accounts import DELETED_NAME, Account, AccountGame, AccountStore, NameTaken
from knockabout.store.content import ContentStore, ContentVersion, TooManyVersions
from knockabout.store.store import (
    Op,
    Store,
    StoredTable,
    action_op,
    chat_op,
    clock_op,
    create_op,
    default_data_dir,
    finish_op,
    seats_op,
    undo_op,
)

__all__ = [
    "DELETED_NAME",
    "Account",
    "AccountGame",
    "AccountStore",
    "ContentStore",
    "ContentVersion",
    "NameTaken",
    "Op",
    "Store",
    "StoredTable",
    "TooManyVersions",
    "action_op",
    "chat_op",
    "clock_op",
    "create_op",
    "default_data_dir",
    "finish_op",
    "seats_op",
    "undo_op",
]
