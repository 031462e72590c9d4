/**
 * Where the daemon listens: the same rules as `hookd.protocol.default_socket_path()`
 * (protocol/src/hookd/protocol/_address.py).
 */
import * as os from "node:os";
import * as path from "node:path";

/** Environment variable that overrides the socket path for both ends. */
export const SOCKET_ENV = "HOOKD_SOCKET";
export const SOCKET_NAME = "hookd.sock";

type Env = { [name: string]: string | undefined };

/**
 * The per-user private directory that holds the socket: `$XDG_RUNTIME_DIR/hookd` when the
 * variable is an absolute path, otherwise `$TMPDIR/hookd-<uid>` (`/tmp/hookd-<uid>`).
 */
export function runtimeDir(env: Env = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.posix.isAbsolute(xdg)) return path.posix.join(xdg, "hookd");
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const tmp = env.TMPDIR || "/tmp";
  return path.posix.join(tmp, `hookd-${uid}`);
}

/** The socket path (or, on Windows, the named pipe) a client connects to; `HOOKD_SOCKET` wins. */
export function defaultSocketPath(env: Env = process.env, platform: string = os.platform()): string {
  const override = env[SOCKET_ENV];
  if (override) return override;
  if (platform === "win32") {
    // A pipe name cannot hold a backslash (DOMAIN\user); the whole name is at most 256
    // characters. Without USERNAME, fall back to USER before a shared name.
    const user = env.USERNAME || env.USER || "user";
    return ("\\\\.\\pipe\\hookd-" + user.replace(/[\\/]/g, "_")).slice(0, 256);
  }
  return path.posix.join(runtimeDir(env), SOCKET_NAME);
}
