/** Where a command writes. The CLI passes the process streams; tests pass buffers. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin: NodeJS.ReadableStream;
  /** stderr, for the progress bar (shown only on a terminal). */
  progressStream: NodeJS.WriteStream | undefined;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
  progressStream: process.stderr,
};

/** Exit codes, documented in docs/cli.md. */
export const EXIT = {
  ok: 0,
  /** Bad usage or a fatal problem: nothing (more) was done. */
  failed: 1,
  /** The run finished, but some records were skipped (they are listed). */
  partial: 2,
  /** Stopped by Ctrl-C (128 + SIGINT, as shells report it); what was stored stays, and a re-run goes on. */
  interrupted: 130,
} as const;
