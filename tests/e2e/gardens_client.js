// A Node.js client of gardens.v1 (not our code path): loads the .proto files at run time and
// calls CheckSolvable, then CheckGarden on the witness and on a given garden; prints JSON.
// Usage: node gardens_client.js HOST:PORT '{"card_ids": [...], "mode": "GAME_MODE_...", "garden": {...}}'
"use strict";
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO_DIR = path.resolve(__dirname, "..", "..", "proto");

function load() {
  const definition = protoLoader.loadSync(path.join(PROTO_DIR, "gardens/v1/gardeners.proto"), {
    includeDirs: [PROTO_DIR], keepCase: true, enums: String, longs: String, defaults: true, oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).gardens.v1;
}

function call(client, method, request) {
  return new Promise((resolve) => {
    client[method](request, { deadline: Date.now() + 30000 }, (err, response) => {
      if (err) resolve({ error: { code: err.code, details: err.details } });
      else resolve({ response });
    });
  });
}

async function main() {
  const [target, spec] = process.argv.slice(2);
  const request = JSON.parse(spec);
  const gardens = load();
  const client = new gardens.GardenersService(target, grpc.credentials.createInsecure());
  const out = {};
  const query = { card_ids: request.card_ids, mode: request.mode };
  out.checkSolvable = await call(client, "CheckSolvable", query);
  const witness = out.checkSolvable.response && out.checkSolvable.response.witness;
  if (witness) {
    out.checkWitness = await call(client, "CheckGarden", { ...query, garden: witness });
  }
  if (request.garden) {
    out.checkGiven = await call(client, "CheckGarden", { ...query, garden: request.garden });
  }
  client.close();
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack || err) + "\n");
  process.exit(1);
});
