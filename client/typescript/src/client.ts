/**
 * The hookd client: one long-lived connection over the daemon's Unix socket (a named
 * pipe on Windows), spoken with vscode-jsonrpc in LSP framing. Many requests may be in
 * flight on it; fires stream progress, can be cancelled and may ask this client to run
 * `prompt` / `agent` / `mcp_tool` handlers (`hook/run`).
 *
 * Failure model (what a host can rely on):
 * - nothing this class does throws synchronously or leaves a rejection unhandled: every
 *   failure is a rejected promise of the call that caused it, as a `HookdClientError`;
 * - the connection is opened lazily (or by `connect()`), bounded by `connectTimeoutMs`;
 * - when the daemon closes the connection, or sends something that is not a valid
 *   JSON-RPC message, every request in flight fails with `ConnectionLost`, the connection
 *   is dropped, and the next call opens a new one (so a restarted daemon is picked up);
 * - `dispose()` closes the socket (the daemon then cancels this client's fires and kills
 *   their hooks), fails what was in flight and leaves no timer or handle behind.
 */
import * as net from "node:net";
import { Writable } from "node:stream";
import {
  CancellationReceiverStrategy,
  CancellationSenderStrategy,
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes as JsonRpcErrorCodes,
  RAL,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
  type Logger,
  type MessageConnection,
  type RequestMessage,
} from "vscode-jsonrpc/node";

import { defaultSocketPath } from "./address";
import {
  ConnectionLost,
  DaemonNotRunning,
  DaemonUnresponsive,
  HookdClientError,
  RemoteError,
  RequestCancelled,
} from "./errors";
import {
  ErrorCodes,
  type AsyncResult,
  type ClientRequests,
  type FireParams,
  type FireResult,
  type HookRunParams,
  type HookRunResult,
  type Listing,
  type HooksExplainParams,
  type Explanation,
  type OpenrpcDocument,
  type ProgressValue,
  type RequestId,
  type RelayAnswer,
  type RelayParams,
  type RootsResult,
  type ShutdownResult,
  type Status,
} from "./generated/protocol";

/** Anything with VS Code's / vscode-jsonrpc's cancellation token shape (`vscode.CancellationToken` fits). */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: (e: any) => any): { dispose(): any };
}

/** Handler types a client can run for the daemon. */
export type HandlerType = HookRunParams["type"];

/**
 * Runs one `hook/run` request: return `{ok, reason?}` for a prompt or agent handler, an MCP
 * `CallToolResult` for an `mcp_tool`. A thrown error (or a rejected promise) is sent back as
 * an error answer: the hook becomes a non-blocking error carrying its message. `token` is
 * cancelled when the daemon no longer needs the answer (the hook timed out, the fire was
 * cancelled).
 */
export type HookRunHandler = (
  params: HookRunParams,
  token: CancellationToken,
) => HookRunResult | Promise<HookRunResult>;

export type HookRunHandlers = { [type in HandlerType]?: HookRunHandler };

export interface ClientOptions {
  /** The socket (or pipe) to connect to; default `defaultSocketPath()` (`$HOOKD_SOCKET`, ...). */
  socketPath?: string;
  /** How long connecting may take before `DaemonUnresponsive`; default 5000. */
  connectTimeoutMs?: number;
  /**
   * How long a request other than `fire` may wait for its answer before
   * `DaemonUnresponsive` (the request is then cancelled); default 30000. A fire waits
   * `max(requestTimeoutMs, its timeoutMs + 30 s, 1 h)`: hooks may legitimately run long.
   */
  requestTimeoutMs?: number;
  /** Default runners for `hook/run`, for every fire (a fire's own `handlers` win). */
  handlers?: HookRunHandlers;
  /** Called for each `hook/asyncResult` notification (a background hook finished). */
  onAsyncResult?: (result: AsyncResult) => void;
  /** Diagnostics (malformed messages, failing callbacks); silent by default. */
  log?: (level: "error" | "warn" | "info", message: string) => void;
  /**
   * Largest request this client sends, in bytes of JSON (the daemon's
   * `max_message_bytes`, default 64 MiB). A larger one is refused locally with
   * `RemoteError` 1001 instead of being discarded by the daemon without an answer.
   */
  maxMessageBytes?: number;
}

/** `fire`'s params without the fields the client manages itself. */
export type FireRequest = Omit<FireParams, "workDoneToken" | "clientHandlers">;

export interface CallOptions {
  /** Cancel the request (sends `$/cancelRequest`; the call rejects with `RequestCancelled`). */
  token?: CancellationTokenLike;
  /** Same, with an `AbortSignal`. */
  signal?: AbortSignal;
}

export interface FireOptions extends CallOptions {
  /** Called with each `$/progress` value of this fire (begin, reports, end), in order. */
  onProgress?: (value: ProgressValue) => void;
  /** Runners for this fire's `hook/run` requests (merged over the client's `handlers`). */
  handlers?: HookRunHandlers;
}

export interface Disposable {
  dispose(): void;
}

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The error code a failing `hook/run` runner is answered with (as the Python client). */
export const HANDLER_FAILED = -32000;

let nextToken = 1;

interface Pending {
  fail(error: HookdClientError): void;
}

/** One open connection; replaced by a new one after it fails. */
class Session {
  readonly pending = new Set<Pending>();
  readonly progress = new Map<string, (value: ProgressValue) => void>();
  readonly fires = new Map<RequestId, HookRunHandlers>();
  lastRequestId: RequestId | undefined;
  failure: HookdClientError | undefined;
  /** Closed or unreadable: no new request goes here; answers already read still arrive. */
  closing = false;
  /** Bumped whenever vscode-jsonrpc decodes or dispatches a message (see `drainThenFail`). */
  activity = 0;
  connection!: MessageConnection;

  constructor(readonly socket: net.Socket) {}

  get alive(): boolean {
    return this.failure === undefined && !this.closing && !this.socket.destroyed;
  }
}

export class HookdClient {
  readonly socketPath: string;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  private readonly maxMessageBytes: number;
  private readonly handlers: HookRunHandlers;
  private readonly asyncListeners = new Set<(result: AsyncResult) => void>();
  private readonly logFn: ClientOptions["log"];
  private session: Session | undefined;
  private connecting: Promise<Session> | undefined;
  private disposed = false;

  constructor(options: ClientOptions = {}) {
    this.socketPath = options.socketPath ?? defaultSocketPath();
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30000;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.handlers = { ...options.handlers };
    this.logFn = options.log;
    if (options.onAsyncResult) this.asyncListeners.add(options.onAsyncResult);
  }

  /** Create a client and connect now (rejects with `DaemonNotRunning` when nothing listens). */
  static async connect(options: ClientOptions = {}): Promise<HookdClient> {
    const client = new HookdClient(options);
    await client.connect();
    return client;
  }

  /** Open the connection now rather than on the first call (a no-op when open). */
  async connect(): Promise<void> {
    await this.ensureSession();
  }

  /** Whether a connection is open right now (the next call opens one when it is not). */
  get connected(): boolean {
    return this.session?.alive ?? false;
  }

  /** Listen to `hook/asyncResult` notifications (background hooks that finished). */
  onAsyncResult(listener: (result: AsyncResult) => void): Disposable {
    this.asyncListeners.add(listener);
    return { dispose: () => this.asyncListeners.delete(listener) };
  }

  /** Fire an event and return the combined result of its hooks. */
  fire(params: FireRequest, options: FireOptions = {}): Promise<FireResult> {
    const call = this.startFire(params, { ...options, progress: options.onProgress !== undefined });
    if (options.onProgress) {
      const onProgress = options.onProgress;
      call.onProgress((value) => {
        try {
          onProgress(value);
        } catch (error) {
          this.log("error", `onProgress callback failed: ${describe(error)}`);
        }
      });
    }
    return call.result;
  }

  /**
   * Fire an event and return at once: iterate the call (`for await`) for its progress
   * values; `result` settles with the fire's result. `cancel()` cancels it.
   */
  startFire(params: FireRequest, options: CallOptions & { handlers?: HookRunHandlers; progress?: boolean } = {}): FireCall {
    return new FireCall(this, params, options);
  }

  /**
   * One run of an agent's relay entry, as `hookd-relay` sends it: the stdout, stderr and
   * exit code the agent must read back (an agent that embeds the relay calls this).
   */
  relay(params: RelayParams, options?: CallOptions): Promise<RelayAnswer> {
    return this.request("relay", params, options);
  }

  status(options?: CallOptions): Promise<Status> {
    return this.request("status", undefined, options);
  }

  hooksList(roots?: string[], options?: CallOptions): Promise<Listing> {
    return this.request("hooks/list", roots ? { roots } : undefined, options);
  }

  /**
   * Every hook of one event in the given roots, and whether `fire` would run it and if
   * not why (`hookd explain`); nothing is run.
   */
  hooksExplain(params: HooksExplainParams, options?: CallOptions): Promise<Explanation> {
    return this.request("hooks/explain", params, options);
  }

  rootsAdd(roots: string[], options?: CallOptions): Promise<RootsResult> {
    return this.request("roots/add", { roots }, options);
  }

  rootsRemove(roots: string[], options?: CallOptions): Promise<RootsResult> {
    return this.request("roots/remove", { roots }, options);
  }

  /** Stop the daemon (in-flight fires everywhere are cancelled and answered -32802). */
  shutdown(options?: CallOptions): Promise<ShutdownResult> {
    return this.request("shutdown", undefined, options);
  }

  /** The OpenRPC document describing the protocol (`rpc.discover`). */
  discover(options?: CallOptions): Promise<OpenrpcDocument> {
    return this.request("rpc.discover", undefined, options);
  }

  /** Any request method, typed by the generated `ClientRequests` table. */
  request<M extends keyof ClientRequests>(
    method: M,
    params?: ClientRequests[M]["params"],
    options: CallOptions = {},
  ): Promise<ClientRequests[M]["result"]> {
    return this.send(method, params, options, this.requestTimeoutMs) as Promise<ClientRequests[M]["result"]>;
  }

  /**
   * Close the connection and fail whatever is in flight with `ConnectionLost`; the daemon
   * cancels this client's fires (their hooks are killed). Later calls are refused.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.asyncListeners.clear();
    if (this.session) this.fail(this.session, new ConnectionLost("the hookd client was disposed while this request was in flight"));
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** @internal Send one request on the current connection (opening one if needed). */
  async send(
    method: string,
    params: object | undefined,
    options: CallOptions,
    timeoutMs: number,
    fire?: { token: string; onProgress: (value: ProgressValue) => void; handlers: HookRunHandlers },
  ): Promise<unknown> {
    const cancelled = () => options.token?.isCancellationRequested || options.signal?.aborted;
    if (cancelled()) throw new RequestCancelled(ErrorCodes.RequestCancelled, "Request cancelled", "cancelled before it was sent");
    if (params !== undefined) {
      const size = Buffer.byteLength(JSON.stringify(params));
      if (size > this.maxMessageBytes) {
        throw new RemoteError(
          ErrorCodes.MessageTooLarge,
          `the ${method} request is ${size} bytes of JSON, over hookd's limit of ${this.maxMessageBytes} bytes; it was not sent`,
          "send a smaller payload, or raise max_message_bytes in hookd's config (and maxMessageBytes here)",
        );
      }
    }
    const session = await this.ensureSession();
    if (cancelled()) throw new RequestCancelled(ErrorCodes.RequestCancelled, "Request cancelled", "cancelled before it was sent");
    return new Promise<unknown>((resolve, reject) => {
      const source = new CancellationTokenSource();
      const cleanups: Array<() => void> = [() => source.dispose()];
      let requestId: RequestId | undefined;
      let settled = false;
      const pending: Pending = {
        fail: (error) => finish(() => reject(error)),
      };
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        session.pending.delete(pending);
        if (fire) session.progress.delete(fire.token);
        if (requestId !== undefined) session.fires.delete(requestId);
        for (const cleanup of cleanups) cleanup();
        action();
      };
      session.pending.add(pending);

      if (options.token) {
        const subscription = options.token.onCancellationRequested(() => source.cancel());
        cleanups.push(() => subscription.dispose());
      }
      if (options.signal) {
        const onAbort = () => source.cancel();
        options.signal.addEventListener("abort", onAbort, { once: true });
        const signal = options.signal;
        cleanups.push(() => signal.removeEventListener("abort", onAbort));
      }
      const timer = setTimeout(() => {
        source.cancel(); // the daemon stops working on it, if it ever reads it
        finish(() => reject(new DaemonUnresponsive(this.socketPath, timeoutMs)));
      }, timeoutMs);
      cleanups.push(() => clearTimeout(timer));

      if (fire) session.progress.set(fire.token, fire.onProgress);
      let answer: Promise<unknown>;
      try {
        session.lastRequestId = undefined;
        answer =
          params === undefined
            ? session.connection.sendRequest(method, source.token)
            : session.connection.sendRequest(method, params, source.token);
        // vscode-jsonrpc hands the request to our cancellation strategy synchronously
        // before sending it: that is how we learn its id (hook/run names it as fireId).
        requestId = session.lastRequestId;
        if (fire && requestId !== undefined) session.fires.set(requestId, fire.handlers);
      } catch (error) {
        finish(() => reject(new ConnectionLost(`cannot send to hookd: ${describe(error)}; the next call reconnects`, { cause: error })));
        return;
      }
      answer.then(
        (result) => {
          const problem = malformedResult(method, result);
          if (problem) {
            const error = new ConnectionLost(
              `hookd sent a malformed ${method} reply (${problem}); the connection was dropped and the next call reconnects. ` +
                "This is a hookd bug: please report it with the daemon's log.",
            );
            finish(() => reject(error));
            this.fail(session, error);
            return;
          }
          finish(() => resolve(result));
        },
        (error: unknown) => finish(() => reject(this.translate(error))),
      );
    });
  }

  private translate(error: unknown): HookdClientError {
    if (error instanceof HookdClientError) return error;
    if (error instanceof ResponseError) {
      const code = error.code;
      if (code === ErrorCodes.RequestCancelled || code === ErrorCodes.ServerCancelled) {
        return new RequestCancelled(code, error.message, error.data);
      }
      if (code === JsonRpcErrorCodes.PendingResponseRejected || code === JsonRpcErrorCodes.MessageWriteError || code === JsonRpcErrorCodes.ConnectionInactive) {
        return new ConnectionLost(`the connection to hookd failed: ${error.message}; the next call reconnects`, { cause: error });
      }
      return new RemoteError(code, error.message, error.data);
    }
    return new ConnectionLost(`hookd's reply could not be read: ${describe(error)}; the next call reconnects`, { cause: error });
  }

  private ensureSession(): Promise<Session> {
    if (this.disposed) {
      return Promise.reject(new HookdClientError("this hookd client was disposed; create a new HookdClient"));
    }
    if (this.session?.alive) return Promise.resolve(this.session);
    if (!this.connecting) {
      this.connecting = this.open().finally(() => {
        this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  private async open(): Promise<Session> {
    const socket = await this.openSocket();
    if (this.disposed) {
      socket.destroy();
      throw new HookdClientError("this hookd client was disposed; create a new HookdClient");
    }
    const session = new Session(socket);
    const logger: Logger = {
      error: (message) => this.log("error", message),
      warn: (message) => this.log("warn", message),
      info: (message) => this.log("info", message),
      log: (message) => this.log("info", message),
    };
    const sender: CancellationSenderStrategy = {
      enableCancellation: (request: RequestMessage) => {
        session.lastRequestId = request.id ?? undefined;
      },
      sendCancellation: (connection, id) => CancellationSenderStrategy.Message.sendCancellation(connection, id),
      cleanup: (id) => CancellationSenderStrategy.Message.cleanup(id),
    };
    const json = RAL().applicationJson.decoder;
    const reader = new StreamMessageReader(socket, {
      contentTypeDecoder: {
        name: json.name,
        decode: (buffer, options) => {
          session.activity++;
          return json.decode(buffer, options);
        },
      },
    });
    const connection = createMessageConnection(reader, new StreamMessageWriter(new FrameWriter(socket)), logger, {
      cancellationStrategy: { sender, receiver: CancellationReceiverStrategy.Message },
      messageStrategy: {
        handleMessage: (message, next) => {
          session.activity++;
          return next(message);
        },
      },
    });
    session.connection = connection;

    connection.onNotification("$/progress", (params: unknown) => {
      if (!isObject(params) || (typeof params.token !== "string" && typeof params.token !== "number")) return;
      const route = session.progress.get(String(params.token));
      const value = params.value;
      if (!route || !isObject(value) || !["begin", "report", "end"].includes(value.kind as string)) return;
      route(value as unknown as ProgressValue);
    });
    connection.onNotification("hook/asyncResult", (params: unknown) => {
      if (!isObject(params)) return;
      for (const listener of [...this.asyncListeners]) {
        try {
          listener(params as unknown as AsyncResult);
        } catch (error) {
          this.log("error", `onAsyncResult callback failed: ${describe(error)}`);
        }
      }
    });
    connection.onRequest("hook/run", (params: unknown, token: CancellationToken) =>
      this.runHandler(session, params, token),
    );
    connection.onError(([error]) => {
      this.drainThenFail(
        session,
        new ConnectionLost(
          `hookd sent something this client cannot read (${describe(error)}); the connection was dropped and ` +
            "the next call reconnects. If it happens again, report it with the daemon's log.",
          { cause: error },
        ),
      );
    });
    const onClosed = () =>
      this.drainThenFail(
        session,
        new ConnectionLost(
          "hookd closed the connection before answering (the daemon stopped or crashed?); " +
            "the next call reconnects. Check 'hookd status', or start it with 'hookd serve'.",
        ),
      );
    connection.onClose(onClosed);
    socket.on("close", onClosed);
    socket.on("end", onClosed); // a half-close: no answer can come any more
    connection.listen();
    this.session = session;
    return session;
  }

  private openSocket(): Promise<net.Socket> {
    return new Promise<net.Socket>((resolve, reject) => {
      const socket = net.createConnection({ path: this.socketPath });
      // An 'error' without a listener would crash the host: keep one for the socket's life.
      socket.on("error", (error) => this.log("warn", `hookd socket: ${describe(error)}`));
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new DaemonUnresponsive(this.socketPath, this.connectTimeoutMs, "accept the connection"));
      }, this.connectTimeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        reject(connectError(this.socketPath, error));
      });
    });
  }

  private async runHandler(session: Session, params: unknown, token: CancellationToken): Promise<HookRunResult> {
    if (!isObject(params) || typeof params.type !== "string") {
      throw new ResponseError(HANDLER_FAILED, "hook/run params are not an object with a handler type");
    }
    const type = params.type as HandlerType;
    const fireId = params.fireId as RequestId;
    const runner = session.fires.get(fireId)?.[type] ?? this.handlers[type];
    if (!runner) throw new ResponseError(HANDLER_FAILED, `this client has no runner for ${type} hooks`);
    let result: unknown;
    try {
      result = await runner(params as unknown as HookRunParams, token);
    } catch (error) {
      throw new ResponseError(HANDLER_FAILED, error instanceof Error ? error.message || error.name : String(error));
    }
    if (!isObject(result)) {
      throw new ResponseError(HANDLER_FAILED, `the ${type} runner returned ${JSON.stringify(result) ?? typeof result}, not an object`);
    }
    return result as HookRunResult;
  }

  /** @internal The client-level runners (merged under a fire's own). */
  get defaultHandlers(): HookRunHandlers {
    return this.handlers;
  }

  /**
   * The connection closed (or turned unreadable): stop sending on it at once, but let
   * vscode-jsonrpc deliver what it already read (it decodes and dispatches one message per
   * event-loop turn, and a daemon that answers and then closes, as `shutdown` does, must
   * not lose its answer); once nothing moved for a few turns, fail what is still pending.
   */
  private drainThenFail(session: Session, error: HookdClientError): void {
    if (session.closing || session.failure) return;
    session.closing = true;
    if (this.session === session) this.session = undefined;
    let seen = -1;
    let quiet = 0;
    const check = () => {
      if (session.failure) return;
      if (session.activity !== seen) {
        seen = session.activity;
        quiet = 0;
      } else if (++quiet >= 3) {
        this.fail(session, error);
        return;
      }
      setImmediate(check);
    };
    setImmediate(check);
  }

  private fail(session: Session, error: HookdClientError): void {
    if (session.failure) return;
    session.failure = error;
    if (this.session === session) this.session = undefined;
    for (const pending of [...session.pending]) pending.fail(error);
    session.progress.clear();
    session.fires.clear();
    try {
      session.connection.dispose();
    } catch (disposeError) {
      this.log("warn", `disposing the connection: ${describe(disposeError)}`);
    }
    session.socket.destroy();
  }

  private log(level: "error" | "warn" | "info", message: string): void {
    if (!this.logFn) return;
    try {
      this.logFn(level, message);
    } catch {
      // a failing logger must not break the client
    }
  }
}

/**
 * A fire in flight. Iterate it (`for await (const value of call)`) for its progress values,
 * in the order the daemon sent them; the iteration ends when the fire is answered. `result`
 * settles with the fire's result (or a `HookdClientError`).
 */
export class FireCall implements AsyncIterable<ProgressValue> {
  readonly result: Promise<FireResult>;
  private readonly source = new CancellationTokenSource();
  private readonly values: ProgressValue[] = [];
  private readonly listeners: Array<(value: ProgressValue) => void> = [];
  private wake: (() => void) | undefined;
  private done = false;

  constructor(
    client: HookdClient,
    params: FireRequest,
    options: CallOptions & { handlers?: HookRunHandlers; progress?: boolean },
  ) {
    const handlers = { ...client.defaultHandlers, ...options.handlers };
    const types = (Object.keys(handlers) as HandlerType[]).filter((type) => handlers[type]).sort();
    const token = `hookd-ts-${nextToken++}`;
    const wire: FireParams = { ...params };
    if (options.progress !== false) wire.workDoneToken = token;
    if (types.length > 0) wire.clientHandlers = types;
    const links: Disposable[] = [];
    if (options.token) links.push(options.token.onCancellationRequested(() => this.source.cancel()));
    if (options.signal) {
      const signal = options.signal;
      const onAbort = () => this.source.cancel();
      if (signal.aborted) this.source.cancel();
      else signal.addEventListener("abort", onAbort, { once: true });
      links.push({ dispose: () => signal.removeEventListener("abort", onAbort) });
    }
    if (options.token?.isCancellationRequested) this.source.cancel();
    // A fire may legitimately run as long as its hooks' timeouts; wait generously.
    const waitMs = Math.max(
      client.requestTimeoutMs,
      (params.timeoutMs ?? 0) + 30000,
      3600 * 1000,
    );
    this.result = client
      .send("fire", wire, { token: this.source.token }, waitMs, {
        token,
        handlers,
        onProgress: (value) => this.push(value),
      })
      .then((result) => result as FireResult)
      .finally(() => {
        for (const link of links) link.dispose();
        this.source.dispose();
        this.done = true;
        this.wake?.();
      });
    this.result.catch(() => undefined); // a host that only iterates must not get an unhandled rejection
  }

  /** Cancel the fire: the daemon kills its hooks and `result` rejects with `RequestCancelled`. */
  cancel(): void {
    this.source.cancel();
  }

  /** Call `listener` for each progress value from now on (values already iterated are not replayed). */
  onProgress(listener: (value: ProgressValue) => void): void {
    this.listeners.push(listener);
  }

  private push(value: ProgressValue): void {
    if (this.listeners.length > 0) {
      for (const listener of this.listeners) listener(value);
      return;
    }
    this.values.push(value);
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProgressValue> {
    while (true) {
      const value = this.values.shift();
      if (value !== undefined) {
        yield value;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/**
 * What vscode-jsonrpc's writer writes to: it writes a message's header, waits for it to
 * be flushed, then writes the body. Sent like that, every request costs the daemon two
 * reads (and a wake-up) per message; this joins each header to its body into one socket
 * write. Writes are strictly sequential (the writer holds a lock per message).
 */
class FrameWriter extends Writable {
  private header: Buffer | undefined;

  constructor(private readonly socket: net.Socket) {
    super();
    this.on("error", () => undefined); // reported through the write's own callback
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.header === undefined && chunk.length < 256 && chunk.toString("latin1").endsWith("\r\n\r\n")) {
      this.header = chunk;
      callback();
      return;
    }
    const data = this.header ? Buffer.concat([this.header, chunk]) : chunk;
    this.header = undefined;
    if (this.socket.destroyed || !this.socket.writable) {
      callback(new Error("the connection to hookd is closed"));
      return;
    }
    this.socket.write(data, (error) => callback(error ?? null));
  }
}

function connectError(socketPath: string, error: NodeJS.ErrnoException): HookdClientError {
  switch (error.code) {
    case "ENOENT":
      return new DaemonNotRunning(socketPath, "the socket does not exist");
    case "ECONNREFUSED":
    case "ENOTDIR":
      return new DaemonNotRunning(socketPath, error.code === "ECONNREFUSED" ? "connection refused" : "not a directory");
    case "EAGAIN":
    case "ETIMEDOUT":
      return new DaemonUnresponsive(socketPath, 0, "accept the connection (its backlog is full)");
    case "EACCES":
    case "EPERM":
      return new HookdClientError(
        `cannot connect to hookd at ${socketPath}: permission denied. The socket belongs to another user; ` +
          "start your own daemon ('hookd serve') or point HOOKD_SOCKET at yours.",
        { cause: error },
      );
    default:
      return new HookdClientError(`cannot connect to hookd at ${socketPath}: ${describe(error)}`, { cause: error });
  }
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformedResult(method: string, result: unknown): string | undefined {
  if (!isObject(result)) return `the result is ${JSON.stringify(result) ?? typeof result}, not an object`;
  if (method === "fire") {
    for (const field of ["blocked", "continue"]) {
      if (typeof result[field] !== "boolean") return `'${field}' is not a boolean`;
    }
    for (const field of ["hooks", "warnings"]) {
      if (!Array.isArray(result[field])) return `'${field}' is not an array`;
    }
  }
  return undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
