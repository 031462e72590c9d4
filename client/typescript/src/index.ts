/**
 * @hookd/client: a TypeScript client for the hookd daemon, for editor extensions and
 * Node agents. See README.md.
 */
export {
  HookdClient,
  FireCall,
  HANDLER_FAILED,
  type CallOptions,
  type CancellationTokenLike,
  type ClientOptions,
  type Disposable,
  type FireOptions,
  type FireRequest,
  type HandlerType,
  type HookRunHandler,
  type HookRunHandlers,
} from "./client";
export {
  ConnectionLost,
  DaemonNotRunning,
  DaemonUnresponsive,
  HookdClientError,
  RemoteError,
  RequestCancelled,
  type HookdErrorKind,
} from "./errors";
export type { CancellationToken } from "vscode-jsonrpc/node";
export { defaultSocketPath, runtimeDir, SOCKET_ENV } from "./address";
export * from "./generated/protocol";
