import * as z from 'zod/v4';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type CallToolResult,
  type GetPromptResult,
  type InputRequests,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * The fixture tools, resources and prompts that the MCP conformance suite
 * (`@modelcontextprotocol/conformance`, server mode) calls by name: `test_simple_text`,
 * `test://static-text`, `test_simple_prompt`, … They exist only to be measured by that suite, so they
 * are registered only when the gateway runs with `MOBILECLAW_MCP_CONFORMANCE_FIXTURES=on`
 * (`McpOptions.conformanceFixtures`), never by default: an agent working a phone must not see them.
 * Names, texts and shapes follow the suite's scenarios (`src/scenarios/server/*.ts`) and the MCP
 * TypeScript SDK's own conformance server.
 */

type JsonSchemaProperty = NonNullable<Parameters<typeof fromJsonSchema>[0]['properties']>[string];

/** A 1×1 red PNG, base64 (image content and the binary resource). */
export const FIXTURE_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV file of one silent 16-bit mono sample at 8 kHz, base64 (audio content). */
export const FIXTURE_WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** The state a fixture seals into a multi-round `requestState`: which tool minted it, and its round. */
interface FixtureState {
  tool: string;
  round?: number;
  name?: string;
}

export interface ConformanceFixtureDeps {
  server: McpServer;
  /** The server's `requestState` codec: fixtures seal their state with it, the server verifies it before a handler runs. */
  requestState: RequestStateCodec;
}

/** An elicitation form with one required field of `type`. */
const oneFieldForm = <T extends 'string' | 'boolean'>(field: string, type: T) => ({ type: 'object' as const, properties: { [field]: { type } }, required: [field] });

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers every conformance fixture on `server`, and declares the `logging` and `completions`
 * capabilities they need (`prompts` comes with the first prompt). Call before `connect`.
 */
export function registerConformanceFixtures(deps: ConformanceFixtureDeps): void {
  deps.server.server.registerCapabilities({ logging: {}, completions: {} });
  registerContentTools(deps);
  registerSessionTools(deps);
  registerInputRequiredTools(deps);
  registerFixtureResources(deps);
  registerFixturePrompts(deps);
  registerCompletion(deps);
}

/** Tools that answer one kind of content each, or fail, or report progress (both revisions). */
function registerContentTools({ server }: ConformanceFixtureDeps): void {
  server.registerTool('test_simple_text', { description: 'Tests simple text content response' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'Tests image content response' }, async () => ({
    content: [{ type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Tests audio content response' }, async () => ({
    content: [{ type: 'audio', data: FIXTURE_WAV_BASE64, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Tests embedded resource content response' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Tests response with multiple content types (text, image, resource)' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
    ],
  }));
  server.registerTool('test_error_handling', { description: 'Tests error response handling' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_tool_with_progress', { description: 'Tests tool that reports progress notifications', inputSchema: z.object({}) }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    // Progress goes out only against a token the client sent.
    if (progressToken !== undefined) {
      for (const progress of [0, 50, 100]) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` } });
      }
    }
    return text(String(progressToken ?? 'no-progress-token'));
  });
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)',
      // Hand-written JSON so that every 2020-12 keyword is listed exactly as written.
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      }),
    },
    async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Tests SEP-2243 Mcp-Param-* server-side validation',
      // `x-mcp-header` is an extension keyword (SEP-2243) that the schema type does not know.
      inputSchema: fromJsonSchema<{ region?: string; level?: number }>({
        type: 'object',
        properties: {
          region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' } as JsonSchemaProperty,
          level: { type: 'integer', description: 'non-mirrored argument' },
        },
      }),
    },
    async (args) => text(`region=${args.region ?? '<none>'}`),
  );
}

/**
 * Tools of the 2025 session revisions (server→client requests and notifications on the open
 * exchange), and the 2026-07-28 diagnostics of the `server-stateless` scenario.
 */
function registerSessionTools({ server }: ConformanceFixtureDeps): void {
  server.registerTool('test_tool_with_logging', { description: 'Tests tool that emits log messages during execution', inputSchema: z.object({}) }, async (_args, ctx) => {
    for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool(
    'test_reconnection',
    { description: 'Closes the SSE stream of this call, then answers once the client has reconnected with Last-Event-ID (SEP-1699)', inputSchema: z.object({}) },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      // The answer must travel through the event store and the client's reconnection, not the closed stream.
      await delay(100);
      return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
    },
  );
  server.registerTool(
    'test_sampling',
    { description: 'Tests server-initiated sampling (LLM completion request)', inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }) },
    async (args, ctx) => {
      const result = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return text(`LLM response: ${content?.type === 'text' ? content.text : 'No response'}`);
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Tests server-initiated elicitation (user input request)', inputSchema: z.object({ message: z.string().describe('The message to show the user') }) },
    async (args, ctx) => {
      const result = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: args.message,
        requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
      });
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Tests elicitation with default values per SEP-1034', inputSchema: z.object({}) }, async (_args, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Tests elicitation with enum schema improvements per SEP-1330', inputSchema: z.object({}) }, async (_args, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });
  // `server-stateless` (2026-07-28) looks these three up by name.
  server.registerTool(
    'test_missing_capability',
    { description: 'Asks for sampling input: a request that declared no sampling capability gets -32021', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      if (ctx.mcpReq.inputResponses?.['llm_answer'] === undefined) {
        return inputRequired({
          inputRequests: {
            llm_answer: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Reply with the single word: pong' } }], maxTokens: 16 }),
          },
        });
      }
      return text('sampling round-trip complete');
    },
  );
  server.registerTool('test_streaming_elicitation', { description: 'Answers with a result stream that carries no independent JSON-RPC request', inputSchema: z.object({}) }, async () =>
    text('stream observed: result frames only, no top-level requests'),
  );
  server.registerTool('test_logging_tool', { description: 'Logs through the request-scoped channel, which delivers only at the _meta.logLevel the request set', inputSchema: z.object({}) }, async (_args, ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran');
    return text('logged through the request-scoped, logLevel-gated channel');
  });
}

/** Multi-round-trip tools (2026-07-28, SEP-2322): each asks for input until a retry carries it. */
function registerInputRequiredTools({ server, requestState }: ConformanceFixtureDeps): void {
  const mint = (state: FixtureState) => requestState.mint(state);
  const stateOf = (ctx: ServerContext, tool: string): FixtureState | undefined => {
    const state = ctx.mcpReq.requestState<FixtureState>();
    return state?.tool === tool ? state : undefined;
  };
  const askName = () => inputRequired.elicit({ message: 'What is your name?', requestedSchema: oneFieldForm('name', 'string') });
  const askConfirm = () => inputRequired.elicit({ message: 'Please confirm', requestedSchema: oneFieldForm('ok', 'boolean') });
  const noArgs = z.object({});

  server.registerTool('test_input_required_result_elicitation', { description: 'Asks for the caller name via an in-band elicitation request', inputSchema: noArgs }, async (_args, ctx) => {
    const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'user_name')?.name;
    if (typeof name !== 'string') return inputRequired({ inputRequests: { user_name: askName() } });
    return text(`Hello, ${name}!`);
  });
  server.registerTool('test_input_required_result_sampling', { description: 'Asks for an LLM completion via an in-band sampling request', inputSchema: noArgs }, async (_args, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.['capital_question'] as { content?: { type?: string; text?: string } } | undefined;
    if (answer === undefined) {
      return inputRequired({
        inputRequests: { capital_question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }) },
      });
    }
    return text(`Sampling response: ${typeof answer.content?.text === 'string' ? answer.content.text : JSON.stringify(answer)}`);
  });
  server.registerTool('test_input_required_result_list_roots', { description: 'Asks for the client roots via an in-band roots/list request', inputSchema: noArgs }, async (_args, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.['client_roots'] as { roots?: { uri?: string }[] } | undefined;
    if (!Array.isArray(answer?.roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    return text(`Client exposed ${answer.roots.length} root(s): ${answer.roots.map((root) => root.uri).join(', ')}`);
  });
  server.registerTool('test_input_required_result_request_state', { description: 'Round-trips sealed requestState alongside an elicitation request', inputSchema: noArgs }, async (_args, ctx) => {
    if (acceptedContent(ctx.mcpReq.inputResponses, 'confirm') === undefined) {
      return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await mint({ tool: 'request_state' }) });
    }
    if (stateOf(ctx, 'request_state') === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState: missing or minted for another tool');
    return text('state-ok: requestState verified and confirmation received');
  });
  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks for elicitation, sampling and roots input in a single round', inputSchema: noArgs }, async (_args, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    const name = acceptedContent<{ name: string }>(responses, 'user_name')?.name;
    const greeting = (responses?.['greeting'] as { content?: { text?: string } } | undefined)?.content?.text;
    const roots = (responses?.['client_roots'] as { roots?: unknown[] } | undefined)?.roots;
    if (typeof name !== 'string' || typeof greeting !== 'string' || !Array.isArray(roots)) {
      return inputRequired({
        inputRequests: {
          user_name: askName(),
          greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await mint({ tool: 'multiple_inputs' }),
      });
    }
    return text(`${greeting} ${name} — ${roots.length} root(s) visible`);
  });
  server.registerTool('test_input_required_result_multi_round', { description: 'Two elicitation rounds with evolving requestState before completing', inputSchema: noArgs }, async (_args, ctx) => {
    // The round lives in the sealed state: a 2026-07-28 server keeps nothing between requests.
    const state = stateOf(ctx, 'multi_round');
    const round = state?.round ?? 0;
    if (round === 0) {
      return inputRequired({
        inputRequests: { step1: inputRequired.elicit({ message: 'Step 1: What is your name?', requestedSchema: oneFieldForm('name', 'string') }) },
        requestState: await mint({ tool: 'multi_round', round: 1 }),
      });
    }
    if (round === 1) {
      const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'step1')?.name ?? 'unknown';
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({ message: 'Step 2: What is your favorite color?', requestedSchema: oneFieldForm('color', 'string') }),
        },
        requestState: await mint({ tool: 'multi_round', round: 2, name }),
      });
    }
    const color = acceptedContent<{ color: string }>(ctx.mcpReq.inputResponses, 'step2')?.color ?? 'unknown';
    return text(`Multi-round complete: ${state?.name ?? 'unknown'} likes ${color}`);
  });
  // A tampered retry never reaches this handler: the server's requestState check answers -32602 first.
  server.registerTool('test_input_required_result_tampered_state', { description: 'Rejects retries whose requestState fails integrity verification', inputSchema: noArgs }, async (_args, ctx) => {
    if (stateOf(ctx, 'tampered_state') !== undefined && acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined) return text('integrity-ok: requestState verified');
    return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await mint({ tool: 'tampered_state' }) });
  });
  server.registerTool('test_input_required_result_capabilities', { description: 'Requests only the input kinds the declared client capabilities cover', inputSchema: noArgs }, async (_args, ctx) => {
    if (ctx.mcpReq.inputResponses !== undefined) return text('Capability-aware input requests fulfilled');
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown; sampling?: unknown; roots?: unknown } | undefined;
    const inputRequests: InputRequests = {};
    if (declared?.elicitation !== undefined) inputRequests['user_name'] = askName();
    if (declared?.sampling !== undefined) {
      inputRequests['greeting'] = inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a short greeting' } }], maxTokens: 50 });
    }
    if (declared?.roots !== undefined) inputRequests['client_roots'] = inputRequired.listRoots();
    if (Object.keys(inputRequests).length === 0) return text('No declared client capability supports an in-band input request');
    return inputRequired({ inputRequests });
  });
}

/** `test://static-text`, `test://static-binary`, `test://watched-resource` and the template `test://template/{id}/data`. */
function registerFixtureResources({ server }: ConformanceFixtureDeps): void {
  server.registerResource('static-text', 'test://static-text', { title: 'Static Text Resource', description: 'A static text resource for testing', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { title: 'Static Binary Resource', description: 'A static binary resource (image) for testing', mimeType: 'image/png' }, async () => ({
    contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: FIXTURE_PNG_BASE64 }],
  }));
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
    async (uri, variables) => ({
      contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id: variables['id'], templateTest: true, data: `Data for ID: ${String(variables['id'])}` }) }],
    }),
  );
  server.registerResource('watched-resource', 'test://watched-resource', { title: 'Watched Resource', description: 'Registered for subscribe/unsubscribe testing', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  }));
}

/** Prompts: plain, with arguments, with an embedded resource, with an image, and one that asks for input first (2026-07-28). */
function registerFixturePrompts({ server }: ConformanceFixtureDeps): void {
  server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      argsSchema: z.object({ arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') }),
    },
    async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { title: 'Prompt With Embedded Resource', description: 'A prompt that includes an embedded resource', argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }) },
    async (args) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  server.registerPrompt('test_input_required_result_prompt', { title: 'MRTR Prompt', description: 'A prompt that asks for elicitation input before rendering' }, (async (
    ctx: ServerContext,
  ): Promise<GetPromptResult | InputRequiredResult> => {
    const context = acceptedContent<{ context: string }>(ctx.mcpReq.inputResponses, 'user_context')?.context;
    if (typeof context !== 'string') {
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({ message: 'What context should the prompt use?', requestedSchema: oneFieldForm('context', 'string') }),
        },
      });
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use the following context: ${context}` } }] };
    // A prompt without arguments receives the context as its only argument; the overloads model (args, ctx) only.
  }) as unknown as () => Promise<GetPromptResult>);
}

/** `completion/complete`: an empty completion (`logging/setLevel` is the SDK's own, installed with the `logging` capability). */
function registerCompletion({ server }: ConformanceFixtureDeps): void {
  server.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }));
}
