// Corporate group trees (GET /api/companies/{orgNumber}/group): walk parent links up at most five
// levels to the root, then take the descendants breadth-first, at most 500 members, one query
// per level. Parent links come from the registry, else from the majority shareholder
// (store/groups.ts derives them after every shareholder import). DK: the CVR owner over 50 %.
import { SOURCE } from '../../domain/company.ts';
import { buildTree, collectMembers, findRoot, GROUP_LIMITS, linkSources } from '../../domain/group-tree.ts';
import { ApiError } from '../../errors.ts';
import type { GroupCountry, GroupRepository } from '../../store/groups.ts';
import { norwegianOrgNumber } from './shareholders.ts';
import { danishCvrNumber } from './shareholders-dk.ts';

const LINK_SOURCE: Record<string, string> = { registry: SOURCE.brreg, shareholders: SOURCE.aksjonaer };

/**
 * One `_sources` block for the tree. groupHierarchy names the source of most parent links in
 * it (the registry on a tie or when there are none); attribution credits every source used.
 */
function treeSources(links: Record<string, number>) {
  const counted = Object.entries(links).sort((a, b) => b[1] - a[1] || (a[0] === 'registry' ? -1 : 1));
  const hierarchy = counted.length ? (LINK_SOURCE[counted[0][0]] ?? SOURCE.brreg) : SOURCE.brreg;
  const attribution = [SOURCE.brreg, ...counted.map(([s]) => LINK_SOURCE[s] ?? SOURCE.brreg)];
  return { attribution: [...new Set(attribution)], fields: { companyCore: SOURCE.brreg, groupHierarchy: hierarchy } };
}

/** Danish parents are the owner over 50 % in CVR's owner register, set at ingest. */
const DK_SOURCES = { attribution: [SOURCE.cvr], fields: { companyCore: SOURCE.cvr, groupHierarchy: SOURCE.cvr } };

export interface GroupServiceDeps {
  groups: GroupRepository;
}

export function createGroupService(deps: GroupServiceDeps) {
  const repo = deps.groups;
  return {
    async tree(rawOrgNumber: string, country: GroupCountry = 'NO') {
      const orgNumber =
        country === 'DK'
          ? danishCvrNumber(rawOrgNumber, 'params.orgNumber')
          : norwegianOrgNumber(rawOrgNumber, 'params.orgNumber');
      const start = await repo.member(orgNumber, country);
      if (!start) {
        const q = country === 'NO' ? '' : `?country=${country}`;
        throw new ApiError('company_not_found', {
          message: `Company ${orgNumber} is not in the store; call GET /api/companies/${orgNumber}${q} first to fetch it`,
        });
      }
      const root = await findRoot(start, (n) => repo.member(n, country), GROUP_LIMITS.maxLevelsUp);
      const { members, truncated } = await collectMembers(
        root,
        (p, e, l) => repo.children(p, e, l, country),
        GROUP_LIMITS.maxMembers,
      );
      const tree = buildTree(root.orgNumber, members);
      return {
        root: tree,
        totalMembers: members.length,
        ...(truncated ? { truncated: true } : {}),
        ...(members.length === 1
          ? { message: 'This company has no parent and no subsidiaries in the store: the group is the company alone.' }
          : {}),
        _sources: country === 'DK' ? DK_SOURCES : treeSources(linkSources(root.orgNumber, members)),
      };
    },
  };
}
