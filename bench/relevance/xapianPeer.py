"""The peer of the relevance benchmark (bench/relevance/README.md "The peer"): Xapian, as
Debian's python3-xapian gives it, indexing the documents our engine indexes with the same
field weights, and answering the judged queries.

    /usr/bin/python3 bench/relevance/xapianPeer.py IN.json OUT.json

IN.json: {"fields": [[name, weight], ...], "documents": [{id, text, language}], "queries":
[{id, query, language}]}. OUT.json: {"ranked": {query id: [document ids, best first, at most
100]}, "cpuSeconds": the CPU time of the index and the searches, user and system}.

How it is set up, in the way Xapian's own documentation sets up a search of records:
  - text is folded as our engine folds it (lower case, diacritics removed, ß as ss, ...),
    since Xapian leaves accents alone and the records mix spellings;
  - each document is indexed by a TermGenerator with the Snowball stemmer of its language
    (language_fct: French for the HOPE records; German, as "german2", which also reads ae,
    oe, ue as ä, ö, ü, for the records that declare none: our engine's first default
    language), stemming strategy STEM_SOME (exact terms with positions, stems beside them);
    each value of a field with wdf_inc = the field's weight, 100 positions between values,
    so that a phrase stays within one value; spelling data for corrections;
  - each query is parsed by a QueryParser with the stemmer of the query's language, the
    default operator AND (as GET /search's), FLAG_DEFAULT (phrases, booleans) and spelling
    correction; BM25 (Xapian's default weights) ranks;
  - when a query finds nothing and Xapian offers a corrected query, the corrected query is
    answered, as a reader would follow "did you mean" (our engine is asked the same way).
"""
import json
import sys
import tempfile
import time
import unicodedata

import xapian

SPECIAL = {'ł': 'l', 'ø': 'o', 'đ': 'd', 'ð': 'd', 'ħ': 'h', 'ı': 'i', 'ŀ': 'l', 'ŧ': 't',
           'æ': 'ae', 'œ': 'oe', 'ß': 'ss', 'þ': 'th', 'ĳ': 'ij'}


def fold(text):
    """src/search/engine/fold.ts fold(), in Python."""
    decomposed = unicodedata.normalize('NFKD', text.lower())
    kept = ''.join(c for c in decomposed if not unicodedata.category(c).startswith('M'))
    return ''.join(SPECIAL.get(c, c) for c in kept)


STEMMERS = {'de': 'german2', 'en': 'english', 'fr': 'french', 'nl': 'dutch', 'it': 'italian', 'es': 'spanish'}
CODES = {'de': 'de', 'ger': 'de', 'deu': 'de', 'en': 'en', 'eng': 'en', 'fr': 'fr', 'fre': 'fr', 'fra': 'fr',
         'nl': 'nl', 'dut': 'nl', 'nld': 'nl', 'it': 'it', 'ita': 'it', 'es': 'es', 'spa': 'es'}


def stemmer_of(languages):
    for code in languages:
        language = CODES.get(code.strip().lower())
        if language is not None:
            return xapian.Stem(STEMMERS[language])
    return xapian.Stem(STEMMERS['de'])


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        given = json.load(f)
    started = time.process_time()
    with tempfile.TemporaryDirectory(prefix='heritage-xapian-') as path:
        ranked = answer(given, xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE))
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        json.dump({'ranked': ranked, 'cpuSeconds': time.process_time() - started}, f)


def answer(given, db):
    # on disk (glass): the in-memory backend keeps no spelling data
    tg = xapian.TermGenerator()
    tg.set_database(db)
    tg.set_flags(xapian.TermGenerator.FLAG_SPELLING)
    tg.set_stemming_strategy(xapian.TermGenerator.STEM_SOME)
    for d in given['documents']:
        doc = xapian.Document()
        tg.set_document(doc)
        tg.set_stemmer(stemmer_of(d['language']))
        for name, weight in given['fields']:
            for value in d['text'].get(name, []):
                tg.index_text(fold(value), weight)
                tg.increase_termpos(100)
        doc.set_data(d['id'])
        doc.add_boolean_term('Q' + d['id'])
        db.replace_document('Q' + d['id'], doc)
    out = {}
    enquire = xapian.Enquire(db)
    flags = xapian.QueryParser.FLAG_DEFAULT | xapian.QueryParser.FLAG_SPELLING_CORRECTION
    for q in given['queries']:
        qp = xapian.QueryParser()
        qp.set_database(db)
        qp.set_stemmer(xapian.Stem(STEMMERS[q['language']]))
        qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
        qp.set_default_op(xapian.Query.OP_AND)
        enquire.set_query(qp.parse_query(fold(q['query']), flags))
        mset = enquire.get_mset(0, 100)
        corrected = qp.get_corrected_query_string().decode('utf-8')
        if mset.size() == 0 and corrected != '':
            enquire.set_query(qp.parse_query(corrected, flags))
            mset = enquire.get_mset(0, 100)
        out[q['id']] = [m.document.get_data().decode('utf-8') for m in mset]
    return out


main()
