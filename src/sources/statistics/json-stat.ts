// The one JSON-stat reader of the four bureaus. SSB, SCB and Statistics Finland (PxWeb) answer
// JSON-stat 2.0 (`{"version":"2.0","class":"dataset",…}`); Statistics Denmark's StatBank API
// answers JSON-stat 1.x (`{"dataset":{"dimension":{"id":[…],"size":[…],…},"value":[…]}}`).
// Both are read into one typed table; anything that does not hold together (sizes that do not
// match the categories or the values, a missing dimension, a non-numeric value) is a
// JsonStatError, so a malformed document never reaches the store.

export class JsonStatError extends Error {}

/**
 * The most cells one table may claim. The largest asked for is a few thousand (every
 * municipality by one period); a document whose sizes multiply past this is refused before any
 * category or value is read, so a crafted answer claiming huge dimensions cannot make the
 * reader walk them.
 */
export const MAX_CELLS = 1_000_000;

interface JsonStatCell {
  /** Category code per dimension id. */
  codes: Record<string, string>;
  value: number | null;
}

interface JsonStatTable {
  label: string | null;
  source: string | null;
  updated: string | null;
  /** Dimension ids in storage order (the last varies fastest). */
  ids: string[];
  /** Category codes per dimension, in index order. */
  categories: Record<string, string[]>;
  /** Category labels per dimension (code -> label). */
  labels: Record<string, Record<string, string>>;
  /** Every cell, in storage order. */
  cells(): Generator<JsonStatCell>;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The dataset object of a 2.0 document, a 1.x `{"dataset":…}` bundle or a 1.x bundle of one named dataset. */
function datasetOf(doc: unknown): { ds: Obj; ids: unknown; sizes: unknown } {
  if (!isObj(doc)) throw new JsonStatError('JSON-stat document is not an object');
  if (doc.class === 'dataset') return { ds: doc, ids: doc.id, sizes: doc.size };
  if (doc.class === 'collection' || doc.class === 'bundle')
    throw new JsonStatError(`JSON-stat ${doc.class} given where a dataset was expected`);
  const named = isObj(doc.dataset) ? doc.dataset : Object.values(doc).find((v) => isObj(v) && isObj(v.dimension));
  if (!isObj(named)) throw new JsonStatError('JSON-stat document holds no dataset');
  const dim = named.dimension as Obj;
  return { ds: named, ids: dim.id, sizes: dim.size };
}

function categoryCodes(dimId: string, dim: unknown): { codes: string[]; labels: Record<string, string> } {
  if (!isObj(dim) || !isObj(dim.category)) throw new JsonStatError(`dimension ${dimId} has no category`);
  const { index, label } = dim.category as { index?: unknown; label?: unknown };
  let codes: string[];
  if (Array.isArray(index)) codes = index.map(String);
  else if (isObj(index)) {
    codes = [];
    const entries = Object.entries(index);
    for (const [code, pos] of entries) {
      // A position past the number of categories would leave a hole (and a huge sparse array).
      if (!Number.isInteger(pos) || (pos as number) < 0 || (pos as number) >= entries.length)
        throw new JsonStatError(`dimension ${dimId}: bad index of ${code}`);
      if (codes[pos as number] !== undefined) throw new JsonStatError(`dimension ${dimId}: index ${pos} given twice`);
      codes[pos as number] = code;
    }
  } else if (isObj(label) && Object.keys(label).length === 1)
    codes = Object.keys(label); // a single-category dimension may omit the index
  else throw new JsonStatError(`dimension ${dimId} has no category index`);
  const labels: Record<string, string> = {};
  if (isObj(label)) for (const [code, text] of Object.entries(label)) if (typeof text === 'string') labels[code] = text;
  for (let i = 0; i < codes.length; i++)
    if (codes[i] === undefined) throw new JsonStatError(`dimension ${dimId}: category index has gaps`);
  return { codes, labels };
}

function readValue(v: unknown, at: number): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new JsonStatError(`value ${at} is not a number`);
}

/** Reads a JSON-stat 2.0 dataset or 1.x bundle; throws JsonStatError when it does not hold together. */
export function readJsonStat(doc: unknown): JsonStatTable {
  const { ds, ids, sizes } = datasetOf(doc);
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string') || ids.length === 0)
    throw new JsonStatError('JSON-stat id is not a list of dimension names');
  if (!Array.isArray(sizes) || sizes.length !== ids.length || !sizes.every((s) => Number.isInteger(s) && s >= 0))
    throw new JsonStatError('JSON-stat size does not match id');
  // Sizes against the bound and the values first: nothing is walked for a document that lies.
  const claimed = (sizes as number[]).reduce((a, b) => a * b, 1);
  if (claimed > MAX_CELLS)
    throw new JsonStatError(`JSON-stat claims ${claimed} cells (sizes ${sizes.join(' x ')}), more than ${MAX_CELLS}`);
  if (Array.isArray(ds.value) && ds.value.length !== claimed)
    throw new JsonStatError(`JSON-stat has ${ds.value.length} values for ${claimed} cells`);
  if (isObj(ds.value) && Object.keys(ds.value).length > claimed)
    throw new JsonStatError(`JSON-stat has ${Object.keys(ds.value).length} values for ${claimed} cells`);
  if (!isObj(ds.dimension)) throw new JsonStatError('JSON-stat dataset has no dimension object');
  const dims = ds.dimension;
  const categories: Record<string, string[]> = {};
  const labels: Record<string, Record<string, string>> = {};
  ids.forEach((id: string, i) => {
    const c = categoryCodes(id, dims[id]);
    if (c.codes.length !== sizes[i])
      throw new JsonStatError(`dimension ${id}: ${c.codes.length} categories but size ${sizes[i]}`);
    categories[id] = c.codes;
    labels[id] = c.labels;
  });
  const total = (sizes as number[]).reduce((a, b) => a * b, 1);
  const raw = ds.value;
  let at: (i: number) => number | null;
  if (Array.isArray(raw)) {
    if (raw.length !== total) throw new JsonStatError(`JSON-stat has ${raw.length} values for ${total} cells`);
    raw.forEach(readValue);
    at = (i) => readValue(raw[i], i);
  } else if (isObj(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      const i = Number(k);
      if (!Number.isInteger(i) || i < 0 || i >= total) throw new JsonStatError(`value index ${k} is out of range`);
      readValue(v, i);
    }
    at = (i) => readValue(raw[String(i)], i);
  } else throw new JsonStatError('JSON-stat dataset has no value');
  const idList = ids as string[];
  const sizeList = sizes as number[];
  return {
    label: str(ds.label),
    source: str(ds.source),
    updated: str(ds.updated),
    ids: idList,
    categories,
    labels,
    *cells() {
      const pos = idList.map(() => 0);
      for (let i = 0; i < total; i++) {
        const codes: Record<string, string> = {};
        idList.forEach((id, d) => (codes[id] = categories[id][pos[d]]));
        yield { codes, value: at(i) };
        for (let d = idList.length - 1; d >= 0; d--) {
          if (++pos[d] < sizeList[d]) break;
          pos[d] = 0;
        }
      }
    },
  };
}
