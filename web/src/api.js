// The page's only link to the server: gRPC-Web clients generated from proto/, and server errors in plain words.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { GardenersService } from "../gen/gardens/v1/gardeners_pb.js";
import { HintService } from "../gen/gardens/v1/hints_pb.js";
import { PuzzleService } from "../gen/gardens/v1/puzzles_pb.js";
import { BadRequestSchema } from "../gen/google/rpc/error_details_pb.js";

// Where Envoy listens: ?api=... wins, then config.json (written by server/web.py), then this host on 8080.
export async function apiAddress() {
  const fromQuery = new URLSearchParams(location.search).get("api");
  if (fromQuery) return fromQuery;
  try {
    const r = await fetch("config.json", { cache: "no-store" });
    if (r.ok) {
      const cfg = await r.json();
      if (cfg.api) return cfg.api;
    }
  } catch { /* a plain static server without config.json */ }
  return `${location.protocol}//${location.hostname}:8080`;
}

export function connect(baseUrl) {
  const transport = createGrpcWebTransport({ baseUrl });
  return {
    baseUrl,
    gardeners: createClient(GardenersService, transport),
    puzzles: createClient(PuzzleService, transport),
    hints: createClient(HintService, transport),
  };
}

// Deadlines sent with each call (grpc-timeout): the server stops its search when they pass.
export const QUICK = { timeoutMs: 20_000 };
export const SOLVE = { timeoutMs: 60_000 };
export const GENERATE = { timeoutMs: 120_000 };

/** A server error as {title, lines} a person can read. */
export function explain(err) {
  const e = ConnectError.from(err);
  const message = e.rawMessage;
  switch (e.code) {
    case Code.InvalidArgument: {
      const lines = e.findDetails(BadRequestSchema).flatMap((b) =>
        b.fieldViolations.map((v) => (v.field ? `${v.field}: ${v.description}` : v.description)));
      return { title: "The server could not accept this request:", lines: lines.length ? lines : [message] };
    }
    case Code.ResourceExhausted:
      // the reason, as the server or the proxy gives it: every solver in use, a puzzle being made for another
      // player, or too many calls from this address (deploy/envoy.yaml's per-client limit)
      return { title: "The server is busy right now. Please try again in a moment.", lines: message ? [message] : [] };
    case Code.DeadlineExceeded:
      return { title: "The server ran out of time before it could answer. Try fewer cards, or try again.", lines: [] };
    case Code.Unavailable:
      return { title: "The gardens server cannot be reached. Is it running?", lines: message ? [message] : [] };
    case Code.Unimplemented:
      return { title: "This part of the server is not available yet.", lines: message ? [message] : [] };
    case Code.NotFound:
    case Code.FailedPrecondition:
      return { title: "The server says:", lines: [message] };
    case Code.Unauthenticated:
    case Code.PermissionDenied:
      return { title: "The server wants a token this page does not send (it is meant for a server without --auth-token).", lines: [message] };
    case Code.Canceled:
      return { title: "The request was cancelled.", lines: [] };
    default:
      if (/fetch|network|load failed/i.test(message)) {
        return { title: "The gardens server cannot be reached (no answer from the gRPC-Web proxy).", lines: [message] };
      }
      return { title: "Something went wrong on the server.", lines: [message] };
  }
}
