// A `packplay serve --sandbox` process of a test's own, on a free port, with a
// private Redis-compatible server (REDIS_URL is dropped from its environment).
// `packplay` comes from the PATH: activate the Python virtual environment first.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";

/** A `packplay serve --sandbox --in-memory` process of this test's own, on a free port (its private Redis keeps nothing). */
export class Server {
  static async start({ env: extra = {}, args = [] } = {}) {
    const port = await freePort();
    const env = {
      ...process.env,
      PACKPLAY_ACTIONS_PER_SECOND: "10000", // one action at a time, but fast
      PACKPLAY_FRAMES_PER_SECOND: "10000",
      PACKPLAY_GAMES_PER_MINUTE: "0", // the tests create many games from one address
      PACKPLAY_OPEN_LOBBIES: "0",
      PACKPLAY_CONNECTIONS_PER_ADDRESS: "0",
      PACKPLAY_SPECTATORS_PER_ADDRESS: "0",
      PACKPLAY_CATCH_UPS_PER_MINUTE: "0",
      PACKPLAY_HOUSE_GAMES_PER_MINUTE: "0",
      PACKPLAY_HOUSE_MOVES_PER_MINUTE: "0",
      ...extra,
    };
    delete env.REDIS_URL; // always a private Redis-compatible server: nothing shared is touched
    delete env.PACKPLAY_SETTINGS_JSON;
    const child = spawn("packplay", ["serve", "--sandbox", "--in-memory", "--port", String(port), ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Should this process end without the after hook, the server (and its Redis) ends too.
    process.once("exit", () => child.kill("SIGTERM"));
    const server = new Server(child, port);
    await server.ready();
    return server;
  }

  constructor(child, port) {
    this.child = child;
    this.base = `http://127.0.0.1:${port}`;
    this.wsUrl = `ws://127.0.0.1:${port}/v2/ws`;
    this.output = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => this.keep(chunk));
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    this.spawnError = new Promise((resolve) => child.once("error", resolve));
  }

  keep(chunk) {
    this.output = (this.output + chunk).slice(-4000);
  }

  async ready(ms = 30_000) {
    const deadline = Date.now() + ms;
    const failed = Promise.race([
      this.spawnError.then(
        (error) => `could not start packplay (activate the Python venv: . .venv/bin/activate): ${error.message}`,
      ),
      this.exited.then(({ code, signal }) => `packplay serve exited (${code ?? signal})`),
    ]).then((why) => ({ why }));
    while (Date.now() < deadline) {
      const status = await Promise.race([
        fetch(`${this.base}/v2/ready`).then(
          (response) => response.status,
          () => null,
        ),
        failed,
      ]);
      if (status === 200) return;
      if (typeof status === "object" && status !== null) throw new Error(`${status.why}\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.stop();
    throw new Error(`packplay serve was not ready within ${ms} ms\n${this.output}`);
  }

  async rest(method, path, body) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }

  /** SIGTERM: the server stops its Redis-compatible server itself. SIGKILL if it hangs. */
  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    try {
      await within(this.exited, "packplay serve to stop");
    } catch (error) {
      this.child.kill("SIGKILL");
      await this.exited;
      throw error;
    }
  }
}

/** `promise`, or a failure naming `what` after `ms` milliseconds. */
export function within(promise, what, ms = 10_000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
