// Set-up only: N concurrent tables on two kept sockets each, getting a new game again and again:
// "messages" (the default) by create and take_seat on the sockets, "rest" by a REST create
// with both seats and hello + join on each socket; "fresh" as browsers arrive: a REST create,
// then two new sockets (hello + join each), closed at the end of the game.
//   node load/_setup_loop.mjs URL [N] [SECONDS] [messages|rest|fresh]
import WebSocket from "ws";
const URL_ = process.argv[2]; const N = Number(process.argv[3] ?? 50); const SECONDS = Number(process.argv[4] ?? 10);
const SHAPE = process.argv[5] ?? "messages";
let done = 0, stop = false;
async function rest(body) {
  const r = await fetch(`${URL_}/v2/games`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(await r.text()); return r.json();
}
function socket() {
  return new Promise((resolve) => { const s = new WebSocket(URL_.replace(/^http/, "ws") + "/v2/ws", ["packplay.v2.json"]); s.on("open", () => resolve(s)); });
}
/** Send `message` and resolve with the first message `done` accepts. */
function ask(s, message, done) {
  return new Promise((resolve, reject) => {
    const on = (data) => { const m = JSON.parse(data); if (m.type === "error") { s.off("message", on); reject(new Error(m.message)); } else if (done(m)) { s.off("message", on); resolve(m); } };
    s.on("message", on); s.send(JSON.stringify(message));
  });
}
function helloJoin(s, token, gameId) {
  return ask(s, { type: "hello", token }, (m) => m.type === "welcome").then(() => ask(s, { type: "join", game_id: gameId }, (m) => m.type === "view" && m.game_id === gameId));
}
async function bySocket(socks) {
  let gameId = null;
  const viewed = (s) => new Promise((resolve) => { const on = (data) => { const m = JSON.parse(data); if (m.type === "view" && m.game_id === gameId) { s.off("message", on); resolve(); } }; s.on("message", on); });
  const created = await ask(socks[0], { type: "create", setup: { game: "day_night", players: 2 }, name: "a" }, (m) => m.type === "seated");
  gameId = created.game_id;
  const first = viewed(socks[0]);
  await ask(socks[1], { type: "take_seat", game_id: gameId, name: "b" }, (m) => m.type === "view" && m.game_id === gameId);
  await first;
}
async function fresh() {
  while (!stop) {
    const g = await rest({ game: "day_night", players: 2, seats: ["a", "b"] });
    const socks = await Promise.all(g.grants.map(() => socket()));
    await Promise.all(g.grants.map((grant, i) => helloJoin(socks[i], grant.token, g.game_id)));
    socks.forEach((s) => s.close());
    done += 1;
  }
}
async function table() {
  if (SHAPE === "fresh") return fresh();
  const socks = [await socket(), await socket()];
  if (SHAPE === "messages") await Promise.all(socks.map((s) => ask(s, { type: "hello" }, (m) => m.type === "welcome")));
  while (!stop) {
    if (SHAPE === "messages") {
      await bySocket(socks);
    } else {
      const g = await rest({ game: "day_night", players: 2, seats: ["a", "b"] });
      await Promise.all(g.grants.map((grant, i) => helloJoin(socks[i], grant.token, g.game_id)));
    }
    done += 1;
  }
  socks.forEach((s) => s.close());
}
const began = performance.now();
const tables = Array.from({ length: N }, table);
setTimeout(() => { stop = true; }, SECONDS * 1000);
await Promise.all(tables);
console.log(JSON.stringify({ setups: done, perSecond: done / ((performance.now() - began) / 1000) }));
