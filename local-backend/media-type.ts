// Strict media type parsing (RFC 9110 §8.3.1): exactly one `type/subtype` followed by `;name=value`
// parameters. Anything else (a list of types, stray commas, bad characters) is not a media type.

export interface MediaType {
  /** Lowercase `type/subtype`. */
  essence: string;
  /** Parameter names lowercase, values as given (unquoted). */
  parameters: [string, string][];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const QUOTED_TEXT = /^[\t\x20-\x7e\x80-\xff]$/;

/** Null when `text` is not exactly one well-formed media type. */
export function parseMediaType(text: string): MediaType | null {
  const [head, ...rest] = splitParameters(text.trim()) ?? [];
  if (head === undefined) return null;
  const slash = head.indexOf("/");
  const type = head.slice(0, slash);
  const subtype = head.slice(slash + 1).trimEnd();
  if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  const parameters: [string, string][] = [];
  for (const raw of rest) {
    const parameter = raw.trim();
    if (parameter === "") continue;
    const equals = parameter.indexOf("=");
    const name = parameter.slice(0, equals);
    const value = unquote(parameter.slice(equals + 1));
    if (equals < 1 || !TOKEN.test(name) || value === null) return null;
    parameters.push([name.toLowerCase(), value]);
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters };
}

export function formatMediaType({ essence, parameters }: MediaType): string {
  const quote = (value: string) =>
    TOKEN.test(value) ? value : `"${value.replace(/["\\]/g, "\\$&")}"`;
  return [essence, ...parameters.map(([name, value]) => `${name}=${quote(value)}`)].join("; ");
}

/** Splits at the semicolons outside quoted strings; null when a quoted string is left open. */
function splitParameters(text: string): string[] | null {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (quoted && text[i] === "\\") i++;
    else if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text[i] === ";") {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) return null;
  parts.push(text.slice(start));
  return parts;
}

/** A token, or a quoted-string's content; null when it is neither. */
function unquote(value: string): string | null {
  if (TOKEN.test(value)) return value;
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return null;
  let out = "";
  for (let i = 1; i < value.length - 1; i++) {
    const escaped = value[i] === "\\";
    const char = escaped ? value[++i] : value[i];
    if (
      char === undefined ||
      i === value.length - 1 ||
      (!escaped && char === '"') ||
      !QUOTED_TEXT.test(char)
    )
      return null;
    out += char;
  }
  return out;
}
