/**
 * Reading the JSON form of an item package (src/formats/cortexToJson.ts) for the pages,
 * in both generations of real packages: attributes are `@name` in the older (NF42…,
 * goethe.json) and plain children `name` in the newer (bare_id.json), a value is text,
 * `{$: text, @resource}` or `{content, resource, …}`, a repeated element is an array and a
 * single one is not. Nothing here throws on an unexpected shape: it reads as absent.
 */
export type Obj = Record<string, unknown>;

export function objectOf(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** A repeated element is an array, a single one is not, an absent one undefined or null. */
export function listOf(value: unknown): readonly unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** An attribute (or, in the newer generation, a child of that name) of an element. */
export function attr(element: unknown, name: string): string {
  const o = objectOf(element);
  if (o === undefined) return '';
  return textOf(o[`@${name}`] ?? o[name]);
}

/** The text of a value: a string, a number, `{$: …}`, `{content: …}` or `{#text: …}`; '' otherwise. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const o = objectOf(value);
  if (o === undefined) return '';
  for (const key of ['$', 'content', '#text']) {
    const v = o[key];
    if (typeof v === 'string') return v;
  }
  return '';
}

/** The texts of a value that may be repeated, empty ones left out. */
export function textsOf(value: unknown): string[] {
  return listOf(value)
    .map(textOf)
    .filter((t) => t.trim() !== '');
}

/** An http(s) URL as given, or '' for anything else (`javascript:` and the like are never linked). */
export function webUrl(value: string): string {
  return /^https?:\/\/[^\s"<>]+$/i.test(value.trim()) ? value.trim() : '';
}
