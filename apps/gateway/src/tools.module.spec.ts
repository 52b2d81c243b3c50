import { toolAllowed, toolNeedsApproval, toolPolicyFor } from '@mobileclaw/case-tools';
import { defaultToolPolicies, gatewayToolPolicies } from './tools.module';
import { parseToolsConfig } from './tools-config';

const SKILLS = { kind: 'skills', id: 'workspace' } as const;

describe('the gateway tool policies', () => {
  it('defaults: native actions unapproved for every caller, /mcp only the exposed sources, the planner everything, phones their memory but no other native tool', () => {
    expect(gatewayToolPolicies(undefined, SKILLS)).toEqual({
      defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
      byCaller: {
        mcp: { allow: [], allowSources: [] },
        planner: { allow: '*', allowActionSourcesWithoutApproval: ['native:memory'] },
        'phone:*': { allow: [], allowSources: ['skills:*', 'mcp:*', 'catalog:*', 'agent:*', 'native:memory'], allowActionSourcesWithoutApproval: ['native:memory'] },
      },
    });
  });

  it('lets phones and the planner remember without a person\'s approval, and nothing more', () => {
    const { byCaller } = defaultToolPolicies([]);
    const memoryStore = { exposedName: 'memory_store', source: { kind: 'native', id: 'memory' } } as const;
    const phoneClick = { exposedName: 'phone_click', source: { kind: 'native', id: 'phone' } } as const;
    const phone = toolPolicyFor({ byCaller }, 'phone:sim-1');
    expect([toolAllowed(phone, memoryStore), toolNeedsApproval(phone, memoryStore, 'ACTION')]).toEqual([true, false]);
    expect(toolAllowed(phone, phoneClick)).toBe(false);
    const planner = toolPolicyFor({ byCaller }, 'planner');
    expect([toolNeedsApproval(planner, memoryStore, 'ACTION'), toolNeedsApproval(planner, { exposedName: 'book-table', source: SKILLS }, 'ACTION')]).toEqual([false, true]);
  });

  it('builds the mcp policy from exposeToMcp, and a caller the config names replaces its default', () => {
    const config = parseToolsConfig(
      [
        'mcpServers: { erp: { url: "http://127.0.0.1:9/mcp", exposeToMcp: true }, files: { command: node } }',
        'catalogs: { desk: { catalogUrl: "http://h/c", invokeUrl: "http://h/i", exposeToMcp: true } }',
        'skills: { exposeToMcp: true }',
        'policies:',
        '  default: { allow: [] }',
        "  planner: { allow: [weather], allowActionsWithoutApproval: '*' }",
      ].join('\n'),
      '/srv/tools.yaml',
      {},
    );
    const policies = gatewayToolPolicies(config, SKILLS);
    expect(policies.defaultPolicy).toEqual({ allow: [] });
    expect(policies.byCaller).toEqual({
      ...defaultToolPolicies([]).byCaller,
      mcp: { allow: [], allowSources: ['skills:workspace', 'mcp:erp', 'catalog:desk'] },
      planner: { allow: ['weather'], allowActionsWithoutApproval: '*' },
    });
  });

});
