// Search with the main filters; results update as the user types (debounced), and the filters
// live in the address, so a search can be bookmarked and shared (it holds no key).
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api.ts';
import { formatInteger } from '../format.ts';
import { navigate } from '../router.ts';
import { RequestBuilder, type ShownRequest } from '../parts/request-builder.tsx';
import { Empty } from '../parts/section.tsx';

const FILTERS = ['q', 'country', 'municipality', 'nace', 'orgForm', 'minEmployees'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

interface Row {
  orgNumber: string;
  country: string;
  name: string;
  orgFormCode?: string | null;
  naceCode1?: string | null;
  naceName?: string | null;
  employeeCount?: number | null;
  businessAddressMuni?: string | null;
  status?: string | null;
}

function filtersOf(query: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Filters;
}

function apiQuery(f: Filters) {
  const q: Record<string, string | number> = { limit: 20 };
  if (f.q.trim()) q.q = f.q.trim();
  if (f.country) q.country = f.country;
  if (f.municipality.trim()) q.municipality = f.municipality.trim();
  if (f.nace.trim()) q.nace = f.nace.trim();
  if (f.orgForm.trim()) q.orgForm = f.orgForm.trim().toUpperCase();
  if (f.minEmployees.trim()) q.minEmployees = Number(f.minEmployees);
  return q;
}

export function Search(props: { query: URLSearchParams }) {
  const [filters, setFilters] = useState<Filters>(() => filtersOf(props.query));
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = apiQuery(filters);
  const hasFilter = Object.keys(query).length > 1;

  useEffect(() => {
    const params = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
    history.replaceState(null, '', `/console${params.size ? `?${params}` : ''}`);
    if (!hasFilter) {
      setRows(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api()
        ?.request('get', '/api/companies', { query: query as never })
        .then(
          (page) => live && (setRows((page as { data: Row[] }).data), setError(null)),
          (err) => live && setError(describeError(err)),
        );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [JSON.stringify(filters)]);

  const set = (name: keyof Filters) => (e: Event) =>
    setFilters({ ...filters, [name]: (e.target as HTMLInputElement | HTMLSelectElement).value });
  const shown: ShownRequest = {
    method: 'GET',
    path: '/api/companies',
    query,
    client: `client.companies.search(${JSON.stringify(query)}).page()`,
  };

  return (
    <main id="main">
      <h1>Companies</h1>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field wide">
          <label for="f-name">Name</label>
          <input id="f-name" type="search" value={filters.q} onInput={set('q')} placeholder="e.g. Solberg" />
        </div>
        <div class="field">
          <label for="f-country">Country</label>
          <select id="f-country" value={filters.country} onChange={set('country')}>
            <option value="">All</option>
            <option value="NO">Norway</option>
            <option value="SE">Sweden</option>
            <option value="FI">Finland</option>
            <option value="DK">Denmark</option>
          </select>
        </div>
        <div class="field">
          <label for="f-muni">Municipality code</label>
          <input
            id="f-muni"
            inputMode="numeric"
            value={filters.municipality}
            onInput={set('municipality')}
            placeholder="0301"
          />
        </div>
        <div class="field">
          <label for="f-nace">Industry (NACE)</label>
          <input id="f-nace" value={filters.nace} onInput={set('nace')} placeholder="62" />
        </div>
        <div class="field">
          <label for="f-form">Legal form</label>
          <input id="f-form" value={filters.orgForm} onInput={set('orgForm')} placeholder="AS" />
        </div>
        <div class="field">
          <label for="f-emp">Employees at least</label>
          <input id="f-emp" inputMode="numeric" value={filters.minEmployees} onInput={set('minEmployees')} />
        </div>
      </form>
      <div aria-live="polite">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {!hasFilter && <Empty>Type a name or choose a filter to search.</Empty>}
        {rows && rows.length === 0 && <Empty>No company matches these filters.</Empty>}
        {rows && rows.length > 0 && (
          <table class="results">
            <caption class="visually-hidden">Search results</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Number</th>
                <th scope="col">Industry</th>
                <th scope="col">Municipality</th>
                <th scope="col" class="num">
                  Employees
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const href = `/console/companies/${encodeURIComponent(r.orgNumber)}${r.country === 'NO' ? '' : `?country=${r.country}`}`;
                return (
                  <tr key={`${r.country}:${r.orgNumber}`}>
                    <td>
                      <a href={href} onClick={(e) => (e.preventDefault(), navigate(href))}>
                        {r.name}
                      </a>
                      {r.status && r.status !== 'active' && <span class="badge warn">{r.status}</span>}
                    </td>
                    <td>
                      {r.orgNumber} <span class="muted">{r.country}</span>
                    </td>
                    <td>{r.naceName ?? r.naceCode1 ?? '–'}</td>
                    <td>{r.businessAddressMuni ?? '–'}</td>
                    <td class="num">{formatInteger(r.employeeCount)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <RequestBuilder request={shown} />
    </main>
  );
}
