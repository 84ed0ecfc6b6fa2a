/**
 * The physical ceiling of this machine for one response: a bare node:http
 * server answering the same bytes and headers from memory (issue #5). Run as
 * a child process; argv: a JSON {status, headers} and the path of a file
 * holding the body (bodies are too large for the command line).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const spec = JSON.parse(process.argv[2] ?? '{}') as { status: number; headers: Record<string, string> };
const body = readFileSync(process.argv[3] ?? '');
const headers = { ...spec.headers, 'content-length': String(body.length) };
const server = createServer((_req, res) => {
  res.writeHead(spec.status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
