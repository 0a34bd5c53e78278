// A company page: core facts with their sources, signals, financials as a chart with the ratios,
// and roles; then owners, group, registers, procurement, market context, screening and the
// timeline (company-sections.tsx), each read on its own so the first facts render at once.
import { api } from '../api.ts';
import { COUNTRY_CURRENCY, formatDate, formatInteger, formatMoney, formatPct } from '../format.ts';
import { FinancialChart } from '../parts/financial-chart.tsx';
import { RequestBuilder } from '../parts/request-builder.tsx';
import { Empty, Loaded, Section } from '../parts/section.tsx';
import { SourceLink } from '../parts/source-link.tsx';
import { useLoad } from '../parts/use-load.ts';
import { sourceName } from '../sources.ts';
import { CompanySections } from './company-sections.tsx';

type Rec = Record<string, unknown> & {
  orgNumber: string;
  country: string;
  name: string;
  financials?: Financial[];
  roles?: Role[];
  signals?: Record<string, unknown> & {
    explanation?: Record<string, { rule: string; inputs: Record<string, unknown>; year: number | null }>;
  };
  _sources?: { attribution: string[]; fields: Record<string, unknown> };
};
interface Financial {
  periodTo?: string | null;
  periodFrom?: string | null;
  currency?: string | null;
  revenue?: number | null;
  operatingProfit?: number | null;
  netResult?: number | null;
  equity?: number | null;
  totalAssets?: number | null;
  profitMargin?: number | null;
  operatingMargin?: number | null;
  returnOnEquity?: number | null;
  equityRatio?: number | null;
  revenueGrowthYoY?: number | null;
  regnskapstype?: string | null;
}
interface Role {
  roleTypeDescription?: string | null;
  roleTypeCode?: string | null;
  personFirstName?: string | null;
  personMiddleName?: string | null;
  personLastName?: string | null;
  personBirthYear?: number | null;
  entityName?: string | null;
  entityOrgNumber?: string | null;
}

const str = (v: unknown) => (v === null || v === undefined || v === '' ? '–' : String(v));

function Facts(props: { rec: Rec }) {
  const r = props.rec;
  const core = sourceName(r._sources?.fields.companyCore);
  const facts: [string, unknown][] = [
    ['Legal form', r.orgFormName ?? r.orgFormDescription ?? r.orgFormCode],
    ['Industry', r.naceCode1 ? `${r.naceCode1} ${str(r.naceName ?? r.naceDescription1)}` : null],
    ['Employees', typeof r.employeeCount === 'number' ? formatInteger(r.employeeCount) : null],
    ['Size', r.sizeClass],
    [
      'Address',
      [r.businessAddressStreet, r.businessAddressPostalCode, r.businessAddressCity].filter(Boolean).join(', '),
    ],
    ['Municipality', r.businessAddressMuni ?? r.municipalityName],
    ['Founded', formatDate(r.foundingDate as string | null)],
    ['Status', r.status],
    ['Website', r.website],
    [
      'Marketing protected',
      r.marketingProtected === undefined || r.marketingProtected === null ? null : r.marketingProtected ? 'yes' : 'no',
    ],
  ];
  return (
    <dl class="facts">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>
            {label === 'Website' && typeof value === 'string' ? (
              <a href={value} rel="noopener noreferrer" target="_blank">
                {value}
              </a>
            ) : (
              <SourceLink source={core} orgNumber={r.orgNumber}>
                {str(value)}
              </SourceLink>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Signals(props: { rec: Rec }) {
  const s = props.rec.signals;
  if (!s) return <Empty>No signals for this company.</Empty>;
  const names = [
    'financialHealthScore',
    'revenueCagr',
    'ownershipConcentrationPct',
    'isForeignOwned',
    'isInDebtNegotiation',
  ];
  return (
    <dl class="facts signals">
      {names.map((n) => {
        const v = s[n];
        const why = s.explanation?.[n];
        const shown =
          v === null || v === undefined ? '–' : n === 'revenueCagr' ? formatPct((v as number) * 100) : String(v);
        return (
          <div key={n}>
            <dt>{n}</dt>
            <dd>
              {shown}
              {why && (
                <details>
                  <summary>How</summary>
                  <p>{why.rule}</p>
                  <p class="muted">
                    {Object.entries(why.inputs)
                      .map(([k, x]) => `${k}: ${x === null ? '–' : String(x)}`)
                      .join(' · ')}
                    {why.year ? ` · year ${why.year}` : ''}
                  </p>
                </details>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function Financials(props: { rec: Rec }) {
  const list = (props.rec.financials ?? []).filter((f) => f.periodTo);
  if (list.length === 0) return <Empty>No filed accounts in the store for this company.</Empty>;
  const currency = list[0].currency ?? COUNTRY_CURRENCY[props.rec.country] ?? '';
  const source = sourceName(props.rec._sources?.fields.financials);
  const years = list.map((f) => ({
    year: Number(f.periodTo!.slice(0, 4)),
    revenue: f.revenue ?? null,
    netResult: f.netResult ?? null,
    equity: f.equity ?? null,
  }));
  return (
    <>
      <FinancialChart years={years} currency={currency} />
      <table class="figures">
        <caption>Filed accounts ({currency})</caption>
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col" class="num">
              Revenue
            </th>
            <th scope="col" class="num">
              Operating profit
            </th>
            <th scope="col" class="num">
              Net result
            </th>
            <th scope="col" class="num">
              Equity
            </th>
            <th scope="col" class="num">
              Equity ratio
            </th>
            <th scope="col" class="num">
              Profit margin
            </th>
            <th scope="col" class="num">
              Return on equity
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((f) => (
            <tr key={`${f.periodTo}-${f.regnskapstype ?? ''}`}>
              <th scope="row">{f.periodTo!.slice(0, 4)}</th>
              {[f.revenue, f.operatingProfit, f.netResult, f.equity].map((v, i) => (
                <td class="num" key={i}>
                  <SourceLink source={source} orgNumber={props.rec.orgNumber}>
                    {formatMoney(v, '')}
                  </SourceLink>
                </td>
              ))}
              <td class="num">{formatPct(f.equityRatio)}</td>
              <td class="num">{formatPct(f.profitMargin)}</td>
              <td class="num">{formatPct(f.returnOnEquity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Roles(props: { rec: Rec }) {
  const roles = props.rec.roles ?? [];
  if (roles.length === 0) return <Empty>The registry lists no roles for this company.</Empty>;
  return (
    <ul class="roles">
      {roles.map((r, i) => (
        <li key={i}>
          <strong>{r.roleTypeDescription ?? r.roleTypeCode}</strong>:{' '}
          {r.entityName ??
            [r.personFirstName, r.personMiddleName, r.personLastName].filter(Boolean).join(' ') +
              (r.personBirthYear ? ` (born ${r.personBirthYear})` : '')}
        </li>
      ))}
    </ul>
  );
}

export function Company(props: { orgNumber: string; country: string }) {
  const { orgNumber, country } = props;
  const [load] = useLoad(
    () =>
      api()!.request('get', '/api/companies/{orgNumber}', {
        params: { orgNumber },
        query: { country } as never,
      }) as Promise<Rec>,
    [orgNumber, country],
  );
  return (
    <main id="main">
      <Loaded load={load}>
        {(rec) => (
          <>
            <h1>
              {rec.name} <span class="muted">{`${rec.orgNumber} · ${rec.country}`}</span>
            </h1>
            <p class="attribution">Sources: {(rec._sources?.attribution ?? []).join(', ') || '–'}</p>
            <Section id="facts" title="Facts" source={sourceName(rec._sources?.fields.companyCore)}>
              <Facts rec={rec} />
            </Section>
            <Section id="signals" title="Signals">
              <Signals rec={rec} />
            </Section>
            <Section id="financials" title="Financials" source={sourceName(rec._sources?.fields.financials)}>
              <Financials rec={rec} />
            </Section>
            <Section id="roles" title="Roles" source={sourceName(rec._sources?.fields.roles)}>
              <Roles rec={rec} />
            </Section>
            <CompanySections rec={rec} />
          </>
        )}
      </Loaded>
      <RequestBuilder
        request={{
          method: 'GET',
          path: `/api/companies/${orgNumber}`,
          query: country === 'NO' ? undefined : { country },
          client: `client.companies.get('${orgNumber}'${country === 'NO' ? '' : `, { country: '${country}' }`})`,
        }}
      />
    </main>
  );
}
