"""The warm registry of hooks (``registry``) and the watcher that keeps it warm."""
