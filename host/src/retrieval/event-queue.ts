/**
 * A binary min-heap of timed events: (time, id, tag), ordered by time, then id, so that events
 * at the same time come out in a fixed order. Parallel typed arrays, grown by doubling.
 */
export class EventQueue {
  private time: Float64Array;
  private id: Int32Array;
  private tag: Uint32Array;
  private count = 0;
  /** Filled by {@link pop}. */
  topTime = 0;
  topId = 0;
  topTag = 0;

  constructor(capacity = 64) {
    const c = Math.max(1, capacity);
    this.time = new Float64Array(c);
    this.id = new Int32Array(c);
    this.tag = new Uint32Array(c);
  }

  get size(): number {
    return this.count;
  }

  push(time: number, id: number, tag = 0): void {
    if (this.count === this.time.length) this.grow();
    let i = this.count++;
    // Sift up: move parents down until the slot fits.
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(time, id, this.time[p]!, this.id[p]!)) break;
      this.copy(p, i);
      i = p;
    }
    this.time[i] = time;
    this.id[i] = id;
    this.tag[i] = tag;
  }

  /** Removes the earliest event into topTime / topId / topTag; false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    this.topTime = this.time[0]!;
    this.topId = this.id[0]!;
    this.topTag = this.tag[0]!;
    const last = --this.count;
    if (last === 0) return true;
    const t = this.time[last]!;
    const d = this.id[last]!;
    const g = this.tag[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && before(this.time[child + 1]!, this.id[child + 1]!, this.time[child]!, this.id[child]!)) child++;
      if (!before(this.time[child]!, this.id[child]!, t, d)) break;
      this.copy(child, i);
      i = child;
    }
    this.time[i] = t;
    this.id[i] = d;
    this.tag[i] = g;
    return true;
  }

  private copy(from: number, to: number): void {
    this.time[to] = this.time[from]!;
    this.id[to] = this.id[from]!;
    this.tag[to] = this.tag[from]!;
  }

  private grow(): void {
    const c = this.time.length * 2;
    const time = new Float64Array(c);
    const id = new Int32Array(c);
    const tag = new Uint32Array(c);
    time.set(this.time);
    id.set(this.id);
    tag.set(this.tag);
    this.time = time;
    this.id = id;
    this.tag = tag;
  }
}

function before(t1: number, id1: number, t2: number, id2: number): boolean {
  return t1 < t2 || (t1 === t2 && id1 < id2);
}
