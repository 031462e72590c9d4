"""One module per agent dialect, each fulfilling ``base.DialectModule`` in full; the
table of them is ``hookd.daemon.all_dialects`` (pre-commit's ``languages/`` and
``all_languages.py``)."""
