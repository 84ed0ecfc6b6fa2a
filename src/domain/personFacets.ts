/** The facets of a person, in the order every response lists them (spec 2.2). */
export const PERSON_FACETS = ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'] as const;
export type PersonFacetName = (typeof PERSON_FACETS)[number];
