import type {
  CreatedGame,
  CreatedTournament,
  CreateGame,
  CreateTournament,
  GameList,
  GameSnapshot,
  GameType,
  Health,
  JoinSeat,
  MyTable,
  Pairings,
  Problem,
  Readiness,
  RegisterPlayer,
  Registration,
  Replay,
  SeatGrant,
  Standings,
  Tournament,
} from "./protocol.js";

export const API_PREFIX: "/v2";

/** A refusal of the server, with the problem document's stable `code`. */
export class ApiError extends Error {
  constructor(problem: Partial<Problem> & { code: string; status: number }, retryAfter?: number | null);
  readonly code: string;
  readonly status: number;
  readonly detail: string | null;
  /** Seconds of the answer's `Retry-After` header (429, 503), or null. */
  readonly retryAfter: number | null;
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
  /** Create a tournament; `organizer_token` of the answer starts, finishes and drops. */
  createTournament(request: CreateTournament): Promise<CreatedTournament>;
  getTournament(tournamentId: string): Promise<Tournament>;
  /** Register; `secret` of the answer proves the player for the whole event. */
  register(tournamentId: string, request: RegisterPlayer): Promise<Registration>;
  /** Drop a player with its secret, or anyone with the organizer token. */
  dropPlayer(tournamentId: string, playerId: string, token: string): Promise<void>;
  startTournament(tournamentId: string, organizerToken: string): Promise<Tournament>;
  finishTournament(tournamentId: string, organizerToken: string): Promise<Tournament>;
  standings(tournamentId: string): Promise<Standings>;
  pairings(tournamentId: string, round: number): Promise<Pairings>;
  /** Where the player of `secret` plays now. */
  myTable(tournamentId: string, secret: string): Promise<MyTable>;
  call(
    method: "GET" | "POST" | "DELETE",
    path: string,
    options?: { body?: unknown; token?: string | null; text?: boolean; accept?: number[] },
  ): Promise<unknown>;
}
