/**
 * The YAML engine for frontmatter: gray-matter with JavaScript engines disabled and js-yaml's safe
 * schema (no code-executing types), with a retry that quotes `key: a: b` values.
 */
// gray-matter's own YAML engine (js-yaml 3), imported by name so the plugin's single-file bundle
// carries it: resolving it at run time beside gray-matter failed in the plugin cache copy.
import * as jsYamlModule from 'js-yaml';

interface YamlMark {
  line: number;
  column: number;
}
interface JsYaml {
  safeLoad?: (input: string, options?: { schema?: unknown }) => unknown;
  load: (input: string, options?: { schema?: unknown }) => unknown;
  DEFAULT_SAFE_SCHEMA?: unknown;
  DEFAULT_SCHEMA?: unknown;
}

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as JsYaml;

/** Loads YAML without any code-executing type. */
function loadYamlSafely(source: string): unknown {
  if (jsYaml.DEFAULT_SAFE_SCHEMA !== undefined && typeof jsYaml.safeLoad === 'function') {
    return jsYaml.safeLoad(source, { schema: jsYaml.DEFAULT_SAFE_SCHEMA });
  }
  // js-yaml 4: `load` is safe by default (no js types exist any more).
  return jsYaml.load(source, { schema: jsYaml.DEFAULT_SCHEMA });
}

export class JsFrontmatterError extends Error {
  constructor(readonly language: string) {
    super(`frontmatter language ${language} is not allowed (it would run code); use YAML`);
    this.name = 'JsFrontmatterError';
  }
}

const refuse = (language: string) => ({
  parse: (): object => {
    throw new JsFrontmatterError(language);
  },
});

export const JS_LANGUAGES = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson']);
export const ALLOWED_LANGUAGES = new Set(['', 'yaml', 'yml', 'json']);

const PLAIN_PAIR = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:[ \t]+([^\s"'[\]{}|>&*!#%@`-].*)$/;

/**
 * PAI and hand-written frontmatter contain top-level values such as
 * `description: Fix: the parser`, which YAML rejects ("mapping values are not allowed").
 * When strict parsing fails, such values (top-level, unquoted, containing ": ") are
 * quoted and the block is parsed again — still by the YAML parser, never by hand.
 * Returns the repaired block and the 1-based line numbers changed (same line count).
 */
function quoteColonValues(block: string): { text: string; lines: number[] } {
  const lines = block.split('\n');
  const changed: number[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const m = PLAIN_PAIR.exec(lines[i] ?? '');
    if (m === null) continue;
    const value = (m[2] ?? '').trimEnd();
    if (!/:(?:[ \t]|$)/.test(value)) continue;
    lines[i] = `${m[1]}: ${JSON.stringify(value)}`;
    changed.push(i + 1);
  }
  return { text: lines.join('\n'), lines: changed };
}

/** YAML engine with the colon-value fallback; notes go to `warnings`. */
function yamlEngine(warnings: string[]) {
  return {
    parse: (block: string): object => {
      try {
        return loadYamlSafely(block) as object;
      } catch (error) {
        const repaired = quoteColonValues(block);
        if (repaired.lines.length === 0) throw error;
        let data: unknown;
        try {
          data = loadYamlSafely(repaired.text);
        } catch {
          throw error; // report the original problem, at its original place
        }
        warnings.push(`frontmatter line ${repaired.lines.join(", ")}: a value containing ": " was read as text (quote it to make the YAML valid)`);
        return data as object;
      }
    },
  };
}

/** Fresh options on every call: gray-matter only caches option-less calls. */
export function matterOptions(warnings: string[]) {
  return {
    excerpt: false,
    language: 'yaml',
    engines: {
      yaml: yamlEngine(warnings),
      json: { parse: (s: string): object => JSON.parse(s) as object },
      js: refuse('js'),
      javascript: refuse('javascript'),
      coffee: refuse('coffee'),
      coffeescript: refuse('coffeescript'),
      cson: refuse('cson'),
    },
  };
}

export function yamlErrorMessage(error: unknown): string {
  const e = error as { name?: unknown; reason?: unknown; mark?: YamlMark; message?: unknown };
  if (typeof e.reason === 'string' && e.mark !== undefined && typeof e.mark.line === 'number') {
    // The block handed to js-yaml starts with the rest of the opening `---` line, so its
    // line numbers are the file's line numbers.
    return `YAML error in frontmatter: ${e.reason} at line ${e.mark.line + 1}, column ${e.mark.column + 1}`;
  }
  if (error instanceof SyntaxError) return `JSON error in frontmatter: ${error.message}`;
  const first = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
  return `frontmatter error: ${first}`;
}

