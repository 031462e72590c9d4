"""The hookd wire protocol: framing, JSON-RPC envelopes, method names and types.

Standard library only and sans-IO, so that any client (the thin Python client, editor
extensions, agents) can share it without pulling in the daemon's dependencies.
"""

from ._address import SOCKET_ENV as SOCKET_ENV
from ._address import default_socket_path as default_socket_path
from ._address import runtime_dir as runtime_dir
from ._errors import BUSY as BUSY
from ._errors import ERROR_NAMES as ERROR_NAMES
from ._errors import FIRE_TOO_DEEP as FIRE_TOO_DEEP
from ._errors import INTERNAL_ERROR as INTERNAL_ERROR
from ._errors import INVALID_PARAMS as INVALID_PARAMS
from ._errors import INVALID_REQUEST as INVALID_REQUEST
from ._errors import MESSAGE_TOO_LARGE as MESSAGE_TOO_LARGE
from ._errors import METHOD_NOT_FOUND as METHOD_NOT_FOUND
from ._errors import NOT_FROM_A_HOOK as NOT_FROM_A_HOOK
from ._errors import PARSE_ERROR as PARSE_ERROR
from ._errors import REQUEST_CANCELLED as REQUEST_CANCELLED
from ._errors import SERVER_CANCELLED as SERVER_CANCELLED
from ._framing import DEFAULT_MAX_MESSAGE_BYTES as DEFAULT_MAX_MESSAGE_BYTES
from ._framing import Framing as Framing
from ._framing import FramingError as FramingError
from ._framing import MessageDecoder as MessageDecoder
from ._framing import encode as encode
from ._jsonrpc import HEAD_SCAN_BYTES as HEAD_SCAN_BYTES
from ._jsonrpc import RequestId as RequestId
from ._jsonrpc import SourceNumber as SourceNumber
from ._jsonrpc import dumps as dumps
from ._jsonrpc import echoable_id as echoable_id
from ._jsonrpc import error as error
from ._jsonrpc import id_from_head as id_from_head
from ._jsonrpc import invalid_request_reason as invalid_request_reason
from ._jsonrpc import is_valid_id as is_valid_id
from ._jsonrpc import loads_message as loads_message
from ._jsonrpc import notification as notification
from ._jsonrpc import request as request
from ._jsonrpc import success as success
from ._methods import CANCEL_REQUEST as CANCEL_REQUEST
from ._methods import DISCOVER as DISCOVER
from ._methods import FIRE as FIRE
from ._methods import HOOK_ASYNC_RESULT as HOOK_ASYNC_RESULT
from ._methods import HOOK_RUN as HOOK_RUN
from ._methods import HOOKS_EXPLAIN as HOOKS_EXPLAIN
from ._methods import HOOKS_LIST as HOOKS_LIST
from ._methods import PROGRESS as PROGRESS
from ._methods import RELAY as RELAY
from ._methods import REQUEST_METHODS as REQUEST_METHODS
from ._methods import ROOTS_ADD as ROOTS_ADD
from ._methods import ROOTS_REMOVE as ROOTS_REMOVE
from ._methods import SHUTDOWN as SHUTDOWN
from ._methods import STATUS as STATUS
from ._openrpc import load_openrpc as load_openrpc
from ._types import ACTIONS as ACTIONS
from ._types import AGENTS as AGENTS
from ._types import Action as Action
from ._types import Agent as Agent
from ._types import Decision as Decision
from ._types import FireParams as FireParams
from ._types import FireResult as FireResult
from ._types import HookRun as HookRun
from ._types import JsonObject as JsonObject
from ._types import JsonValue as JsonValue
from ._types import ProgressKind as ProgressKind
from ._types import Slowest as Slowest

__all__ = [
    "ACTIONS",
    "AGENTS",
    "BUSY",
    "CANCEL_REQUEST",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DISCOVER",
    "ERROR_NAMES",
    "FIRE",
    "FIRE_TOO_DEEP",
    "HEAD_SCAN_BYTES",
    "HOOKS_EXPLAIN",
    "HOOKS_LIST",
    "HOOK_ASYNC_RESULT",
    "HOOK_RUN",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "MESSAGE_TOO_LARGE",
    "METHOD_NOT_FOUND",
    "NOT_FROM_A_HOOK",
    "PARSE_ERROR",
    "PROGRESS",
    "RELAY",
    "REQUEST_CANCELLED",
    "REQUEST_METHODS",
    "ROOTS_ADD",
    "ROOTS_REMOVE",
    "SERVER_CANCELLED",
    "SHUTDOWN",
    "SOCKET_ENV",
    "STATUS",
    "Action",
    "Agent",
    "Decision",
    "FireParams",
    "FireResult",
    "Framing",
    "FramingError",
    "HookRun",
    "JsonObject",
    "JsonValue",
    "MessageDecoder",
    "ProgressKind",
    "RequestId",
    "Slowest",
    "SourceNumber",
    "default_socket_path",
    "dumps",
    "echoable_id",
    "encode",
    "error",
    "id_from_head",
    "invalid_request_reason",
    "is_valid_id",
    "load_openrpc",
    "loads_message",
    "notification",
    "request",
    "runtime_dir",
    "success",
]
