// A Mishra's Factory game through openapi-fetch, typed by what openapi-typescript
// generates from the OpenAPI document (generated/api.d.ts), against a live server: the
// game types, a typed refusal naming an option, create, join every seat, read the game as
// a seat, wait for the turn clocks to play it out, then read its replay.
//
//   node build/roundtrip.js http://127.0.0.1:PORT
//
// tsc checks this file against the generated types before it runs: a body the document
// does not allow, or an answer field it does not describe, fails the build.

import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type CreateGame = components["schemas"]["CreateMishraFactoryGame"];
const WAIT_MS = 60_000;

const baseUrl = process.argv[2];
assert.ok(baseUrl, "usage: node build/roundtrip.js BASE_URL");
const api = createClient<paths>({ baseUrl });

const types = await api.GET("/v2/game-types");
assert.ok(types.data, JSON.stringify(types.error));
assert.deepEqual(
  types.data.games.map((t) => [t.game, t.min_players, t.max_players]),
  [["day_night", 2, 2], ["mishra_factory", 2, 4], ["wedding_planner", 2, 6], ["base_race", 2, 2]],
);
const mishra = await api.GET("/v2/game-types/{game}", { params: { path: { game: "mishra_factory" } } });
assert.deepEqual(mishra.data?.options.map((o) => o.name), ["shuffle", "first_seat"]);

const refused = await api.POST("/v2/games", {
  body: { game: "mishra_factory", players: 3, options: { first_seat: 3 } },
});
assert.equal(refused.response.status, 422);
assert.equal(refused.error?.code, "validation_failed");
assert.equal(refused.error?.pointer, "/options/first_seat");

const body: CreateGame = { game: "mishra_factory", players: 3, turn_seconds: 0.05, options: { first_seat: 2 } };
const created = await api.POST("/v2/games", { body });
assert.ok(created.data, JSON.stringify(created.error));
const gameId = created.data.game_id;
const path = { game_id: gameId };
const grants = [];
for (const name of ["Ada", "Grace", "Edsger"]) {
  const joined = await api.POST("/v2/games/{game_id}/seats", { params: { path }, body: { name } });
  assert.ok(joined.data, JSON.stringify(joined.error));
  grants.push(joined.data);
}
assert.deepEqual(grants.map((g) => g.seat), [0, 1, 2]);
const token = grants[2]?.token ?? "";
const seat = { params: { path }, headers: { Authorization: `Bearer ${token}` } };

let snapshot = (await api.GET("/v2/games/{game_id}", seat)).data;
assert.ok(snapshot?.state, "a started game has a state");
assert.equal(snapshot.state.seat, 2);

const deadline = Date.now() + WAIT_MS;
while (snapshot?.summary.status !== "over") {
  assert.ok(Date.now() < deadline, `game ${gameId} not over after ${WAIT_MS} ms`);
  await sleep(200);
  snapshot = (await api.GET("/v2/games/{game_id}", seat)).data;
}

const replay = await api.GET("/v2/games/{game_id}/replay", { params: { path } });
assert.ok(replay.data, JSON.stringify(replay.error));
assert.equal(replay.data.game_id, gameId);
assert.equal(replay.data.setup.game, "mishra_factory");
assert.deepEqual(replay.data.setup.options, { first_seat: 2 });
assert.equal(replay.data.log.length, snapshot.summary.version);
assert.ok(replay.data.log.every((entry, i) => entry.version === i + 1));
console.log(
  `typescript client: game ${gameId} created, 3 seats joined, read as seat 2, ` +
    `replay of ${replay.data.log.length} actions, winners [${replay.data.result.winners.join(", ")}]`,
);
