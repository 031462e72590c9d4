"""hookd's daemon and CLI (an application: no public API is promised).

Kept empty on purpose: importing ``hookd.daemon`` must not import trio, so that the CLI
paths that only talk to a running daemon (``hookd status``) start fast.
"""
