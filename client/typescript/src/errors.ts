/**
 * Errors of the hookd client; the same tree as the Python client (`hookd.client`):
 *
 *     HookdClientError
 *     ├── DaemonNotRunning     nothing listens on the socket (start it: hookd serve)
 *     ├── DaemonUnresponsive   connected, but no answer in time (the daemon is stuck or busy)
 *     ├── ConnectionLost       the connection closed (or turned unreadable) mid-request
 *     └── RemoteError          the daemon answered with a JSON-RPC error
 *         └── RequestCancelled the request was cancelled (-32800 / -32802)
 *
 * Every error also has a string `kind` (its class name), for hosts that cannot rely on
 * `instanceof` (several copies of the package in one extension host).
 */

export type HookdErrorKind =
  | "HookdClientError"
  | "DaemonNotRunning"
  | "DaemonUnresponsive"
  | "ConnectionLost"
  | "RemoteError"
  | "RequestCancelled";

export class HookdClientError extends Error {
  readonly kind: HookdErrorKind = "HookdClientError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No daemon listens on the socket. */
export class DaemonNotRunning extends HookdClientError {
  override readonly kind = "DaemonNotRunning";

  constructor(
    readonly socketPath: string,
    detail: string,
  ) {
    super(
      `hookd is not running (no daemon at ${socketPath}: ${detail}). ` +
        "Start it with 'hookd serve' (or 'systemctl --user start hookd'), " +
        "or point HOOKD_SOCKET at the right socket.",
    );
  }
}

/** The daemon accepted the connection (or was being connected to) but did not answer in time. */
export class DaemonUnresponsive extends HookdClientError {
  override readonly kind = "DaemonUnresponsive";

  constructor(
    readonly socketPath: string,
    readonly timeoutMs: number,
    what = "answer",
  ) {
    super(
      `hookd at ${socketPath} did not ${what} within ${timeoutMs / 1000} s; it may be stuck. ` +
        "Check 'journalctl --user -u hookd' or restart it ('hookd shutdown; hookd serve').",
    );
  }
}

/** The connection closed, or became unreadable, before the daemon answered. The next call reconnects. */
export class ConnectionLost extends HookdClientError {
  override readonly kind = "ConnectionLost";
}

/** The daemon answered with a JSON-RPC error object. */
export class RemoteError extends HookdClientError {
  override readonly kind: "RemoteError" | "RequestCancelled" = "RemoteError";

  constructor(
    readonly code: number,
    readonly remoteMessage: string,
    readonly data?: unknown,
  ) {
    super(`${remoteMessage} (${code})${data !== undefined && data !== null ? `: ${typeof data === "string" ? data : JSON.stringify(data)}` : ""}`);
  }
}

/** The request was cancelled by this client (-32800) or by the daemon shutting down (-32802). */
export class RequestCancelled extends RemoteError {
  override readonly kind = "RequestCancelled";
}
