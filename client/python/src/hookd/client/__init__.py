"""Thin synchronous client for the hookd daemon: standard library only, never trio."""

from ._client import AsyncResultCallback as AsyncResultCallback
from ._client import Client as Client
from ._client import FireCall as FireCall
from ._client import HandlerRunner as HandlerRunner
from ._client import ProgressCallback as ProgressCallback
from ._errors import ConnectionLost as ConnectionLost
from ._errors import DaemonNotRunning as DaemonNotRunning
from ._errors import DaemonUnresponsive as DaemonUnresponsive
from ._errors import HookdClientError as HookdClientError
from ._errors import RemoteError as RemoteError
from ._errors import RequestCancelled as RequestCancelled

__all__ = [
    "AsyncResultCallback",
    "Client",
    "ConnectionLost",
    "DaemonNotRunning",
    "DaemonUnresponsive",
    "FireCall",
    "HandlerRunner",
    "HookdClientError",
    "ProgressCallback",
    "RemoteError",
    "RequestCancelled",
]
