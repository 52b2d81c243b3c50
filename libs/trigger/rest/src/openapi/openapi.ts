import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** Where the OpenAPI document and Swagger UI are served. */
export const OPENAPI_JSON_PATH = '/api/openapi.json';
export const OPENAPI_UI_PATH = '/api/docs';

/** Names of the security schemes in the document's `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearer';
export const ACCESS_TOKEN_QUERY_SCHEME = 'access_token';

export interface OpenApiOptions {
  /** `info.title`. Default "MobileClaw gateway API". */
  title?: string;
  /** `info.version`: the gateway's version, e.g. `0.1.0`. */
  version: string;
}

/**
 * Builds the OpenAPI 3 document of every controller in `app` (after `NestFactory.create`, before
 * or after `listen`). Security is documented as optional: `security: [{}, {bearer: []},
 * {access_token: []}]` — a token is needed only when the gateway runs with `MOBILECLAW_API_TOKEN`.
 */
export function createOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title ?? 'MobileClaw gateway API')
    .setVersion(options.version)
    .setDescription(
      'Operate Android phones (devices, commands, screenshots) and run agent tasks on them (goal → observe → plan → act), ' +
        'following each live over Server-Sent Events. Every error is RFC 9457 problem details (`application/problem+json`) with a stable `code`.',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque token', description: 'Needed only when the gateway runs with `MOBILECLAW_API_TOKEN` (`Authorization: Bearer <token>`); open otherwise.' },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'access_token', description: 'The same token as a query parameter, for GETs only (EventSource, `<img>`); RFC 6750 §2.3.' },
      ACCESS_TOKEN_QUERY_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // `{}` first: no credentials is acceptable when no API token is configured.
  document.security = [{}, { [BEARER_SCHEME]: [] }, { [ACCESS_TOKEN_QUERY_SCHEME]: [] }];
  documentLocalOnlyRefusals(document);
  return document;
}

/** The codes of the local-only rules, which refuse a request when no API token is configured. */
const LOCAL_ONLY_CODES = ['PROXIED_WITHOUT_API_TOKEN', 'HOST_NOT_ALLOWED'] as const;

/**
 * Every operation the token rule guards (it documents a 401) is also refused by the local-only rules
 * when no token is configured: its 403 lists `PROXIED_WITHOUT_API_TOKEN` and `HOST_NOT_ALLOWED`,
 * beside any 403 code of its own. Done once here rather than on each controller, so that no guarded
 * route can miss it.
 */
function documentLocalOnlyRefusals(document: OpenAPIObject): void {
  const codes = LOCAL_ONLY_CODES.map((code) => `\`${code}\``).join(' or ');
  const why = 'without `MOBILECLAW_API_TOKEN`, a request through a proxy, or to a Host that is neither loopback nor in `MOBILECLAW_ALLOWED_HOSTS`';
  const scoped = ' Also `TOKEN_SCOPE_FORBIDDEN` for a scoped API token (`MOBILECLAW_SCOPED_TOKENS`), which reaches only `/api/memory`.';
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.options, item.head, item.patch, item.trace]) {
      const responses = operation?.responses;
      if (!responses?.['401']) continue;
      const own = responses['403'] as { description?: string; content?: unknown } | undefined;
      const content = own?.content ?? (responses['401'] as { content?: unknown }).content;
      const memory = path === '/api/memory' || path.startsWith('/api/memory/');
      responses['403'] = {
        description: (own?.description ? `${own.description} Also ${codes} (${why}).` : `Problem details with \`code\` ${codes} (${why}).`) + (memory ? '' : scoped),
        ...(content ? { content } : {}),
      } as (typeof responses)['403'];
    }
  }
}

/**
 * Serves the OpenAPI document at {@link OPENAPI_JSON_PATH} and Swagger UI at {@link OPENAPI_UI_PATH}
 * (assets from the installed `swagger-ui-dist`, no CDN). Both are plain routes of the HTTP server,
 * outside the API token guard: the description of the API is public, its use is not.
 * @returns the document served.
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const document = createOpenApiDocument(app, options);
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: `${document.info.title} ${document.info.version}`,
    swaggerOptions: { persistAuthorization: false },
  });
  return document;
}
