// SourceText: the window of the input text that the EDM reader still needs.
//
// Why: each record keeps its source text (EdmRecord.sourceXml, for the package's
// `metadata-record`, spec 2.4), so the reader must be able to cut the text of an
// element out of the input; but a 2 GB file must not be held whole. The reader appends every decoded chunk
// here, slices what it needs by absolute
// offset (offsets are those of saxes' `position`: UTF-16 code units from the start of the
// input), and drops everything before the earliest offset it may still need.
//
// Line and column of an offset are counted here, not taken from saxes, because saxes only
// knows the position of the character it reads next, while errors must point at the `<`
// that starts an element. Requests come in document order, so a cursor that only moves
// forward makes the counting linear in the input size.

export interface LineColumn {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export class SourceText {
  private text = '';
  /** Absolute offset of text[0]. */
  private base = 0;
  /** The line counting cursor: an absolute offset, its line, and where that line starts. */
  private cursorOffset = 0;
  private cursorLine = 1;
  private cursorLineStart = 0;

  append(chunk: string): void {
    this.text += chunk;
  }

  /** How many characters are held now. */
  get held(): number {
    return this.text.length;
  }

  /** Absolute offset just past the last appended character. */
  get end(): number {
    return this.base + this.text.length;
  }

  /** The text between two absolute offsets; both must still be held. */
  slice(from: number, to: number): string {
    if (from < this.base) throw new RangeError(`source offset ${from} was already discarded (window starts at ${this.base})`);
    return this.text.slice(from - this.base, to - this.base);
  }

  /** Absolute offset of the last `char` before `before`, or -1 when not held. */
  lastIndexOf(char: string, before: number = this.end): number {
    if (before <= this.base) return -1;
    const at = this.text.lastIndexOf(char, before - this.base - 1);
    return at === -1 ? -1 : at + this.base;
  }

  /** Whether lineColumn(offset) can answer: the offset is held and not before the cursor. */
  canLocate(offset: number): boolean {
    return offset >= this.base && offset >= this.cursorOffset && offset <= this.end;
  }

  lineColumn(offset: number): LineColumn {
    this.advanceTo(offset);
    return { line: this.cursorLine, column: offset - this.cursorLineStart + 1 };
  }

  /** Forgets the text before `offset` (never past the end). */
  discardBefore(offset: number): void {
    const to = Math.min(offset, this.end);
    if (to <= this.base) return;
    this.advanceTo(to);
    this.text = this.text.slice(to - this.base);
    this.base = to;
  }

  private advanceTo(offset: number): void {
    if (offset <= this.cursorOffset) return;
    const from = this.cursorOffset - this.base;
    const to = Math.min(offset, this.end) - this.base;
    for (let nl = this.text.indexOf('\n', from); nl !== -1 && nl < to; nl = this.text.indexOf('\n', nl + 1)) {
      this.cursorLine += 1;
      this.cursorLineStart = nl + 1 + this.base;
    }
    this.cursorOffset = to + this.base;
  }
}
