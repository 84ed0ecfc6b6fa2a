/**
 * The physical ceiling of this machine for the responses of one case: a bare
 * node:http server answering the same bytes and headers from memory
 * (docs/benchmarks.md, each section's header). Run as a child process; argv:
 * the path of a JSON file {"responses": {"<path>": {status, headers, body
 * (base64)}}} (bodies are too large for the command line). A path it was not given answers 404, so a
 * mismatch shows as errors rather than as a faster ceiling.
 *
 * argv[3], the number of processes: as many as the server's HTTP workers
 * (`serve --workers N`), with node:cluster as the server
 * has them, all on one port; 1 (the default) is a single process. It prints
 * the port once every process listens.
 *
 * argv[4] `relay` (with 2 or more processes): each answer takes the hops a search takes in
 * the server (docs/deployment.md "Workers", docs/search-engine.md "One copy per node"): the
 * HTTP process asks the primary over the cluster's IPC channel (structured clone, as
 * src/ipcPeer.ts), the primary asks a worker thread and answers with the bytes. No work at
 * any hop: the floor of a search's latency on this machine, whatever the search costs.
 */
import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';

interface Response {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function answers(): Map<string, Answer> {
  const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { responses: Record<string, Response> };
  return new Map(
    Object.entries(spec.responses).map(([path, r]) => {
      const body = Buffer.from(r.body, 'base64');
      return [path, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }] as const;
    }),
  );
}

function send(res: ServerResponse, answer: Answer | undefined): void {
  if (answer === undefined) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

const processes = Number(process.argv[3] ?? '1');
// A relay needs a primary to relay through: with one process, answered in place.
const relay = process.argv[4] === 'relay' && processes > 1;

function serve(): void {
  // relayed: the answer comes from the primary (below), asked by path
  const own = relay ? undefined : answers();
  const waiting = new Map<number, ServerResponse>();
  let next = 0;
  if (relay)
    process.on('message', (m: { id: number; answer: Answer | undefined }) => {
      const res = waiting.get(m.id);
      waiting.delete(m.id);
      if (res !== undefined) send(res, m.answer && { ...m.answer, body: Buffer.from(m.answer.body) });
    });
  const server = createServer((req, res) => {
    if (own !== undefined) return send(res, own.get(req.url ?? ''));
    const id = next++;
    waiting.set(id, res);
    process.send!({ id, url: req.url ?? '' });
  });
  // In a worker, port 0 is the one port the primary chose for them all; the primary prints it.
  server.listen(0, '127.0.0.1', () => {
    if (cluster.isWorker) return;
    const address = server.address();
    process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

if (processes > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === processes) process.stdout.write(`${address.port}\n`);
  });
  if (relay) {
    // The primary holds the answers and asks a thread for each, as the server's pool does.
    const held = answers();
    const echo = 'const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));';
    const thread = new Worker(echo, { eval: true });
    const asked = new Map<number, { worker: ClusterWorker; id: number; url: string }>();
    let next = 0;
    thread.on('message', (n: number) => {
      const a = asked.get(n);
      asked.delete(n);
      a?.worker.send({ id: a.id, answer: held.get(a.url) });
    });
    cluster.on('message', (worker, m: { id: number; url: string }) => {
      asked.set(next, { worker, id: m.id, url: m.url });
      thread.postMessage(next++);
    });
    thread.unref();
  }
  cluster.setupPrimary({ serialization: 'advanced' });
  for (let i = 0; i < processes; i++) cluster.fork();
  // The bench stops the ceiling with SIGTERM: its workers go with it.
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill();
    process.exit(0);
  });
} else {
  serve();
}
