/** What the Nest module relies on in the client it provides: `close()` when it has one, on shutdown. */
export interface ProvidedClient {
  close?(): unknown;
}

/** The client class, built from its options. */
export type ClientClass = new (options: never) => ProvidedClient;

/**
 * The package's `MobileClawClient` class, loaded when a module is defined rather than when the Nest
 * entry is imported: the invocation side is a separate file of this package, and an app that never
 * defines the module never loads it through here.
 * @throws Error when this build of the package has no client (`../client` missing or exporting no `MobileClawClient`).
 */
export function loadClientClass(): ClientClass {
  let loaded: { MobileClawClient?: unknown };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand: see above
    loaded = require('../client') as { MobileClawClient?: unknown };
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith("Cannot find module '../client'")) throw err;
    throw new Error('MobileClawClientModule: this build of @mobileclaw/client has no MobileClawClient (../client is missing)');
  }
  if (typeof loaded.MobileClawClient !== 'function') {
    throw new Error('MobileClawClientModule: this build of @mobileclaw/client has no MobileClawClient (../client does not export it)');
  }
  return loaded.MobileClawClient as ClientClass;
}
