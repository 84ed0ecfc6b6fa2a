/**
 * The OAI-PMH 2.0 provider (docs/oai-pmh.md): the six verbs over the store's OAI records
 * (src/store/oaiRecords.ts), every answer an OAI-PMH document, errors included (section 3.6).
 * Knows no HTTP: ../routes/oai.ts hands it the arguments and where the request came in.
 */
import type { Config } from '../../config.js';
import { EDM_CLOSE, edmRdfElement, edmRdfElementOfStart, documentElementText } from '../../formats/oai/edmPart.js';
import { OAI_DC_NS, OAI_DC_SCHEMA, oaiDcElement } from '../../formats/oai/oaiDc.js';
import {
  element,
  errorElements,
  headerElement,
  oaiDocument,
  recordElement,
  resumptionTokenElement,
  utcDatestamp,
  type OaiErrorItem,
} from '../../formats/oai/oaiXml.js';
import { NS } from '../../formats/namespaces.js';
import { SECTOR_CODES } from '../bodies/institutions.js';
import { decodeBody, decodeBodyThrough } from '../../store/bodyCodec.js';
import { parseSetSpec } from '../../store/oaiRecords.js';
import type { OaiRecord, Store } from '../../store/Store.js';
import { checkRequest } from './requestArguments.js';
import { PreparedPages, readListPage, type ListState } from './listPages.js';
import { decodeToken, encodeToken } from './resumptionToken.js';

interface Format {
  prefix: string;
  schema: string;
  namespace: string;
  /** The metadata element of a live record (its package in the stored form); undefined when the package cannot give it. */
  write(stored: Buffer): string | undefined;
}

/**
 * The edm element decoded from the package's start alone when that is enough: a full harvest
 * decodes every package of the store, and most of a package follows its edm part
 * (docs/oai-pmh.md "Speed"). Otherwise from the whole package, as before.
 */
function edmOfStored(stored: Buffer): string | undefined {
  const start = decodeBodyThrough(stored, EDM_CLOSE);
  return (start === undefined ? undefined : edmRdfElementOfStart(start)) ?? edmRdfElement(decodeBody(stored));
}

/** The package as stored, the cortex document element (no DOCTYPE ever: none is stored, and none would be passed on). */
function cortexElement(stored: Buffer): string | undefined {
  const body = documentElementText(decodeBody(stored).toString('utf8'));
  return /^<[A-Za-z_]/.test(body) ? body : undefined;
}

export const FORMATS: readonly Format[] = [
  { prefix: 'edm', schema: 'http://www.europeana.eu/schemas/edm/EDM.xsd', namespace: NS.edm, write: edmOfStored },
  { prefix: 'oai_dc', schema: OAI_DC_SCHEMA, namespace: OAI_DC_NS, write: (stored) => oaiDcElement(decodeBody(stored).toString('utf8')) },
  // No public schema describes the cortex package: its namespace stands for it (docs/oai-pmh.md "Formats").
  { prefix: 'ddb', schema: NS.cortex, namespace: NS.cortex, write: cortexElement },
];

/** Sector names for ListSets (the DDB's Sparten, as /institutions/sectors names them). */
const SECTOR_NAMES: Readonly<Record<(typeof SECTOR_CODES)[number], string>> = {
  sec_01: 'Archive',
  sec_02: 'Library',
  sec_03: 'Monument protection',
  sec_04: 'Research',
  sec_05: 'Media',
  sec_06: 'Museum',
  sec_07: 'Other',
};

/** What the provider needs of where the request came in. */
export interface OaiContext {
  /** The base URL as the client used it (section 3.1.1). */
  baseUrl: string;
  /** The host name the request was sent to, without port: the repository identifier when none is configured. */
  host: string;
  /** Whether the client's next request comes on the same connection (HTTP keep-alive), so to this process: then a list's next page is prepared. */
  keepAlive?: boolean;
}

export interface OaiProvider {
  /** The response document for the request's arguments (repeats included, in order). */
  answer(params: ReadonlyArray<readonly [string, string]>, context: OaiContext): Promise<string>;
  /** A badArgument document for a request whose arguments could not be read at all. */
  refuse(message: string, context: OaiContext): string;
}

/** The setSpec syntax of section 2.7.2 (the schema's setSpecType). */
const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

export function createOaiProvider(store: Store, config: Config): OaiProvider {
  const pageSize = config.oai.pageSize;
  const prepared = new PreparedPages();
  let secret: Promise<string> | undefined;
  const tokenKey = (): Promise<string> => {
    if (config.oai.tokenSecret !== '') return Promise.resolve(config.oai.tokenSecret);
    // Read once; a failed read is tried again on the next request.
    secret ??= store.oaiTokenSecret().catch((e: unknown) => {
      secret = undefined;
      throw e;
    });
    return secret;
  };

  return {
    refuse: (message, context) => oaiDocument(new Date(), context.baseUrl, null, errorElements([{ code: 'badArgument', message }])),
    async answer(params, context) {
      const now = new Date();
      const repositoryId = config.oai.repositoryIdentifier !== '' ? config.oai.repositoryIdentifier : context.host;
      const prefix = `oai:${repositoryId}:`;
      const checked = checkRequest(params);
      if (!checked.ok) return oaiDocument(now, context.baseUrl, null, errorElements(checked.errors));
      const { verb, args } = checked;
      const echo = { verb, ...args };
      const fail = (code: OaiErrorItem['code'], message: string) =>
        oaiDocument(now, context.baseUrl, echo, errorElements([{ code, message }]));
      const respond = (body: string) => oaiDocument(now, context.baseUrl, echo, `<${verb}>${body}</${verb}>`);
      const identifierOf = (id: string) => `${prefix}${id}`;
      const header = (r: OaiRecord) =>
        headerElement({ identifier: identifierOf(r.id), datestamp: r.datestamp, deleted: r.deleted, sets: r.sets });
      const itemOf = (identifier: string) =>
        identifier.startsWith(prefix) && identifier.length > prefix.length ? identifier.slice(prefix.length) : undefined;
      const formatOf = (p: string) => FORMATS.find((f) => f.prefix === p);
      const unknownFormat = (p: string) =>
        fail(
          'cannotDisseminateFormat',
          `${/^[A-Za-z0-9_.-]{1,40}$/.test(p) ? `'${p}' is not` : 'The metadataPrefix is not'} a format of this repository: use ${FORMATS.map((f) => f.prefix).join(', ')} (see ListMetadataFormats).`,
        );
      const noSuchId = () =>
        fail('idDoesNotExist', `No record has this identifier: identifiers here are ${prefix}<item id> (see ListIdentifiers).`);

      switch (verb) {
        case 'Identify': {
          const earliest = await store.oaiEarliestDatestamp();
          const description = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+$/.test(repositoryId)
            ? '<description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
              'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier http://www.openarchives.org/OAI/2.0/oai-identifier.xsd">' +
              `<scheme>oai</scheme>${element('repositoryIdentifier', repositoryId)}<delimiter>:</delimiter>${element('sampleIdentifier', `${prefix}4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22`)}` +
              '</oai-identifier></description>'
            : '';
          return respond(
            element('repositoryName', config.oai.repositoryName) +
              element('baseURL', context.baseUrl) +
              '<protocolVersion>2.0</protocolVersion>' +
              element('adminEmail', config.oai.adminEmail) +
              element('earliestDatestamp', utcDatestamp(earliest ?? 0)) +
              '<deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity>' +
              description,
          );
        }
        case 'ListMetadataFormats': {
          let formats = FORMATS;
          if (args.identifier !== undefined) {
            const id = itemOf(args.identifier);
            const record = id === undefined ? undefined : await store.getOaiRecord(id, true);
            if (record === undefined) return noSuchId();
            if (record.deleted)
              return fail(
                'noMetadataFormats',
                'The record is deleted: no format of it is available any more (its header is listed with status="deleted").',
              );
            formats = FORMATS.filter((f) => f.write(record.storedBody!) !== undefined);
            if (formats.length === 0)
              return fail('noMetadataFormats', 'The package of this record cannot be given in any format of this repository.');
          }
          return respond(
            formats
              .map(
                (f) =>
                  `<metadataFormat>${element('metadataPrefix', f.prefix)}${element('schema', f.schema)}${element('metadataNamespace', f.namespace)}</metadataFormat>`,
              )
              .join(''),
          );
        }
        case 'ListSets': {
          let after: string | null = null;
          let cursor = 0;
          if (args.resumptionToken !== undefined) {
            const state = decodeToken(args.resumptionToken, await tokenKey());
            if (state?.verb !== 'ListSets')
              return fail(
                'badResumptionToken',
                'The resumptionToken is not one this repository gave for ListSets: start the list again without it.',
              );
            ({ after, cursor } = state);
          }
          const sets = await store.listOaiSets(after, pageSize + 1);
          if (sets.length === 0) {
            if (after === null)
              return fail('noSetHierarchy', 'This repository has no sets yet: its records name no institution and belong to no hierarchy.');
            return fail('badResumptionToken', 'The list of sets has changed so that this token points past its end: start the list again.');
          }
          const page = sets.slice(0, pageSize);
          const more = sets.length > pageSize;
          const body = page.map((s) => `<set>${element('setSpec', s.spec)}${element('setName', s.name ?? setName(s.spec))}</set>`).join('');
          const token = more
            ? encodeToken({ verb: 'ListSets', after: page[page.length - 1]!.spec, cursor: cursor + page.length }, await tokenKey())
            : null;
          return respond(body + (more || after !== null ? resumptionTokenElement(token, cursor) : ''));
        }
        case 'GetRecord': {
          const format = formatOf(args.metadataPrefix!);
          if (format === undefined) return unknownFormat(args.metadataPrefix!);
          const id = itemOf(args.identifier!);
          const record = id === undefined ? undefined : await store.getOaiRecord(id, true);
          if (record === undefined) return noSuchId();
          if (record.deleted)
            return respond(
              recordElement({ identifier: args.identifier!, datestamp: record.datestamp, deleted: true, sets: record.sets }, undefined),
            );
          const metadata = format.write(record.storedBody!);
          if (metadata === undefined)
            return fail(
              'cannotDisseminateFormat',
              `The package of this record has nothing to give as ${format.prefix}: ask for ${FORMATS.filter(
                (f) => f.write(record.storedBody!) !== undefined,
              )
                .map((f) => f.prefix)
                .join(' or ')}.`,
            );
          return respond(
            recordElement({ identifier: args.identifier!, datestamp: record.datestamp, deleted: false, sets: record.sets }, metadata),
          );
        }
        case 'ListIdentifiers':
        case 'ListRecords': {
          let state: ListState;
          if (args.resumptionToken !== undefined) {
            const decoded = decodeToken(args.resumptionToken, await tokenKey());
            if (decoded === undefined || decoded.verb !== verb) {
              return fail(
                'badResumptionToken',
                `The resumptionToken is not one this repository gave for ${verb}: start the list again without it.`,
              );
            }
            state = decoded;
          } else {
            if (formatOf(args.metadataPrefix!) === undefined) return unknownFormat(args.metadataPrefix!);
            if (args.set !== undefined && !SET_SPEC.test(args.set))
              return fail(
                'badArgument',
                "set is not a setSpec (letters, digits and - _ . ! ~ * ' ( ), parts joined by :): see ListSets for the sets here.",
              );
            state = {
              verb,
              metadataPrefix: args.metadataPrefix!,
              set: args.set,
              from: checked.from,
              until: checked.until,
              after: 0,
              cursor: 0,
            };
          }
          const format = formatOf(state.metadataPrefix)!;
          if (state.set !== undefined && args.resumptionToken === undefined && !(await store.oaiSetExists(state.set))) {
            if ((await store.listOaiSets(null, 1)).length === 0)
              return fail('noSetHierarchy', 'This repository has no sets yet: harvest without set.');
            return fail('noRecordsMatch', `No record is in the set ${state.set}: see ListSets for the sets here.`);
          }
          const element =
            verb === 'ListIdentifiers'
              ? header
              : (r: OaiRecord) => {
                  const metadata = r.deleted ? undefined : format.write(r.storedBody!);
                  if (!r.deleted && metadata === undefined) return undefined;
                  return recordElement(
                    { identifier: identifierOf(r.id), datestamp: r.datestamp, deleted: r.deleted, sets: r.sets },
                    metadata,
                  );
                };
          // A page's text depends on its token and on the identifiers' prefix (the host when none is configured).
          const keyOf = (token: string) => `${prefix} ${token}`;
          const page =
            (args.resumptionToken === undefined ? undefined : await prepared.take(keyOf(args.resumptionToken))) ??
            (await readListPage(store, state, pageSize, element));
          if (!page.matched) return fail('noRecordsMatch', 'No record matches the combination of from, until, set and metadataPrefix.');
          if (page.body === '') return fail('noRecordsMatch', `No record of this selection can be given as ${format.prefix}.`);
          const nextState = { ...state, after: page.after, cursor: page.cursor };
          const next = page.more ? encodeToken(nextState, await tokenKey()) : null;
          // The next page, prepared while the harvester reads this one, when its request will come here
          // (on this connection, to this process).
          if (next !== null && context.keepAlive === true)
            prepared.prepare(keyOf(next), () => readListPage(store, nextState, pageSize, element));
          const resumption = page.more || args.resumptionToken !== undefined ? resumptionTokenElement(next, state.cursor) : '';
          return respond(page.body + resumption);
        }
      }
    },
  };
}

function setName(spec: string): string {
  const parsed = parseSetSpec(spec);
  if (parsed?.kind === 'sector') return SECTOR_NAMES[parsed.value as keyof typeof SECTOR_NAMES] ?? parsed.value;
  return parsed?.value ?? spec;
}
