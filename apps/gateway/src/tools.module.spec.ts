import { defaultToolPolicies, gatewayToolPolicies } from './tools.module';
import { parseToolsConfig } from './tools-config';

const SKILLS = { kind: 'skills', id: 'workspace' } as const;

describe('the gateway tool policies', () => {
  it('defaults: native actions unapproved for every caller, /mcp only the exposed sources, the planner everything, phones no native tool', () => {
    expect(gatewayToolPolicies(undefined, SKILLS)).toEqual({
      defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
      byCaller: {
        mcp: { allow: [], allowSources: [] },
        planner: { allow: '*' },
        'phone:*': { allow: [], allowSources: ['skills:*', 'mcp:*', 'catalog:*', 'agent:*'] },
      },
    });
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
