/**
 * The wire types of protocol v2 that this package knows by name: every message
 * type per direction, and the `type` tags of each game's actions, view and events.
 *
 * Mirrors `packplay_protocol.catalog`; `test/catalog.test.js` checks it against the
 * generated schemas in `protocol/schema/v2/`, so a stale copy fails the tests.
 *
 * @module
 */

/** Protocol version spoken by this package. */
export const PROTOCOL_VERSION = 2;

/** Message types a client sends. */
export const CLIENT_MESSAGE_TYPES = Object.freeze([
  "hello",
  "join",
  "act",
  "resume",
  "ping",
  "follow",
  "create",
  "take_seat",
  "rematch",
]);

/** Message types a server sends. */
export const SERVER_MESSAGE_TYPES = Object.freeze([
  "welcome",
  "view",
  "update",
  "events",
  "accepted",
  "rejected",
  "game_over",
  "error",
  "pong",
  "tournament_table",
  "tournament_round",
  "tournament_standings",
  "seated",
]);

/**
 * @typedef {object} GameTags
 * @property {readonly string[]} actions  `type` of each action
 * @property {string} view                `type` of the view
 * @property {readonly string[]} events   `type` of each event
 */

/** @type {Readonly<Record<string, GameTags>>} */
export const GAMES = Object.freeze({
  day_night: Object.freeze({
    actions: Object.freeze(["day_night.place", "day_night.replace", "day_night.declare"]),
    view: "day_night.view",
    events: Object.freeze([
      "day_night.round_started",
      "day_night.row_placed",
      "day_night.hand_discarded",
      "day_night.pair_revealed",
      "day_night.card_replaced",
      "day_night.card_is_dud",
      "day_night.choice_committed",
      "day_night.color_declared",
      "day_night.pair_resolved",
      "day_night.round_ended",
      "day_night.game_ended",
    ]),
  }),
  mishra_factory: Object.freeze({
    actions: Object.freeze(["mishra_factory.take"]),
    view: "mishra_factory.view",
    events: Object.freeze(["mishra_factory.taken", "mishra_factory.refilled", "mishra_factory.ended"]),
  }),
  wedding_planner: Object.freeze({
    actions: Object.freeze(["wedding_planner.draw", "wedding_planner.take", "wedding_planner.discard"]),
    view: "wedding_planner.view",
    events: Object.freeze([
      "wedding_planner.drew",
      "wedding_planner.took",
      "wedding_planner.discarded",
      "wedding_planner.revealed",
    ]),
  }),
  base_race: Object.freeze({
    actions: Object.freeze(["base_race.layout", "base_race.move"]),
    view: "base_race.view",
    events: Object.freeze([
      "base_race.laid_out",
      "base_race.board_set",
      "base_race.moved",
      "base_race.battle",
      "base_race.turn",
      "base_race.game_over",
    ]),
  }),
});

/** Every known action `type`. */
export const ACTION_TYPES = new Set(Object.values(GAMES).flatMap((g) => g.actions));
/** Every known event `type`; events of other types are dropped on decode. */
export const EVENT_TYPES = new Set(Object.values(GAMES).flatMap((g) => g.events));
/** Every known view `type`. */
export const VIEW_TYPES = new Set(Object.values(GAMES).map((g) => g.view));

/**
 * @typedef {object} KnownGameType
 * @property {string} game         the game's name on the wire
 * @property {string} title        its printed name
 * @property {number} minPlayers
 * @property {number} maxPlayers
 * @property {readonly string[]} sets  the sets whose boosters it opens by default
 */

/**
 * The game types of protocol v2, known offline: name, title, player range, default
 * sets. `PackplayRest.gameTypes()` asks the server, which also lists each game's
 * options and rules pages.
 * @type {readonly KnownGameType[]}
 */
export const GAME_TYPES = Object.freeze(
  [
    { game: "day_night", title: "Day vs Night", minPlayers: 2, maxPlayers: 2, sets: ["MID"] },
    { game: "mishra_factory", title: "Mishra's Factory", minPlayers: 2, maxPlayers: 4, sets: ["MH2"] },
    { game: "wedding_planner", title: "Vampire Wedding Planner", minPlayers: 2, maxPlayers: 6, sets: ["VOW"] },
    { game: "base_race", title: "Base Race", minPlayers: 2, maxPlayers: 2, sets: ["ZNR"] },
  ].map((type) => Object.freeze({ ...type, sets: Object.freeze(type.sets) })),
);
