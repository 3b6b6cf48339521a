export const PROTOCOL_VERSION: 2;
export const CLIENT_MESSAGE_TYPES: readonly string[];
export const SERVER_MESSAGE_TYPES: readonly string[];
export interface GameTags {
  readonly actions: readonly string[];
  readonly view: string;
  readonly events: readonly string[];
}
export type GameName = "day_night" | "mishra_factory" | "wedding_planner" | "base_race";
export const GAMES: Readonly<Record<GameName, GameTags>>;
export const ACTION_TYPES: Set<string>;
export const EVENT_TYPES: Set<string>;
export const VIEW_TYPES: Set<string>;
export interface KnownGameType {
  readonly game: GameName;
  readonly title: string;
  readonly minPlayers: number;
  readonly maxPlayers: number;
  readonly sets: readonly string[];
}
export const GAME_TYPES: readonly KnownGameType[];
