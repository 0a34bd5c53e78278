import { createReadStream } from 'node:fs';
import * as s from '../src/sources/sanctions/index.ts';
const D = '/work/shared/upstream/sanctions/';
for await (const e of s.parseFtmEntities(createReadStream(D + 'opensanctions-entities.ftm.sample.json')))
  console.log(JSON.stringify(e));
for await (const e of s.parseFtmDelta(createReadStream(D + 'opensanctions-entities.delta.sample.json')))
  console.log(
    JSON.stringify({
      ...e,
      entity: e.entity && { ...e.entity, aliases: e.entity.aliases.length, weakAliases: e.entity.weakAliases.length },
    }),
  );
for await (const e of s.parseEuFsfXml(createReadStream(D + 'eu-fsf-export-excerpt.xml')))
  console.log(JSON.stringify(e));
for await (const e of s.parseUnConsolidatedXml(createReadStream(D + 'un-consolidated-list-excerpt.xml')))
  console.log(JSON.stringify(e));
for await (const e of s.parseTargetsSimpleCsv(createReadStream(D + 'opensanctions-targets.simple.header.csv')))
  console.log(JSON.stringify(e));
