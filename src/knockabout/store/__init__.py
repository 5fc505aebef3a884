"""Game records and results for live tables (SQLAlchemy; SQLite by default)."""

from knockabout.store.store import Store, StoredTable, default_data_dir

__all__ = ["Store", "StoredTable", "default_data_dir"]
