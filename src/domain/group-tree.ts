// Corporate group trees and ownership maths. The walk is written against two loader functions
// (one query per step) so it stays free of I/O, and it is safe on any ownership data: a cycle of
// parent links (cross-holdings, bad data) never loops, and every company appears at most once.

/** Where a stored parent link came from (companies.parent_source). */
export const PARENT_SOURCE = {
  /** The registry states the parent (brreg overordnetEnhet). */
  registry: 'registry',
  /** Derived: the majority shareholder in the latest year of Aksjonærregisteret. */
  shareholders: 'shareholders',
} as const;

/** A company as the group walk sees it. */
export interface GroupMember {
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  employeeCount: number | null;
  parentOrgNumber: string | null;
  /** Where parentOrgNumber came from: one of PARENT_SOURCE. */
  parentSource: string | null;
}

export interface GroupNode {
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  employeeCount: number | null;
  children: GroupNode[];
}

export interface GroupLoader {
  /** The stored company with this number, if any. */
  member(orgNumber: string): Promise<GroupMember | undefined>;
  /**
   * Companies whose parent is one of `parents`, leaving out `exclude`, at most `limit` of them in
   * a stable order (one query per level of the tree).
   */
  children(parents: string[], exclude: string[], limit: number): Promise<GroupMember[]>;
}

export const GROUP_LIMITS = { maxLevelsUp: 5, maxMembers: 500 } as const;

/**
 * Walks parent links up from `start`, at most `maxLevelsUp` steps, stopping at a company without
 * a (stored) parent. When the walk runs into a cycle, the root is the cycle member with the
 * lowest org number, so every member of the cycle (and everything below it) gets the same tree.
 */
export async function findRoot(
  start: GroupMember,
  member: GroupLoader['member'],
  maxLevelsUp: number = GROUP_LIMITS.maxLevelsUp,
): Promise<GroupMember> {
  const path: GroupMember[] = [start];
  let current = start;
  for (let level = 0; level < maxLevelsUp; level++) {
    const parentNumber = current.parentOrgNumber;
    if (!parentNumber || parentNumber === current.orgNumber) break;
    const seenAt = path.findIndex((m) => m.orgNumber === parentNumber);
    if (seenAt >= 0) {
      const cycle = path.slice(seenAt);
      return cycle.reduce((a, b) => (b.orgNumber < a.orgNumber ? b : a));
    }
    const parent = await member(parentNumber);
    if (!parent) break;
    path.push(parent);
    current = parent;
  }
  return current;
}

/**
 * Breadth-first descendants of `root`, root included, at most `maxMembers` in all. Each level is
 * one loader call; a company already taken is never taken again, so cycles end the walk.
 */
export async function collectMembers(
  root: GroupMember,
  children: GroupLoader['children'],
  maxMembers: number = GROUP_LIMITS.maxMembers,
): Promise<{ members: GroupMember[]; truncated: boolean }> {
  const members: GroupMember[] = [root];
  const taken = new Set([root.orgNumber]);
  let frontier = [root.orgNumber];
  let truncated = false;
  while (frontier.length && !truncated) {
    const room = maxMembers - members.length;
    if (room <= 0) {
      // Full: one more look tells whether anything was left out.
      truncated = (await children(frontier, [...taken], 1)).some((c) => !taken.has(c.orgNumber));
      break;
    }
    const found = await children(frontier, [...taken], room + 1);
    const next: string[] = [];
    for (const c of found) {
      if (taken.has(c.orgNumber)) continue;
      if (members.length >= maxMembers) {
        truncated = true;
        break;
      }
      taken.add(c.orgNumber);
      members.push(c);
      next.push(c.orgNumber);
    }
    frontier = next;
  }
  return { members, truncated };
}

const byNameThenNumber = (a: GroupNode, b: GroupNode) =>
  a.name.localeCompare(b.name, 'nb') || a.orgNumber.localeCompare(b.orgNumber);

/** Nests the members under `rootOrgNumber` by their parent links (members from collectMembers). */
export function buildTree(rootOrgNumber: string, members: GroupMember[]): GroupNode {
  const nodes = new Map<string, GroupNode>();
  for (const m of members) {
    nodes.set(m.orgNumber, {
      orgNumber: m.orgNumber,
      name: m.name,
      orgFormCode: m.orgFormCode,
      employeeCount: m.employeeCount,
      children: [],
    });
  }
  const root = nodes.get(rootOrgNumber);
  if (!root) throw new Error(`root ${rootOrgNumber} is not among the members`);
  for (const m of members) {
    if (m.orgNumber === rootOrgNumber || !m.parentOrgNumber) continue;
    nodes.get(m.parentOrgNumber)?.children.push(nodes.get(m.orgNumber)!);
  }
  const sort = (n: GroupNode) => {
    n.children.sort(byNameThenNumber);
    n.children.forEach(sort);
  };
  sort(root);
  return root;
}

/** Counts the parent links inside the tree by where they came from (for provenance). */
export function linkSources(rootOrgNumber: string, members: GroupMember[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of members) {
    if (m.orgNumber === rootOrgNumber || !m.parentSource) continue;
    out[m.parentSource] = (out[m.parentSource] ?? 0) + 1;
  }
  return out;
}

// ---- Ownership -------------------------------------------------------------------------------

/**
 * The denominator of an ownership share: the total the register states for the share class,
 * or, when it is missing (or zero, which no real company has), the sum of the stored positions.
 */
export function effectiveTotal(stated: number | null, sumOfPositions: number): number {
  return stated !== null && stated > 0 ? stated : sumOfPositions;
}

/** shareCount / total × 100, to six decimals (one share of a billion still shows as > 0). */
export function ownershipPct(shareCount: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.round((shareCount / total) * 100 * 1e6) / 1e6;
}

/** More than half of all shares (integer test: no rounding at exactly 50 %). */
export function holdsMajority(shares: number, total: number): boolean {
  return total > 0 && shares * 2 > total;
}
