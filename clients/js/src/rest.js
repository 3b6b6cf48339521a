/**
 * The REST lobby of protocol v2 (`/v2`), over `fetch`: create, list, read, join and
 * leave games, read replays, health and readiness, the rules reference. Every
 * refusal throws an {@link ApiError} carrying the problem document's stable `code`.
 *
 * ```js
 * const rest = new PackplayRest("http://127.0.0.1:8000");
 * const game = await rest.createGame({ game: "day_night", players: 2 });
 * const grant = await rest.joinSeat(game.game_id, { name: "Ada" });  // grant.token: keep it secret
 * ```
 *
 * @module
 */


export const API_PREFIX = "/v2";

/**
 * A refusal of the server: `code` is the problem document's (`ErrorCode`), `status` the HTTP
 * status, `retryAfter` the seconds of its `Retry-After` header (null without one).
 */
export class ApiError extends Error {
  /**
   * @param {{code: string, status: number, title?: string, detail?: string | null, type?: string, instance?: string | null}} problem
   * @param {number | null} [retryAfter]
   */
  constructor(problem, retryAfter = null) {
    super(problem.detail ? `${problem.code}: ${problem.detail}` : problem.code);
    this.name = "ApiError";
    this.code = problem.code;
    this.status = problem.status;
    this.detail = problem.detail ?? null;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

// A code for a status whose body is no problem document (a proxy's error page, say).
const STATUS_CODES = { 400: "bad_message", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "game_started", 413: "frame_too_large", 422: "validation_failed", 429: "rate_limited", 503: "unavailable" };

/** A client of one server's lobby. */
export class PackplayRest {
  /**
   * @param {string} [baseUrl]  the server, e.g. `https://packplay.example` (default: this page's origin)
   * @param {{fetch?: typeof fetch}} [options]
   */
  constructor(baseUrl = globalThis.location?.origin ?? "", { fetch: fetcher = globalThis.fetch } = {}) {
    if (typeof fetcher !== "function") throw new TypeError("no fetch: pass one, new PackplayRest(url, { fetch })");
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetch = (...args) => fetcher(...args); // a bare call: browsers refuse fetch with another `this`
  }

  /** The WebSocket URL of this server (`ws:` or `wss:` + `/v2/ws`). */
  wsUrl() {
    const base = new URL(this.baseUrl || globalThis.location.href);
    base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    base.pathname = `${API_PREFIX}/ws`;
    base.search = "";
    base.hash = "";
    return base.toString();
  }

  /**
   * Create a game. With `seats` (one name per seat) every seat is taken at once,
   * the game starts, and `grants` holds each seat's token. With `private: true` the game
   * is not listed and `invite` of the answer is the code its seats are taken with.
   * Refused with `rate_limited` (429, `retryAfter` seconds) or `too_many_lobbies` when this
   * client creates too many games.
   * @param {object} request  a `CreateGame` body: `{game, players, sets?, options?, turn_seconds?, seats?, house?, private?, seed?, boosters?}`
   */
  createGame(request) {
    return this.call("POST", "/games", { body: request });
  }

  /**
   * Games of the lobby, newest first: open ones by default.
   * @param {{game?: string, status?: "open" | "playing" | "over"}} [query]
   */
  listGames({ game, status } = {}) {
    const params = new URLSearchParams();
    if (game !== undefined) params.set("game", game);
    if (status !== undefined) params.set("status", status);
    const query = params.toString() ? `?${params}` : "";
    return this.call("GET", `/games${query}`);
  }

  /**
   * A game as the token's seat sees it (its `state` is a whole view message), or
   * as a spectator without a token.
   * @param {string} gameId
   * @param {{token?: string | null}} [options]
   */
  getGame(gameId, { token = null } = {}) {
    return this.call("GET", `/games/${encodeURIComponent(gameId)}`, { token });
  }

  /**
   * Take a seat (the lowest free one unless `seat` is given); a private game's seats need
   * its `invite` code (else `invite_required`). The grant's `token` is shown once: it
   * authenticates `hello` and REST calls.
   * @param {string} gameId
   * @param {{name: string, seat?: number | null, invite?: string | null}} request
   */
  joinSeat(gameId, request) {
    return this.call("POST", `/games/${encodeURIComponent(gameId)}/seats`, { body: request });
  }

  /** Give up the token's seat before the game starts. */
  async leaveSeat(/** @type {string} */ gameId, /** @type {string} */ token) {
    await this.call("DELETE", `/games/${encodeURIComponent(gameId)}/seat`, { token });
  }

  /** The export of a finished game (format packplay.replay.1): set-up, cards, log, result. */
  getReplay(/** @type {string} */ gameId) {
    return this.call("GET", `/games/${encodeURIComponent(gameId)}/replay`);
  }

  /** Liveness. */
  health() {
    return this.call("GET", "/health");
  }

  /** Readiness: a 503 answer is returned too, with `ready` false. */
  ready() {
    return this.call("GET", "/ready", { accept: [503] });
  }

  /**
   * Every game the server plays: name, title, player range, default sets, options
   * (each with its type, allowed values, default and description), whether it has
   * simultaneous decisions, its audiences and its rules pages. The `GameType` of
   * the protocol, in the server's order.
   */
  async gameTypes() {
    const list = /** @type {{games: object[]}} */ (await this.call("GET", "/game-types"));
    return list.games;
  }

  /**
   * One game type, as {@link PackplayRest#gameTypes} lists it; `not_found` for a name
   * the server does not play.
   * @param {string} game
   */
  gameType(game) {
    return this.call("GET", `/game-types/${encodeURIComponent(game)}`);
  }

  /**
   * A page of the rules reference as Markdown: `page` is a game name or `common`,
   * `lang` one of `en`, `fr`, `es`.
   * @param {string} page
   * @param {{lang?: string}} [options]
   * @returns {Promise<string>}
   */
  rules(page, { lang = "en" } = {}) {
    return this.call("GET", `/rules/${encodeURIComponent(page)}?lang=${encodeURIComponent(lang)}`, { text: true });
  }

  /**
   * Create a tournament; it takes registrations until its organizer starts it. The
   * answer's `organizer_token` is shown once: it starts and finishes the event and may
   * drop any player.
   * @param {object} request  a `CreateTournament` body: `{name, game, format?, players_per_table?, rounds?, turn_seconds?, late_registration?, sets?, options?}`
   */
  createTournament(request) {
    return this.call("POST", "/tournaments", { body: request });
  }

  /** A tournament as everyone may see it. */
  getTournament(/** @type {string} */ tournamentId) {
    return this.call("GET", tournamentPath(tournamentId));
  }

  /**
   * Register under a display name. The answer's `secret` is shown once: it proves the
   * player for the whole event (its table, following the event, dropping out).
   * @param {string} tournamentId
   * @param {{name: string}} request
   */
  register(tournamentId, request) {
    return this.call("POST", `${tournamentPath(tournamentId)}/players`, { body: request });
  }

  /**
   * Drop a player: with the player's own secret, or the organizer token for anyone.
   * @param {string} tournamentId
   * @param {string} playerId
   * @param {string} token
   */
  async dropPlayer(tournamentId, playerId, token) {
    await this.call("DELETE", `${tournamentPath(tournamentId)}/players/${encodeURIComponent(playerId)}`, { token });
  }

  /** Start the event (organizer token): the first round is paired and its games made. */
  startTournament(/** @type {string} */ tournamentId, /** @type {string} */ organizerToken) {
    return this.call("POST", `${tournamentPath(tournamentId)}/start`, { token: organizerToken });
  }

  /** End the event before its last round (organizer token). */
  finishTournament(/** @type {string} */ tournamentId, /** @type {string} */ organizerToken) {
    return this.call("POST", `${tournamentPath(tournamentId)}/finish`, { token: organizerToken });
  }

  /** The standings now (`final` once the event is over). */
  standings(/** @type {string} */ tournamentId) {
    return this.call("GET", `${tournamentPath(tournamentId)}/standings`);
  }

  /** One round's tables, byes and results (rounds count from 1). */
  pairings(/** @type {string} */ tournamentId, /** @type {number} */ round) {
    return this.call("GET", `${tournamentPath(tournamentId)}/rounds/${round}`);
  }

  /**
   * Where the player of `secret` plays now: `playing` names the game and the seat's
   * token; `waiting`, `bye`, `dropped` or `finished` otherwise. {@link PackplayClient#follow}
   * sends the same as it changes.
   */
  myTable(/** @type {string} */ tournamentId, /** @type {string} */ secret) {
    return this.call("GET", `${tournamentPath(tournamentId)}/table`, { token: secret });
  }

  /**
   * One request under `/v2`; the decoded JSON answer (or text), `undefined` for 204.
   * @param {"GET" | "POST" | "DELETE"} method
   * @param {string} path
   * @param {{body?: unknown, token?: string | null, text?: boolean, accept?: number[]}} [options]
   */
  async call(method, path, { body, token = null, text = false, accept = [] } = {}) {
    const headers = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await this.fetch(`${this.baseUrl}${API_PREFIX}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return undefined;
    if (response.ok || accept.includes(response.status)) return text ? response.text() : response.json();
    const retryAfter = Number.parseInt(response.headers?.get?.("retry-after") ?? "", 10);
    throw new ApiError(await problemOf(response), Number.isNaN(retryAfter) ? null : retryAfter);
  }
}

function tournamentPath(/** @type {string} */ tournamentId) {
  return `/tournaments/${encodeURIComponent(tournamentId)}`;
}

async function problemOf(response) {
  const fallback = { code: STATUS_CODES[response.status] ?? "internal", status: response.status, detail: response.statusText };
  try {
    const body = await response.json();
    if (body !== null && typeof body === "object" && typeof body.code === "string") {
      return { ...body, status: response.status };
    }
  } catch {
    // not JSON: keep the fallback
  }
  return fallback;
}
