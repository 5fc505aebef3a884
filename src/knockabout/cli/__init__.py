"""The ``knockabout`` command line (Typer + Rich)."""
