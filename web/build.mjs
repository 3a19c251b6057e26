// Builds the page: client stubs generated from ../proto (protoc + protoc-gen-es) into gen/, then one
// bundle with esbuild into dist/ next to the static files. gen/ and dist/ are git-ignored.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const gen = join(here, "gen");
const dist = join(here, "dist");

// protoc comes from the project's venv (grpcio-tools, pinned in requirements.lock); so does
// google/rpc/error_details.proto (googleapis-common-protos), for the BadRequest details of errors.
const python = process.env.PYTHON || join(repo, ".venv", "bin", "python");
if (!existsSync(python)) {
  console.error(`build: ${python} not found; run \`make setup\` first (or set PYTHON)`);
  process.exit(2);
}
const sitePackages = execFileSync(python, ["-c", "import google.rpc, os; print(os.path.dirname(os.path.dirname(google.rpc.__path__[0])))"])
  .toString().trim();

function protos(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? protos(join(dir, e.name)) : e.name.endsWith(".proto") ? [join(dir, e.name)] : []);
}

rmSync(gen, { recursive: true, force: true });
mkdirSync(gen, { recursive: true });
const plugin = join(here, "node_modules", ".bin", "protoc-gen-es");
const files = [...protos(join(repo, "proto")).map((f) => relative(join(repo, "proto"), f)), "google/rpc/error_details.proto"];
execFileSync(python, ["-m", "grpc_tools.protoc", `-I${join(repo, "proto")}`, `-I${sitePackages}`,
  `--plugin=protoc-gen-es=${plugin}`, `--es_out=${gen}`, "--es_opt=target=js,import_extension=js", ...files],
  { stdio: "inherit" });

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
cpSync(join(here, "static"), dist, { recursive: true });
await esbuild.build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  format: "esm",
  target: "es2020",
  outfile: join(dist, "app.js"),
  sourcemap: true,
  logLevel: "warning",
});
console.log(`build: ${relative(repo, dist)}/ ready (${files.length} protos)`);
