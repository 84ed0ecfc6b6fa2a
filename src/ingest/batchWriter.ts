/**
 * Collects records and writes them in batches, one transaction each, so a
 * large load neither holds one huge transaction nor pays a commit per record.
 * A crash loses at most the batch in flight; what was committed stays.
 * The store answers with a promise; batches are written
 * one after another, in order.
 */
export class BatchWriter<T, R> {
  private batch: T[] = [];

  constructor(
    private readonly size: number,
    private readonly write: (batch: readonly T[]) => Promise<R>,
    private readonly onWritten: (result: R, batch: readonly T[]) => void,
  ) {}

  /** A promise (to await before the next record) only when the record completed a batch to write. */
  add(record: T): Promise<void> | undefined {
    this.batch.push(record);
    return this.batch.length >= this.size ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.onWritten(await this.write(batch), batch);
  }
}
