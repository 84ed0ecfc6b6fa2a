/**
 * `next` of an async iterator that gives up, as if the iterator had ended,
 * as soon as the signal aborts, also while it waits for input (a quiet
 * standard input). The abandoned `next` may still fail later: that is ignored.
 *
 * Each call listens for the abort only while its own step is pending. Racing
 * every step against one long-lived promise instead (`Promise.race([aborted,
 * step])`) leaves a reaction on that promise per call, and each reaction keeps
 * its step's value: every record of a load stayed in memory, and `ingest
 * items` ran out of heap after ~100,000 packages (nodejs/node#17469).
 */
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export function untilAborted(signal: AbortSignal | undefined): <X>(it: AsyncIterator<X>) => Promise<IteratorResult<X>> {
  if (!signal) return (it) => it.next();
  return <X>(it: AsyncIterator<X>) => {
    if (signal.aborted) return Promise.resolve(DONE);
    const step = it.next();
    step.catch(() => {});
    return new Promise<IteratorResult<X>>((resolve, reject) => {
      const onAbort = () => resolve(DONE);
      signal.addEventListener('abort', onAbort, { once: true });
      step.then(
        (r) => {
          signal.removeEventListener('abort', onAbort);
          // Once the signal has fired it wins, even over a step that settled meanwhile.
          resolve(signal.aborted ? DONE : r);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) resolve(DONE);
          else reject(e);
        },
      );
    });
  };
}
