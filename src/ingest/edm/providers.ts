/**
 * The providers file: facts about the institutions that deliver records,
 * which EDM records do not carry (ids, logo, coordinates, sector, state,
 * e-mail), loaded by the operator (`ingest.providersFile`) to complete the
 * package's `provider-info`, `view.item.institution`, `sector_fct` and
 * `provider_fct_normdata` (spec 2.4). Format and example:
 * docs/edm-mapping.md, "The providers file"; fixtures/providers.example.json.
 *
 * An entry is found by the URI the record gives its data provider
 * (edm:dataProvider rdf:resource) or by the provider's name (the literal, or
 * the label of the provider's edm:Agent), compared without regard to case,
 * spacing or http/https; when entries share a name or URI, the first wins. The file is checked as a whole; every problem is
 * reported with its entry and field, so an operator can fix all in one go.
 */

export interface ProviderInfo {
  name: string;
  /** Other names records use for this provider. */
  aliases: string[];
  uri: string;
  providerId: string;
  providerDdbId: string;
  providerParentId: string;
  logo: string;
  latitude: string;
  longitude: string;
  /** Domain names as in provider-info (Museum, Bibliothek, ...). */
  domains: string[];
  /** DDB sector code, sec_01 .. sec_07, or "". */
  sector: string;
  state: string;
  email: string;
}

/** The DDB sectors (Sparten, http://ddb.vocnet.org/sparte/) and the domain names of provider-info. */
const SECTORS: ReadonlyArray<{ code: string; de: string; en: string }> = [
  { code: 'sec_01', de: 'Archiv', en: 'archive' },
  { code: 'sec_02', de: 'Bibliothek', en: 'library' },
  { code: 'sec_03', de: 'Denkmalpflege', en: 'monument' },
  { code: 'sec_04', de: 'Forschung', en: 'research' },
  { code: 'sec_05', de: 'Mediathek', en: 'media' },
  { code: 'sec_06', de: 'Museum', en: 'museum' },
  { code: 'sec_07', de: 'Sonstige', en: 'other' },
];

const sectorOf = (value: string) => {
  const v = value.trim().toLowerCase();
  return SECTORS.find((s) => s.code === v || s.de.toLowerCase() === v || s.en === v);
};

/** The sector code of a provider-domain name or code (Museum, museum, sec_06), or undefined. */
export const sectorCodeOf = (value: string): string | undefined => sectorOf(value)?.code;

/** The domain name of a sector code ("" for none), for provider-info of records whose Agent names the sector. */
export const domainOfSector = (code: string): string => SECTORS.find((s) => s.code === code)?.de ?? '';

const normaliseName = (s: string): string => s.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
const normaliseUri = (s: string): string =>
  s
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();

export class ProviderDirectory {
  readonly entries: readonly ProviderInfo[];
  private readonly byName = new Map<string, ProviderInfo>();
  private readonly byUri = new Map<string, ProviderInfo>();
  private readonly byProviderId = new Map<string, ProviderInfo>();

  constructor(entries: readonly ProviderInfo[]) {
    this.entries = entries;
    for (const e of entries) {
      // First in file order wins: see readProvidersFile on shared names.
      for (const n of [e.name, ...e.aliases]) if (n && !this.byName.has(normaliseName(n))) this.byName.set(normaliseName(n), e);
      if (e.uri && !this.byUri.has(normaliseUri(e.uri))) this.byUri.set(normaliseUri(e.uri), e);
      if (e.providerId) this.byProviderId.set(e.providerId, e);
    }
  }

  /** The entry for a provider named and/or referenced so in a record; the URI wins. */
  find(ref: { name?: string; uri?: string }): ProviderInfo | undefined {
    return (
      (ref.uri ? this.byUri.get(normaliseUri(ref.uri)) : undefined) ?? (ref.name ? this.byName.get(normaliseName(ref.name)) : undefined)
    );
  }

  /** The entry whose provider-id is `id` (the parent named by provider-parent-id). */
  byId(id: string): ProviderInfo | undefined {
    return id ? this.byProviderId.get(id) : undefined;
  }
}

const FIELDS = ['name', 'aliases', 'uri', 'ids', 'logo', 'latitude', 'longitude', 'domains', 'sector', 'state', 'email', 'comment'];
const ID_FIELDS = ['provider-id', 'provider-ddb-id', 'provider-parent-id'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (v: unknown): string => JSON.stringify(v)?.slice(0, 60) ?? String(v);

/** Checks one entry; `problem(field, message)` records what is wrong. */
function readEntry(raw: unknown, problem: (field: string, message: string) => void): ProviderInfo | undefined {
  if (!isObject(raw)) {
    problem('', `must be an object such as {"name": "...", "uri": "https://..."}, got ${quote(raw)}`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!FIELDS.includes(key)) problem(key, `is not a known field; use one of ${FIELDS.join(', ')}`);
  }
  const text = (field: string): string => {
    const v = raw[field];
    if (v === undefined) return '';
    if (typeof v !== 'string') {
      problem(field, `must be a string, got ${quote(v)}`);
      return '';
    }
    return v.trim();
  };
  const list = (field: string): string[] => {
    const v = raw[field];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.trim() === '')) {
      problem(field, `must be a list of non-empty strings, got ${quote(v)}`);
      return [];
    }
    return v.map((x: string) => x.trim());
  };
  const coordinate = (field: string, limit: number): string => {
    const v = raw[field];
    if (v === undefined) return '';
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    const n = Number(s);
    if (!/^-?\d+(\.\d+)?$/.test(s) || Math.abs(n) > limit) {
      problem(field, `must be a decimal number between -${limit} and ${limit} (WGS84 degrees, e.g. 49.4478), got ${quote(v)}`);
      return '';
    }
    return s;
  };

  const name = text('name');
  const uri = text('uri');
  const aliases = list('aliases');
  if (name === '' && uri === '') problem('name', 'is missing: give the provider\'s "name" (as records write it) and/or its "uri"');
  if (uri !== '' && !/^https?:\/\/[^\s/]+\S*$/i.test(uri))
    problem('uri', `must be an absolute http(s) URI without spaces, got ${quote(uri)}`);
  const email = text('email');
  if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    problem('email', `must be an e-mail address such as info@example.org, got ${quote(email)}`);

  const ids: Record<string, string> = {};
  const rawIds = raw.ids;
  if (rawIds !== undefined && !isObject(rawIds)) problem('ids', `must be an object with ${ID_FIELDS.join(', ')}, got ${quote(rawIds)}`);
  if (isObject(rawIds)) {
    for (const [key, v] of Object.entries(rawIds)) {
      if (!ID_FIELDS.includes(key)) problem(`ids.${key}`, `is not a known id; use ${ID_FIELDS.join(', ')}`);
      else if (typeof v !== 'string' || v.trim() === '') {
        problem(`ids.${key}`, `must be a non-empty string (write ids in quotes, so leading zeros stay), got ${quote(v)}`);
      } else ids[key] = v.trim();
    }
  }

  const domains = list('domains').map((d) => {
    const s = sectorOf(d);
    if (s === undefined) problem('domains', `has the unknown domain ${quote(d)}; use ${SECTORS.map((x) => x.de).join(', ')}`);
    return s?.de ?? d;
  });
  const sectorText = text('sector');
  let sector = '';
  if (sectorText !== '') {
    const s = sectorOf(sectorText);
    if (s === undefined)
      problem(
        'sector',
        `must be a sector code sec_01 .. sec_07 or a domain name (${SECTORS.map((x) => x.de).join(', ')}), got ${quote(sectorText)}`,
      );
    sector = s?.code ?? '';
  } else if (domains[0] !== undefined) {
    sector = sectorOf(domains[0])?.code ?? '';
  }
  return {
    name,
    aliases,
    uri,
    providerId: ids['provider-id'] ?? '',
    providerDdbId: ids['provider-ddb-id'] ?? '',
    providerParentId: ids['provider-parent-id'] ?? '',
    logo: text('logo'),
    latitude: coordinate('latitude', 90),
    longitude: coordinate('longitude', 180),
    domains: domains.length > 0 ? domains : sector ? [domainOfSector(sector)] : [],
    sector,
    state: text('state'),
    email,
  };
}

/** Reads and checks a providers file; throws an Error naming every entry and field to fix. */
export function readProvidersFile(text: string): ProviderDirectory {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON (${(e as Error).message}); the file must be {"providers": [ {...}, ... ]}`, { cause: e });
  }
  const list = Array.isArray(parsed) ? parsed : isObject(parsed) ? parsed.providers : undefined;
  if (!Array.isArray(list)) throw new Error('expected {"providers": [ {...}, ... ]} (or a JSON array of provider entries)');
  if (isObject(parsed)) {
    const extra = Object.keys(parsed).filter((k) => k !== 'providers' && k !== 'comment');
    if (extra.length > 0) throw new Error(`unknown top-level key ${quote(extra[0])}; only "providers" (and "comment") are allowed`);
  }

  const problems: string[] = [];
  const entries: Array<ProviderInfo | undefined> = [];
  const seen = new Map<string, number>();
  list.forEach((raw, index) => {
    const label = isObject(raw) && typeof raw.name === 'string' && raw.name.trim() ? ` ("${raw.name.trim().slice(0, 60)}")` : '';
    const where = `entry ${index + 1}${label}`;
    const entry = readEntry(raw, (field, message) => problems.push(field ? `${where}: "${field}" ${message}` : `${where} ${message}`));
    if (entry === undefined) return;
    const keys = [
      ...[entry.name, ...entry.aliases].filter(Boolean).map((n) => `name ${quote(n)}`),
      ...(entry.uri ? [`uri ${quote(entry.uri)}`] : []),
    ];
    const normalised = keys.map((k) => (k.startsWith('uri') ? `uri ${normaliseUri(entry.uri)}` : normaliseName(k)));
    normalised.forEach((key, i) => {
      const other = seen.get(key);
      if (other === undefined) seen.set(key, index);
      // Real institutions share a name and website with their parent (4XUD...: the Goethe-Haus
      // and the Hochstift); their provider-ids tell them apart, and the first entry is the
      // one records name. Without ids a shared name is a mistake.
      else if (other !== index && !(entry.providerId && entries[other]?.providerId)) {
        problems.push(
          `${where}: ${keys[i]} is also given by entry ${other + 1}; give both entries an "ids": {"provider-id": ...} if they are different institutions, else merge them`,
        );
      }
    });
    entries[index] = entry;
  });
  if (problems.length > 0) throw new Error(problems.join('; '));
  return new ProviderDirectory(entries.filter((e): e is ProviderInfo => e !== undefined));
}
