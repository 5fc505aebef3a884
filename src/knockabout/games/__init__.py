"""The three games. Each sub-package registers itself with :mod:`knockabout.core.registry`."""
