// The SDK's higher-level parts against a real server: the REST lobby helpers, the
// decision callback (one action per decision, never two), and open()'s reconnect
// and resume, with an action in flight when the connection drops.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import WebSocket from "ws";

import { GAME_TYPES } from "../src/catalog.js";
import { PackplayClient } from "../src/client.js";
import { completeCard } from "../src/codec.js";
import { randomAction } from "../src/legal.js";
import { ApiError, PackplayRest } from "../src/rest.js";
import { seeded } from "../test-support/helpers.js";
import { Server, within } from "../test-support/server.js";

let server;
let rest;
before(async () => {
  server = await Server.start();
  rest = new PackplayRest(server.base);
});
after(async () => {
  await server?.stop();
});

/** A client on the `ws` package (Node 20 has no global WebSocket), counting what it sends and hears. */
function seatClient() {
  const client = new PackplayClient({ WebSocket });
  const tally = { decided: 0, accepted: 0, refused: [], reconnected: 0 };
  client.on("decided", () => tally.decided++);
  client.on("accepted", () => tally.accepted++);
  client.on("rejected", (r) => tally.refused.push(r));
  client.on("reconnected", () => tally.reconnected++);
  return { client, tally };
}

describe("REST lobby helpers", () => {
  test("create, list by type and status, read, join, leave, replay, health, readiness, rules", async () => {
    const game = await rest.createGame({ game: "mishra_factory", players: 3, turn_seconds: 600 });
    assert.equal(game.status, "open");
    const open = await rest.listGames({ game: "mishra_factory", status: "open" });
    assert.ok(open.games.some((g) => g.game_id === game.game_id));
    const others = await rest.listGames({ game: "base_race" });
    assert.ok(!others.games.some((g) => g.game_id === game.game_id));
    const first = await rest.joinSeat(game.game_id, { name: "Ada" });
    assert.equal(first.seat, 0);
    await rest.leaveSeat(game.game_id, first.token);
    const again = await rest.joinSeat(game.game_id, { name: "Grace", seat: 0 });
    const seen = await rest.getGame(game.game_id, { token: again.token });
    assert.deepEqual(seen.summary.seats[0], { seat: 0, name: "Grace", house: null });
    assert.equal(seen.state, null);
    const notOver = await rest.getReplay(game.game_id).catch((e) => e);
    assert.ok(notOver instanceof ApiError);
    assert.ok(["game_not_over", "out_of_order"].includes(notOver.code), notOver.code);
    assert.equal(notOver.status, 409);
    const missing = await rest.getGame("nosuchgame00").catch((e) => e);
    assert.equal(missing.code, "not_found");
    const bad = await rest.createGame({ game: "day_night", players: 9 }).catch((e) => e);
    assert.ok(["validation_failed", "bad_config"].includes(bad.code), bad.message);
    assert.equal((await rest.health()).status, "ok");
    assert.equal((await rest.ready()).ready, true);
    assert.match(await rest.rules("mishra_factory", { lang: "fr" }), /^# /);
    const unknown = await rest.rules("chess").catch((e) => e);
    assert.equal(unknown.code, "not_found");
    const types = await rest.gameTypes();
    assert.deepEqual(
      types.map((t) => [t.game, t.min_players, t.max_players]),
      [["day_night", 2, 2], ["mishra_factory", 2, 4], ["wedding_planner", 2, 6], ["base_race", 2, 2]],
    );
    assert.deepEqual(
      types.map((t) => [t.game, t.title, t.default_sets]),
      GAME_TYPES.map((t) => [t.game, t.title, t.sets]),
      "the offline table says what the server says",
    );
    const mishra = await rest.gameType("mishra_factory");
    assert.deepEqual(mishra.options.map((o) => [o.name, o.default]), [["shuffle", true], ["first_seat", null]]);
    const refused = await rest
      .createGame({ game: "mishra_factory", players: 2, options: { first_seat: 2 } })
      .catch((e) => e);
    assert.equal(refused.code, "validation_failed");
    assert.equal(refused.problem.pointer, "/options/first_seat");
    const unknownType = await rest.gameType("chess").catch((e) => e);
    assert.equal(unknownType.code, "not_found");
    assert.equal(rest.wsUrl(), server.wsUrl);
  });

  test("a finished game's replay: its log holds exactly the accepted actions", async () => {
    const game = await rest.createGame({ game: "wedding_planner", players: 2, seed: 5, seats: ["Ada", "Grace"] });
    const seats = game.grants.map(() => seatClient());
    const random = seeded(5);
    await Promise.all(
      seats.map(async ({ client }, i) => {
        client.onDecision((view) => randomAction(view, random));
        await client.open(server.wsUrl, { token: game.grants[i].token });
        await client.whenOver();
        client.close();
      }),
    );
    const replay = await rest.getReplay(game.game_id);
    for (const [i, { tally }] of seats.entries()) {
      assert.deepEqual(tally.refused, []);
      assert.equal(tally.decided, tally.accepted);
      assert.equal(replay.log.filter((entry) => entry.seat === i).length, tally.accepted);
    }
  });
});

describe("onDecision", () => {
  test("a slow decider in a game of simultaneous choices acts once per decision, none refused", async () => {
    const game = await rest.createGame({ game: "day_night", players: 2, seed: 3, seats: ["Ada", "Grace"] });
    const seats = game.grants.map(() => seatClient());
    const calls = [0, 0];
    await Promise.all(
      seats.map(async ({ client }, i) => {
        const random = seeded(10 + i);
        client.onDecision(async (view) => {
          calls[i]++;
          // Seat 0 thinks while the other seat's actions arrive.
          if (i === 0) await new Promise((resolve) => setTimeout(resolve, 20));
          return randomAction(view, random);
        });
        await client.open(server.wsUrl, { token: game.grants[i].token });
        await within(client.whenOver(), "the end of the game", 30_000);
        client.close();
      }),
    );
    for (const [i, { tally }] of seats.entries()) {
      assert.deepEqual(tally.refused, [], `seat ${i}`);
      assert.equal(tally.decided, tally.accepted, `seat ${i}: every action sent was accepted`);
      assert.ok(calls[i] >= tally.decided, `seat ${i}`);
    }
  });

  test("a decision answered with null is not asked again until the callback is set again", async () => {
    const game = await rest.createGame({ game: "mishra_factory", players: 2, seed: 4, seats: ["Ada", "Grace"] });
    let { client, tally } = seatClient();
    let view = await client.open(server.wsUrl, { token: game.grants[0].token });
    if (!view.pending.includes(view.seat)) {
      client.close();
      ({ client, tally } = seatClient());
      view = await client.open(server.wsUrl, { token: game.grants[1].token });
    }
    const start = view.version; // client.view is patched in place: keep the number
    let asked = 0;
    client.onDecision(() => {
      asked++;
      return null;
    });
    // Let the client read a message or two: each read offers it a chance to decide.
    for (let i = 0; i < 3; i++) {
      client.ping(`p${i}`);
      await client.next("pong");
    }
    assert.equal(asked, 1);
    assert.equal(tally.decided, 0);
    const accepted = client.next("accepted");
    client.onDecision((v) => randomAction(v));
    assert.equal((await accepted).version, start + 1);
    client.close();
  });
});

describe("switchGame", () => {
  test("two seats play game after game on the connections they opened first", async () => {
    const seats = [0, 1].map(() => seatClient());
    const heard = seats.map(() => []);
    seats.forEach(({ client }, i) => client.on("message", (m) => heard[i].push(m)));
    const played = [];
    for (const [round, game] of ["day_night", "base_race", "day_night"].entries()) {
      const created = await rest.createGame({ game, players: 2, seed: 20 + round, seats: ["Ada", "Grace"] });
      heard.forEach((messages) => messages.splice(0));
      await Promise.all(
        seats.map(async ({ client }, i) => {
          const token = created.grants[i].token;
          const view =
            round === 0 ? await client.open(server.wsUrl, { token }) : await client.switchGame({ token });
          assert.equal(view.game_id, created.game_id);
          assert.equal(view.seat, i);
          const random = seeded(30 + round * 2 + i);
          client.onDecision((v) => randomAction(v, random));
          const over = await within(client.whenOver(), "the end of the game", 30_000);
          assert.equal(over.game_id, created.game_id);
        }),
      );
      for (const [i, { client }] of seats.entries()) {
        const ids = new Set(heard[i].filter((m) => m.game_id !== undefined).map((m) => m.game_id));
        assert.deepEqual([...ids], [created.game_id], `seat ${i}, game ${round}: nothing of another game`);
        const snapshot = await rest.getGame(created.game_id, { token: created.grants[i].token });
        assert.deepEqual(client.view.view, snapshot.state.view, `seat ${i}: the view kept is the server's`);
      }
      played.push(created.game_id);
    }
    assert.equal(new Set(played).size, 3);
    for (const [i, { tally }] of seats.entries()) {
      assert.deepEqual(tally.refused, [], `seat ${i}`);
      assert.equal(tally.reconnected, 0, `seat ${i}: one connection all along`);
    }
    for (const { client } of seats) client.close();
  });
});

describe("open(): reconnect and resume", () => {
  test("a connection dropped with an action in flight comes back, and the action counts once", async () => {
    const game = await rest.createGame({ game: "wedding_planner", players: 2, seed: 8, seats: ["Ada", "Grace"] });
    const seats = game.grants.map(() => seatClient());
    let drops = 0;
    await Promise.all(
      seats.map(async ({ client }, i) => {
        const random = seeded(20 + i);
        client.onDecision((view) => randomAction(view, random));
        if (i === 0) {
          // Drop the connection (no close frame: code 1006) right after sending an action, twice.
          client.on("decided", () => {
            if (drops < 2) {
              drops++;
              client.socket.terminate();
            }
          });
        }
        await client.open(server.wsUrl, { token: game.grants[i].token });
        await within(client.whenOver(), "the end of the game", 30_000);
      }),
    );
    const [dropped] = seats;
    assert.equal(drops, 2);
    assert.equal(dropped.tally.reconnected, 2);
    assert.deepEqual(dropped.tally.refused, []);
    const replay = await rest.getReplay(game.game_id);
    const mine = replay.log.filter((entry) => entry.seat === 0);
    assert.equal(new Set(mine.map((entry) => entry.action_id)).size, mine.length, "no action applied twice");
    // The view kept across the reconnects is the server's, field for field (a card's fields
    // at their default, which the wire leaves out, filled in as the client fills them).
    const snapshot = await rest.getGame(game.game_id, { token: game.grants[0].token });
    const cards = Object.entries(snapshot.state.cards).map(([id, card]) => [id, completeCard(card)]);
    assert.deepEqual(dropped.client.view, { ...snapshot.state, cards: Object.fromEntries(cards) });
    for (const { client } of seats) client.close();
  });
});

describe("tournaments", () => {
  test("an event over REST and the feed: create, register, follow, start, play the table, final standings", async () => {
    const created = await rest.createTournament({ name: "JS cup", game: "day_night", rounds: 1, turn_seconds: 30 });
    const event = { ...created.tournament, organizer_token: created.organizer_token };
    assert.equal((await rest.getTournament(event.tournament_id)).summary.status, "registering");
    const players = [await rest.register(event.tournament_id, { name: "Ada" })];
    players.push(await rest.register(event.tournament_id, { name: "Grace" }));
    const watcher = new PackplayClient({ WebSocket });
    const heard = [];
    for (const type of ["tournament_round", "tournament_standings"]) watcher.on(type, (m) => heard.push(m));
    await watcher.connect(server.wsUrl);
    watcher.follow(event.tournament_id, { watch: true });
    const started = await rest.startTournament(event.tournament_id, event.organizer_token);
    assert.equal(started.summary.status, "running");
    const random = seeded(7);
    await Promise.all(
      players.map(async (player) => {
        let table = await rest.myTable(event.tournament_id, player.secret);
        for (let tries = 0; table.status !== "playing" && tries < 100; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          table = await rest.myTable(event.tournament_id, player.secret);
        }
        assert.equal(table.status, "playing");
        const { client } = seatClient();
        client.onDecision((view) => randomAction(view, random));
        await client.open(server.wsUrl, { token: table.token, gameId: table.game_id });
        await within(client.whenOver(), "the end of the table's game", 30_000);
        client.close();
      }),
    );
    let standings = await rest.standings(event.tournament_id);
    for (let tries = 0; !standings.final && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      standings = await rest.standings(event.tournament_id);
    }
    assert.equal(standings.final, true);
    assert.deepEqual(standings.lines.map((line) => line.name).sort(), ["Ada", "Grace"]);
    assert.equal((await rest.pairings(event.tournament_id, 1)).tables.length, 1);
    await within(
      (async () => {
        while (!heard.some((m) => m.type === "tournament_standings" && m.final)) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })(),
      "the final standings on the feed",
      10_000,
    );
    assert.ok(heard.some((m) => m.type === "tournament_round"), "the feed told of the round");
    watcher.close();
  });
});
