/**
 * The Solr-native /search/index/{search|person}/select over the real server on the real
 * fixtures (docs/search.md "Solr-native select"): Solr's JSON, whole bodies (QTime, the only measured
 * value, checked to be a whole number and then set to 0), computed here by brute force
 * from the store's own bodies; errors in Solr's shape.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

async function storedItems(t: TestApp): Promise<ItemDocuments[]> {
  const out: ItemDocuments[] = [];
  let position: string | null = null;
  for (;;) {
    const batch = await t.store.readSearchChanges('item', position, 10_000);
    if ('rescan' in batch) throw new Error('rescan');
    for (const c of batch.changes) if (c.body !== null) out.push(itemDocumentsFromJson(c.body, c.id));
    position = batch.position;
    if (batch.done) return out;
  }
}

async function solr(t: TestApp, url: string) {
  const res = await t.app.inject({ url, headers: t.json });
  const body = JSON.parse(res.body);
  assert.ok(Number.isInteger(body.responseHeader.QTime) && body.responseHeader.QTime >= 0);
  body.responseHeader.QTime = 0;
  return { status: res.statusCode, type: res.headers['content-type'], body };
}

const SOLR_ERROR = ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.common.SolrException'];

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, `${FIXTURES}items/edm/`] }));

  test(`${b} select: fq, fl, sort by id, paging, facet.field with limit, mincount and sort`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const hits = all
      .filter((d) => d.search.facets.type_fct?.includes('mediatype_002'))
      .sort((x, y) => compareCodePoints(x.search.id, y.search.id));
    assert.ok(hits.length > 10);
    const url =
      '/search/index/search/select?q=*:*&fq=type_fct:mediatype_002&fl=id,title,sector_fct&sort=id%20asc&rows=3&start=2&facet=true&facet.field=sector_fct&facet.field=has_media_fct&facet.limit=2&facet.mincount=1&wt=json';
    const { status, type, body } = await solr(t, url);
    assert.equal(status, 200);
    assert.equal(type, 'application/json; charset=utf-8');
    const counts = (field: string, limit: number) => {
      const m = new Map<string, number>();
      for (const h of hits) for (const v of h.search.facets[field] ?? []) m.set(v, (m.get(v) ?? 0) + 1);
      return [...m]
        .sort((x, y) => y[1] - x[1] || compareCodePoints(x[0], y[0]))
        .slice(0, limit)
        .flat();
    };
    const fields = (d: ItemDocuments) => {
      const out: Record<string, unknown> = { id: d.result.id, title: d.result.title };
      if ((d.search.facets.sector_fct ?? []).length > 0) out.sector_fct = d.search.facets.sector_fct;
      return out;
    };
    assert.deepEqual(body, {
      responseHeader: {
        status: 0,
        QTime: 0,
        params: {
          q: '*:*',
          fq: 'type_fct:mediatype_002',
          fl: 'id,title,sector_fct',
          sort: 'id asc',
          rows: '3',
          start: '2',
          facet: 'true',
          'facet.field': ['sector_fct', 'has_media_fct'],
          'facet.limit': '2',
          'facet.mincount': '1',
          wt: 'json',
        },
      },
      response: { numFound: hits.length, start: 2, numFoundExact: true, docs: hits.slice(2, 5).map(fields) },
      facet_counts: {
        facet_queries: {},
        facet_fields: { sector_fct: counts('sector_fct', 2), has_media_fct: counts('has_media_fct', 2) },
        facet_ranges: {},
        facet_intervals: {},
        facet_heatmaps: {},
      },
    });
  });

  test(`${b} select: every stored field by default; a cursor pages through every hit once; persons too`, async () => {
    const t = await app();
    const one = await solr(t, '/search/index/search/select?q=id:TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK');
    const stored = (await storedItems(t)).find((d) => d.search.id === 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK')!;
    const doc = one.body.response.docs[0];
    assert.deepEqual(Object.keys(doc).slice(0, 10), Object.keys(stored.result));
    assert.equal(doc.title, 'Goethe');
    assert.deepEqual(doc.place_fct, stored.search.facets.place_fct);

    const seen: string[] = [];
    let cursor = '*';
    for (let i = 0; i < 100; i++) {
      const r = await solr(
        t,
        `/search/index/search/select?q=*:*&fl=id&rows=250&sort=title%20desc&cursorMark=${encodeURIComponent(cursor)}`,
      );
      seen.push(...r.body.response.docs.map((d: { id: string }) => d.id));
      if (r.body.nextCursorMark === cursor) break;
      cursor = r.body.nextCursorMark;
    }
    assert.equal(seen.length, new Set(seen).size);
    assert.equal(seen.length, (await storedItems(t)).length);

    const persons = await solr(t, '/search/index/person/select?q=*:*&rows=0');
    assert.deepEqual(persons.body.response, { numFound: 0, start: 0, numFoundExact: true, docs: [] });
  });

  test(`${b} select: client mistakes are 400s in Solr's shape`, async () => {
    const t = await app();
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      [
        '/search/index/search/select?q=goethe:&wt=json',
        { q: 'goethe:', wt: 'json' },
        400,
        "Query syntax error at position 7: expected a value after 'goethe:'. See the query syntax in docs/api.md (Lucene standard syntax).",
      ],
      [
        '/search/index/search/select?sort=score%20asc',
        { sort: 'score asc' },
        400,
        'sort=score asc is not offered: the relevance order is score desc.',
      ],
      [
        '/search/index/search/select?sort=colour%20asc',
        { sort: 'colour asc' },
        400,
        "Can't sort on 'colour'. Sorts: score desc, id asc, id desc, title asc, title desc, begin_time asc, begin_time desc or random_<seed> asc.",
      ],
      [
        '/search/index/search/select?facet=true&facet.field=colour_fct',
        { facet: 'true', 'facet.field': 'colour_fct' },
        400,
        "facet.field 'colour_fct' is not a facet of the search index. Facets: time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, geocode.",
      ],
      [
        '/search/index/search/select?cursorMark=*&start=10',
        { cursorMark: '*', start: '10' },
        400,
        'Cursor functionality requires start=0: page with cursorMark alone (start with cursorMark=*).',
      ],
      [
        '/search/index/search/select?rows=5000',
        { rows: '5000' },
        400,
        'The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
      ],
      ['/search/index/nodes/select', {}, 400, "The index 'nodes' is not served here. Indexes: search (items), person (persons)."],
      ['/search/index/search/terms', {}, 400, "The request handler 'terms' is not served here: use select (/search/index/search/select)."],
      [
        '/search/index/search/select?fl=id,colour',
        { fl: 'id,colour' },
        400,
        "fl names 'colour', which is not a stored field. Stored fields: id, title, subtitle, label, thumbnail, media, category, type, latitude, longitude, time_fct, place_fct, place_fct_normdata, affiliate_fct, affiliate_fct_normdata, affiliate_fct_role, affiliate_fct_role_normdata, affiliate_fct_involved, affiliate_fct_subject, keywords_fct, keywords_fct_normdata, topic_fct, objecttype_fct, objecttype_fct_normdata, apd_keywords_fct, language_fct, type_fct, sector_fct, provider_fct, provider_fct_normdata, dataprovider_fct, dataprovider_fct_normdata, has_media_fct, license, license_group, begin_time, end_time; * for all, score for the score.",
      ],
      [
        '/search/index/search/select?wt=xml',
        { wt: 'xml' },
        400,
        'Bad request: querystring/wt must be equal to one of the allowed values. See /openapi.json for the parameters of this operation.',
      ],
    ];
    for (const [url, params, status, msg] of cases) {
      const r = await solr(t, url);
      assert.equal(r.status, status, url);
      assert.deepEqual(r.body, { responseHeader: { status, QTime: 0, params }, error: { metadata: SOLR_ERROR, msg, code: status } }, url);
    }
    // Without a key (and anonymous reading off), the 401 is in Solr's shape too.
    const res = await t.app.inject({ url: '/search/index/search/select?q=x', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 401);
    assert.equal(JSON.parse(res.body).error.code, 401);
  });

  test(`${b} select: defType=edismax with qf, mm and pf answers as the standard queries they stand for`, async () => {
    const t = await app();
    const body = async (url: string) => {
      const r = await solr(t, url);
      assert.equal(r.status, 200, url);
      return r.body;
    };
    // the same answer but for the parameters echoed
    const same = async (edismax: string, standard: string) => {
      const a = await body(edismax);
      const b2 = await body(standard);
      assert.ok(a.response.numFound > 0, edismax);
      assert.deepEqual({ ...a, responseHeader: null }, { ...b2, responseHeader: null }, edismax);
      return a;
    };
    const sel = '/search/index/search/select?rows=50&wt=json';
    const q = (s: string) => encodeURIComponent(s);
    // qf: each word in each field, the qf boost in place of the schema's weight (title 8, description 2)
    await same(
      `${sel}&fl=id,score&defType=edismax&q=${q('goethe werke')}&qf=${q('title^10 description')}`,
      `${sel}&fl=id,score&q=${q('(title:goethe^1.25 OR description:goethe^0.5) AND (title:werke^1.25 OR description:werke^0.5)')}`,
    );
    // mm over optional clauses: 2 of 3 (also as -1, 67% and -34%: percentages round down), the hits of those pairs
    const pairs = `${sel}&sort=id%20asc&fl=id&q=${q('(goethe AND brief) OR (goethe AND museum) OR (brief AND museum)')}`;
    for (const mm of ['2', '-1', '67%', '-34%'])
      await same(`${sel}&sort=id%20asc&fl=id&defType=edismax&q=${q('goethe brief museum')}&mm=${q(mm)}`, pairs);
    // mm 1 (and 10%, below one clause) is any clause; 100% all of them
    await same(
      `${sel}&sort=id%20asc&fl=id&defType=edismax&q=${q('goethe brief')}&mm=10%25`,
      `${sel}&sort=id%20asc&fl=id&q=${q('goethe OR brief')}`,
    );
    await same(
      `${sel}&sort=id%20asc&fl=id&defType=edismax&q=${q('johann wolfgang')}&mm=100%25`,
      `${sel}&sort=id%20asc&fl=id&q=${q('johann AND wolfgang')}`,
    );
    // pf: the query's words as a phrase in provider, weighing 16 (16 × provider's 1), add to the scores of the hits that have it
    const hits = await body(`${sel}&fl=id,score&sort=id%20asc&q=${q('goethe haus')}`);
    const phrase = await body(`${sel}&fl=id,score&sort=id%20asc&q=${q('provider:"goethe haus"^16')}`);
    const extra = new Map<string, number>(phrase.response.docs.map((d: { id: string; score: number }) => [d.id, d.score]));
    assert.ok(extra.size > 0, `the phrase is in some titles: ${JSON.stringify(phrase.response)}`);
    const boosted = await body(`${sel}&fl=id,score&sort=id%20asc&defType=edismax&q=${q('goethe haus')}&pf=${q('provider^16')}`);
    assert.deepEqual(boosted.response, {
      ...hits.response,
      docs: hits.response.docs.map((d: { id: string; score: number }) => ({
        id: d.id,
        score: extra.has(d.id) ? d.score + extra.get(d.id)! : d.score,
      })),
    });
  });

  test(`${b} select: edismax parameters it does not take are 400s naming them`, async () => {
    const t = await app();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        '/search/index/search/select?q=a&defType=edismax&tie=0.1&bq=x&pf2=title',
        { q: 'a', defType: 'edismax', tie: '0.1', bq: 'x', pf2: 'title' },
        "edismax's pf2, tie, bq are not supported here; edismax takes qf, pf and mm.",
      ],
      [
        '/search/index/search/select?q=a&defType=edismax&boost=x',
        { q: 'a', defType: 'edismax', boost: 'x' },
        "edismax's boost is not supported here; edismax takes qf, pf and mm.",
      ],
      [
        '/search/index/search/select?q=a&defType=dismax',
        { q: 'a', defType: 'dismax' },
        'defType=dismax is not offered; defType is lucene (the default) or edismax.',
      ],
      [
        '/search/index/search/select?q=a&qf=title&mm=2',
        { q: 'a', qf: 'title', mm: '2' },
        'qf, mm take effect only with defType=edismax; add it, or leave them out.',
      ],
      [
        '/search/index/search/select?q=a&defType=edismax&qf=colour^2',
        { q: 'a', defType: 'edismax', qf: 'colour^2' },
        "qf: 'colour' is not a text field; text fields: title, subtitle, keywords, affiliate, description, place, ranking, provider.",
      ],
      [
        '/search/index/search/select?q=a&defType=edismax&mm=2%3C90%25',
        { q: 'a', defType: 'edismax', mm: '2<90%' },
        "mm='2<90%' is not supported; mm is a whole number (3), a negative one (-1), a percentage (75%) or a negative percentage (-25%).",
      ],
    ];
    for (const [url, params, msg] of cases) {
      const r = await solr(t, url);
      assert.deepEqual(r.body, { responseHeader: { status: 400, QTime: 0, params }, error: { metadata: SOLR_ERROR, msg, code: 400 } }, url);
    }
  });

  test(`${b} select app closes`, async () => {
    await (await app()).close();
  });
}
