// The fake brreg of bench/events-updates.ts, in a process of its own: brreg is remote in
// production, so serving its pages must not take the CPU of the process whose sync is timed.
// Started by the bench with `fork`; it answers `{ url }` once serving, and for each
// `{ round }` message changes the name and business address of every unit, publishes one `Endring`
// per unit on the updates feed (only this round's entries) and answers `{ ready: round }`.
import { startFakeBrreg } from '../test/fakes/brreg/server.ts';
import { benchUnits } from './events-updates-units.ts';

export interface UpstreamReady {
  url?: string;
  ready?: number;
}

const total = Number(process.argv[2]);
const brreg = await startFakeBrreg();
for (const unit of benchUnits(total)) brreg.enheter.set(unit.organisasjonsnummer, unit);
const numbers = [...brreg.enheter.keys()];
let nextId = 1;

process.on('message', (msg: { round: number }) => {
  const r = msg.round;
  // The feed's position has passed every earlier entry, and the fake filters its whole list for
  // each page: a list that grew by 100k entries a round made each round slower than the last.
  brreg.updates.enheter.length = 0;
  // Its request log would grow by every request of every round.
  brreg.requests.length = 0;
  for (const n of numbers) {
    const e = brreg.enheter.get(n)!;
    const base = (e.navn ?? n).replace(/ R\d+$/, '');
    brreg.enheter.set(n, {
      ...e,
      navn: `${base} R${r}`,
      forretningsadresse: {
        ...e.forretningsadresse,
        adresse: [`Benchveien ${r}`],
        postnummer: '0150',
        poststed: 'OSLO',
      },
    });
    brreg.updates.enheter.push({ oppdateringsid: nextId++, organisasjonsnummer: n, endringstype: 'Endring' });
  }
  process.send!({ ready: r } satisfies UpstreamReady);
});
process.on('disconnect', () => void brreg.close().then(() => process.exit(0)));
process.send!({ url: brreg.url } satisfies UpstreamReady);
