/**
 * The search-request layer (src/http/searchRequest/): the small readers every search route
 * shares, as tables of parameters and what each reads them as, or the exact 400 it answers.
 * The routes' whole answers are tested over HTTP (search, searchSelect, searchOrganization,
 * searchFacetValues, test/entities/search.test.ts); here each reader on its own, so that a
 * change to one is seen in one place.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { answerOf } from '../../src/http/errorMapping.js';
import { ITEM_FACETS } from '../../src/domain/itemFacets.js';
import { fieldClauses, type FieldParameter } from '../../src/http/searchRequest/fieldClauses.js';
import { parseFor, parseQueryText, readOperator } from '../../src/http/searchRequest/parseQueryText.js';
import { list, one, type Query } from '../../src/http/searchRequest/queryParameters.js';
import { readFacets } from '../../src/http/searchRequest/readFacets.js';
import { readFilters } from '../../src/http/searchRequest/readFilters.js';
import { readPaging, type PagingDialect } from '../../src/http/searchRequest/readPaging.js';
import { readShownFields, shownFieldsOf } from '../../src/http/searchRequest/readShownFields.js';
import { readFacetLimit, readSolrFacets } from '../../src/http/searchRequest/readSolrFacets.js';
import { readSolrSort } from '../../src/http/searchRequest/readSolrSort.js';
import { readSuggestion } from '../../src/http/searchRequest/readSuggestion.js';
import { ITEM_SORTS, ORGANIZATION_SORTS, orList, PERSON_SORTS, readSort } from '../../src/http/searchRequest/readSort.js';
import { toPersonSearch } from '../../src/http/searchRequest/personSearch.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import { itemFieldsFromJson, itemFieldsFromXml, itemStoredFields } from '../../src/formats/itemFields.js';
import { readFileSync, readdirSync } from 'node:fs';
import { CORTEX_DIR } from '../helpers/paths.js';

/** The 400 the error `f` throws is answered with (src/http/errorMapping.ts): [exception name, message]. */
function refusal(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    const { api, log } = answerOf(e, loadConfig().search, 'test');
    assert.equal(log, undefined, `a refusal, not an internal error: ${String(e)}`);
    assert.equal(api.status, 400);
    return [api.errorName, api.message];
  }
  assert.fail('expected a 400');
}

const bad = (message: string): [string, string] => ['InvalidSearchException', message];

describe('queryParameters', () => {
  it('lists every value, and refuses a parameter sent twice where one is read', () => {
    assert.deepEqual(list(undefined), []);
    assert.deepEqual(list('a'), ['a']);
    assert.deepEqual(list(['a', 'b']), ['a', 'b']);
    assert.deepEqual(list(3), ['3']);
    assert.equal(one({ rows: 5 }, 'rows'), '5');
    assert.equal(one({ sort: ['x'] }, 'sort'), 'x');
    assert.equal(one({}, 'sort'), undefined);
    assert.deepEqual(
      refusal(() => one({ sort: ['a', 'b'] }, 'sort')),
      bad('The parameter sort is given 2 times; send it once.'),
    );
  });
});

describe('parseQueryText', () => {
  it('parses over the fields given, a blank text as every document, and answers a syntax error with its position', () => {
    assert.deepEqual(parseFor(itemSchema, undefined, 100), { kind: 'all' });
    assert.deepEqual(parseFor(itemSchema, '  ', 100), { kind: 'all' });
    assert.deepEqual(parseFor(itemSchema, 'title:Rose', 100), { kind: 'term', field: 'title', text: 'Rose' });
    assert.deepEqual(parseQueryText('preferredName:Goethe', { maxLength: 100 }), { kind: 'term', field: 'preferredName', text: 'Goethe' });
    const table: Array<[() => unknown, string]> = [
      [() => parseFor(itemSchema, 'title:(', 100), "Query syntax error at position 7: expected a term after '('."],
      [
        () => parseQueryText('', { maxLength: 100 }),
        'Query syntax error at position 0: query must not be empty; expected a term, a phrase, or *:* for everything.',
      ],
      [
        () => parseQueryText('nope:x', { fields: ['title'], maxLength: 100 }),
        "Query syntax error at position 0: unknown field 'nope'; expected one of the fields title.",
      ],
    ];
    for (const [f, message] of table) {
      assert.deepEqual(refusal(f), ['QuerySyntaxException', `${message} See the query syntax in docs/api.md (Lucene standard syntax).`]);
    }
  });

  it('reads the default operator: AND, OR or absent', () => {
    assert.equal(readOperator({}, 'q.op'), undefined);
    assert.equal(readOperator({ defaultOperator: 'OR' }, 'defaultOperator'), 'OR');
    assert.deepEqual(
      refusal(() => readOperator({ 'q.op': 'and' }, 'q.op')),
      bad("q.op must be AND or OR, not 'and'."),
    );
    assert.deepEqual(
      refusal(() => readOperator({ defaultOperator: 'XOR' }, 'defaultOperator')),
      bad("defaultOperator must be AND or OR, not 'XOR'."),
    );
  });
});

describe('readPaging', () => {
  const v1: PagingDialect = { offset: 'offset', defaultRows: 20 };
  const solr: PagingDialect = { offset: 'start', defaultRows: 10 };

  it('reads offset, rows and cursor', () => {
    const table: Array<[PagingDialect, Query, ReturnType<typeof readPaging>]> = [
      [v1, {}, { offset: 0, rows: 20 }],
      [v1, { offset: 40, rows: 5 }, { offset: 40, rows: 5 }],
      [v1, { cursorMark: '*' }, { offset: 0, rows: 20, cursor: '*' }],
      [v1, { offset: 0, cursorMark: 'abc' }, { offset: 0, rows: 20, cursor: 'abc' }],
      [solr, {}, { offset: 0, rows: 10 }],
      [solr, { start: '7', rows: '3' }, { offset: 7, rows: 3 }],
      [solr, { start: '0', cursorMark: '*' }, { offset: 0, rows: 10, cursor: '*' }],
    ];
    for (const [dialect, q, want] of table) assert.deepEqual(readPaging(q, dialect), want, JSON.stringify(q));
  });

  it('refuses an offset with a cursor, and an empty cursor, in each dialect’s words', () => {
    const table: Array<[PagingDialect, Query, string]> = [
      [
        v1,
        { offset: 20, cursorMark: '*' },
        'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).',
      ],
      [
        solr,
        { start: '20', cursorMark: '*' },
        'Cursor functionality requires start=0: page with cursorMark alone (start with cursorMark=*).',
      ],
      [v1, { cursorMark: '' }, "cursorMark is empty: send '*' to start deep paging."],
      [solr, { cursorMark: '' }, "cursorMark is empty: send '*' to start deep paging."],
      [v1, { cursorMark: ['*', '*'] }, 'The parameter cursorMark is given 2 times; send it once.'],
    ];
    for (const [dialect, q, message] of table)
      assert.deepEqual(
        refusal(() => readPaging(q, dialect)),
        bad(message),
        JSON.stringify(q),
      );
  });
});

describe('readSort', () => {
  it('reads the v1 sort names, case-insensitive, with the seed of a random order', () => {
    const table: Array<[string | undefined, ReturnType<typeof readSort>]> = [
      [undefined, { sort: { kind: 'relevance' }, seed: '' }],
      ['  ', { sort: { kind: 'relevance' }, seed: '' }],
      ['relevance', { sort: { kind: 'relevance' }, seed: '' }],
      ['ALPHA_ASC', { sort: { kind: 'alpha', descending: false }, seed: '' }],
      ['alpha_desc', { sort: { kind: 'alpha', descending: true }, seed: '' }],
      ['COUNT_DESC', { sort: { kind: 'count' }, seed: '' }],
      ['RANDOM_42', { sort: { kind: 'random', seed: '42' }, seed: '42' }],
      ['random_Abc', { sort: { kind: 'random', seed: 'Abc' }, seed: 'Abc' }],
    ];
    for (const [text, want] of table) assert.deepEqual(readSort(text, PERSON_SORTS), want, String(text));
  });

  it('refuses a sort the search does not offer, listing those it does', () => {
    const table: Array<[string, Parameters<typeof readSort>, string]> = [
      ['item', ['NEWEST', ITEM_SORTS], "sort 'NEWEST' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>."],
      ['item', ['COUNT_DESC', ITEM_SORTS], "sort 'COUNT_DESC' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>."],
      ['item', ['RANDOM_', ITEM_SORTS], "sort 'RANDOM_' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>."],
      [
        'person',
        ['nonsense', PERSON_SORTS],
        "sort 'nonsense' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.",
      ],
      [
        'organization',
        ['NEWEST', ORGANIZATION_SORTS, ORGANIZATION_SORTS.sortCriteria.join(', ')],
        "sort 'NEWEST' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC, RANDOM_<seed>.",
      ],
      [
        'long',
        ['x'.repeat(50), ITEM_SORTS],
        `sort '${'x'.repeat(40)}' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC or RANDOM_<seed>.`,
      ],
    ];
    for (const [what, args, message] of table)
      assert.deepEqual(
        refusal(() => readSort(...args)),
        bad(message),
        what,
      );
  });

  it('lists names as a sentence does', () => {
    assert.equal(orList(['A']), 'A');
    assert.equal(orList(['A', 'B']), 'A or B');
    assert.equal(orList(['A', 'B', 'C']), 'A, B or C');
  });
});

describe('readSolrSort', () => {
  it("reads Solr's sorts over a schema's sort keys", () => {
    const table: Array<[string | undefined, ReturnType<typeof readSolrSort>]> = [
      [undefined, { kind: 'relevance' }],
      ['score desc', { kind: 'relevance' }],
      ['score desc, id asc', { kind: 'relevance' }],
      ['id desc', { kind: 'id', descending: true }],
      ['title asc', { kind: 'key', key: 'title', descending: false }],
      ['begin_time desc,id asc', { kind: 'key', key: 'begin_time', descending: true }],
      ['random_7 asc', { kind: 'random', seed: '7' }],
    ];
    for (const [text, want] of table) assert.deepEqual(readSolrSort(text, itemSchema), want, String(text));
    assert.deepEqual(readSolrSort('preferredName desc', personSchema), { kind: 'key', key: 'preferredName', descending: true });
  });

  it('refuses what it cannot sort by, with the sorts it can', () => {
    const sorts = 'score desc, id asc, id desc, title asc, title desc, begin_time asc, begin_time desc or random_<seed> asc';
    const table: Array<[string, string]> = [
      ['title', `Can't use sort 'title': give one field and a direction, e.g. sort=score desc. Sorts: ${sorts}.`],
      [
        'title asc, begin_time asc',
        `Can't use sort 'title asc, begin_time asc': give one field and a direction, e.g. sort=score desc. Sorts: ${sorts}.`,
      ],
      ['title up', "Unknown sort order 'up' in sort: use asc or desc."],
      ['score asc', 'sort=score asc is not offered: the relevance order is score desc.'],
      ['random_7 desc', 'sort=random_7 desc is not offered: a random order is random_7 asc.'],
      ['place_fct asc', `Can't sort on 'place_fct'. Sorts: ${sorts}.`],
    ];
    for (const [text, message] of table)
      assert.deepEqual(
        refusal(() => readSolrSort(text, itemSchema)),
        bad(message),
        text,
      );
  });
});

describe('readFacets', () => {
  const dialect = { facets: ['a_fct', 'b_fct'], defaultLimit: 100, unknown: (f: string) => `facet '${f}' is not here.` };

  it('reads each facet once, in the order named, with facet.limit and minDocs', () => {
    assert.deepEqual(readFacets({}, dialect), []);
    assert.deepEqual(readFacets({ facet: ['b_fct', 'a_fct', 'b_fct'] }, dialect), [
      { field: 'b_fct', limit: 100, mincount: 1, sort: 'count' },
      { field: 'a_fct', limit: 100, mincount: 1, sort: 'count' },
    ]);
    assert.deepEqual(readFacets({ facet: 'a_fct', 'facet.limit': 5, minDocs: 2 }, dialect), [
      { field: 'a_fct', limit: 5, mincount: 3, sort: 'count' },
    ]);
    assert.deepEqual(readFacets({ facet: 'nope' }, dialect, ['b_fct']), [{ field: 'b_fct', limit: 100, mincount: 1, sort: 'count' }]);
  });

  it("refuses a name that is no facet, in the search's words", () => {
    assert.deepEqual(
      refusal(() => readFacets({ facet: ['a_fct', 'c_fct'] }, dialect)),
      bad("facet 'c_fct' is not here."),
    );
  });
});

describe('readSolrFacets', () => {
  it('counts nothing unless faceting is on, then the facet.field facets with their limit, mincount and order', () => {
    const table: Array<[Query, ReturnType<typeof readSolrFacets>]> = [
      [{ 'facet.field': 'place_fct' }, { on: false, facets: [] }],
      [{ facet: 'true' }, { on: true, facets: [] }],
      [
        { facet: 'on', 'facet.field': ['place_fct', 'place_fct'] },
        { on: true, facets: [{ field: 'place_fct', limit: 100, mincount: 0, sort: 'count' }] },
      ],
      [
        { facet: 'true', 'facet.field': 'type_fct', 'facet.limit': '-1', 'facet.mincount': '2' },
        { on: true, facets: [{ field: 'type_fct', limit: -1, mincount: 2, sort: 'index' }] },
      ],
      [
        { facet: 'true', 'facet.field': 'type_fct', 'facet.sort': 'index' },
        { on: true, facets: [{ field: 'type_fct', limit: 100, mincount: 0, sort: 'index' }] },
      ],
    ];
    for (const [q, want] of table) assert.deepEqual(readSolrFacets(q, itemSchema, 'search', 100), want, JSON.stringify(q));
  });

  it('refuses an unknown facet and a facet.limit that is no whole number', () => {
    assert.deepEqual(
      refusal(() => readSolrFacets({ facet: 'true', 'facet.field': 'colour_fct' }, personSchema, 'person', 100)),
      bad(
        "facet.field 'colour_fct' is not a facet of the person index. Facets: person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct.",
      ),
    );
    assert.equal(readFacetLimit(undefined, 100), 100);
    assert.equal(readFacetLimit(' 7 ', 100), 7);
    assert.equal(readFacetLimit('-5', 100), -1);
    for (const text of ['ten', '1.5', '12345678', ''])
      assert.deepEqual(
        refusal(() => readFacetLimit(text, 100)),
        bad(`facet.limit must be a whole number, or -1 for every value; got '${text}'.`),
        text,
      );
  });
});

describe('readFilters', () => {
  const facets = ['a_fct', 'b_fct'];

  it('keeps the values of each facet named as a parameter, in the facets’ order', () => {
    assert.deepEqual(readFilters({}, { facets }), {});
    assert.deepEqual(readFilters({ b_fct: 'x', a_fct: ['y', 'z'], other: 'w' }, { facets }), { a_fct: ['y', 'z'], b_fct: ['x'] });
    assert.deepEqual(readFilters({ a_fct: 'Männlich' }, { facets, normalise: (f, v) => `${f}:${v.toUpperCase()}` }), {
      a_fct: ['a_fct:MÄNNLICH'],
    });
    assert.deepEqual(readFilters({ a_fct: '' }, { facets }), { a_fct: [''] }, 'without listedBy an empty value is a value');
  });

  it('refuses an empty value, saying where the values are listed', () => {
    assert.deepEqual(
      refusal(() => readFilters({ b_fct: ['x', ''] }, { facets, listedBy: (f) => `facet=${f}` })),
      bad('b_fct is empty: give a value to keep (facet=b_fct lists them), or leave the parameter out.'),
    );
  });
});

describe('fieldClauses', () => {
  const parameters: Record<string, FieldParameter> = {
    id: { field: 'id', as: 'term' },
    title: { field: 'title', as: 'phrase' },
    dateOfBirth_de: { field: 'dateOfBirth', as: 'phrase' },
    count: { field: 'count', as: 'number' },
  };

  it('turns each value into a clause on its field, in the order of the parameters', () => {
    assert.deepEqual(fieldClauses({}, parameters, 20), []);
    assert.deepEqual(fieldClauses({ count: '007', title: ['Rose', 'rot'], id: 'X1', dateOfBirth_de: '1749' }, parameters, 20), [
      { kind: 'term', field: 'id', text: 'X1' },
      { kind: 'phrase', field: 'title', text: 'Rose' },
      { kind: 'phrase', field: 'title', text: 'rot' },
      { kind: 'phrase', field: 'dateOfBirth', text: '1749' },
      { kind: 'term', field: 'count', text: '7' },
    ]);
  });

  it('refuses a value too long, an empty text and a count that is no whole number', () => {
    const table: Array<[Query, string]> = [
      [{ title: 'x'.repeat(21) }, 'The value of title is 21 characters long; at most 20 are read.'],
      [{ title: ' ' }, 'title is empty: give the text to look for, or leave the parameter out.'],
      [{ id: '' }, 'id is empty: give the text to look for, or leave the parameter out.'],
      [{ count: 'three' }, 'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].'],
      [{ count: '-1' }, 'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].'],
      [{ count: '' }, 'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].'],
      [{ count: '9'.repeat(21) }, 'The value of count is 21 characters long; at most 20 are read.'],
    ];
    for (const [q, message] of table)
      assert.deepEqual(
        refusal(() => fieldClauses(q, parameters, 20)),
        bad(message),
        JSON.stringify(q),
      );
  });
});

describe('readShownFields', () => {
  const stored = ['id', 'title', 'place_fct'];

  it('reads fl: every field by default or with *, the score when named', () => {
    const table: Array<[string | undefined, ReturnType<typeof readShownFields>]> = [
      [undefined, { fields: '*', score: false }],
      ['', { fields: '*', score: false }],
      ['*,score', { fields: '*', score: true }],
      ['id title', { fields: ['id', 'title'], score: false }],
      ['id,,score', { fields: ['id'], score: true }],
    ];
    for (const [text, want] of table) assert.deepEqual(readShownFields(text, stored), want, String(text));
  });

  it('refuses a field that is not stored, listing those that are', () => {
    assert.deepEqual(
      refusal(() => readShownFields('id,colour', stored)),
      bad("fl names 'colour', which is not a stored field. Stored fields: id, title, place_fct; * for all, score for the score."),
    );
  });

  it('picks the fields of a hit', () => {
    const doc = { id: 'A', title: 'Rose', place_fct: ['Wien'] };
    assert.deepEqual(shownFieldsOf(doc, '*', undefined), doc);
    assert.deepEqual(shownFieldsOf(doc, ['place_fct', 'label'], 1.5), { place_fct: ['Wien'], score: 1.5 });
  });

  it("the item schema's stored fields are the keys of every stored item", () => {
    let seen = 0;
    for (const name of readdirSync(CORTEX_DIR)) {
      const text = readFileSync(CORTEX_DIR + name, 'utf8');
      const fields = name.endsWith('.xml') ? itemFieldsFromXml(text, name) : itemFieldsFromJson(text, name);
      for (const key of Object.keys(itemStoredFields(fields))) assert.ok(itemSchema.storedFields?.includes(key), `${name}: ${key}`);
      seen++;
    }
    assert.ok(seen >= 4, 'the cortex fixtures were read');
  });
});

describe('readSuggestion', () => {
  const dialect = { completes: 'a name', maxLength: 10, defaultRows: 5 };

  it('reads the prefix and how many completions', () => {
    assert.deepEqual(readSuggestion({ query: 'Goe' }, dialect), { prefix: 'Goe', rows: 5 });
    assert.deepEqual(readSuggestion({ query: ' Wien', rows: 2 }, dialect), { prefix: ' Wien', rows: 2 });
  });

  it('refuses an empty prefix and one too long', () => {
    const table: Array<[Query, string]> = [
      [{}, 'query is empty: give the first letters of a name to complete.'],
      [{ query: '  ' }, 'query is empty: give the first letters of a name to complete.'],
      [{ query: 'x'.repeat(11) }, 'query is 11 characters long; a prefix of at most 10 is read.'],
    ];
    for (const [q, message] of table)
      assert.deepEqual(
        refusal(() => readSuggestion(q, dialect)),
        bad(message),
        JSON.stringify(q),
      );
  });
});

describe('toPersonSearch', () => {
  it("wraps the engine's cursor with the search's fingerprint, and refuses a mark of another search", () => {
    const first = toPersonSearch({ query: 'Goethe', cursorMark: '*' });
    assert.equal(first.request.cursor, '*');
    const mark = Buffer.from(JSON.stringify([first.fingerprint, 'engine-cursor'])).toString('base64url');
    assert.equal(toPersonSearch({ query: 'Goethe', cursorMark: mark }).request.cursor, 'engine-cursor');
    assert.deepEqual(
      refusal(() => toPersonSearch({ query: 'Schiller', cursorMark: mark })),
      bad('cursorMark belongs to another search: keep query, filters and sort the same while paging, or start again with cursorMark=*.'),
    );
    assert.deepEqual(
      refusal(() => toPersonSearch({ cursorMark: 'nonsense' })),
      bad("cursorMark is not valid: send '*' to start, then the nextCursorMark of the previous response."),
    );
  });

  it('reads genders in either vocabulary and refuses a filter on no facet', () => {
    const s = toPersonSearch({ query: 'gender:Männlich', person_gender_fct: 'Weiblich' });
    assert.deepEqual(s.request.query, { kind: 'term', field: 'gender', text: 'Mann' });
    assert.deepEqual(s.request.filters, { person_gender_fct: ['Frau'] });
    assert.deepEqual(
      refusal(() => toPersonSearch({ person_hobby_fct: 'x' })),
      bad(
        "'person_hobby_fct' is not a facet to filter on. Facets: person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct.",
      ),
    );
  });

  it('orders by tiers of the preferred name, COUNT_DESC by count', () => {
    const byCount = [
      { key: 'count', descending: true },
      { key: 'preferredName', descending: false },
    ];
    assert.deepEqual(toPersonSearch({ query: 'Goethe' }).request.sort, {
      kind: 'tiers',
      exact: true,
      tiers: [{ kind: 'and', children: [{ kind: 'phrase', field: 'preferredName', text: 'Goethe' }] }],
      keys: byCount,
    });
    assert.deepEqual(toPersonSearch({ sort: 'COUNT_DESC' }).request.sort, { kind: 'tiers', exact: false, tiers: [], keys: byCount });
    assert.deepEqual(toPersonSearch({ sort: 'ALPHA_DESC' }).request.sort, { kind: 'key', key: 'preferredName', descending: true });
  });
});

it('every item facet is a facet of the item schema', () => {
  assert.deepEqual(itemSchema.facets, ITEM_FACETS);
});
