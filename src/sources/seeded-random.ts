// Deterministic pseudo-random numbers for the demo/benchmark data generators: the same seed must
// give byte-identical files on every machine, so Math.random is out. mulberry32 is a tiny,
// well-known 32-bit generator; statistical quality is ample for fake names and counts.

export interface SeededRandom {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    chance: (p) => next() < p,
  };
}

// Shared fake-data vocabulary (Norwegian names with æøå, real postal codes and places, Bring 2024).
export const FIRST_NAMES = [
  'Ola',
  'Kari',
  'Bjørn',
  'Åse',
  'Søren',
  'Ærling',
  'Håkon',
  'Sølvi',
  'Øystein',
  'Märta',
  'Ingrid',
  'Lars',
  'Jørgen',
  'Synnøve',
  'Tor',
  'Gunnhild',
  'Åsmund',
  'Frøydis',
  'Nils',
  'Ragnhild',
] as const;
export const LAST_NAMES = [
  'Nordmann',
  'Hansen',
  'Johansen',
  'Ødegård',
  'Bråthen',
  'Sæther',
  'Løvås',
  'Aasen',
  'Grønli',
  'Kjærnes',
  'Haugen',
  'Dæhli',
  'Strøm',
  'Fjærli',
  'Nilsen',
  'Berg',
  'Åkerø',
  'Myhre',
  'Solbakken',
  'Vågen',
] as const;
export const POSTAL_PLACES: readonly { code: string; place: string; municipalityNo: string; municipality: string }[] = [
  { code: '0150', place: 'OSLO', municipalityNo: '0301', municipality: 'Oslo' },
  { code: '0454', place: 'OSLO', municipalityNo: '0301', municipality: 'Oslo' },
  { code: '1338', place: 'SANDVIKA', municipalityNo: '3201', municipality: 'Bærum' },
  { code: '1606', place: 'FREDRIKSTAD', municipalityNo: '3107', municipality: 'Fredrikstad' },
  { code: '2317', place: 'HAMAR', municipalityNo: '3403', municipality: 'Hamar' },
  { code: '3015', place: 'DRAMMEN', municipalityNo: '3301', municipality: 'Drammen' },
  { code: '3111', place: 'TØNSBERG', municipalityNo: '3905', municipality: 'Tønsberg' },
  { code: '3724', place: 'SKIEN', municipalityNo: '4003', municipality: 'Skien' },
  { code: '4006', place: 'STAVANGER', municipalityNo: '1103', municipality: 'Stavanger' },
  { code: '4612', place: 'KRISTIANSAND S', municipalityNo: '4204', municipality: 'Kristiansand' },
  { code: '5003', place: 'BERGEN', municipalityNo: '4601', municipality: 'Bergen' },
  { code: '6002', place: 'ÅLESUND', municipalityNo: '1508', municipality: 'Ålesund' },
  { code: '7011', place: 'TRONDHEIM', municipalityNo: '5001', municipality: 'Trondheim' },
  { code: '8006', place: 'BODØ', municipalityNo: '1804', municipality: 'Bodø' },
  { code: '9008', place: 'TROMSØ', municipalityNo: '5501', municipality: 'Tromsø' },
  { code: '9600', place: 'HAMMERFEST', municipalityNo: '5603', municipality: 'Hammerfest' },
];
