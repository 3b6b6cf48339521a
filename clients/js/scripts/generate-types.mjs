// Writes src/protocol.d.ts, the TypeScript types of every wire message, REST body and
// game payload of protocol v2, from the JSON Schemas the protocol generates
// (protocol/schema/v2/). `npm run types` rewrites the file; test/types.test.js fails
// when it is not what this script writes.
//
// Names: a schema definition keeps its name (`ViewMessage`, `GameSummary`), a game's
// definitions get the game's name in front (`day_night.View` is `DayNightView`), and
// the `error` message is `ErrorMessage` (so that it does not hide the global `Error`).
// Fields with a default are always present in what a server sends, so they are
// required there; in what a client sends (its messages, REST requests, actions) they
// may be left out.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_DIR = join(root, "../../protocol/schema/v2");
export const OUTPUT = join(root, "src/protocol.d.ts");

const GAMES = ["day_night", "mishra_factory", "wedding_planner", "base_race"];
const SENT_BY_CLIENTS = new Set([
  "Hello",
  "Join",
  "Act",
  "Resume",
  "Ping",
  "JoinSeat",
  "CardRef",
  "HouseSeat",
  ...GAMES.map((game) => `Create${pascal(game)}Game`),
  ...GAMES.map((game) => `${game}.Options`),
]);
const RENAMED = { Error: "ErrorMessage" };

function readSchema(...parts) {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, ...parts), "utf8"));
}

function pascal(snake) {
  return snake
    .split("_")
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join("");
}

/** The TypeScript name of a schema definition. */
export function typeName(definition) {
  const dot = definition.indexOf(".");
  if (dot >= 0) return pascal(definition.slice(0, dot)) + definition.slice(dot + 1);
  return RENAMED[definition] ?? definition;
}

function refName(ref) {
  return typeName(ref.replace("#/$defs/", ""));
}

function comment(text, indent = "") {
  if (!text) return "";
  const clean = text.replaceAll("``", "`").trim().split("\n");
  return `${indent}/**\n${clean.map((line) => `${indent} *${line ? ` ${line}` : ""}`).join("\n")}\n${indent} */\n`;
}

function literal(value) {
  return JSON.stringify(value);
}

/** A type expression for one schema. */
function expression(schema, indent) {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.anyOf) return schema.anyOf.map((s) => wrap(expression(s, indent))).join(" | ");
  if (schema.enum) return schema.enum.map(literal).join(" | ");
  if ("const" in schema) return literal(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.map((type) => wrap(single({ ...schema, type }, indent))).join(" | ");
}

function wrap(text) {
  return text.includes(" | ") ? `(${text})` : text;
}

function single(schema, indent) {
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return schema.items ? `${wrap(expression(schema.items, indent))}[]` : "unknown[]";
    case "object":
      return objectType(schema, indent, false);
    default:
      return "unknown";
  }
}

function objectType(schema, indent, input) {
  if (schema.properties) return `{\n${members(schema, `${indent}  `, input)}${indent}}`;
  const value = schema.additionalProperties && schema.additionalProperties !== true
    ? expression(schema.additionalProperties, indent)
    : "unknown";
  if (schema.propertyNames?.enum) return `Record<${expression(schema.propertyNames, indent)}, ${value}>`;
  return `{ [key: string]: ${value} }`;
}

function members(schema, indent, input) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .map(([name, property]) => {
      const optional = !required.has(name) && (input || !("default" in property));
      const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
      return `${comment(property.description, indent)}${indent}${key}${optional ? "?" : ""}: ${expression(property, indent)};\n`;
    })
    .join("");
}

function declaration(definition, schema, input) {
  const name = typeName(definition);
  const doc = comment(schema.description ?? schema.title);
  if (schema.type === "object" && schema.properties) {
    return `${doc}export interface ${name} {\n${members(schema, "  ", input)}}\n`;
  }
  return `${doc}export type ${name} = ${expression(schema, "")};\n`;
}

/** The union named by a schema file's top-level `anyOf`, as a list of type names. */
function unionOf(schema) {
  return (schema.anyOf ?? [{ $ref: schema.$ref }]).map((s) => refName(s.$ref));
}

/** The text of src/protocol.d.ts. */
export function generate() {
  const definitions = new Map();
  const collect = (schema) => {
    for (const [name, def] of Object.entries(schema.$defs ?? {})) definitions.set(name, def);
  };
  const toClient = readSchema("to_client.json");
  const fromClient = readSchema("from_client.json");
  collect(toClient);
  collect(fromClient);
  for (const file of readdirSync(join(SCHEMA_DIR, "rest")).sort()) collect(readSchema("rest", file));
  const unions = [
    ["ServerMessage", "Any message a server sends.", unionOf(toClient)],
    ["ClientMessage", "Any message a client sends.", unionOf(fromClient)],
    ["CreateGame", "The create-game body: one per game, told apart by `game`.", unionOf(readSchema("rest", "CreateGame.json"))],
  ];
  const actions = new Set();
  const kinds = { action: "AnyAction", event: "AnyEvent", view: "AnyView" };
  const every = { action: [], event: [], view: [] };
  for (const game of GAMES) {
    for (const kind of Object.keys(kinds)) {
      const schema = readSchema("games", game, `${kind}.json`);
      collect(schema);
      const names = unionOf(schema);
      if (kind === "action") for (const name of names) actions.add(name);
      if (kind !== "view") unions.push([`${pascal(game)}${pascal(kind)}`, `Every ${kind} of ${game}.`, names]);
      every[kind].push(...names);
    }
  }
  for (const [kind, name] of Object.entries(kinds)) {
    unions.push([name, `Every ${kind} of every game.`, every[kind]]);
  }
  const out = [
    "// Generated by scripts/generate-types.mjs from protocol/schema/v2/: do not edit.",
    "// Run `npm run types` after the protocol's schemas change.",
    "",
  ].join("\n");
  const body = [...definitions.keys()]
    .sort((a, b) => typeName(a).localeCompare(typeName(b)))
    .map((name) => {
      const input = SENT_BY_CLIENTS.has(name) || actions.has(typeName(name));
      return declaration(name, definitions.get(name), input);
    });
  const unionText = unions.map(
    ([name, doc, names]) => `${comment(doc)}export type ${name} =\n${names.map((n) => `  | ${n}`).join("\n")};\n`,
  );
  return `${out}\n${[...body, ...unionText].join("\n")}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT, generate());
  console.log(`wrote ${OUTPUT}`);
}
