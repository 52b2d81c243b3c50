import { parseDocument } from 'yaml';
import type { ToolInputSchema, ToolKind } from '@mobileclaw/domain';
import { errorMessage } from './error-message';
import { noSkillRequirements, type SkillRequirements } from './skill-requirements';

/**
 * A SKILL.md file in the Agent Skills format: a YAML front matter between two `---` lines, then the
 * Markdown body (the instructions). Front-matter keys read:
 *
 * - `name` (required): a non-empty string; the tool name is its sanitised form (`sanitizeToolName`).
 * - `description` (required): a non-empty string of at most 1,024 characters (the format's bound): what
 *   the planner sees before activating the skill.
 * - `metadata` (optional): a mapping. In it, `mobileclaw` (a mapping, or that mapping as a JSON string
 *   for tools that want every metadata value a string) may hold `kind` (`OBSERVATION` | `ACTION`,
 *   default `OBSERVATION`), `inputSchema` (a JSON Schema object, `type: object`, at most 16 KiB as
 *   JSON) and `requires` (`env`, `bins`, `anyBins`, `os`: each a string or a list of strings). The
 *   `openclaw` and `clawdbot` mappings' `requires` and `os` count too (see `skill-requirements.ts`).
 *
 * Other keys (`license`, `compatibility`, `allowed-tools`, …) are allowed and ignored.
 */

/** The longest description, in characters (the Agent Skills format's bound). */
export const SKILL_DESCRIPTION_MAX_LENGTH = 1024;
/** The largest declared input schema, in bytes of its JSON. */
export const SKILL_INPUT_SCHEMA_MAX_BYTES = 16 * 1024;
/** How many YAML aliases a front matter may expand: a few are normal, thousands are an expansion bomb. */
const MAX_ALIAS_COUNT = 100;
/** Metadata namespaces whose `requires` / `os` are read, in this order. */
const REQUIREMENT_NAMESPACES = ['mobileclaw', 'openclaw', 'clawdbot'] as const;

/** What a SKILL.md's front matter declares, validated. */
export interface SkillDefinition {
  /** The `name` as written, trimmed (not yet sanitised). */
  name: string;
  /** The `description`, trimmed. */
  description: string;
  kind: ToolKind;
  /** The declared schema, else `{type: 'object', properties: {}}`. */
  inputSchema: ToolInputSchema;
  requirements: SkillRequirements;
}

/** A parsed SKILL.md. */
export interface SkillFile {
  definition: SkillDefinition;
  /** The Markdown after the front matter, without leading blank lines and trailing white space. */
  body: string;
}

/** Why a SKILL.md is not a valid skill; the message says what and where, for the person who wrote it. */
export class SkillFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkillFileError';
  }
}

/**
 * Parses and validates the text of a SKILL.md.
 * @throws SkillFileError when it has no front matter, the front matter is not valid YAML (duplicate
 *   keys and alias bombs included) or not a mapping, or a key above is missing or malformed.
 */
export function parseSkillFile(text: string): SkillFile {
  const { yaml, body } = splitFrontMatter(text);
  const frontMatter = parseYaml(yaml);
  if (!isMapping(frontMatter)) throw new SkillFileError('the front matter must be a mapping of keys to values');
  const name = requiredString(frontMatter, 'name');
  const description = requiredString(frontMatter, 'description');
  if (description.length > SKILL_DESCRIPTION_MAX_LENGTH) {
    throw new SkillFileError(`\`description\` has ${description.length} characters; at most ${SKILL_DESCRIPTION_MAX_LENGTH} are allowed`);
  }
  const metadata = frontMatter['metadata'];
  if (metadata !== undefined && metadata !== null && !isMapping(metadata)) throw new SkillFileError('`metadata` must be a mapping');
  const own = ownMetadata(metadata ?? undefined);
  return {
    definition: {
      name,
      description,
      kind: kindOf(own),
      inputSchema: inputSchemaOf(own),
      requirements: requirementsOf(metadata ?? undefined),
    },
    body: body.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd(),
  };
}

/**
 * Splits off the front matter: the first line must be `---`, and the next `---` (or `...`) line closes it.
 * @throws SkillFileError when there is no such front matter.
 */
export function splitFrontMatter(text: string): { yaml: string; body: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let lineStart = 0;
  let yamlStart = -1;
  while (lineStart <= source.length) {
    const newline = source.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? source.length : newline;
    const line = source.slice(lineStart, lineEnd).replace(/\r$/, '').trimEnd();
    const next = newline === -1 ? source.length + 1 : newline + 1;
    if (yamlStart === -1) {
      if (line !== '---') throw new SkillFileError('SKILL.md must start with a YAML front matter: a `---` line, the keys, another `---` line');
      yamlStart = next;
    } else if (line === '---' || line === '...') {
      return { yaml: source.slice(yamlStart, lineStart), body: source.slice(Math.min(next, source.length)) };
    }
    lineStart = next;
  }
  throw new SkillFileError('the front matter has no closing `---` line');
}

/** Parses the front matter's YAML; positions in errors are lines of the file (the YAML starts on line 2). */
function parseYaml(yaml: string): unknown {
  const document = parseDocument(yaml, { uniqueKeys: true, prettyErrors: true });
  const [error] = document.errors;
  if (error) {
    const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    const position = error.linePos?.[0];
    const where = position ? ` at line ${position.line + 1}, column ${position.col}` : '';
    throw new SkillFileError(`invalid YAML in the front matter${where}: ${reason}`);
  }
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    throw new SkillFileError(`invalid YAML in the front matter: ${errorMessage(err)}`);
  }
}

function requiredString(frontMatter: Record<string, unknown>, key: string): string {
  const value = frontMatter[key];
  if (value === undefined || value === null) throw new SkillFileError(`\`${key}\` is missing`);
  if (typeof value !== 'string') throw new SkillFileError(`\`${key}\` must be a string, not ${describe(value)}`);
  const trimmed = value.trim();
  if (trimmed === '') throw new SkillFileError(`\`${key}\` is empty`);
  return trimmed;
}

/** `metadata.mobileclaw` as a mapping (decoding the JSON-string form), or undefined. */
function ownMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return namespace(metadata, 'mobileclaw');
}

function namespace(metadata: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  let value = metadata?.[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new SkillFileError(`\`metadata.${key}\` is a string but not JSON`);
    }
  }
  if (!isMapping(value)) throw new SkillFileError(`\`metadata.${key}\` must be a mapping`);
  return value;
}

function kindOf(own: Record<string, unknown> | undefined): ToolKind {
  const kind = own?.['kind'];
  if (kind === undefined) return 'OBSERVATION';
  if (kind === 'OBSERVATION' || kind === 'ACTION') return kind;
  throw new SkillFileError(`\`metadata.mobileclaw.kind\` must be OBSERVATION or ACTION, not ${describe(kind)}`);
}

function inputSchemaOf(own: Record<string, unknown> | undefined): ToolInputSchema {
  const schema = own?.['inputSchema'];
  if (schema === undefined) return { type: 'object', properties: {} };
  if (!isMapping(schema) || schema['type'] !== 'object') throw new SkillFileError('`metadata.mobileclaw.inputSchema` must be a JSON Schema object with `type: object`');
  const properties = schema['properties'];
  if (properties !== undefined && !isMapping(properties)) throw new SkillFileError('`metadata.mobileclaw.inputSchema.properties` must be a mapping');
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > SKILL_INPUT_SCHEMA_MAX_BYTES) throw new SkillFileError(`\`metadata.mobileclaw.inputSchema\` is ${bytes} bytes as JSON; at most ${SKILL_INPUT_SCHEMA_MAX_BYTES} are allowed`);
  return schema as ToolInputSchema;
}

function requirementsOf(metadata: Record<string, unknown> | undefined): SkillRequirements {
  const requirements = noSkillRequirements();
  for (const key of REQUIREMENT_NAMESPACES) {
    const space = namespace(metadata, key);
    if (!space) continue;
    const declared = space['requires'];
    if (declared !== undefined && declared !== null && !isMapping(declared)) throw new SkillFileError(`\`metadata.${key}.requires\` must be a mapping`);
    const requires = isMapping(declared) ? declared : undefined;
    const where = `metadata.${key}.requires`;
    addAll(requirements.env, stringList(requires?.['env'], `${where}.env`));
    addAll(requirements.bins, stringList(requires?.['bins'], `${where}.bins`));
    addAll(requirements.anyBins, stringList(requires?.['anyBins'], `${where}.anyBins`));
    addAll(requirements.os, stringList(requires?.['os'] ?? space['os'], `${where}.os`));
  }
  return requirements;
}

function stringList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item.trim() !== '')) {
    throw new SkillFileError(`\`${where}\` must be a non-empty string or a list of them`);
  }
  return list.map((item: string) => item.trim());
}

function addAll(target: string[], items: readonly string[]): void {
  for (const item of items) if (!target.includes(item)) target.push(item);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
