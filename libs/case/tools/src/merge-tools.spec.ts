import { toolEligibility, type ToolDescriptor, type ToolSourceKind } from '@mobileclaw/domain';
import { mergeTools, type ToolSourceListing } from './merge-tools';
import { tool } from './testing/fake-tool-source';
import { DEFAULT_TOOL_PRECEDENCE, toolSourceRanker, type ToolPrecedence } from './tool-precedence';
import type { ToolEntry } from './tool-entry';

const NATIVE = { kind: 'native', id: 'phone' } as const;
const SKILLS = { kind: 'skills', id: 'workspace' } as const;
const AGENT = { kind: 'agent', id: 'pc' } as const;
const ERP = { kind: 'mcp', id: 'erp' } as const;
const CRM = { kind: 'catalog', id: 'crm' } as const;

function listing(source: { kind: ToolSourceKind; id: string }, ...tools: (string | [string, Partial<ToolDescriptor>])[]): ToolSourceListing {
  return { source, tools: tools.map((spec) => (typeof spec === 'string' ? tool(source, spec) : tool(source, spec[0], spec[1]))) };
}

/** The view as `exposedName ← kind:id/name` lines, with what the merge decided. */
function summary(entries: ToolEntry[]): string[] {
  return entries.map((entry) => {
    const ref = `${entry.source.kind}:${entry.source.id}/${entry.name}`;
    const shadowed = entry.shadowedBy ? ` shadowedBy ${entry.shadowedBy.source.kind}:${entry.shadowedBy.source.id}/${entry.shadowedBy.name}` : '';
    const taken = entry.nameTakenBy ? ` nameTakenBy ${entry.nameTakenBy.source.kind}:${entry.nameTakenBy.source.id}/${entry.nameTakenBy.name}` : '';
    const shadows = entry.shadows.length ? ` shadows ${entry.shadows.map((s) => `${s.source.kind}:${s.source.id}/${s.name}`).join(',')}` : '';
    return `${entry.exposedName} ← ${ref}${entry.visible ? '' : ' (hidden)'}${shadowed}${taken}${shadows}`;
  });
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describe('mergeTools', () => {
  it('lists every tool of every source under its own name when nothing collides', () => {
    const view = mergeTools([listing(SKILLS, 'book_table'), listing(ERP, 'invoice_get')], DEFAULT_TOOL_PRECEDENCE);
    expect(summary(view)).toEqual(['book_table ← skills:workspace/book_table', 'invoice_get ← mcp:erp/invoice_get']);
    expect(view[0]).toMatchObject({ exposedName: 'book_table', visible: true, shadows: [], mode: 'SKILL' });
    expect(view[0].shadowedBy).toBeUndefined();
  });

  it('lets workspace skills beat agent sessions beat remote catalogs, reporting each loser', () => {
    const view = mergeTools([listing(ERP, 'weather'), listing(AGENT, 'weather'), listing(SKILLS, 'weather')], DEFAULT_TOOL_PRECEDENCE);
    expect(summary(view)).toEqual([
      'weather ← skills:workspace/weather shadows agent:pc/weather,mcp:erp/weather',
      'weather ← agent:pc/weather (hidden) shadowedBy skills:workspace/weather',
      'weather ← mcp:erp/weather (hidden) shadowedBy skills:workspace/weather',
    ]);
  });

  it('never lets anything shadow a native tool', () => {
    const view = mergeTools([listing(SKILLS, 'tap'), listing(ERP, 'tap'), listing(NATIVE, 'tap')], DEFAULT_TOOL_PRECEDENCE);
    expect(summary(view)).toEqual([
      'tap ← native:phone/tap shadows skills:workspace/tap,mcp:erp/tap',
      'tap ← skills:workspace/tap (hidden) shadowedBy native:phone/tap',
      'tap ← mcp:erp/tap (hidden) shadowedBy native:phone/tap',
    ]);
  });

  it('orders remote catalogs and MCP servers by configuration order, then by kind:id', () => {
    const configured = mergeTools([listing(ERP, 'lookup'), listing(CRM, 'lookup')], { ...DEFAULT_TOOL_PRECEDENCE, sourceOrder: ['mcp:erp', 'catalog:crm'] });
    expect(summary(configured)[0]).toBe('lookup ← mcp:erp/lookup shadows catalog:crm/lookup');
    const reversed = mergeTools([listing(ERP, 'lookup'), listing(CRM, 'lookup')], { ...DEFAULT_TOOL_PRECEDENCE, sourceOrder: ['catalog:crm', 'mcp:erp'] });
    expect(summary(reversed)[0]).toBe('lookup ← catalog:crm/lookup shadows mcp:erp/lookup');
    // Neither configured: by kind:id, `catalog:crm` < `mcp:erp`.
    expect(summary(mergeTools([listing(ERP, 'lookup'), listing(CRM, 'lookup')], DEFAULT_TOOL_PRECEDENCE))[0]).toBe('lookup ← catalog:crm/lookup shadows mcp:erp/lookup');
  });

  it('follows a configured precedence: remote catalogs over skills when configured so, native still first', () => {
    const precedence: ToolPrecedence = { tiers: [['mcp', 'catalog'], ['skills'], ['agent']] };
    const view = mergeTools([listing(SKILLS, 'weather', 'home'), listing(ERP, 'weather', 'home'), listing(NATIVE, 'home')], precedence);
    expect(summary(view)).toEqual([
      'home ← native:phone/home shadows mcp:erp/home,skills:workspace/home',
      'home ← mcp:erp/home (hidden) shadowedBy native:phone/home',
      'home ← skills:workspace/home (hidden) shadowedBy native:phone/home',
      'weather ← mcp:erp/weather shadows skills:workspace/weather',
      'weather ← skills:workspace/weather (hidden) shadowedBy mcp:erp/weather',
    ]);
  });

  it('refuses a precedence that places native or names a kind twice', () => {
    expect(() => toolSourceRanker({ tiers: [['native' as never]] })).toThrow('native is always first');
    expect(() => toolSourceRanker({ tiers: [['mcp'], ['mcp']] })).toThrow('source kind mcp appears twice');
  });

  it('keeps distinct foreign names that sanitise alike apart with a source prefix, the strongest keeping the plain name', () => {
    const view = mergeTools(
      [listing(ERP, ['weather_get', { originalName: 'weather.get' }]), listing(CRM, ['weather_get', { originalName: 'weather get' }]), listing(SKILLS, 'weather_get')],
      DEFAULT_TOOL_PRECEDENCE,
    );
    expect(summary(view)).toEqual([
      'crm_weather_get ← catalog:crm/weather_get nameTakenBy skills:workspace/weather_get',
      'erp_weather_get ← mcp:erp/weather_get nameTakenBy skills:workspace/weather_get',
      'weather_get ← skills:workspace/weather_get',
    ]);
  });

  it('shadows a same-foreign-name tool behind the prefixed one and gives it that exposed name', () => {
    const view = mergeTools(
      [listing(SKILLS, 'a_b'), listing(CRM, ['a_b', { originalName: 'a.b' }]), listing(ERP, ['a_b', { originalName: 'a.b' }])],
      DEFAULT_TOOL_PRECEDENCE,
    );
    expect(summary(view)).toEqual([
      'a_b ← skills:workspace/a_b',
      'crm_a_b ← catalog:crm/a_b nameTakenBy skills:workspace/a_b shadows mcp:erp/a_b',
      'crm_a_b ← mcp:erp/a_b (hidden) shadowedBy catalog:crm/a_b',
    ]);
  });

  it('falls back to kind_id_name when the prefixed name is taken, and cuts prefixed names to 64 characters', () => {
    const view = mergeTools(
      [listing(SKILLS, 'x', 'erp_x'), listing(ERP, ['x', { originalName: 'x!' }])],
      DEFAULT_TOOL_PRECEDENCE,
    );
    expect(summary(view)).toContain('mcp_erp_x ← mcp:erp/x nameTakenBy skills:workspace/x');
    const long = 'l'.repeat(64);
    const longView = mergeTools([listing(SKILLS, long), listing(ERP, [long, { originalName: `${long}!` }])], DEFAULT_TOOL_PRECEDENCE);
    const prefixed = longView.find((entry) => entry.source.kind === 'mcp') as ToolEntry;
    expect(prefixed.exposedName).toHaveLength(64);
    expect(prefixed.exposedName).toMatch(/^erp_l{51}_[0-9a-f]{8}$/);
    expect(prefixed.visible).toBe(true);
  });

  it('keeps ineligible and unavailable tools listed, visible and with what they miss', () => {
    const view = mergeTools(
      [listing(SKILLS, ['ffmpeg_clip', { eligibility: toolEligibility(['bin:ffmpeg']) }]), listing(ERP, ['invoice_get', { available: false }])],
      DEFAULT_TOOL_PRECEDENCE,
    );
    expect(view.map((entry) => [entry.exposedName, entry.visible, entry.eligibility, entry.available])).toEqual([
      ['ffmpeg_clip', true, { eligible: false, missing: ['bin:ffmpeg'] }, true],
      ['invoice_get', true, { eligible: true, missing: [] }, false],
    ]);
  });

  it('lets an ineligible or unavailable winner still win: precedence does not flap with a server or an environment', () => {
    const view = mergeTools([listing(SKILLS, ['weather', { eligibility: toolEligibility(['env:KEY']) }]), listing(ERP, 'weather')], DEFAULT_TOOL_PRECEDENCE);
    expect(summary(view)).toEqual(['weather ← skills:workspace/weather shadows mcp:erp/weather', 'weather ← mcp:erp/weather (hidden) shadowedBy skills:workspace/weather']);
  });

  it('gives the same view for any order of sources and of tools within them', () => {
    const listings = [
      listing(NATIVE, 'tap', 'home'),
      listing(SKILLS, 'tap', 'weather', 'a_b'),
      listing(AGENT, 'weather', ['a_b', { originalName: 'a b' }]),
      listing(ERP, 'weather', ['a_b', { originalName: 'a.b' }], 'invoice'),
      listing(CRM, ['a_b', { originalName: 'a.b' }], 'invoice', ['home', { originalName: 'home!' }]),
    ];
    const expected = summary(mergeTools(listings, DEFAULT_TOOL_PRECEDENCE));
    expect(expected).toEqual([
      'a_b ← skills:workspace/a_b',
      'crm_a_b ← catalog:crm/a_b nameTakenBy skills:workspace/a_b shadows mcp:erp/a_b',
      'crm_a_b ← mcp:erp/a_b (hidden) shadowedBy catalog:crm/a_b',
      'crm_home ← catalog:crm/home nameTakenBy native:phone/home',
      'home ← native:phone/home',
      'invoice ← catalog:crm/invoice shadows mcp:erp/invoice',
      'invoice ← mcp:erp/invoice (hidden) shadowedBy catalog:crm/invoice',
      'pc_a_b ← agent:pc/a_b nameTakenBy skills:workspace/a_b',
      'tap ← native:phone/tap shadows skills:workspace/tap',
      'tap ← skills:workspace/tap (hidden) shadowedBy native:phone/tap',
      'weather ← skills:workspace/weather shadows agent:pc/weather,mcp:erp/weather',
      'weather ← agent:pc/weather (hidden) shadowedBy skills:workspace/weather',
      'weather ← mcp:erp/weather (hidden) shadowedBy skills:workspace/weather',
    ]);
    for (let seed = 1; seed <= 25; seed++) {
      const reordered = shuffled(listings, seed).map((l) => ({ ...l, tools: shuffled(l.tools, seed * 7) }));
      expect(summary(mergeTools(reordered, DEFAULT_TOOL_PRECEDENCE))).toEqual(expected);
    }
  });
});
