// A game on a kept connection against a real server: created, taken, played and asked
// again (rematch) on the same two sockets, without REST calls or joins.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import WebSocket from "ws";

import { PackplayClient } from "../src/client.js";
import { randomAction } from "../src/legal.js";
import { seeded } from "../test-support/helpers.js";
import { Server, within } from "../test-support/server.js";

let server;
before(async () => {
  server = await Server.start();
});
after(async () => {
  await server?.stop();
});

async function connected() {
  const client = new PackplayClient({ WebSocket });
  await client.connect(`${server.base.replace(/^http/, "ws")}/v2/ws`);
  return client;
}

/** Play both seats to the end with random legal actions. */
async function playOut(clients, seed) {
  const stops = clients.map((client, n) => {
    const random = seeded(seed + n);
    return client.onDecision((view) => randomAction(view, random));
  });
  const overs = await within(Promise.all(clients.map((c) => c.whenOver())), "the game's end", 30_000);
  stops.forEach((stop) => stop());
  return overs;
}

test("create, take_seat, play, then rematch on the same two sockets", async () => {
  const [ada, bob] = [await connected(), await connected()];
  try {
    const created = await ada.createGame({ game: "day_night", players: 2 }, { name: "Ada" });
    assert.equal(created.type, "seated");
    assert.equal(created.started, false);
    const taken = await bob.takeSeat(created.game_id, { name: "Bob" });
    assert.deepEqual([taken.seat, taken.started], [1, true]);
    const views = await within(Promise.all([ada.whenStarted(), bob.whenStarted()]), "the first views");
    assert.deepEqual(
      views.map((v) => [v.game_id, v.seat, v.version]),
      [
        [created.game_id, 0, 0],
        [created.game_id, 1, 0],
      ],
    );
    const overs = await playOut([ada, bob], 1);
    assert.deepEqual(overs[0].result, overs[1].result);

    const again = await Promise.all([ada.rematch(), bob.rematch()]);
    assert.equal(again[0].game_id, again[1].game_id);
    assert.notEqual(again[0].game_id, created.game_id);
    assert.deepEqual(again.map((s) => s.seat).sort(), [0, 1]);
    const next = await within(Promise.all([ada.whenStarted(), bob.whenStarted()]), "the rematch's views");
    assert.deepEqual(
      next.map((v) => [v.game_id, v.version]),
      [
        [again[0].game_id, 0],
        [again[0].game_id, 0],
      ],
    );
    assert.equal(ada.gameOver, null);
    await playOut([ada, bob], 7);
  } finally {
    ada.close();
    bob.close();
  }
});

test("a refused create answers the server's error code and leaves the connection usable", async () => {
  const client = await connected();
  try {
    const refused = await client.createGame({ game: "day_night", players: 2, seats: ["a", "b"] }, { name: "Ada" }).catch((e) => e);
    assert.equal(refused.code, "validation_failed");
    const missing = await client.takeSeat("nosuchgame00", { name: "Ada" }).catch((e) => e);
    assert.equal(missing.code, "not_found");
    const house = await client.createGame(
      { game: "day_night", players: 2, house: [{ seat: 1, bot: "random" }] },
      { name: "Ada" },
    );
    assert.equal(house.started, true);
    const view = await within(client.whenStarted(), "the view");
    assert.equal(view.game_id, house.game_id);
  } finally {
    client.close();
  }
});
