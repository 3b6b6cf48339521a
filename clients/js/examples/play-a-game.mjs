// Create a game with every seat taken, play each seat with a random bot until the
// end, and count what the server refused. Run it against a server of yours:
//   PACKPLAY_URL=http://127.0.0.1:8000 node examples/play-a-game.mjs day_night
// (On Node 20 add --experimental-websocket, or pass the ws package as WebSocket.)
import { PackplayClient, PackplayRest, randomAction } from "@packplay/client";

const rest = new PackplayRest(process.env.PACKPLAY_URL ?? "http://127.0.0.1:8000");
const game = await rest.createGame({
  game: process.argv[2] ?? "day_night",
  players: Number(process.argv[3] ?? 2),
  seats: ["Ada", "Grace", "Hedy", "Joan", "Katherine", "Mary"].slice(0, Number(process.argv[3] ?? 2)),
});

const seats = await Promise.all(
  game.grants.map(async ({ seat, token }) => {
    const client = new PackplayClient();
    const tally = { seat, acted: 0, refused: 0 };
    client.on("decided", () => tally.acted++);
    client.on("rejected", () => tally.refused++);
    // Called once per decision of this seat; never again before its action is answered.
    client.onDecision((view) => randomAction(view));
    await client.open(rest.wsUrl(), { token }); // joins the token's game; reconnects by itself
    const over = await client.whenOver();
    client.close();
    return { ...tally, result: over.result };
  }),
);

for (const { seat, acted, refused } of seats) console.log(`seat ${seat}: ${acted} actions, ${refused} refused`);
console.log("result:", JSON.stringify(seats[0].result));
