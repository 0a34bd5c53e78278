// `_sources`: which source supplied each field group, and the deduplicated attribution list
// for a "Data via" footer. Assembled from what the store recorded, never per route.

export type FieldSource = string | { source: string; computed: true };

export interface Sources {
  attribution: string[];
  fields: Record<string, FieldSource>;
}

export function buildSources(fields: Record<string, FieldSource | null | undefined>): Sources {
  const clean: Record<string, FieldSource> = {};
  const attribution: string[] = [];
  for (const [group, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    clean[group] = value;
    const name = typeof value === 'string' ? value : value.source;
    if (!attribution.includes(name)) attribution.push(name);
  }
  return { attribution, fields: clean };
}
