import { sanitizeToolName, type ToolDescriptor, type ToolSourceRef } from '@mobileclaw/domain';
import { toolRefOf, type ToolEntry } from './tool-entry';
import { compareStrings, compareToolSourceRanks, toolSourceRanker, type ToolPrecedence, type ToolSourceRank } from './tool-precedence';

/** One source's list, as the merge takes it. */
export interface ToolSourceListing {
  source: ToolSourceRef;
  tools: readonly ToolDescriptor[];
}

interface Candidate {
  descriptor: ToolDescriptor;
  rank: ToolSourceRank;
  /** The name the tool had before sanitising: tools with one foreign name are the same tool offered twice. */
  foreignName: string;
  entry: ToolEntry;
  /** The candidate that shadows this one, once decided. */
  shadowedBy?: Candidate;
}

/**
 * Merges the sources' lists into one view, deterministically: the result depends on the listings'
 * content and `precedence` only, not on the order the listings come in.
 *
 * Rules, for tools whose (sanitised) `name` is the same:
 * 1. The strongest source ({@link ToolPrecedence}) keeps the name.
 * 2. A tool with the same foreign name (`originalName ?? name`) as a stronger one is shadowed by it:
 *    listed, `visible: false`, `shadowedBy` the winner, and listed in the winner's `shadows`.
 * 3. A tool with a different foreign name that sanitised to the same name is a different tool: the
 *    strongest of each foreign name gets `<sourceId>_<name>` (re-sanitised to 64 characters), with
 *    `nameTakenBy` the plain name's holder; when that is taken too, `<kind>_<sourceId>_<name>`; when
 *    that is taken as well, it is shadowed by the holder. Plain names are given out before prefixed ones.
 *
 * Ineligible and unavailable tools take part like any other (precedence is not re-decided whenever a
 * server goes down or an environment variable is set) and stay listed with what they miss.
 * The view is sorted by `exposedName`, visible entries first, then by precedence.
 * @throws Error when `precedence` is invalid (see {@link toolSourceRanker}).
 */
export function mergeTools(listings: readonly ToolSourceListing[], precedence: ToolPrecedence): ToolEntry[] {
  const rankOf = toolSourceRanker(precedence);
  const candidates: Candidate[] = listings.flatMap((listing) => {
    const rank = rankOf(listing.source);
    return listing.tools.map((descriptor) => ({
      descriptor,
      rank,
      foreignName: descriptor.originalName ?? descriptor.name,
      entry: { ...descriptor, exposedName: descriptor.name, visible: true, shadows: [] },
    }));
  });
  candidates.sort((a, b) => compareToolSourceRanks(a.rank, b.rank) || compareStrings(a.descriptor.name, b.descriptor.name));

  const byName = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const group = byName.get(candidate.descriptor.name);
    if (group) group.push(candidate);
    else byName.set(candidate.descriptor.name, [candidate]);
  }

  const holders = new Map<string, Candidate>();
  const prefixed: { candidate: Candidate; holder: Candidate }[] = [];
  for (const [name, group] of byName) {
    const [winner] = group;
    holders.set(name, winner);
    // The strongest tool of each foreign name in the group; weaker ones with that foreign name are shadowed by it.
    const strongestByForeignName = new Map<string, Candidate>();
    for (const candidate of group) {
      const stronger = strongestByForeignName.get(candidate.foreignName);
      if (stronger) shadow(candidate, stronger);
      else {
        strongestByForeignName.set(candidate.foreignName, candidate);
        if (candidate !== winner) prefixed.push({ candidate, holder: winner });
      }
    }
  }
  // Prefixed names in precedence order, after every plain name: a plain name never moves for a prefix.
  for (const { candidate, holder } of prefixed) {
    candidate.entry.nameTakenBy = toolRefOf(holder.descriptor);
    const { kind, id } = candidate.descriptor.source;
    const options = [sanitizeToolName(`${id}_${candidate.descriptor.name}`), sanitizeToolName(`${kind}_${id}_${candidate.descriptor.name}`)];
    const free = options.find((option) => !holders.has(option));
    if (free === undefined) {
      shadow(candidate, holders.get(options[1]) as Candidate);
      continue;
    }
    candidate.entry.exposedName = free;
    holders.set(free, candidate);
  }

  // A shadowed tool's exposed name is what calling it reaches: its winner's (final) name.
  for (const candidate of candidates) {
    let winner = candidate.shadowedBy;
    while (winner?.shadowedBy) winner = winner.shadowedBy;
    if (winner) candidate.entry.exposedName = winner.entry.exposedName;
  }

  const order = new Map(candidates.map((candidate, index) => [candidate.entry, index] as const));
  return candidates
    .map((candidate) => candidate.entry)
    .sort((a, b) => compareStrings(a.exposedName, b.exposedName) || Number(b.visible) - Number(a.visible) || (order.get(a) as number) - (order.get(b) as number));
}

function shadow(loser: Candidate, winner: Candidate): void {
  loser.shadowedBy = winner;
  loser.entry.visible = false;
  loser.entry.shadowedBy = toolRefOf(winner.descriptor);
  winner.entry.shadows.push(toolRefOf(loser.descriptor));
}
