import {
  TOOL_SOURCE_ID_PATTERN,
  sanitizeToolName,
  toolEligibility,
  toolFailure,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
} from '@mobileclaw/domain';
import { ResponseTooLargeError, bearerFetch, boundedFetch } from './bounded-fetch';
import { CallDeadline } from './call-deadline';
import { PolledToolSource } from './polled-tool-source';
import { errorMessage, publicUrl, redactSecret } from './redaction';
import { parseToolCatalog } from './tool-catalog';
import { toolInvokeAnswer } from './tool-invoke-answer';

/** Defaults of {@link HttpToolCatalogSourceOptions}. */
export const HTTP_TOOL_CATALOG_DEFAULTS = {
  refreshIntervalMs: 60_000,
  catalogTimeoutMs: 10_000,
  /** 256 KiB: a catalog of hundreds of tools, a result a model can still read. */
  maxResponseBytes: 256 * 1024,
} as const;

/** Where an {@link HttpToolCatalogSource} reads its tools and sends its calls. */
export interface HttpToolCatalogSourceOptions {
  /** The source id in `catalog:<id>`: 1–32 of `[A-Za-z0-9_-]`. */
  id: string;
  /** `GET` answers the catalog document (see `tool-catalog.ts`), absolute http(s) URL. */
  catalogUrl: string;
  /** `POST {tool, args}` calls a tool (OpenClaw's `/tools/invoke`), absolute http(s) URL. */
  invokeUrl: string;
  /** Sent as `Authorization: Bearer <token>` to both URLs; never shown in errors, `location` or status. */
  token?: string;
  /** How often the catalog is read again after `start()`, in ms; 0: only on `refresh()`. Default 60,000. */
  refreshIntervalMs?: number;
  /** Longest wait for the catalog, in ms; default 10,000. */
  catalogTimeoutMs?: number;
  /** Largest catalog or call answer read, in bytes; larger ones fail. Default 256 KiB. */
  maxResponseBytes?: number;
  /** The `fetch` used (Node's by default). */
  fetch?: typeof fetch;
}

/**
 * A remote HTTP tool catalog as a {@link ToolSource} of execution mode `REMOTE_PROXY` (source kind
 * `catalog`) — the wire shape of OpenClaw gateways, so that enterprise services and PC gateways plug in
 * without code:
 * - `GET <catalogUrl>` lists the tools (`[entries]` or `{tools: [entries]}`, see {@link parseToolCatalog});
 *   names are sanitised ({@link sanitizeToolName}, the remote's name kept as `originalName`), the first
 *   of two entries with one name wins, unusable entries are skipped and kept in {@link issues};
 * - `POST <invokeUrl>` with `{"tool": <remote name>, "args": {…}}` and the call's `toolCallId` as
 *   `Idempotency-Key` calls one; the answer is read by {@link toolInvokeAnswer}.
 * Both carry the bearer token. The catalog is read on the first `list()`, on `refresh()` and every
 * `refreshIntervalMs` after `start()`; while it cannot be read the last tools stay listed unavailable.
 * `location` is the invoke URL without query or user info.
 *
 * `invoke` failures: `TOOL_NOT_FOUND`, `ABORTED` (the signal fired, the request is cut), `TIMEOUT`
 * (no answer within `deadlineMs`), `TOOL_UNAVAILABLE` (catalog unreadable at the last refresh, server
 * unreachable, credentials refused, HTTP 404/408/429/502–504), `PAYLOAD_TOO_LARGE` (an answer over
 * `maxResponseBytes`), `TOOL_FAILED` / `VALIDATION_FAILED` (the tool's `{ok: false, error}`),
 * `TOOL_BAD_RESPONSE` (not JSON, no boolean `ok`).
 */
export class HttpToolCatalogSource extends PolledToolSource {
  private readonly catalogUrl: string;
  private readonly invokeUrl: string;
  private readonly token: string | undefined;
  private readonly catalogTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly fetch: typeof fetch;
  private lastIssues: string[] = [];

  /** @throws Error when `id` does not match `TOOL_SOURCE_ID_PATTERN` or a URL is not absolute http(s) */
  constructor(options: HttpToolCatalogSourceOptions) {
    if (!TOOL_SOURCE_ID_PATTERN.test(options.id)) throw new Error(`catalog source id ${JSON.stringify(options.id)} must be 1–32 of [A-Za-z0-9_-]`);
    super({ kind: 'catalog', id: options.id }, options.refreshIntervalMs ?? HTTP_TOOL_CATALOG_DEFAULTS.refreshIntervalMs);
    this.catalogUrl = httpUrl('catalogUrl', options.catalogUrl);
    this.invokeUrl = httpUrl('invokeUrl', options.invokeUrl);
    this.token = options.token === '' ? undefined : options.token;
    this.catalogTimeoutMs = options.catalogTimeoutMs ?? HTTP_TOOL_CATALOG_DEFAULTS.catalogTimeoutMs;
    this.maxResponseBytes = options.maxResponseBytes ?? HTTP_TOOL_CATALOG_DEFAULTS.maxResponseBytes;
    this.fetch = boundedFetch(this.maxResponseBytes, bearerFetch(this.token, options.fetch ?? fetch));
  }

  /** Catalog entries the last successful read skipped, one line each (e.g. `tools[2]: name must be a non-empty string`). */
  issues(): string[] {
    return [...this.lastIssues];
  }

  protected override describeSource(): string {
    return `tool catalog ${this.ref.id} (${publicUrl(this.catalogUrl)})`;
  }

  protected async readTools(): Promise<ToolDescriptor[]> {
    const where = publicUrl(this.catalogUrl);
    let status: number;
    let body: string;
    try {
      const response = await this.fetch(this.catalogUrl, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.catalogTimeoutMs) });
      status = response.status;
      body = await response.text();
    } catch (err) {
      throw new Error(this.redact(`the catalog ${where} could not be read: ${describeFetchError(err, this.catalogTimeoutMs)}`));
    }
    if (status === 401 || status === 403) throw new Error(`the catalog ${where} refused the credentials (HTTP ${status})`);
    if (status < 200 || status > 299) throw new Error(`the catalog ${where} answered HTTP ${status}`);
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch {
      throw new Error(`the catalog ${where} is not JSON`);
    }
    let parsed;
    try {
      parsed = parseToolCatalog(document);
    } catch (err) {
      throw new Error(`the catalog ${where}: ${errorMessage(err)}`);
    }
    const tools: ToolDescriptor[] = [];
    const issues = parsed.issues.map((issue) => this.redact(issue));
    for (const entry of parsed.entries) {
      const name = sanitizeToolName(entry.name);
      if (tools.some((tool) => tool.name === name)) {
        issues.push(`${entry.name}: its name ${name} is taken by an earlier entry; skipped`);
        continue;
      }
      tools.push({
        name,
        ...(name === entry.name ? {} : { originalName: entry.name }),
        description: entry.description ?? `${entry.name}, a tool of the catalog ${this.ref.id}.`,
        inputSchema: entry.inputSchema,
        kind: entry.kind,
        mode: 'REMOTE_PROXY',
        source: { ...this.ref },
        location: publicUrl(this.invokeUrl),
        eligibility: toolEligibility(),
        available: true,
      });
    }
    this.lastIssues = issues;
    return tools;
  }

  protected async call(tool: ToolDescriptor, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    const deadline = new CallDeadline(context);
    try {
      const response = await this.fetch(this.invokeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': context.toolCallId },
        body: JSON.stringify({ tool: tool.originalName ?? tool.name, args }),
        signal: deadline.signal,
      });
      const body = await response.text();
      const result = toolInvokeAnswer(tool.name, response.status, body);
      return result.ok ? result : { ok: false, error: { ...result.error, message: this.redact(result.error.message) } };
    } catch (err) {
      const interrupted = deadline.interruption(`the call of ${tool.name}`);
      if (interrupted) return interrupted;
      if (err instanceof ResponseTooLargeError) return toolFailure('PAYLOAD_TOO_LARGE', `the answer to ${tool.name} exceeds ${err.limitBytes} bytes`);
      return toolFailure('TOOL_UNAVAILABLE', this.redact(`the tool server ${publicUrl(this.invokeUrl)} could not be reached for ${tool.name}: ${errorMessage(err)}`));
    } finally {
      deadline.dispose();
    }
  }

  private redact(text: string): string {
    return redactSecret(text, this.token);
  }
}

function httpUrl(field: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${field} must be an absolute http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${field} must be an absolute http(s) URL, not ${parsed.protocol}`);
  return url;
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof ResponseTooLargeError) return err.message;
  if (err instanceof DOMException && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return errorMessage(err);
}
