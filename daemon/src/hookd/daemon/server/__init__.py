"""The JSON-RPC server: listener, per-connection protocol, dispatch and methods."""
