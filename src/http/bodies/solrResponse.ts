/**
 * Apache Solr's JSON response writer, as the DDB's Solr-native
 * /search/index/{index}/select passes it through (wt=json, json.nl=flat): a success is
 * responseHeader {status 0, QTime, params}, response {numFound, start, numFoundExact,
 * docs}, nextCursorMark with cursorMark, and facet_counts with facet=true; an error is
 * responseHeader {status, QTime, params} and error {metadata, msg, code}, where metadata
 * is the flat name/value list of Solr's ErrorInfo (error-class, root-error-class).
 */
import type { FacetCounts } from '../../search/engine/types.js';
import type { StoredValue } from '../../search/indexHost.js';

/** The request's parameters as Solr echoes them: one value as a string, a repeated one as an array. */
export type SolrParams = Record<string, string | string[]>;

export interface SolrSuccess {
  params: SolrParams;
  qTime: number;
  numFound: number;
  start: number;
  docs: ReadonlyArray<Record<string, StoredValue>>;
  nextCursorMark?: string;
  /** Present when faceting was asked (facet=true); in the order of facet.field. */
  facetFields?: readonly FacetCounts[];
  /**
   * Present with spellcheck=true: whether the query needed no correction, and the corrected
   * query ("" for none). Written as Solr's block with json.nl=flat: suggestions (per word:
   * not given here), correctlySpelled, collations ["collation", text].
   */
  spellcheck?: { correctlySpelled: boolean; collation: string };
}

export function solrResponseToJson(r: SolrSuccess): string {
  const body: Record<string, unknown> = {
    responseHeader: { status: 0, QTime: r.qTime, params: r.params },
    response: { numFound: r.numFound, start: r.start, numFoundExact: true, docs: r.docs },
  };
  if (r.nextCursorMark !== undefined) body.nextCursorMark = r.nextCursorMark;
  if (r.facetFields !== undefined) {
    const fields: Record<string, Array<string | number>> = {};
    for (const f of r.facetFields) fields[f.field] = f.values.flatMap((v) => [v.value, v.count]);
    body.facet_counts = { facet_queries: {}, facet_fields: fields, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} };
  }
  if (r.spellcheck !== undefined) {
    const { correctlySpelled, collation } = r.spellcheck;
    body.spellcheck = { suggestions: [], correctlySpelled, collations: collation === '' ? [] : ['collation', collation] };
  }
  return JSON.stringify(body);
}

const SOLR_EXCEPTION = 'org.apache.solr.common.SolrException';

export function solrErrorToJson(params: SolrParams, status: number, msg: string): string {
  return JSON.stringify({
    responseHeader: { status, QTime: 0, params },
    error: { metadata: ['error-class', SOLR_EXCEPTION, 'root-error-class', SOLR_EXCEPTION], msg, code: status },
  });
}
