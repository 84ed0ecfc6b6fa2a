/**
 * Collects records and writes them in batches, one transaction each, so a
 * large load neither holds one huge transaction nor pays a commit per record.
 * A crash loses at most the batch in flight; what was committed stays.
 */
export class BatchWriter<T, R> {
  private batch: T[] = [];

  constructor(
    private readonly size: number,
    private readonly write: (batch: readonly T[]) => R,
    private readonly onWritten: (result: R, batch: readonly T[]) => void,
  ) {}

  add(record: T): void {
    this.batch.push(record);
    if (this.batch.length >= this.size) this.flush();
  }

  flush(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.onWritten(this.write(batch), batch);
  }
}
