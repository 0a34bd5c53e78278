// The web-profile e2e scenario: generated brreg units with websites/e-mails pointing at a set of
// fake sites, and what the pipeline must conclude for each.
//   fjordlys   org number in the footer (confirmed); fjordlys.com redirects to it (an alias);
//              fjordlysregnskap.com, a name guess, is parked
//   nordlys    only an e-mail domain; Shopify + Meta pixel + GTM; Instagram/Facebook
//   bergen     WordPress with LinkedIn Insight and Meta pixel; all four social handles
//   havbris    the registry website is parked
//   shared1-4  four companies listing one web host's page (names on it, no org number)
//   maakeskjaer  the website redirects to private addresses (an IP literal, a name)
//   polar      robots.txt disallows our agent
import type { CompanyCore } from '../../../src/domain/company.ts';
import { mapEnhet } from '../../../src/sources/brreg/map.ts';
import { generateCompany } from '../../../src/sources/brreg/generate.ts';
import { fakePage, fixturePage, html, redirect, startFakeWebsites, type FakeWebsites, type SiteDef } from './server.ts';

export const SINK_ADDRESS = '127.0.0.99';

interface Spec {
  key: string;
  navn: string;
  hjemmeside?: string;
  epostadresse?: string;
}

const SPECS: Spec[] = [
  { key: 'fjordlys', navn: 'FJORDLYS REGNSKAP AS', hjemmeside: 'www.fjordlys.no' },
  { key: 'nordlys', navn: 'NORDLYS STRIKK AS', epostadresse: 'post@nordlysstrikk.no' },
  { key: 'bergen', navn: 'BERGEN BYGG & TØMRER AS', hjemmeside: 'bergenbygg.no', epostadresse: 'post@gmail.com' },
  { key: 'havbris', navn: 'HAVBRIS KONSULT AS', hjemmeside: 'www.havbris.no' },
  { key: 'shared1', navn: 'SOLBERG FRISØR AS', hjemmeside: 'www.vestweb.no' },
  { key: 'shared2', navn: 'VIK BLOMSTER AS', hjemmeside: 'www.vestweb.no' },
  { key: 'shared3', navn: 'DAL TAXI AS', hjemmeside: 'vestweb.no' },
  { key: 'shared4', navn: 'FURU MALER AS', epostadresse: 'furu@vestweb.no' },
  { key: 'maakeskjaer', navn: 'MÅKESKJÆR TRANSPORT AS', hjemmeside: 'www.maakeskjaer.no' },
  { key: 'polar', navn: 'POLAR DATA AS', hjemmeside: 'polardata.no' },
];

/** Generated units (live ones only) with the scenario's names, websites and e-mails. */
export function scenarioCompanies(seed = 11, firstIndex = 700): Record<string, CompanyCore> {
  const out: Record<string, CompanyCore> = {};
  let i = firstIndex;
  for (const spec of SPECS) {
    let g = generateCompany(i++, seed);
    while (g.enhet.slettedato) g = generateCompany(i++, seed);
    const { hjemmeside: _h, epostadresse: _e, ...rest } = g.enhet;
    out[spec.key] = mapEnhet({
      ...rest,
      navn: spec.navn,
      organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      konkurs: false,
      underAvvikling: false,
      ...(spec.hjemmeside ? { hjemmeside: spec.hjemmeside } : {}),
      ...(spec.epostadresse ? { epostadresse: spec.epostadresse } : {}),
    });
  }
  return out;
}

const spaced = (n: string, sep: string) => `${n.slice(0, 3)}${sep}${n.slice(3, 6)}${sep}${n.slice(6)}`;

export function scenarioSites(companies: Record<string, CompanyCore>): SiteDef[] {
  const org = (k: string) => companies[k].orgNumber;
  const parked = fixturePage('parked.html');
  return [
    {
      name: 'fjordlys',
      address: '127.0.0.11',
      hosts: ['www.fjordlys.no', 'fjordlys.no'],
      routes: {
        '/': html(fixturePage('company-footer.html', [['915&nbsp;734&nbsp;200', spaced(org('fjordlys'), '&nbsp;')]])),
      },
    },
    {
      name: 'fjordlys-alias',
      address: '127.0.0.15',
      hosts: ['fjordlys.com'],
      routes: { '/': redirect('http://www.fjordlys.no/', 301) },
    },
    {
      name: 'parked',
      address: '127.0.0.12',
      hosts: ['fjordlysregnskap.com', 'www.havbris.no', 'havbris.no'],
      routes: (host, path) =>
        path === '/'
          ? html(host === 'fjordlysregnskap.com' ? parked : parked.split('fjordlysregnskap.com').join(host))
          : undefined,
    },
    {
      name: 'nordlys',
      address: '127.0.0.13',
      hosts: ['nordlysstrikk.no', 'www.nordlysstrikk.no'],
      routes: { '/': html(fixturePage('shopify-shop.html', [['921 845 634', spaced(org('nordlys'), ' ')]])) },
    },
    {
      name: 'bergen',
      address: '127.0.0.17',
      hosts: ['bergenbygg.no', 'www.bergenbygg.no'],
      routes: { '/': html(fixturePage('wordpress-social.html', [['987654325', org('bergen')]])) },
    },
    {
      name: 'vestweb',
      address: '127.0.0.18',
      hosts: ['www.vestweb.no', 'vestweb.no'],
      routes: { '/': html(fakePage('hosting-customers.html')) },
    },
    {
      name: 'maakeskjaer',
      address: '127.0.0.14',
      hosts: ['www.maakeskjaer.no', 'maakeskjaer.no'],
      routes: (host, path) =>
        path === '/'
          ? redirect(host.startsWith('www.') ? `http://${SINK_ADDRESS}/` : 'http://intranett.maakeskjaer.no/')
          : undefined,
    },
    {
      name: 'polar',
      address: '127.0.0.16',
      hosts: ['polardata.no', 'www.polardata.no'],
      routes: {
        '/robots.txt': {
          status: 200,
          headers: { 'content-type': 'text/plain' },
          body: 'User-agent: ncd-enrichment\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
        },
        '/': html(
          `<html><head><title>Polar Data</title></head><body>Polar Data AS, org.nr ${org('polar')}</body></html>`,
        ),
      },
    },
    {
      name: 'sink',
      address: SINK_ADDRESS,
      hosts: ['intranett.maakeskjaer.no'],
      routes: { '/': html('internal') },
      sink: true,
    },
  ];
}

export async function startScenarioSites(companies: Record<string, CompanyCore>): Promise<FakeWebsites> {
  return startFakeWebsites(scenarioSites(companies));
}
