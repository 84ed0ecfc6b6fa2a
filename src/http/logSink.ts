/**
 * Where the server's log lines go: by default standard output, one write per
 * turn of the event loop instead of one per line (docs/configuration.md "The request log").
 *
 * Why: at log level info every request writes a line. Written one by one
 * (pino's default destination, a write(2) each) they cost more CPU than the
 * rest of a cached `parents` answer; pino's asynchronous destination measured
 * worse still here (a thread-pool write per batch, and it re-measures its
 * buffer on every line). Lines gathered during a turn and written together
 * at its end cost a fraction of that, and are late by one turn at most.
 *
 * Nothing is lost on a normal exit or a crash that lets Node exit: the lines
 * of the current turn are written at process exit (a SIGKILL loses that turn).
 * On Linux, process.stdout writes synchronously to files, pipes and terminals.
 */

/** What pino and the fast path write log lines to. */
export interface LogSink {
  write(line: string): boolean;
  /** Writes the lines gathered so far (pino's logger.flush calls it with a callback). */
  flush(done?: () => void): void;
  /** Flushes, and stops flushing at exit (the server closed). */
  close(): void;
}

/**
 * Standard output, a turn's lines at once; or the stream given, each line at
 * once, so that a test reads a request's lines as soon as it is answered.
 */
export function createLogSink(stream?: NodeJS.WritableStream): LogSink {
  if (stream !== undefined) return { write: (line) => stream.write(line), flush: (done) => done?.(), close: () => {} };
  return createBatchedSink(process.stdout);
}

/** Writes the lines of each turn to `target` at the turn's end, and at process exit. */
export function createBatchedSink(target: NodeJS.WritableStream): LogSink {
  let lines: string[] = [];
  let scheduled = false;
  const flush = (done?: () => void) => {
    scheduled = false;
    if (lines.length > 0) {
      const text = lines.join('');
      lines = [];
      target.write(text);
    }
    done?.();
  };
  const atExit = () => flush();
  process.on('exit', atExit);
  return {
    write(line) {
      lines.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(atExit);
      }
      return true;
    },
    flush,
    close() {
      flush();
      process.removeListener('exit', atExit);
    },
  };
}
