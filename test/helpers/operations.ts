/**
 * The operations of a running server as its own description lists them (`/openapi.json`),
 * for the tests that compare with what the server builds from its routes: the 404's list of
 * operations (src/http/allowedMethods.ts) and the routes that answer without a key
 * (src/http/routeAccess.ts).
 */
import type { FastifyInstance } from 'fastify';

export interface Operation {
  /** The path as the description writes it: `/items/{id}/aip`. */
  path: string;
  /** Whether the description says the operation takes no key (`security: []`). */
  open: boolean;
}

/** The GET operations of `/openapi.json`, in its order. */
export async function describedOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } });
  const spec = res.json<{ paths: Record<string, { get?: { security?: unknown[] } }> }>();
  return Object.entries(spec.paths).flatMap(([path, ops]) =>
    ops.get === undefined ? [] : [{ path, open: Array.isArray(ops.get.security) && ops.get.security.length === 0 }],
  );
}

/** The message of the 404 for `method path`, with the operations of the server's own description. */
export async function notFoundMessage(app: FastifyInstance, method: string, path: string): Promise<string> {
  const operations = (await describedOperations(app)).map((o) => o.path).join(', ');
  return `There is no ${method} ${path}. The operations are GET ${operations}; each also under /2. See / for the list, /openapi.json for the description and /docs to try them.`;
}
