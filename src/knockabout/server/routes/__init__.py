"""The server's routes, one FastAPI router per concern (``create_app`` includes them all):
:mod:`.lobby` (games and the public list of tables), :mod:`.tables` (making, reading,
joining and rematching one table), :mod:`.play` (the WebSocket of a seat or a spectator),
:mod:`.chat` (the chat's messages, a finished game's chat),
:mod:`.replays` (finished games step by step, their records) and :mod:`.pages` (the front
end's pages and each game's renderer). They share :class:`~knockabout.server.app_state.ServerState`."""
