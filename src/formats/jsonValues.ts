// Small helpers shared by the JSON side of the item package mappings (cortexToJson.ts,
// packageJson.ts).
//
// Why: both sides must agree on what "whitespace-only text" is (docs/decisions.md,
// "The JSON form": it is not emitted and carries no meaning), and both build objects from keys
// that come from documents, where `__proto__` is an ordinary key.

/** Whitespace as XML defines it (space, TAB, LF, CR); JS trim() would also strip NBSP. */
export function isXmlWhitespace(s: string): boolean {
  return /^[ \t\n\r]*$/.test(s);
}

/** Sets an own property even for the key `__proto__`, as JSON.parse does. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}
