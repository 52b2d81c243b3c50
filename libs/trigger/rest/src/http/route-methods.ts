import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';

/** DI token of the REST API's {@link RouteMethods}. */
export const REST_ROUTE_METHODS = Symbol('REST_ROUTE_METHODS');

interface RouteTemplate {
  /** Matches the request path as Express does: case-insensitive, optional trailing slash. */
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * The HTTP methods each route of a set of Nest controllers answers, read from their routing
 * metadata: what a 405 answer's `Allow` header lists for a path that exists under other methods.
 * Path parameters (`:taskId`) match one non-empty segment.
 */
export class RouteMethods {
  private constructor(private readonly routes: RouteTemplate[]) {}

  static fromControllers(controllers: Type[]): RouteMethods {
    const byPath = new Map<string, Set<string>>();
    for (const controller of controllers) {
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
        const methods = byPath.get(path) ?? new Set<string>();
        methods.add(method);
        // Express answers HEAD with a route's GET handler.
        if (method === 'GET') methods.add('HEAD');
        byPath.set(path, methods);
      }
    }
    return new RouteMethods([...byPath].map(([path, methods]) => ({ pattern: toPattern(path), methods })));
  }

  /** The methods `path` (no query) answers, sorted, e.g. `['GET', 'HEAD', 'POST']`; empty for an unknown path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
    return [...methods].sort();
  }
}

function toPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}
