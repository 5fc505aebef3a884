"""The browser front end: static HTML/CSS/ES modules in ``static/`` (no build step)."""
