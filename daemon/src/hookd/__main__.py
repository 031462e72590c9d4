"""``python -m hookd``: the same CLI as the ``hookd`` script."""

from hookd.daemon.cli.main import main

raise SystemExit(main())
