"""The web server for live play (FastAPI + uvicorn): lobby, seats, clocks, WebSockets."""

from knockabout.server.app import create_app
from knockabout.server.live import LiveTable, Manager
from knockabout.server.settings import ServerSettings

__all__ = ["LiveTable", "Manager", "ServerSettings", "create_app"]
