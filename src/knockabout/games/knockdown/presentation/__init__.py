"""How Knockdown is shown: to a seat, a person, a log and a learner.

* :mod:`.view` - the typed view, the only thing a seat, a bot or a renderer reads;
* :mod:`.guide` - the prompt, each action's words and the hints;
* :mod:`.narration` - one plain sentence per event;
* :mod:`.terminal` - the terminal renderer (the browser's is ``web/renderer.js``);
* :mod:`.lobby` - how the lobby describes the game;
* :mod:`.encoding` - the view as numbers; :mod:`.state_encoding` - the same numbers
  written straight from the state (the batched environment's path).
"""
