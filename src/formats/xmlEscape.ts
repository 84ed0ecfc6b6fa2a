// Escaping for XML 1.0 output (text content and double-quoted attribute values).
//
// Why: the item package's XML form (docs/decisions.md, "Item package") and other small XML
// responses are written by hand; the point of this file is that every string, whatever it
// contains, yields a well-formed document that parses back to the same string.
//
// - `& < >` are always escaped (escaping `>` also covers `]]>` in text).
// - Attributes also escape `"` and the whitespace characters TAB, LF and CR as character
//   references, because a parser normalises literal ones to spaces (XML 1.0, 3.3.3).
// - Text escapes CR as `&#13;`, because a parser turns a literal CR into LF (XML 1.0, 2.11).
// - Characters XML 1.0 does not allow at all (C0 controls other than TAB/LF/CR, U+FFFE,
//   U+FFFF and unpaired surrogates; XML 1.0, 2.2 "Char") cannot be written even as
//   character references. They are REPLACED by U+FFFD (REPLACEMENT CHARACTER), so the loss
//   is visible rather than silent.

/** The character that stands in for characters XML 1.0 cannot carry. */
export const XML_REPLACEMENT_CHAR = '\uFFFD';

// Unpaired surrogates: a high surrogate not followed by a low one, or a low one not
// preceded by a high one. No `u` flag: we need to see UTF-16 code units.
const INVALID_CHAR_SOURCE =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]' +
  '|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

const INVALID_CHARS = new RegExp(INVALID_CHAR_SOURCE, 'g');
const TEXT_SPECIALS = new RegExp(`[&<>\\r]|${INVALID_CHAR_SOURCE}`, 'g');
const ATTR_SPECIALS = new RegExp(`[&<>"\\t\\n\\r]|${INVALID_CHAR_SOURCE}`, 'g');

const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function replaceSpecial(ch: string): string {
  return REPLACEMENTS[ch] ?? XML_REPLACEMENT_CHAR;
}

/** Escapes a string for use as XML character data (element content). */
export function escapeXmlText(s: string): string {
  return s.replace(TEXT_SPECIALS, replaceSpecial);
}

/** Escapes a string for use inside a double-quoted XML attribute value. */
export function escapeXmlAttr(s: string): string {
  return s.replace(ATTR_SPECIALS, replaceSpecial);
}

/** Replaces characters XML 1.0 cannot carry by U+FFFD; everything else is unchanged. */
export function replaceInvalidXmlChars(s: string): string {
  return s.replace(INVALID_CHARS, XML_REPLACEMENT_CHAR);
}

/** The first character XML 1.0 does not allow in a document, or -1 when there is none. */
export function indexOfInvalidXmlChar(s: string): number {
  const re = new RegExp(INVALID_CHAR_SOURCE);
  const m = re.exec(s);
  return m === null ? -1 : m.index;
}

// XML 1.0 (5th edition) NameStartChar / NameChar without ':' (an NCName), restricted to
// the Basic Multilingual Plane, which covers every name we write.
const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D' +
  '\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
// The ranges are XML 1.0's NameStartChar and NameChar (XML 1.0 §2.3), combining marks included on purpose.
// eslint-disable-next-line no-misleading-character-class
const NCNAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`);

/** True when `s` can be used as an element or attribute name without a prefix. */
export function isXmlNcName(s: string): boolean {
  return NCNAME.test(s);
}
