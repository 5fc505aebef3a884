"""The store's tests run on SQLite and on PostgreSQL (the server tests' database fixtures)."""

from tests.server.conftest import db_url, postgres, postgres_url

__all__ = ["db_url", "postgres", "postgres_url"]
