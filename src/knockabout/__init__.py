"""knockabout: three fighting card games for people and bots."""

from knockabout.compiled import warn_if_stale

__version__ = "0.1.0"

warn_if_stale()
