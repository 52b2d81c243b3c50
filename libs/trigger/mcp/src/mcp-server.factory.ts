import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createRequestStateCodec, McpServer, type RequestStateCodec } from '@modelcontextprotocol/server';
import { DeviceControlService } from '@mobileclaw/case-device-control';
import { TaskService } from '@mobileclaw/case-tasks';
import { MobileClawService } from '@mobileclaw/domain';
import { registerConformanceFixtures } from './conformance-fixtures';
import { MCP_OPTIONS, type McpOptions } from './mcp.options';
import { registerPhoneResources } from './phone-resources';
import { registerPhoneTools, SELECT_DEVICE_TOOL } from './phone-tools';
import { McpRegistryTools, serveRegistryTools } from './registry-tools';
import { ResourceUpdates } from './resource-updates';
import { registerTaskTools } from './task-tools';
import type { McpSessionState } from './tool-context';

const INSTRUCTIONS =
  'MobileClaw operates Android phones. Call list_devices, then get_screen to see a phone (image + numbered elements + frameId); ' +
  'act with tap/long_press/swipe/input_text/press_back/press_home/open_app using that frameId; call get_screen again to check the effect. ' +
  'For a whole goal, run_task lets the gateway\'s agent do it step by step.';

/**
 * How long a multi-round `requestState` (2026-07-28) stays valid, in seconds: a `run_task` approval
 * answered later than this is refused with -32602 (the task still waits; approve it over REST).
 */
export const REQUEST_STATE_TTL_SECONDS = 3600;

/** A built server and, for a 2025 session, what to release when the session ends. */
export interface BuiltMcpServer {
  server: McpServer;
  /** Ends the session's resource subscriptions. */
  dispose(): void;
}

/**
 * Builds one MCP server instance: per request for 2026-07-28 traffic (no state), per session for the
 * 2025 revisions and the legacy SSE transport (`session` holds the selected phone and the resource
 * subscriptions, and updates are pushed to subscribed URIs). Besides the face's own tools it serves
 * the tool registry's tools the `mcp` caller may call ({@link McpRegistryTools}); a session's server
 * follows the registry's changes (`notifications/tools/list_changed`).
 */
@Injectable()
export class McpServerFactory {
  /**
   * Seals the `requestState` a tool hands the client with an input request (HMAC, key of this
   * process), and verifies it when the retry comes back: the state is client-held, so a forged or
   * altered one is refused with -32602 before any handler runs.
   */
  private readonly requestState: RequestStateCodec = createRequestStateCodec({ key: randomBytes(32), ttlSeconds: REQUEST_STATE_TTL_SECONDS });

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpOptions,
    private readonly control: DeviceControlService,
    private readonly tasks: TaskService,
    private readonly phones: MobileClawService,
    private readonly updates: ResourceUpdates,
    private readonly registryTools: McpRegistryTools,
  ) {}

  create(session?: McpSessionState): BuiltMcpServer {
    const server = new McpServer(this.options.serverInfo, {
      capabilities: { tools: {}, resources: { subscribe: true } },
      instructions: INSTRUCTIONS,
      requestState: { verify: this.requestState.verify },
    });
    const deps = {
      server,
      control: this.control,
      tasks: this.tasks,
      phones: this.phones,
      session,
      requestState: this.requestState,
      screenChanged: (deviceId: string) => this.updates.screenChanged(deviceId),
    };
    registerPhoneTools(deps, this.options.image);
    registerTaskTools(deps);
    registerPhoneResources(deps, this.options.image);
    if (this.options.conformanceFixtures) registerConformanceFixtures(deps);
    // After the face's own tools, which win a name; `select_device` is the face's on sessions only, reserved on both.
    const stopRegistryTools = serveRegistryTools(server, this.registryTools, new Set([SELECT_DEVICE_TOOL]), session !== undefined);
    if (!session) return { server, dispose: stopRegistryTools };
    const subscribed = new Set<string>();
    server.server.setRequestHandler('resources/subscribe', (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    const subscription = this.updates.changes$.subscribe((uri) => {
      if (subscribed.has(uri) && server.isConnected()) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    });
    return {
      server,
      dispose: () => {
        subscription.unsubscribe();
        stopRegistryTools();
      },
    };
  }
}
