/**
 * An institution (a data provider, or the institution it belongs to) as the packages name
 * it: what a load reads from a package's `provider-info` and GET /institutions and
 * /search/organization show.
 */
/** An institution as a package's `provider-info` describes it (spec 2.4; docs/api.md "Institutions"). */
export interface ProviderRecord {
  /** Identifies the institution in the store: its DDB id, else `provider-id:<id>`, else `name:<name>`. */
  key: string;
  /** provider-ddb-id ("" when unknown). */
  ddbId: string;
  /** provider-id ("" when unknown). */
  providerId: string;
  /** provider-parent-id: the provider-id of the institution it belongs to ("" for none). */
  parentId: string;
  name: string;
  uri: string;
  /** DDB sector codes (sec_01 … sec_07) of its provider-domains, in order, without repeats. */
  sectors: string[];
  /** WGS84 degrees as written in the package; "" when unknown. */
  latitude: string;
  longitude: string;
  state: string;
  logo: string;
}

/** An institution and how many items of the store it delivered. */
export interface ProviderSummary extends ProviderRecord {
  itemCount: number;
}
