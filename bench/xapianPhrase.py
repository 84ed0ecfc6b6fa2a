"""
The Xapian side of bench/phrasePeers.ts (docs/benchmarks.md "Phrases beside Xapian and
FTS5"): indexes the documents of a JSON-lines file (one list of [weight, [values]] per
document, text already folded as our engine folds it) with positions, then runs each
query of a second file and prints per query its CPU time (process_time) and hit count.

Run by bench/phrasePeers.ts with Debian's python3-xapian:
  /usr/bin/python3 bench/xapianPhrase.py DOCS QUERIES DBDIR
Query lines: {"words": [...], "slop": 0} (slop 0: OP_PHRASE; else OP_NEAR with a window
of words + slop, unordered, as Lucene's sloppy phrase).
"""
import json
import sys
import time

import xapian

docs_path, queries_path, db_path = sys.argv[1:4]

db = xapian.WritableDatabase(db_path, xapian.DB_CREATE_OR_OVERWRITE)
tg = xapian.TermGenerator()
c0 = time.process_time()
w0 = time.time()
n = 0
with open(docs_path, encoding="utf-8") as f:
    for line in f:
        fields = json.loads(line)
        doc = xapian.Document()
        tg.set_document(doc)
        for weight, values in fields:
            for v in values:
                tg.index_text(v, weight)
                # a phrase stays within one value, as ours does
                tg.increase_termpos(100)
        db.add_document(doc)
        n += 1
db.commit()
build = {"docs": n, "cpu": time.process_time() - c0, "wall": time.time() - w0}

enq = xapian.Enquire(db)
count = db.get_doccount()
out = []
with open(queries_path, encoding="utf-8") as f:
    queries = [json.loads(line) for line in f]
for exact in (True, False):
    for q in queries:
        words = q["words"]
        slop = q.get("slop", 0)
        if slop == 0:
            query = xapian.Query(xapian.Query.OP_PHRASE, words, len(words))
        else:
            query = xapian.Query(xapian.Query.OP_NEAR, words, len(words) + slop)
        c = time.process_time()
        enq.set_query(query)
        # checkatleast = every document: an exact total, as our engine and FTS5 give
        m = enq.get_mset(0, 20, count if exact else 0)
        hits = m.get_matches_estimated()
        for item in m:
            item.docid
        out.append({"exact": exact, "cpu": (time.process_time() - c) * 1000, "hits": hits})
print(json.dumps({"build": build, "queries": out}))
