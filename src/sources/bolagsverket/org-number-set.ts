// Remembers which Swedish org numbers a bulk parse has already emitted, and whether the emitted
// row carried a namnskyddslöpnummer. ~2 M numbers must fit in bounded memory: a Set<number> costs
// ~45 bytes per entry on V8 (measured; 10-digit numbers are heap numbers), this open-addressing
// table of doubles costs 16 (8 bytes a slot at ≤ 50 % load). The flag is the sign of the stored
// value; 0 marks an empty slot, which is safe because 0000000000 never reaches here (its month
// digits "00" make it look like a personnummer, so it is skipped before).

type SeenState = 'absent' | 'plain' | 'numbered';

export class OrgNumberSet {
  private slots = new Float64Array(1 << 16);
  private used = 0;

  get size(): number {
    return this.used;
  }

  get(orgNumber: number): SeenState {
    const v = this.slots[this.find(orgNumber)];
    return v === 0 ? 'absent' : v > 0 ? 'plain' : 'numbered';
  }

  set(orgNumber: number, state: 'plain' | 'numbered'): void {
    if (!(orgNumber > 0 && Number.isSafeInteger(orgNumber))) throw new Error(`OrgNumberSet: bad key ${orgNumber}`);
    const i = this.find(orgNumber);
    if (this.slots[i] === 0) {
      this.used++;
      if (this.used * 2 > this.slots.length) {
        this.grow();
        this.slots[this.find(orgNumber)] = state === 'plain' ? orgNumber : -orgNumber;
        return;
      }
    }
    this.slots[i] = state === 'plain' ? orgNumber : -orgNumber;
  }

  /** Slot holding `key`, or the empty slot where it would go (linear probing). */
  private find(key: number): number {
    const mask = this.slots.length - 1;
    // Mix high and low halves: the low digits of org numbers are far from uniform.
    let h = Math.imul((key % 0x100000000) ^ Math.floor(key / 0x100000000), 0x9e3779b1);
    h ^= h >>> 15;
    let i = h & mask;
    for (;;) {
      const v = this.slots[i];
      if (v === 0 || v === key || v === -key) return i;
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const v of old) if (v !== 0) this.slots[this.find(Math.abs(v))] = v;
  }
}
