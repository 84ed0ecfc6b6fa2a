/**
 * Which routes need an API key, secure by default (docs/decisions.md "API keys"). The routes
 * that need one are registered in one Fastify context whose onRoute hook puts the key check
 * (./authHooks.ts) first among each of its routes' own onRequest hooks, so that a route of that
 * context cannot forget it; a route that answers without a key is registered in the public
 * context (or a public plugin, `openPlugin`), a decision made in one place (./server.ts) and listed in
 * docs/api.md "Operations without a key". A GET route registered in neither stops the server
 * at its start, so that no route is public by omission.
 *
 * Both contexts are made once, after the app's own hooks and plugins (a context copies the
 * hooks its parent has when it is made), and the routes are then added to them in the order
 * the server adds them: the order of /openapi.json and of `/` stays that order. The key check
 * is a route-level hook, as it was when each route named it: it runs after every hook of the
 * app, also those added after the build, and before the rate limiter that reads its outcome
 * (@fastify/rate-limit appends its hook to the route's own).
 */
import type { FastifyInstance, onRequestAsyncHookHandler, RouteOptions } from 'fastify';

export interface RouteAccess {
  /** The one context of the routes that need a key: add them to it (`keyed.get(…)`). */
  readonly keyed: FastifyInstance;
  /** The context of the routes that need none, by decision: add them to it (`open.get(…)`). */
  readonly open: FastifyInstance;
  /**
   * Registers a plugin of public routes (its own hooks, parsers or error handler) in a public
   * context of its own, made now: a plugin registered on `open` once that is made would be
   * loaded beside it, not inside it.
   */
  openPlugin(plugin: (scope: FastifyInstance) => Promise<void>): Promise<void>;
  /**
   * The URL patterns of the public GET routes, in the order they were registered; a route that
   * answers only requests of a constraint is followed by its name: `/search (page)`
   * (./routes/pages.ts, where the API's route of the same path needs a key).
   */
  publicRoutes(): readonly string[];
}

/**
 * Makes a context of `app` and hands it back (Fastify makes a child context as
 * Object.create(parent)), inside an object: an instance is a thenable that resolves to the
 * root, so a promise of it would be the root.
 */
async function contextOf(app: FastifyInstance, setup?: (scope: FastifyInstance) => void): Promise<{ scope: FastifyInstance }> {
  let made: FastifyInstance | undefined;
  await app.register(async (scope) => {
    setup?.(scope);
    made = scope;
  });
  if (made === undefined) throw new Error('the context was not made');
  return { scope: made };
}

/** Whether `instance` is `scope` or a context made inside it. */
const within = (instance: FastifyInstance, scope: FastifyInstance): boolean =>
  instance === scope || Object.prototype.isPrototypeOf.call(scope, instance);

/**
 * Adds the guard to `app` and makes the two contexts. Call it once the app's hooks and
 * plugins are in place, before any route.
 */
export async function createRouteAccess(app: FastifyInstance, checkKey: onRequestAsyncHookHandler): Promise<RouteAccess> {
  // Set once made; the guard is added before, so that both contexts copy it.
  const made: { keyed?: FastifyInstance } = {};
  const openScopes: FastifyInstance[] = [];
  const publicUrls: string[] = [];
  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    if (made.keyed !== undefined && within(this, made.keyed)) return;
    if (!openScopes.some((scope) => within(this, scope))) {
      throw new Error(
        `The route GET ${route.url} is neither keyed nor public: add it to access.keyed or, by decision, to access.open (src/http/routeAccess.ts; CONTRIBUTING.md "A route").`,
      );
    }
    const constraints = Object.keys(route.constraints ?? {});
    const shown = constraints.length === 0 ? route.url : `${route.url} (${constraints.join(', ')})`;
    if (!publicUrls.includes(shown)) publicUrls.push(shown);
  });
  const keyed = (
    await contextOf(app, (scope) =>
      scope.addHook('onRoute', (route) => {
        // Also the HEAD route Fastify adds beside each GET, with the GET's hooks.
        const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
        if (!own.includes(checkKey)) route.onRequest = [checkKey, ...own];
      }),
    )
  ).scope;
  made.keyed = keyed;
  const open = (await contextOf(app)).scope;
  openScopes.push(open);
  return {
    keyed,
    open,
    async openPlugin(plugin) {
      await app.register(async (scope) => {
        openScopes.push(scope);
        await plugin(scope);
      });
    },
    publicRoutes: () => publicUrls,
  };
}
