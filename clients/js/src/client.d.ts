import type { Action } from "./legal.js";
import type { DecodeError, Encoding } from "./codec.js";
import type {
  Accepted,
  CreateGame,
  ErrorMessage,
  Events,
  GameOver,
  Pong,
  Rejected,
  Seated,
  ServerMessage,
  TournamentRound,
  TournamentStandings,
  TournamentTable,
  Update,
  ViewMessage,
  Welcome,
} from "./protocol.js";

export const CLIENT_NAME: string;
export const MAX_SERVER_FRAME_BYTES: number;

/** An update the client could not apply. */
export interface Gap {
  held: number;
  version: number;
  reason: "version" | "patch";
  error?: string;
}
export interface CloseInfo {
  code: number;
  reason: string;
  resumable: boolean;
}
export interface Decided {
  action: Action;
  action_id: string;
  version: number;
}
/** What each event name carries. */
export interface ClientEvents {
  message: ServerMessage;
  view: ViewMessage;
  update: Update;
  accepted: Accepted;
  rejected: Rejected;
  events: Events;
  welcome: Welcome;
  game_over: GameOver;
  error: ErrorMessage;
  pong: Pong;
  tournament_table: TournamentTable;
  tournament_round: TournamentRound;
  tournament_standings: TournamentStandings;
  seated: Seated;
  gap: Gap;
  decode_error: DecodeError;
  close: CloseInfo;
  decided: Decided;
  decision_error: unknown;
  reconnecting: { attempt: number; delay: number };
  reconnected: Welcome;
  reconnect_failed: { attempts: number; error: unknown };
}
/** The decision callback: an action to send, or null to decide nothing. */
export type Decide = (view: ViewMessage, client: PackplayClient) => Action | null | undefined | Promise<Action | null | undefined>;

export interface ClientOptions {
  /** A WebSocket constructor; defaults to `globalThis.WebSocket` (browsers, Node 22+). */
  WebSocket?: unknown;
  /** Name and version sent in `hello`. */
  client?: string;
  /** Send `resume` on a gap (default true). */
  autoResume?: boolean;
  /** Largest frame read (default 4 MiB). */
  maxBytes?: number;
  /** Ping at half the server's ping interval so that a listening connection stays open (default true). */
  keepAlive?: boolean;
}
export interface OpenOptions {
  token?: string | null;
  gameId?: string | null;
  role?: "player" | "spectator";
  encoding?: Encoding;
  /** Reconnect and resume after a resumable close (default true). */
  reconnect?: boolean;
  /** Reconnect attempts before giving up (default 8). */
  maxAttempts?: number;
}

/** A seat's or a spectator's connection to one game, keeping its exact view. */
export class PackplayClient {
  constructor(options?: ClientOptions);
  /** The view message held: the last whole view patched by every update since. */
  view: ViewMessage | null;
  welcome: Welcome | null;
  gameOver: GameOver | null;
  /** The encoding in use on this connection. */
  encoding: Encoding;
  /** True from a gap until the next whole view. */
  behind: boolean;
  /** The version of the view held. */
  readonly version: number | null;
  readonly connected: boolean;

  on<K extends keyof ClientEvents>(type: K, handler: (payload: ClientEvents[K]) => void): () => void;
  on(type: string, handler: (payload: any) => void): () => void;

  /** Connect, join, and resolve with the whole view; reconnects and resumes by itself. */
  open(url: string, options?: OpenOptions): Promise<ViewMessage>;
  /** Act once per decision: `decide` is never called again before its action is answered. */
  onDecision(decide: Decide): () => void;
  /** The `game_over` message, once the game has ended. */
  whenOver(): Promise<GameOver>;
  next<K extends keyof ClientEvents>(name: K): Promise<ClientEvents[K]>;

  /**
   * Take another seat (or spectate another game) on the open connection: `hello` with
   * `token`, then `join`; the new game's whole view. What still arrives of the game left
   * before the new `welcome` is dropped; the view and `gameOver` start over.
   */
  switchGame(options?: {
    token?: string | null;
    gameId?: string | null;
    role?: "player" | "spectator";
  }): Promise<ViewMessage>;
  connect(url: string, options?: { encoding?: Encoding; token?: string | null }): Promise<Welcome>;
  join(gameId: string, options?: { role?: "player" | "spectator"; fromVersion?: number | null }): void;
  act(action: Action, options?: { actionId?: string; version?: number }): string;
  play(action: Action, options?: { actionId?: string; version?: number }): Promise<Accepted | Rejected>;
  resume(fromVersion?: number): void;
  /** Follow a tournament: its messages are emitted under their type. */
  follow(tournamentId: string, options?: { secret?: string | null; watch?: boolean }): void;
  /**
   * Create a game (`setup`: the REST create-game body without `seats`) and take a seat of
   * it on this connection; the view follows once the game starts ({@link whenStarted}).
   */
  createGame(setup: CreateGame, options: { name: string; seat?: number | null }): Promise<Seated>;
  /** Take a seat of a game waiting for players and play it on this connection. */
  takeSeat(gameId: string, options: { name: string; seat?: number | null; invite?: string | null }): Promise<Seated>;
  /** Once the game played here is over: the same players' next game, each in its seat. */
  rematch(): Promise<Seated>;
  /** The first whole view of the game seated in (at once if held, else when it starts). */
  whenStarted(): Promise<ViewMessage>;
  /** The seat taken on this connection by the last create, take_seat or rematch. */
  seated: Seated | null;
  ping(nonce?: string): void;
  close(code?: number, reason?: string): void;
  nextActionId(): string;
}
