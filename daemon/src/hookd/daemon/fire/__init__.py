"""The ``fire`` use case: wire params in, one combined result out.

* ``params``: validate the wire params into a ``FireRequest`` (every error names the
  field and what to send);
* ``pipeline``: one fire end to end (hooks found, background hooks started, hooks run,
  verdicts combined, the result built), with its ports to the caller in one object;
* ``progress``: the LSP ``$/progress`` wording and the ``status`` table of fires in
  flight;
* ``combine``: the pure merge of verdicts into a typed ``Combined``;
* ``result``: the typed outcome turned into the wire shapes (``FireResult``,
  ``HookRun``) once, at the edge.
"""
