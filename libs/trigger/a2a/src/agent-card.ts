import type { AgentCard } from './a2a-sdk';

/** Where the agent card is served (A2A v1.0 and v0.3 both use this well-known path). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/**
 * The gateway's agent card for callers reaching it at `baseUrl` (e.g. `http://127.0.0.1:3000`): one
 * skill (operate a phone by goal), the JSON-RPC interface at `<baseUrl><path>` declared for A2A 1.0
 * and 0.3 (the SDK routes 0.3 requests through its compatibility layer), streaming and push
 * notifications on, and the bearer scheme when the API needs a token. This is the A2A 1.0 card; 0.3
 * callers get the SDK's translation of it (see `A2aHttpEndpoint`).
 */
export function agentCard(baseUrl: string, path: string, version: string, needsToken: boolean): AgentCard {
  const url = `${baseUrl}${path}`;
  return {
    name: 'MobileClaw',
    description: 'Operates Android phones for you: give a goal in plain words, and an agent observes the screen, plans and taps until it is done, asking before sensitive actions.',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'MobileClaw', url: baseUrl },
    version,
    documentationUrl: `${baseUrl}/api/docs`,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: needsToken ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'The gateway\'s API token (MOBILECLAW_API_TOKEN).', scheme: 'Bearer', bearerFormat: '' } } } } : {},
    securityRequirements: needsToken ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'operate-phone',
        name: 'Operate a phone by goal',
        description:
          'Runs a goal on a connected Android phone (observe → plan → act, step by step). The message text is the goal; a data part {"deviceId": "…"} picks the phone (default: the only connected one). Sensitive actions stop the task in INPUT_REQUIRED: answer "yes" or "no" (or {"approved": true|false}) on the same task.',
        tags: ['android', 'phone', 'automation', 'ui'],
        examples: ['Turn on Wi-Fi', 'Open Settings and turn on Bluetooth'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['text/plain', 'application/json'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as AgentCard;
}
