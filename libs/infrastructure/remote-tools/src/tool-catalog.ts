import type { ToolInputSchema, ToolKind } from '@mobileclaw/domain';

/**
 * One tool of an HTTP tool catalog as the catalog declares it, after checking.
 *
 * The accepted catalog document (JSON) is either an array of entries or `{"tools": [entries]}`; an entry:
 * - `name` (string, required): the tool's name at the remote, sent back as `tool` when invoking;
 * - `description` (string, optional);
 * - its argument schema as `inputSchema`, `input_schema` or `parameters` (the spellings of MCP,
 *   Anthropic and OpenAI-style catalogs; the first present wins), a JSON Schema with `type: "object"`
 *   (absent: any object);
 * - its kind: `kind` (`"OBSERVATION"` | `"ACTION"`, any case), else `readOnly: true` or MCP's
 *   `annotations.readOnlyHint: true` for `OBSERVATION`; otherwise `ACTION`, since a tool nobody said
 *   only reads may change the world.
 * Other fields are ignored.
 */
export interface CatalogEntry {
  name: string;
  description?: string;
  inputSchema: ToolInputSchema;
  kind: ToolKind;
}

/** The entries a catalog document declares, and why any other entry was skipped. */
export interface ParsedToolCatalog {
  entries: CatalogEntry[];
  /** One line per skipped entry, e.g. `tools[3]: name must be a non-empty string`. */
  issues: string[];
}

/** A catalog document whose shape is neither an array of entries nor `{tools: [...]}`. */
export class ToolCatalogShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolCatalogShapeError';
  }
}

/** The schema of a catalog tool that declares none: any object. */
export function anyObjectSchema(): ToolInputSchema {
  return { type: 'object', properties: {}, additionalProperties: true };
}

/**
 * Checks a catalog document (see {@link CatalogEntry}). An entry that is not usable is skipped and
 * reported in `issues`; the others are kept in order.
 * @throws ToolCatalogShapeError when the document is not an array or an object with a `tools` array
 */
export function parseToolCatalog(document: unknown): ParsedToolCatalog {
  const list = Array.isArray(document) ? document : isObject(document) && Array.isArray(document['tools']) ? (document['tools'] as unknown[]) : undefined;
  if (list === undefined) throw new ToolCatalogShapeError('the catalog is neither an array of tools nor an object with a "tools" array');
  const entries: CatalogEntry[] = [];
  const issues: string[] = [];
  list.forEach((raw, index) => {
    const problem = entryProblem(raw);
    if (problem !== undefined) issues.push(`tools[${index}]: ${problem}`);
    else entries.push(toEntry(raw as Record<string, unknown>));
  });
  return { entries, issues };
}

function entryProblem(raw: unknown): string | undefined {
  if (!isObject(raw)) return 'an entry must be an object';
  if (typeof raw['name'] !== 'string' || raw['name'].trim() === '') return 'name must be a non-empty string';
  if (raw['description'] !== undefined && typeof raw['description'] !== 'string') return `${raw['name']}: description must be a string`;
  const schema = declaredSchema(raw);
  if (schema !== undefined && (!isObject(schema) || schema['type'] !== 'object')) return `${raw['name']}: the input schema must be a JSON Schema object with type "object"`;
  const kind = raw['kind'];
  if (kind !== undefined && (typeof kind !== 'string' || !['OBSERVATION', 'ACTION'].includes(kind.toUpperCase()))) return `${raw['name']}: kind must be "OBSERVATION" or "ACTION"`;
  return undefined;
}

function toEntry(raw: Record<string, unknown>): CatalogEntry {
  const schema = declaredSchema(raw) as ToolInputSchema | undefined;
  const description = typeof raw['description'] === 'string' && raw['description'].trim() !== '' ? raw['description'] : undefined;
  return { name: raw['name'] as string, ...(description === undefined ? {} : { description }), inputSchema: schema === undefined ? anyObjectSchema() : structuredClone(schema), kind: declaredKind(raw) };
}

function declaredSchema(raw: Record<string, unknown>): unknown {
  return raw['inputSchema'] ?? raw['input_schema'] ?? raw['parameters'];
}

function declaredKind(raw: Record<string, unknown>): ToolKind {
  if (typeof raw['kind'] === 'string') return raw['kind'].toUpperCase() as ToolKind;
  const annotations = raw['annotations'];
  const readOnly = raw['readOnly'] === true || (isObject(annotations) && annotations['readOnlyHint'] === true);
  return readOnly ? 'OBSERVATION' : 'ACTION';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
