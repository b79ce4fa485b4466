/**
 * FastMCP's argument handling for the tools: `pre_parse_json`, then pydantic validation with its
 * literal error text (`1 validation error for add_memoryArguments …`), defaults applied and unknown
 * keys dropped (reference: graphiti-mcp-server.md §2).
 */
import type { ParamKind, ParamSpec } from './tool-catalog.js';

/** Python `repr()` of a JSON value, as pydantic prints `input_value`. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') {
    const useDouble = value.includes("'") && !value.includes('"');
    const q = useDouble ? '"' : "'";
    const body = value
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t')
      .replace(useDouble ? /(?!)/g : /'/g, "\\'");
    return `${q}${body}${q}`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** pydantic-core shortens long reprs to the first 25 and last 24 characters. */
function truncateRepr(repr: string): string {
  return repr.length > 50 ? `${repr.slice(0, 25)}...${repr.slice(-24)}` : repr;
}

interface LineError {
  loc: string;
  msg: string;
  type: string;
  input: unknown;
}

const PYDANTIC_DOCS = 'https://errors.pydantic.dev/2.11/v';

export function formatValidationError(model: string, errors: LineError[]): string {
  const head = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${model}`;
  const lines = errors.map(
    (e) =>
      `${e.loc}\n  ${e.msg} [type=${e.type}, input_value=${truncateRepr(pyRepr(e.input))}, input_type=${pyType(e.input)}]\n` +
      `    For further information visit ${PYDANTIC_DOCS}/${e.type}`,
  );
  return [head, ...lines].join('\n');
}

/**
 * FastMCP's `pre_parse_json`: a string given for a parameter not annotated as
 * plain `str` is json-decoded, unless it decodes to a str/int/float (bools are
 * ints in Python, so "true" stays a string too).
 */
function preParse(kind: ParamKind, value: unknown): unknown {
  if (kind === 'str' || typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean') return value;
    return parsed;
  } catch {
    return value;
  }
}

function validateParam(p: ParamSpec, value: unknown, errors: LineError[]): unknown {
  switch (p.kind) {
    case 'str':
      if (typeof value === 'string') return value;
      errors.push({ loc: p.name, msg: 'Input should be a valid string', type: 'string_type', input: value });
      return undefined;
    case 'optStr':
      if (value === null || typeof value === 'string') return value;
      errors.push({ loc: p.name, msg: 'Input should be a valid string', type: 'string_type', input: value });
      return undefined;
    case 'int': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'number') {
        if (Number.isInteger(value)) return value;
        errors.push({ loc: p.name, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input: value });
        return undefined;
      }
      if (typeof value === 'string') {
        if (/^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
        errors.push({ loc: p.name, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: value });
        return undefined;
      }
      errors.push({ loc: p.name, msg: 'Input should be a valid integer', type: 'int_type', input: value });
      return undefined;
    }
    case 'bool': {
      // pydantic's lax bool: true/false, 0/1, and the usual strings.
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1) return value === 1;
      if (typeof value === 'string' && /^(true|false|yes|no|on|off|1|0|t|f|y|n)$/i.test(value.trim())) return /^(true|yes|on|1|t|y)$/i.test(value.trim());
      errors.push({ loc: p.name, msg: 'Input should be a valid boolean', type: 'bool_type', input: value });
      return undefined;
    }
    case 'optStrOrStrList':
      // `str | list[str] | None`: a string stays a string.
      if (value === null || typeof value === 'string') return value;
      return validateParam({ ...p, kind: 'optStrList' }, value, errors);
    case 'strList':
    case 'optStrList': {
      if (value === null && p.kind === 'optStrList') return null;
      if (!Array.isArray(value)) {
        errors.push({ loc: p.name, msg: 'Input should be a valid list', type: 'list_type', input: value });
        return undefined;
      }
      value.forEach((item, i) => {
        if (typeof item !== 'string') errors.push({ loc: `${p.name}.${i}`, msg: 'Input should be a valid string', type: 'string_type', input: item });
      });
      return value;
    }
  }
}

export type ValidatedArgs = Record<string, unknown>;

/** Returns validated arguments (defaults applied, unknown keys dropped) or the FastMCP error text. */
export function validateArguments(
  tool: { params: ParamSpec[]; wire: string },
  args: Record<string, unknown>,
): { ok: true; args: ValidatedArgs } | { ok: false; message: string } {
  const errors: LineError[] = [];
  const out: ValidatedArgs = {};
  for (const p of tool.params) {
    if (!(p.name in args)) {
      if (p.required) errors.push({ loc: p.name, msg: 'Field required', type: 'missing', input: args });
      else out[p.name] = p.default ?? null;
      continue;
    }
    out[p.name] = validateParam(p, preParse(p.kind, args[p.name]), errors);
  }
  if (errors.length > 0) {
    return { ok: false, message: `Error executing tool ${tool.wire}: ${formatValidationError(`${tool.wire}Arguments`, errors)}` };
  }
  return { ok: true, args: out };
}
