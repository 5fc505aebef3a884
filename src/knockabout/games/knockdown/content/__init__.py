"""Knockdown's content: the boxes as data, and what a match compiles them into.

* one folder per box (``tainted_grail/``, ``nemesis/``, ``siege_storm/``), five TOML files each;
* :mod:`.loader` - finding, reading and validating the boxes (and content versions);
* :mod:`.models` - what each content file may hold; :mod:`.ops` - the effect ops;
  :mod:`.vocabulary` - the shared words (symbols, tokens, tags, ranges);
* :mod:`.match` - one match's setup, compiled from the boxes into plain tuples;
* :mod:`.text` - the words a player reads, generated from the same data.
"""
