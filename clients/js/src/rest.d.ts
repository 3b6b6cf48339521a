import type {
  CreatedGame,
  CreateGame,
  GameList,
  GameSnapshot,
  GameType,
  Health,
  JoinSeat,
  Problem,
  Readiness,
  Replay,
  SeatGrant,
} from "./protocol.js";

export const API_PREFIX: "/v2";

/** A refusal of the server, with the problem document's stable `code`. */
export class ApiError extends Error {
  constructor(problem: Partial<Problem> & { code: string; status: number });
  readonly code: string;
  readonly status: number;
  readonly detail: string | null;
  readonly problem: Partial<Problem> & { code: string; status: number };
}

/** A client of one server's REST lobby (`/v2`). */
export class PackplayRest {
  constructor(baseUrl?: string, options?: { fetch?: typeof fetch });
  readonly baseUrl: string;
  /** The WebSocket URL of this server. */
  wsUrl(): string;
  createGame(request: CreateGame): Promise<CreatedGame>;
  listGames(query?: { game?: string; status?: "open" | "playing" | "over" }): Promise<GameList>;
  getGame(gameId: string, options?: { token?: string | null }): Promise<GameSnapshot>;
  joinSeat(gameId: string, request: JoinSeat): Promise<SeatGrant>;
  leaveSeat(gameId: string, token: string): Promise<void>;
  getReplay(gameId: string): Promise<Replay>;
  health(): Promise<Health>;
  ready(): Promise<Readiness>;
  /** Every game the server plays, with its player range, options and rules pages. */
  gameTypes(): Promise<GameType[]>;
  /** One game type; rejects with `not_found` for a game the server does not play. */
  gameType(game: string): Promise<GameType>;
  /** A page of the rules reference as Markdown (`page`: a game name or `common`). */
  rules(page: string, options?: { lang?: "en" | "fr" | "es" | string }): Promise<string>;
  call(
    method: "GET" | "POST" | "DELETE",
    path: string,
    options?: { body?: unknown; token?: string | null; text?: boolean; accept?: number[] },
  ): Promise<unknown>;
}
