/**
 * The physical ceiling of this machine for the responses of one case: a bare
 * node:http server answering the same bytes and headers from memory (issue
 * #5). Run as a child process; argv: the path of a JSON file
 * {"responses": {"<path>": {status, headers, body (base64)}}} (bodies are too
 * large for the command line). A path it was not given answers 404, so a
 * mismatch shows as errors rather than as a faster ceiling.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Response {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { responses: Record<string, Response> };
const answers = new Map(
  Object.entries(spec.responses).map(([path, r]) => {
    const body = Buffer.from(r.body, 'base64');
    return [path, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }] as const;
  }),
);
const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (answer === undefined) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
