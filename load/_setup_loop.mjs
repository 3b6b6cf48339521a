// Set-up only: N concurrent tables, each creating a game (REST) and saying hello + join on its two kept sockets, again and again.
import WebSocket from "ws";
const URL_ = process.argv[2]; const N = Number(process.argv[3] ?? 50); const SECONDS = Number(process.argv[4] ?? 10);
let done = 0, stop = false;
async function rest(body) {
  const r = await fetch(`${URL_}/v2/games`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(await r.text()); return r.json();
}
function socket() {
  return new Promise((resolve) => { const s = new WebSocket(URL_.replace(/^http/, "ws") + "/v2/ws", ["packplay.v2.json"]); s.on("open", () => resolve(s)); });
}
function helloJoin(s, token, gameId) {
  return new Promise((resolve) => {
    const on = (data) => { const m = JSON.parse(data); if (m.type === "welcome") s.send(JSON.stringify({ type: "join", game_id: gameId })); else if (m.type === "view" && m.game_id === gameId) { s.off("message", on); resolve(); } };
    s.on("message", on); s.send(JSON.stringify({ type: "hello", token }));
  });
}
async function table() {
  const socks = [await socket(), await socket()];
  while (!stop) {
    const g = await rest({ game: "day_night", players: 2, seats: ["a", "b"] });
    await Promise.all(g.grants.map((grant, i) => helloJoin(socks[i], grant.token, g.game_id)));
    done += 1;
  }
  socks.forEach((s) => s.close());
}
const began = performance.now();
const tables = Array.from({ length: N }, table);
setTimeout(() => { stop = true; }, SECONDS * 1000);
await Promise.all(tables);
console.log(JSON.stringify({ setups: done, perSecond: done / ((performance.now() - began) / 1000) }));
