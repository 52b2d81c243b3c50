import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isPair, isScalar, isSeq, parseDocument, visit, type Node as YamlNode } from 'yaml';

/** One problem of a configuration file: the key path (`mcpServers.erp.url`, `tokens[1].scopes`; `''` for the whole file) and what is wrong. */
export interface ConfigFileProblem {
  path: string;
  message: string;
}

/** `${NAME}` in a secret value: replaced by the environment variable `NAME`. */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * A configuration file's absolute path (`path` is absolute, or relative to `cwd`) and its text, or its
 * absolute path and the problem `cannot be read (<errno code>)`.
 */
export function readConfigFile(path: string, cwd: string): { file: string; text: string } | { file: string; problems: ConfigFileProblem[] } {
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (err) {
    return { file, problems: [{ path: '', message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` }] };
  }
}

/**
 * The data of a YAML or JSON configuration file's text (JSON is read as YAML 1.2, so a key given
 * twice is refused in both; an empty file is `{}`), or its problems: a syntax error, or every key
 * given twice in one mapping (which JSON parsers would keep the last of, silently).
 */
export function readConfigText(text: string): { raw: unknown } | { problems: ConfigFileProblem[] } {
  const document = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax !== undefined) return { problems: [{ path: '', message: `not valid YAML or JSON: ${syntax.message}` }] };
  const duplicates = duplicateKeys(document.contents);
  if (duplicates.length > 0) return { problems: duplicates.map((key) => ({ path: key, message: 'given twice' })) };
  try {
    return { raw: document.toJS() ?? {} };
  } catch {
    // The one failure here is an alias without its anchor (`*name`): its message quotes the value,
    // which may be a token pasted unquoted, so it is not passed on.
    return { problems: [{ path: '', message: 'not valid YAML or JSON: a value starting with * is read as an alias of an anchor that is not set; quote the value' }] };
  }
}

/** `value` with every `${NAME}` replaced from `env`; an unset one is a problem at `at` (the value itself is never reported). */
export function resolveEnvReferences(at: string, value: string, env: Record<string, string | undefined>, problems: ConfigFileProblem[]): string {
  return value.replace(ENV_REFERENCE, (_, name: string) => {
    const resolved = env[name];
    if (resolved === undefined) {
      problems.push({ path: at, message: `environment variable ${name} is not set` });
      return '';
    }
    return resolved;
  });
}

/** `mcpServers.erp.url`; an array index as `[2]`. */
export function configKeyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text === '' ? String(part) : `${text}.${String(part)}`), '');
}

/** The key paths of keys given twice in one mapping (`tokens[0].token`: list items by their index). */
function duplicateKeys(contents: YamlNode | null): string[] {
  const found: string[] = [];
  if (contents === null) return found;
  const keyOf = (pair: { key: unknown }) => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key));
  visit(contents, {
    Map(_, map, ancestors) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = keyOf(pair);
        if (seen.has(key)) found.push(configKeyPath([...pathOf(ancestors, map), key]));
        seen.add(key);
      }
    },
  });
  return found;

  /** The keys and list indexes that lead from the document to `node`, through its `ancestors` (outermost first). */
  function pathOf(ancestors: readonly unknown[], node: unknown): PropertyKey[] {
    const chain = [...ancestors, node];
    return chain.flatMap((each, at): PropertyKey[] => {
      if (isPair(each)) return [keyOf(each)];
      if (isSeq(each)) return [each.items.indexOf(chain[at + 1] as never)];
      return [];
    });
  }
}
