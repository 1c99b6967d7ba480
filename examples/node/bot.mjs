#!/usr/bin/env node
// A complete Orrery webhook bot for Node 20, with nothing but the standard library.
// It checks each turn request's Standard Webhooks signature and plays a random legal move.
//
//   node examples/node/bot.mjs --port 8765 --secret whsec_...            # answer 200 {"move": ...}
//   node examples/node/bot.mjs --port 8765 --secret whsec_... --reply-later  # answer 202, then POST the move
//
// Replace choose() with something clever. See README.md beside this file.

import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8765" },
    secret: { type: "string", default: process.env.ORRERY_WEBHOOK_SECRET },
    "reply-later": { type: "boolean", default: false },
  },
});
if (!options.secret) {
  console.error("bot.mjs: give the endpoint's secret with --secret or ORRERY_WEBHOOK_SECRET");
  process.exit(2);
}

const TOLERANCE_S = 5 * 60; // refuse requests signed more than five minutes ago (or ahead)
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const log = (message) => console.error(`bot.mjs: ${message}`);

// Standard Webhooks: base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), where the key is the
// base64 after "whsec_"; the header holds one or more "v1,<signature>", separated by spaces.
function verify(secret, headers, body) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new Error("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_S) {
    throw new Error("the timestamp is too old or too new");
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  for (const signature of signatures.split(" ")) {
    const comma = signature.indexOf(",");
    if (signature.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(signature.slice(comma + 1), "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return JSON.parse(body.toString("utf8"));
  }
  throw new Error("no signature matches");
}

const bearer = (turn) => ({ Authorization: `Bearer ${turn.token}` });

// The legal moves are in the turn request, unless there were too many: then fetch them with the seat's token.
async function legalMoves(turn) {
  if (!turn.legal_moves_truncated) return turn.legal_moves;
  const response = await fetch(turn.legal_moves_url, { headers: bearer(turn) });
  if (!response.ok) throw new Error(`legal moves: ${response.status} ${await response.text()}`);
  return (await response.json()).moves;
}

// This bot's brain: a random legal move. turn.view is the state as this seat sees it.
async function choose(turn) {
  const moves = await legalMoves(turn);
  return moves[randomInt(moves.length)];
}

// After a 202: POST the move to moves_url with the seat's token. A 429 (wait Retry-After seconds),
// a 5xx or a lost connection is tried again until the turn's deadline; the Idempotency-Key makes
// a repeat harmless.
async function sendMove(turn, move) {
  let delay = 0.5;
  while (Date.now() < turn.deadline) {
    try {
      const response = await fetch(turn.moves_url, {
        method: "POST",
        headers: { ...bearer(turn), "Content-Type": "application/json", "Idempotency-Key": turn.id },
        body: JSON.stringify({ move, expected_version: turn.version }),
      });
      if (response.status === 201) return;
      if (response.status === 409) {
        log(`the game moved on past version ${turn.version}; a new turn request follows`);
        return;
      }
      if (response.status !== 429 && response.status < 500) {
        log(`move refused: ${response.status} ${await response.text()}`);
        return;
      }
      delay = Number(response.headers.get("Retry-After") ?? delay);
      log(`the API answered ${response.status}; trying again in ${delay} s`);
    } catch (error) {
      log(`could not reach the API (${error.message}); trying again`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    delay = Math.min(delay * 2, 30);
  }
}

async function playLater(turn) {
  try {
    await sendMove(turn, await choose(turn));
  } catch (error) {
    log(`could not read the legal moves: ${error.message}`);
  }
}

function answer(res, status, body) {
  const data = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) });
  res.end(data);
}

const seen = new Set(); // webhook-ids already answered with 202: a retry of one is not played twice

async function handle(req, res, body) {
  let turn;
  try {
    turn = verify(options.secret, req.headers, body);
  } catch (error) {
    answer(res, 401, { error: `bad signature: ${error.message}` });
    return;
  }
  if (options["reply-later"]) {
    answer(res, 202, { accepted: true });
    if (!seen.has(turn.id)) {
      seen.add(turn.id);
      playLater(turn);
    }
    return;
  }
  try {
    answer(res, 200, { move: await choose(turn) });
  } catch (error) {
    answer(res, 503, { error: error.message });
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST") {
    answer(res, 405, { error: "POST turn requests here" });
    return;
  }
  const chunks = [];
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) req.destroy();
    else chunks.push(chunk);
  });
  req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  req.on("error", (error) => log(`request failed: ${error.message}`));
});

server.listen(Number(options.port), options.host, () => {
  const mode = options["reply-later"] ? "202, then the API" : "200";
  log(`listening on http://${options.host}:${options.port}/ (${mode})`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
