/**
 * Synthetic item packages as cortex XML, shaped on the real package
 * fixtures/items/cortex/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR.xml: properties, the
 * EDM (Aggregation, Agents, WebResource, ProvidedCHO with the hierarchy fields,
 * Place), indexing-profile facets, preview, view fields, the source record as
 * escaped XML (metadata-record), provider and aggregator info, binaries.
 *
 * Item i is a pure function of (seed, i) and the forest plan, so items can be
 * written by any number of threads in any order. Target sizes are drawn
 * between 10.6 KB and 60 KB, skewed to the small end; the METS file list in the
 * metadata-record makes up the difference, as page lists do in real packages of
 * digitised books and files. The parts that are always there make the smallest
 * ~11.7 KB; at 100,000 items the median is ~21 KB, the mean ~27 KB.
 */
import { dayNumber } from '../../src/ingest/edm/timeVocabulary.js';
import { Kind, type Forest } from './forest.js';
import { personId, type PersonGenerator } from './persons.js';
import { mix32, Rng, Zipf } from './rng.js';

const STREAM_ID = 3;
const STREAM_ITEM = 4;
const STREAM_TREE_META = 5;

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * 32 base32 characters like a DDB item id. The first 32 bits are a bijection of the
 * index (so ids never collide), the other 128 bits come from the seeded generator.
 */
export function itemId(seed: number, index: number): string {
  const w0 = mix32((index ^ mix32(seed ^ 0x1d1d1d1d)) >>> 0);
  const rng = Rng.for(seed, STREAM_ID, index);
  const w1 = rng.u32();
  let id = '';
  for (let c = 0; c < 6; c++) id += B32[(w0 >>> (c * 5)) & 31];
  id += B32[((w0 >>> 30) | ((w1 & 7) << 2)) & 31];
  for (let c = 7; c < 32; c++) id += B32[rng.int(32)];
  return id;
}

const ITEM_URI = 'http://www.deutsche-digitale-bibliothek.de/item/';

const ESC = /[&<>"]/;
export function esc(s: string): string {
  if (!ESC.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
/** Text inside the escaped source record: escaped once for the inner XML, once for the outer. */
const esc2 = (s: string) => esc(esc(s));

function b32Of(text: string): string {
  const rng = new Rng(mix32([...text].reduce((h, c) => mix32(h ^ c.codePointAt(0)!), 0x811c9dc5)));
  let id = '';
  for (let c = 0; c < 32; c++) id += B32[rng.int(32)];
  return id;
}

interface Institution {
  name: string;
  abbr: string;
  url: string;
  city: string;
  lat: number;
  long: number;
  sector: 1 | 2 | 6;
  domain: string;
  aggregator: number;
  parent: string;
  ddbId: string;
  providerId: string;
  host: string;
}

const SECTOR_LABEL = { 1: 'Archiv', 2: 'Bibliothek', 6: 'Museum' } as const;

function institution(
  name: string,
  abbr: string,
  url: string,
  city: string,
  lat: number,
  long: number,
  sector: 1 | 2 | 6,
  aggregator: number,
  parent: string,
): Institution {
  const h = mix32(name.length * 7919 + name.charCodeAt(0) * 31 + name.charCodeAt(name.length - 1));
  return {
    name,
    abbr,
    url,
    city,
    lat,
    long,
    sector,
    aggregator,
    parent,
    domain: SECTOR_LABEL[sector],
    ddbId: b32Of(name),
    providerId: String(h % 100_000_000).padStart(8, '0'),
    host: url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/.*$/, ''),
  };
}

const AGGREGATORS = [
  { name: 'zvdd – Zentrales Verzeichnis Digitalisierter Drucke', url: 'http://www.zvdd.de', domain: 'Bibliothek' },
  { name: 'Archivportal-D', url: 'https://www.archivportal-d.de', domain: 'Archiv' },
  { name: 'museum-digital', url: 'https://www.museum-digital.de', domain: 'Museum' },
].map((a) => ({ ...a, ddbId: b32Of(a.name), id: String(mix32(a.name.length * 131) % 100_000_000).padStart(8, '0') }));

const LIBRARIES = [
  institution('Bayerische Staatsbibliothek', 'BSB', 'https://www.bsb-muenchen.de', 'München', 48.1475, 11.5806, 2, 0, 'Freistaat Bayern'),
  institution(
    'Staatsbibliothek zu Berlin – Preußischer Kulturbesitz',
    'SBB',
    'https://staatsbibliothek-berlin.de',
    'Berlin',
    52.5077,
    13.3705,
    2,
    0,
    'Stiftung Preußischer Kulturbesitz',
  ),
  institution(
    'Sächsische Landesbibliothek – Staats- und Universitätsbibliothek Dresden',
    'SLUB',
    'https://www.slub-dresden.de',
    'Dresden',
    51.0286,
    13.7365,
    2,
    0,
    'Freistaat Sachsen',
  ),
  institution(
    'Niedersächsische Staats- und Universitätsbibliothek Göttingen',
    'SUB',
    'http://www.sub.uni-goettingen.de',
    'Göttingen',
    51.5401,
    9.9343,
    2,
    0,
    'Georg-August-Universität Göttingen',
  ),
  institution(
    'Universitätsbibliothek Heidelberg',
    'UBH',
    'https://www.ub.uni-heidelberg.de',
    'Heidelberg',
    49.4093,
    8.7059,
    2,
    0,
    'Universität Heidelberg',
  ),
  institution(
    'Herzogin Anna Amalia Bibliothek',
    'HAAB',
    'https://www.klassik-stiftung.de',
    'Weimar',
    50.9782,
    11.3315,
    2,
    0,
    'Klassik Stiftung Weimar',
  ),
];
const ARCHIVES = [
  institution(
    'Landesarchiv Baden-Württemberg, Hauptstaatsarchiv Stuttgart',
    'HStAS',
    'https://www.landesarchiv-bw.de',
    'Stuttgart',
    48.7794,
    9.1879,
    1,
    1,
    'Landesarchiv Baden-Württemberg',
  ),
  institution('Bundesarchiv', 'BArch', 'https://www.bundesarchiv.de', 'Koblenz', 50.3442, 7.5868, 1, 1, 'Bundesrepublik Deutschland'),
  institution(
    'Hessisches Staatsarchiv Marburg',
    'HStAM',
    'https://landesarchiv.hessen.de',
    'Marburg',
    50.8093,
    8.7669,
    1,
    1,
    'Hessisches Landesarchiv',
  ),
  institution('Stadtarchiv Worms', 'StadtA WO', 'https://www.worms.de', 'Worms', 49.6313, 8.3653, 1, 1, 'Stadt Worms'),
  institution(
    'Deutsches Literaturarchiv Marbach',
    'DLA',
    'https://www.dla-marbach.de',
    'Marbach am Neckar',
    48.9333,
    9.2599,
    1,
    1,
    'Deutsche Schillergesellschaft',
  ),
];
const MUSEUMS = [
  institution(
    'Germanisches Nationalmuseum',
    'GNM',
    'https://www.gnm.de',
    'Nürnberg',
    49.448,
    11.0757,
    6,
    2,
    'Stiftung Germanisches Nationalmuseum',
  ),
  institution(
    'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
    'FDH',
    'https://frankfurter-goethe-haus.de',
    'Frankfurt am Main',
    50.1112,
    8.6778,
    6,
    2,
    'Freies Deutsches Hochstift',
  ),
  institution('Stiftung Stadtmuseum Berlin', 'SMB', 'https://www.stadtmuseum.de', 'Berlin', 52.517, 13.4089, 6, 2, 'Land Berlin'),
];

const LICENSES = [
  {
    uri: 'http://creativecommons.org/publicdomain/mark/1.0/',
    label: 'Weltweit frei von bekannten urheberrechtlichen Einschränkungen',
    group: 'rights_001',
    img: 'publicdomain.large.png',
  },
  {
    uri: 'http://creativecommons.org/licenses/by-sa/4.0/',
    label: 'Namensnennung – Weitergabe unter gleichen Bedingungen',
    group: 'rights_002',
    img: 'ccbysa.png',
  },
  {
    uri: 'http://creativecommons.org/licenses/by-nc-sa/4.0/',
    label: 'Namensnennung – Nicht-kommerziell – Weitergabe unter gleichen Bedingungen',
    group: 'rights_003',
    img: 'ccbyncsa.png',
  },
  {
    uri: 'http://www.deutsche-digitale-bibliothek.de/lizenzen/rv-fz/',
    label: 'Rechte vorbehalten – Freier Zugang',
    group: 'rights_004',
    img: 'rv-fz.png',
  },
];

const TOPICS = [
  'Naturgeschichte',
  'Landwirtschaft',
  'Kirchenwesen',
  'Schulwesen',
  'Bauwesen',
  'Militärwesen',
  'Handel und Gewerbe',
  'Armenwesen',
  'Forstwirtschaft',
  'Verwaltung',
  'Justiz',
  'Steuern und Abgaben',
  'Korrespondenz',
  'Rechnungen',
  'Protokolle',
  'Urkunden',
  'Karten und Pläne',
  'Personalangelegenheiten',
  'Vereine',
  'Theater',
  'Musik',
  'Dichtkunst',
  'Geschichte',
  'Reisen',
  'Botanik',
  'Arzneikunde',
  'Philosophie',
  'Theologie',
  'Rechtswissenschaft',
  'Mathematik',
  'Baukunst',
  'Bergbau',
  'Eisenbahnwesen',
  'Postwesen',
  'Gesundheitswesen',
  'Wasserbau',
  'Fischerei',
  'Weinbau',
  'Zollwesen',
  'Auswanderung',
];
const GENRES = [
  'Beiträge zur',
  'Abhandlungen über die',
  'Handbuch der',
  'Grundriss der',
  'Geschichte der',
  'Neue Beiträge zur',
  'Magazin für',
  'Archiv für',
  'Versuch über die',
  'Lehrbuch der',
];
const PERIODICALS = ['Zeitschrift für', 'Blätter für', 'Monatsschrift für', 'Jahrbuch für', 'Mitteilungen über', 'Correspondenzblatt für'];
const NEWSPAPERS = ['Tageblatt', 'Zeitung', 'Anzeiger', 'Volksblatt', 'Nachrichten', 'Allgemeine Zeitung', 'Abendpost'];
const NEWS_CITIES = [
  'Berliner',
  'Hamburger',
  'Münchner',
  'Kölner',
  'Leipziger',
  'Dresdner',
  'Frankfurter',
  'Stuttgarter',
  'Bremer',
  'Göttinger',
  'Casseler',
  'Wormser',
];
const CHAPTERS = [
  'Von den Vögeln',
  'Vom Ackerbau',
  'Über die Witterung',
  'Von der Einrichtung der Schulen',
  'Nachrichten aus der Stadt',
  'Von den Quellen',
  'Beschreibung der Gegend',
  'Von den Mineralien',
  'Über die Sitten der Einwohner',
  'Von den Rechten der Stadt',
  'Anmerkungen',
  'Nachtrag',
  'Von der Viehzucht',
  'Über das Armenwesen',
  'Von den Kirchen und Klöstern',
  'Verzeichnis der Pflanzen',
  'Von den Zünften',
];
const OBJECTS = [
  'Bildnis',
  'Ansicht',
  'Stadtplan',
  'Kupferstich',
  'Zeichnung',
  'Fotografie',
  'Postkarte',
  'Medaille',
  'Flugblatt',
  'Urkunde',
  'Brief',
  'Gemälde',
];
const FILE_TITLES = [
  'Acta betreffend',
  'Akten über',
  'Schriftwechsel wegen',
  'Verhandlungen über',
  'Rechnungen über',
  'Berichte über',
  'Protokolle über',
  'Verzeichnis der',
];
const LANGUAGES = ['Deutsch', 'Deutsch', 'Deutsch', 'Latein', 'Französisch', 'Niederdeutsch'];
const MATERIALS = ['Papier', 'Pergament', 'Kupferstich auf Papier', 'Öl auf Leinwand', 'Silbergelatine', 'Holzschnitt'];
const SENTENCES = [
  (w: Words) => `Enthält u.a. ${w.topic} in ${w.place}, ${w.year}.`,
  (w: Words) => `Die Vorlage stammt aus dem Bestand der ${w.inst}.`,
  (w: Words) => `Mit handschriftlichen Anmerkungen von ${w.name} am Rand.`,
  (w: Words) => `Darin auch Schreiben an ${w.name} betreffend ${w.topic}.`,
  (w: Words) => `Gedruckt in ${w.place} bei den Erben des Verlegers, ${w.year}.`,
  (_w: Words) => `Der Band ist in Pappe gebunden; einige Seiten sind durch Wasserschäden beeinträchtigt.`,
  (w: Words) => `Vgl. dazu die Akten über ${w.topic} aus den Jahren ${w.year}–${w.year + 7}.`,
  (w: Words) => `Darstellung der Verhältnisse in ${w.place} zur Zeit der ersten Ausgabe.`,
  (w: Words) => `Provenienz: Sammlung ${w.name}, erworben ${w.year + 40}.`,
  (w: Words) => `Digitalisiert im Rahmen des Projekts zur Erschließung von Quellen zu ${w.topic}.`,
  (w: Words) => `Titelblatt mit Vignette; Kolumnentitel: „${w.topic}“.`,
  (w: Words) => `Laufzeit der Unterlagen: ${w.year}–${w.year + 12}; Umfang: ${w.pages} Blatt.`,
];
interface Words {
  topic: string;
  place: string;
  year: number;
  name: string;
  inst: string;
  pages: number;
}

const ROMAN: Array<[number, string]> = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];
function roman(n: number): string {
  let out = '';
  for (const [v, s] of ROMAN)
    while (n >= v) {
      out += s;
      n -= v;
    }
  return out;
}
const MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const pad = (n: number, w: number) => String(n).padStart(w, '0');

interface TreeMeta {
  inst: Institution;
  /** PPN, signature or inventory number of the root. */
  base: string;
  year: number;
  title: string;
  topic: string;
  media: 'text' | 'image';
  license: (typeof LICENSES)[number];
  /** The person this tree is mostly about (a Nachlass, a biography), or -1. */
  subject: number;
  ingestId: number;
  ingestDate: string;
}

/** Size of an item: 10.6–60 KB, most near the small end. */
export const MIN_SIZE = 10_600;
export const MAX_SIZE = 60_000;

/** Share of items that refer to persons. */
export const REF_SHARE = 0.3;

export class ItemGenerator {
  private readonly personZipf: Zipf | null;
  private readonly placeZipf: Zipf;
  private readonly multiplier: number;
  private metaCache: { tree: number; meta: TreeMeta } | null = null;
  private readonly nameCache = new Map<number, string>();

  constructor(
    readonly forest: Forest,
    readonly persons: PersonGenerator,
    readonly personCount: number,
    readonly seed: number,
  ) {
    this.personZipf = personCount > 0 ? new Zipf(personCount, 1.1, 1) : null;
    this.placeZipf = new Zipf(persons.vocab.places.length, 1.1);
    const n = Math.max(1, personCount - POPULAR_KNOWN);
    // A multiplier coprime with n makes rank -> index a bijection.
    this.multiplier = ([1_000_003, 999_983, 104_729, 7_919].find((p) => n % p !== 0) ?? 1) % n || 1;
  }

  /**
   * Popularity rank → person index. The first known persons are the most popular
   * ones (the benchmark can ask for a person with many items); the others are
   * spread over the ids so that popularity does not follow id order.
   */
  personOfRank(rank: number): number {
    if (rank < POPULAR_KNOWN || this.personCount <= POPULAR_KNOWN) return rank;
    const n = this.personCount - POPULAR_KNOWN;
    return POPULAR_KNOWN + (((rank - POPULAR_KNOWN) * this.multiplier + 7) % n);
  }

  private personName(index: number): string {
    let name = this.nameCache.get(index);
    if (name === undefined) {
      name = this.persons.person(index).preferredName;
      if (this.nameCache.size > 50_000) this.nameCache.clear();
      this.nameCache.set(index, name);
    }
    return name;
  }

  private treeMeta(t: number): TreeMeta {
    if (this.metaCache?.tree === t) return this.metaCache.meta;
    const rng = Rng.for(this.seed, STREAM_TREE_META, t);
    const kind = this.forest.treeKind[t]!;
    const inst =
      kind === Kind.Archive
        ? rng.pick(ARCHIVES)
        : kind === Kind.Single
          ? rng.chance(0.6)
            ? rng.pick(MUSEUMS)
            : rng.pick(LIBRARIES)
          : rng.pick(LIBRARIES);
    const year = kind === Kind.Newspaper ? rng.between(1850, 1935) : rng.between(1520, 1930);
    const topic = rng.pick(TOPICS);
    const place = this.persons.vocab.places[this.placeZipf.sample(rng)]!.text;
    const base =
      inst.sector === 2
        ? `PPN${rng.between(100_000_000, 999_999_999)}`
        : inst.sector === 1
          ? `${inst.abbr} ${String.fromCharCode(65 + rng.int(26))} ${rng.between(1, 999)}`
          : `Inv.-Nr. ${rng.between(1, 99)}/${rng.between(1, 9999)}`;
    let title: string;
    switch (kind) {
      case Kind.Periodical:
        title = `${rng.pick(PERIODICALS)} ${topic}`;
        break;
      case Kind.Newspaper:
        title = `${rng.pick(NEWS_CITIES)} ${rng.pick(NEWSPAPERS)}`;
        break;
      case Kind.Archive:
        title = `${base.replace(/^\S+ /, '')}: ${topic}`;
        break;
      case Kind.Single:
        title = `${rng.pick(OBJECTS)}: ${place}`;
        break;
      default:
        title = `${rng.pick(GENRES)} ${topic} in ${place}`;
    }
    const subject = this.personZipf !== null && rng.chance(0.5) ? this.personOfRank(this.personZipf.sample(rng)) : -1;
    const meta: TreeMeta = {
      inst,
      base,
      year,
      title,
      topic,
      media: inst.sector === 6 ? 'image' : 'text',
      license: rng.pick(LICENSES),
      subject,
      ingestId: rng.between(200_000_000, 299_999_999),
      ingestDate: `${pad(rng.between(12, 24), 2)}-${pad(rng.between(1, 12), 2)}-${pad(rng.between(1, 28), 2)} ${pad(rng.between(0, 23), 2)}:${pad(rng.between(0, 59), 2)}:${pad(rng.between(0, 59), 2)}`,
    };
    this.metaCache = { tree: t, meta };
    return meta;
  }

  /** Hierarchy type, aggregation flag, position and label of item i. */
  private hierarchy(
    i: number,
    meta: TreeMeta,
    year: number,
    rng: Rng,
  ): { htype: string | null; aggregation: boolean; position: string | null; title: string } {
    const f = this.forest;
    const t = f.tree[i]!;
    const kind = f.treeKind[t]!;
    const level = f.depth[i]!;
    const pos = f.position[i]!;
    const leaf = f.children[i] === 0;
    const dmd = `DMDLOG_${pad(pos, 4)}`;
    switch (kind) {
      case Kind.Single:
        return { htype: null, aggregation: false, position: null, title: meta.title };
      case Kind.Monograph:
        if (level === 1) return { htype: 'htype_021', aggregation: false, position: 'DMDLOG_0000', title: meta.title };
        if (pos === 1 && rng.chance(0.5)) return { htype: 'htype_028', aggregation: false, position: dmd, title: 'Vorrede' };
        return { htype: 'htype_018', aggregation: false, position: dmd, title: `${roman(pos)}. ${rng.pick(CHAPTERS)}` };
      case Kind.MultiVolume:
        if (level === 1) return { htype: 'htype_020', aggregation: true, position: 'DMDLOG_0000', title: meta.title };
        if (level === 2) return { htype: 'htype_007', aggregation: false, position: dmd, title: `${meta.title}. Band ${pos}` };
        return { htype: 'htype_018', aggregation: false, position: dmd, title: `${roman(pos)}. ${rng.pick(CHAPTERS)}` };
      case Kind.Periodical:
        if (level === 1) return { htype: 'htype_023', aggregation: true, position: 'DMDLOG_0000', title: meta.title };
        if (level === 2)
          return {
            htype: 'htype_014',
            aggregation: false,
            position: dmd,
            title: `Heft ${pos} (${meta.year + Math.floor((pos - 1) / 12)})`,
          };
        return { htype: 'htype_006', aggregation: false, position: dmd, title: `${rng.pick(CHAPTERS)}. Von ${this.someName(rng)}` };
      case Kind.Newspaper: {
        if (level === 1) return { htype: 'htype_044', aggregation: true, position: '1', title: meta.title };
        const yearPos = level === 2 ? pos : level === 3 ? f.position[f.parent[i]!]! : f.position[f.parent[f.parent[i]!]!]!;
        const year = meta.year + yearPos - 1;
        if (level === 2) return { htype: 'htype_045', aggregation: true, position: String(year), title: `${meta.title}, ${year}` };
        const month = level === 3 ? pos : f.position[f.parent[i]!]!;
        if (level === 3) return { htype: 'htype_046', aggregation: true, position: pad(month, 2), title: `${MONTHS[month - 1]} ${year}` };
        return {
          htype: 'htype_047',
          aggregation: false,
          position: pad(pos, 2),
          title: `${meta.title}, ${pos}. ${MONTHS[month - 1]} ${year}`,
        };
      }
      case Kind.Archive:
      default: {
        if (level === 1) return { htype: 'htype_030', aggregation: true, position: '1', title: meta.title };
        if (leaf) {
          return {
            htype: 'htype_034',
            aggregation: false,
            position: String(pos),
            title: `${rng.pick(FILE_TITLES)} ${rng.pick(TOPICS)}, ${year}–${year + rng.between(0, 15)}`,
          };
        }
        const serie = f.children[i]! > 0 && f.children[i + 1] === 0 && f.depth[i + 1] === f.treeDepth[t];
        return { htype: serie ? 'htype_032' : 'htype_031', aggregation: true, position: String(pos), title: `${pos}. ${rng.pick(TOPICS)}` };
      }
    }
  }

  /** A person's name for running text: a known person when there are any, else a drawn surname. */
  private someName(rng: Rng): string {
    const p = this.anyPerson(rng);
    return p >= 0
      ? this.personName(p)
      : this.persons.vocab.surnames[rng.int(Math.min(1000, this.persons.vocab.surnames.length))]!.full.text;
  }

  private anyPerson(rng: Rng): number {
    return this.personZipf === null ? -1 : this.personOfRank(this.personZipf.sample(rng));
  }

  /** The XML of item i and what the run summary needs of it. */
  item(i: number): { id: string; xml: string; refs: number[] } {
    const f = this.forest;
    const seed = this.seed;
    const rng = Rng.for(seed, STREAM_ITEM, i);
    const id = itemId(seed, i);
    const t = f.tree[i]!;
    const meta = this.treeMeta(t);
    const inst = meta.inst;
    const agg = AGGREGATORS[inst.aggregator]!;
    const year = meta.year + (f.depth[i]! > 1 ? rng.between(0, 30) : 0);
    const h = this.hierarchy(i, meta, year, rng);
    const parent = f.parent[i]!;
    const prev = f.prevSibling[i]!;
    const target = MIN_SIZE + Math.floor((MAX_SIZE - MIN_SIZE) * Math.pow(rng.next(), 2.2));

    // Persons the item refers to: popular ones on many items, the tree's own subject on many of its items.
    const refs: number[] = [];
    if (this.personZipf !== null && rng.chance(REF_SHARE)) {
      const n = rng.chance(0.7) ? 1 : rng.chance(0.67) ? 2 : 3;
      for (let k = 0; k < n; k++) {
        const p = meta.subject >= 0 && k === 0 && rng.chance(0.6) ? meta.subject : this.anyPerson(rng);
        if (p >= 0 && !refs.includes(p)) refs.push(p);
      }
    }
    const names = refs.map((p) => this.personName(p));
    const gnd = refs.map(personId);

    const placeIndex = this.placeZipf.sample(rng);
    const place = this.persons.vocab.places[placeIndex]!.text;
    const placeUri = `http://d-nb.info/gnd/4${pad(placeIndex * 37 + 100_000, 6)}-${placeIndex % 10}`;
    const lat = (47.3 + ((placeIndex * 7919) % 7500) / 1000).toFixed(6);
    const long = (5.9 + ((placeIndex * 104_729) % 9100) / 1000).toFixed(6);
    const pages = rng.between(1, 480);
    const words: Words = { topic: meta.topic, place, year, name: names[0] ?? this.someName(rng), inst: inst.name, pages };
    const sentences = rng.chance(0.3) ? 0 : rng.chance(0.9) ? rng.between(1, 4) : rng.between(8, 30);
    let description = '';
    for (let k = 0; k < sentences; k++) description += (k > 0 ? ' ' : '') + rng.pick(SENTENCES)(words);

    const title = esc(h.title);
    const typeLabel = h.htype === null ? (meta.media === 'image' ? rng.pick(OBJECTS) : 'Monografie') : (HTYPE_LABELS[h.htype] ?? 'Text');
    const typeConcept = b32Of(typeLabel);
    const mt = meta.media === 'image' ? 'mt002' : 'mt003';
    const edmType = meta.media === 'image' ? 'IMAGE' : 'TEXT';
    const identifier = `${meta.base}_${h.position ?? '1'}`;
    const origin = `${inst.url}/digital/${encodeURIComponent(meta.base)}/${h.position ?? '1'}`;
    const images = meta.media === 'image' ? rng.between(1, 8) : rng.between(1, 3);
    const imageBase = `https://digital.${inst.host}/content/${meta.base.replace(/\W+/g, '')}`;
    const license = meta.license;
    const sector = `sec_0${inst.sector}`;
    const subtitle = parent >= 0 ? `Erschienen in: ${this.rootTitle(t)}` : typeLabel;
    const E = 'xmlns:edm="http://www.europeana.eu/schemas/edm/"';
    const DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"';
    const DCT = 'xmlns:dcterms="http://purl.org/dc/terms/"';
    const DDB = 'xmlns:ddb="http://www.deutsche-digitale-bibliothek.de/edm/"';
    const SKOS = 'xmlns:skos="http://www.w3.org/2004/02/skos/core#"';

    const p: string[] = [];
    p.push(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex" ',
      'xmlns:ns2="http://www.deutsche-digitale-bibliothek.de/institution" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ',
      'xmlns:ns4="http://www.deutsche-digitale-bibliothek.de/item">',
      `<properties><item-id>${id}</item-id><ingest-id>${meta.ingestId}</ingest-id><ingest-date>${meta.ingestDate}</ingest-date><cortex-type>Kultur</cortex-type></properties>`,
      '<edm><rdf:RDF>',
      `<ore:Aggregation xmlns:ore="http://www.openarchives.org/ore/terms/" rdf:about="${esc(origin)}"><edm:aggregatedCHO ${E} rdf:resource="${ITEM_URI}${id}"/>`,
      `<edm:dataProvider ${E}>${esc(inst.name)}</edm:dataProvider><edm:dataProvider ${E} rdf:resource="${inst.ddbId}"/>`,
      `<edm:isShownAt ${E} rdf:resource="${esc(origin)}"/><edm:object ${E} rdf:resource="${imageBase}/1000/0/00000001.jpg"/>`,
      `<edm:provider ${E}>Deutsche Digitale Bibliothek</edm:provider><edm:rights ${E} rdf:resource="${license.uri}"/>`,
      `<dcterms:rights ${DCT} rdf:resource="http://creativecommons.org/publicdomain/zero/1.0/"/><ddb:aggregator ${DDB} rdf:resource="${agg.ddbId}"/>\n      </ore:Aggregation>`,
      `<edm:Agent ${E} rdf:about="${agg.ddbId}"><skos:prefLabel ${SKOS}>${esc(agg.name)}</skos:prefLabel>\n      </edm:Agent>`,
      `<edm:Agent ${E} rdf:about="${inst.ddbId}"><skos:prefLabel ${SKOS}>${esc(inst.name)}</skos:prefLabel><rdf:type rdf:resource="http://ddb.vocnet.org/sparte/sparte00${inst.sector}"/>\n      </edm:Agent>`,
      `<skos:Concept ${SKOS} rdf:about="http://ddb.vocnet.org/sparte/sparte00${inst.sector}"><skos:notation>${sector}</skos:notation>\n      </skos:Concept>`,
      `<edm:WebResource ${E} rdf:about="${esc(origin)}"><edm:rights rdf:resource="${license.uri}"/><dc:type ${DC} rdf:resource="http://ddb.vocnet.org/medientyp/${mt}"/>`,
      `<dcterms:rights ${DCT} rdf:resource="${license.uri}"/>\n      </edm:WebResource>`,
      `<skos:Concept ${SKOS} rdf:about="http://ddb.vocnet.org/medientyp/${mt}"><skos:notation>mediatype_${mt.slice(2)}</skos:notation>\n      </skos:Concept>`,
      `<edm:ProvidedCHO ${E} rdf:about="${ITEM_URI}${id}"><edm:currentLocation rdf:resource="${placeUri}"/><edm:hasType rdf:resource="${typeConcept}"/>`,
      `<edm:type>${edmType}</edm:type><dc:type ${DC}>${esc(typeLabel)}</dc:type>`,
    );
    if (description) p.push(`<dc:description ${DC}>${esc(description)}</dc:description>`);
    for (const name of names) p.push(`<dc:subject ${DC}>${esc(name)}</dc:subject>`);
    p.push(`<dc:title ${DC}>${title}</dc:title><dcterms:issued ${DCT}>${year}</dcterms:issued>`);
    for (const uri of gnd) p.push(`<dcterms:subject ${DCT} rdf:resource="${uri}"/>`);
    if (h.htype !== null) p.push(`<ddb:hierarchyType ${DDB}>${h.htype}</ddb:hierarchyType>`);
    p.push(`<ddb:aggregationEntity ${DDB}>${h.aggregation}</ddb:aggregationEntity>`);
    if (h.position !== null) p.push(`<ddb:hierarchyPosition ${DDB}>${esc(h.position)}</ddb:hierarchyPosition>`);
    if (prev >= 0) p.push(`<edm:isNextInSequence rdf:resource="${ITEM_URI}${itemId(seed, prev)}"/>`);
    if (parent >= 0) p.push(`<dcterms:isPartOf ${DCT} rdf:resource="${ITEM_URI}${itemId(seed, parent)}"/>`);
    p.push(
      '\n      </edm:ProvidedCHO>',
      `<skos:Concept ${SKOS} rdf:about="${typeConcept}"><skos:prefLabel>${esc(typeLabel)}</skos:prefLabel>\n      </skos:Concept>`,
      `<edm:Place ${E} rdf:about="${placeUri}"><wgs84_pos:lat xmlns:wgs84_pos="http://www.w3.org/2003/01/geo/wgs84_pos#">${lat}</wgs84_pos:lat>`,
      `<wgs84_pos:long xmlns:wgs84_pos="http://www.w3.org/2003/01/geo/wgs84_pos#">${long}</wgs84_pos:long><skos:prefLabel ${SKOS}>${esc(place)}</skos:prefLabel>\n      </edm:Place>`,
    );
    for (let k = 0; k < refs.length; k++)
      p.push(`<edm:Agent ${E} rdf:about="${gnd[k]}"><skos:prefLabel ${SKOS}>${esc(names[k]!)}</skos:prefLabel>\n      </edm:Agent>`);
    p.push('\n    </rdf:RDF></edm>');

    // indexing-profile
    p.push(
      `<indexing-profile><item-id>${id}</item-id><facet name="place_fct_normdata"><value>${placeUri}</value></facet><facet name="place_fct"><value>${esc(place)}</value></facet>`,
    );
    if (refs.length > 0) {
      p.push('<facet name="affiliate_fct_normdata">', ...gnd.map((u) => `<value>${u}</value>`), '</facet>');
      p.push('<facet name="affiliate_fct">', ...names.map((n) => `<value>${esc(n)}</value>`), '</facet>');
    }
    p.push(
      `<facet name="keywords_fct"><value>${esc(typeLabel)}</value><value>${esc(meta.topic)}</value></facet><facet name="type_fct"><value>mediatype_${mt.slice(2)}</value></facet>`,
      `<facet name="sector_fct"><value>${sector}</value></facet><facet name="provider_fct"><value>${esc(agg.name)}</value><value>${esc(inst.name)}</value></facet>`,
      `<facet name="time_fct"><value>time_6${pad(Math.floor(year / 10) * 10, 4)}</value></facet><facet name="last_update"><value>${meta.ingestDate}</value></facet></indexing-profile>`,
    );

    // preview and view
    p.push(
      `<preview type="Kultur" media="${meta.media}"><title>${title}</title><subtitle>${esc(subtitle)}</subtitle><thumbnail href="/binary/${id}/list/1.jpg"/></preview>`,
      `<view><ns4:item><ns4:identifier>${esc(identifier)}</ns4:identifier><ns4:label>${title}</ns4:label><ns4:title>${title}</ns4:title><ns4:subtitle>${esc(subtitle)}</ns4:subtitle>`,
      `<ns4:rights></ns4:rights><ns4:metadata-rights>http://creativecommons.org/publicdomain/zero/1.0/</ns4:metadata-rights><ns4:origin>${esc(origin)}</ns4:origin>`,
      `<ns4:category>Kultur</ns4:category><ns4:media>${meta.media}</ns4:media><ns4:thumbnail></ns4:thumbnail><ns4:latitude>${lat}</ns4:latitude><ns4:longitude>${long}</ns4:longitude>`,
      meta.media === 'text'
        ? '<ns4:viewers><ns4:viewer><ns4:name id="dfgKey">DFG-Viewer</ns4:name><ns4:url>http://dfg-viewer.de/v2/?set[mets]={0}</ns4:url></ns4:viewer></ns4:viewers>'
        : '<ns4:viewers/>',
      `<ns4:license rdf:resource="${license.uri}" img="http://content.deutsche-digitale-bibliothek.de/license-icons/${license.img}" url="${license.uri}deed.de">${esc(license.label)}</ns4:license>`,
      `<ns4:institution><ns4:url>${esc(inst.url)}</ns4:url><ns4:id>${inst.ddbId}</ns4:id><ns4:name>${esc(inst.name)}</ns4:name><ns4:logo>http://content.deutsche-digitale-bibliothek.de/binaries/institution/${inst.providerId}/logo.png</ns4:logo></ns4:institution>`,
      '<ns4:fields usage="display">',
    );
    const field = (fid: string, name: string, value: string, resource?: string) =>
      `<ns4:field id="${fid}"><ns4:name>${name}</ns4:name><ns4:value${resource ? ` rdf:resource="${resource}"` : ''}>${value}</ns4:value></ns4:field>`;
    const display: string[] = [field('flex_bibl_003', 'Dokumenttyp', esc(typeLabel))];
    if (parent >= 0) display.push(field('flex_bibl_004', 'Erschienen in', esc(this.rootTitle(t))));
    for (let k = 0; k < refs.length; k++) display.push(field('flex_bibl_005', 'Beteiligte Personen', esc(names[k]!), gnd[k]));
    const optional = [
      () => field('flex_bibl_007', 'Ort', esc(place)),
      () => field('flex_bibl_008', 'Datum', String(year)),
      () => field('flex_bibl_010', 'Umfang', `${pages} S.`),
      () => field('flex_bibl_011', 'Sprache', rng.pick(LANGUAGES)),
      () => field('flex_bibl_014', 'Standort', esc(inst.name)),
      () => field('flex_bibl_015', 'Signatur', esc(meta.base)),
      () => field('flex_arch_008', 'Laufzeit', `${year}–${year + rng.between(0, 20)}`),
      () => field('flex_arch_010', 'Provenienz', esc(inst.parent)),
      () => field('flex_mus_neu_060', 'Material/Technik', rng.pick(MATERIALS)),
      () => field('stat_016', 'Förderung', 'Deutsche Forschungsgemeinschaft'),
    ];
    const extra = rng.between(2, optional.length);
    for (let k = 0; k < extra; k++) display.push(optional[k]!());
    if (description)
      display.push(
        field(inst.sector === 1 ? 'flex_arch_006' : 'flex_mus_neu_050', inst.sector === 1 ? 'Enthält' : 'Beschreibung', esc(description)),
      );
    p.push(...display, '</ns4:fields><ns4:fields usage="index">');
    p.push(
      `<ns4:field rdf:resource="http://purl.org/dc/elements/1.1/title" id="title"><ns4:name>Title</ns4:name><ns4:value>${title}</ns4:value></ns4:field>`,
      `<ns4:field rdf:resource="http://purl.org/dc/elements/1.1/description" id="description"><ns4:name>Beschreibung</ns4:name><ns4:value>${esc(description || `${typeLabel} ${h.title}`)}</ns4:value></ns4:field>`,
      field('license', 'Lizenz', license.uri),
      field('license_group', 'Lizenzstatus', license.group),
      // the item's year as real packages carry it (goethe.json: day numbers from 0001-01-01),
      // for the results page's date range and histogram (docs/pages.md "Date range")
      field('begin_time', 'Anfang', String(dayNumber(year, 1, 1))),
      field('end_time', 'Ende', String(dayNumber(year, 12, 31))),
      field('grid_preview', 'grid_preview', 'true'),
      field('digitalisat', 'digitalisat', 'true'),
      '</ns4:fields></ns4:item></view>',
    );
    const head = p.join('');

    // provider-info, aggregator-info, binaries: after the source record
    const q: string[] = [
      '</metadata-record>',
      `<provider-info><provider-domains><provider-domain>${inst.domain}</provider-domain><provider-domain></provider-domain><provider-domain></provider-domain></provider-domains>`,
      `<provider-name>${esc(inst.name)}</provider-name><provider-parent-id></provider-parent-id><provider-uri>${esc(inst.url)}</provider-uri><provider-email></provider-email>`,
      `<provider-collection>${inst.abbr.replace(/\W/g, '')}_${meta.year}</provider-collection><provider-item-id>${esc(identifier)}</provider-item-id><provider-item-id-type>${inst.sector === 2 ? 'gbvppn' : 'signatur'}</provider-item-id-type>`,
      `<provider-id>${inst.providerId}</provider-id><provider-ddb-id>${inst.ddbId}</provider-ddb-id><provider-logo>_thumb_${inst.providerId}.png</provider-logo>`,
      `<provider-longitude>${inst.long}</provider-longitude><provider-latitude>${inst.lat}</provider-latitude><provider-state></provider-state>`,
      `<provider-parents><provider-info><provider-domains><provider-domain>${inst.domain}</provider-domain></provider-domains><provider-name>${esc(inst.parent)}</provider-name>`,
      `<provider-ddb-id>${b32Of(inst.parent)}</provider-ddb-id><aggregator>false</aggregator></provider-info></provider-parents></provider-info>`,
      `<aggregator-info><aggregator-domains><aggregator-domain>${agg.domain}</aggregator-domain></aggregator-domains><aggregator-name>${esc(agg.name)}</aggregator-name>`,
      `<aggregator-uri>${agg.url}</aggregator-uri><aggregator-id>${agg.id}</aggregator-id><aggregator-ddb-id>${agg.ddbId}</aggregator-ddb-id></aggregator-info><binaries>`,
    ];
    for (let k = 1; k <= images; k++) {
      for (const category of ['list', 'grid', 'mvth', 'mvpr']) {
        q.push(
          `<binary category="${category}" primary="${k === 1}" position="${k}" path="/binary/${id}/${category}/${k}.jpg" mimetype="image/jpeg" name2="Digitalisat: ${esc(inst.abbr)}" name="${title}"/>`,
        );
      }
    }
    q.push('</binaries></cortex>');
    const tail = q.join('');

    const record = this.sourceRecord(
      id,
      identifier,
      h.title,
      names,
      gnd,
      place,
      year,
      meta,
      imageBase,
      target - Buffer.byteLength(head) - Buffer.byteLength(tail),
    );
    return { id, xml: `${head}<metadata-record>${record}${tail}`, refs };
  }

  private rootTitle(t: number): string {
    return this.treeMeta(t).title;
  }

  /**
   * The provider's source record (OAI-PMH with METS/MODS) as escaped text, about
   * `budget` bytes long: a METS file list of as many pages as fit.
   */
  private sourceRecord(
    id: string,
    identifier: string,
    title: string,
    names: string[],
    gnd: string[],
    place: string,
    year: number,
    meta: TreeMeta,
    imageBase: string,
    budget: number,
  ): string {
    const lines: string[] = [
      '&lt;OAI-PMH xmlns=&quot;http://www.openarchives.org/OAI/2.0/&quot; xmlns:xsi=&quot;http://www.w3.org/2001/XMLSchema-instance&quot;&gt;',
      `  &lt;responseDate&gt;20${meta.ingestDate.slice(0, 8)}T08:48:21Z&lt;/responseDate&gt;`,
      `  &lt;request verb=&quot;GetRecord&quot; identifier=&quot;${esc2(identifier)}&quot; metadataPrefix=&quot;mets&quot;&gt;${esc2(meta.inst.url)}/oai2/&lt;/request&gt;`,
      '  &lt;GetRecord&gt;',
      '    &lt;record&gt;',
      '      &lt;header&gt;',
      `        &lt;identifier&gt;oai:${meta.inst.host}:${esc2(identifier)}&lt;/identifier&gt;`,
      `        &lt;datestamp&gt;20${meta.ingestDate.slice(0, 8)}&lt;/datestamp&gt;`,
      '      &lt;/header&gt;',
      '      &lt;metadata&gt;',
      '        &lt;mets:mets xmlns:mets=&quot;http://www.loc.gov/METS/&quot; xmlns:mods=&quot;http://www.loc.gov/mods/v3&quot; xmlns:xlink=&quot;http://www.w3.org/1999/xlink&quot;&gt;',
      '          &lt;mets:dmdSec ID=&quot;DMDLOG_0000&quot;&gt;',
      '            &lt;mets:mdWrap MDTYPE=&quot;MODS&quot;&gt;&lt;mets:xmlData&gt;&lt;mods:mods&gt;',
      `              &lt;mods:titleInfo&gt;&lt;mods:title&gt;${esc2(title)}&lt;/mods:title&gt;&lt;/mods:titleInfo&gt;`,
    ];
    for (let k = 0; k < names.length; k++) {
      lines.push(
        `              &lt;mods:name type=&quot;personal&quot; authority=&quot;gnd&quot; authorityURI=&quot;${gnd[k]}&quot;&gt;&lt;mods:displayForm&gt;${esc2(names[k]!)}&lt;/mods:displayForm&gt;&lt;mods:role&gt;&lt;mods:roleTerm type=&quot;code&quot;&gt;aut&lt;/mods:roleTerm&gt;&lt;/mods:role&gt;&lt;/mods:name&gt;`,
      );
    }
    lines.push(
      `              &lt;mods:originInfo&gt;&lt;mods:place&gt;&lt;mods:placeTerm type=&quot;text&quot;&gt;${esc2(place)}&lt;/mods:placeTerm&gt;&lt;/mods:place&gt;&lt;mods:dateIssued keyDate=&quot;yes&quot;&gt;${year}&lt;/mods:dateIssued&gt;&lt;/mods:originInfo&gt;`,
      `              &lt;mods:subject&gt;&lt;mods:topic&gt;${esc2(meta.topic)}&lt;/mods:topic&gt;&lt;/mods:subject&gt;`,
      `              &lt;mods:recordInfo&gt;&lt;mods:recordIdentifier source=&quot;${meta.inst.abbr}&quot;&gt;${esc2(identifier)}&lt;/mods:recordIdentifier&gt;&lt;/mods:recordInfo&gt;`,
      '            &lt;/mods:mods&gt;&lt;/mets:xmlData&gt;&lt;/mets:mdWrap&gt;',
      '          &lt;/mets:dmdSec&gt;',
      '          &lt;mets:fileSec&gt;',
      '            &lt;mets:fileGrp USE=&quot;DEFAULT&quot;&gt;',
    );
    const closing =
      '            &lt;/mets:fileGrp&gt;\n          &lt;/mets:fileSec&gt;\n        &lt;/mets:mets&gt;\n      &lt;/metadata&gt;\n    &lt;/record&gt;\n  &lt;/GetRecord&gt;\n&lt;/OAI-PMH&gt;';
    const opening = lines.join('\n');
    let used = Buffer.byteLength(opening) + closing.length + 1;
    const out = [opening];
    const fileLine = (page: number) =>
      `\n              &lt;mets:file ID=&quot;FILE_${pad(page, 4)}_DEFAULT&quot; MIMETYPE=&quot;image/jpeg&quot;&gt;\n                &lt;mets:FLocat LOCTYPE=&quot;URL&quot; xlink:href=&quot;${imageBase}/1000/0/${pad(page, 8)}.jpg&quot; /&gt;\n              &lt;/mets:file&gt;`;
    const lineLength = fileLine(1).length;
    for (let page = 1; used + lineLength <= budget; page++) {
      out.push(fileLine(page));
      used += lineLength;
    }
    out.push('\n', closing);
    return out.join('');
  }
}

/** How many of the known persons are also the most referenced ones (ranks 0..4). */
export const POPULAR_KNOWN = 5;

const HTYPE_LABELS: Record<string, string> = {
  htype_006: 'Aufsatz',
  htype_007: 'Band',
  htype_014: 'Heft',
  htype_018: 'Kapitel',
  htype_020: 'Mehrbändiges Werk',
  htype_021: 'Monografie',
  htype_023: 'Fortlaufendes Sammelwerk',
  htype_028: 'Vorwort',
  htype_030: 'Bestand',
  htype_031: 'Gliederung',
  htype_032: 'Serie',
  htype_034: 'Archivale',
  htype_044: 'Zeitung',
  htype_045: 'Jahrgang',
  htype_046: 'Monat',
  htype_047: 'Tag',
};
