import { Global, Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { DeviceControlModule } from '@mobileclaw/case-device-control';
import { TaskCaseModule } from '@mobileclaw/case-tasks';
import { RegistryTaskTools, ToolRegistry } from '@mobileclaw/case-tools';
import { GATEWAY_INSTANCE_ID, TaskTools } from '@mobileclaw/domain';
import { A2aModule } from '@mobileclaw/trigger-a2a';
import { McpModule } from '@mobileclaw/trigger-mcp';
import { EventsSocketModule } from '@mobileclaw/trigger-ws';
import { GatewayApiModule, ProblemDetailsFilter } from '@mobileclaw/trigger-rest';
import { MobileClawModule } from '@mobileclaw/device';
import { PrometheusMetricsModule } from '@mobileclaw/metrics-prometheus';
import type { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { WsDeviceModule, type WsDeviceTransport } from '@mobileclaw/transport-ws';
import { AgentInfrastructureModule } from './agent-infrastructure.module';
import { loadOrCreateDeviceToken } from './device-token';
import type { GatewayConfig } from './gateway-config';
import { gatewayLogging } from './http-logging';
import { TaskLogContextModule } from './task-log-context';
import { GatewayLearnedSkillsModule } from './learned-skills.module';
import { GatewayMemoryModule } from './memory.module';
import { GatewayToolsModule } from './tools.module';
import { GatewayClusterModule, type GatewayClusterMembership } from './cluster.module';
import { PhoneToolRequestsModule } from './phone-tools.module';

/**
 * The tool registry as a task's planner sees it (caller `planner`; native phone tools left out, the
 * planner has the phone's actions): the task workflow's `TaskTools`, so that planners call registry
 * tools as steps. Needs the global `ToolRegistry` (GatewayToolsModule).
 */
@Global()
@Module({
  providers: [{ provide: TaskTools, inject: [ToolRegistry], useFactory: (registry: ToolRegistry) => new RegistryTaskTools(registry) }],
  exports: [TaskTools],
})
class PlannerToolsModule {}

/** This instance's id (`GATEWAY_INSTANCE_ID`), for every module: the task workflow marks the tasks it runs with it. */
@Global()
@Module({})
class GatewayInstanceModule {
  static forRoot(instanceId: string): DynamicModule {
    return { module: GatewayInstanceModule, providers: [{ provide: GATEWAY_INSTANCE_ID, useValue: instanceId }], exports: [GATEWAY_INSTANCE_ID] };
  }
}

/**
 * The device token in force: the configured one, or the one generated in the data directory.
 * `announce` logs where it comes from — never the token itself: logs travel further than the data
 * directory, and a phone with the token can act as any phone. Call it once the app's logger is in place.
 */
export function resolveDeviceToken(config: GatewayConfig): { token: string; announce: () => void } {
  if (config.deviceToken) return { token: config.deviceToken, announce: () => undefined };
  const { token, created, path } = loadOrCreateDeviceToken(config.dataDir);
  const logger = new Logger('DeviceToken');
  return {
    token,
    announce: () =>
      created
        ? logger.warn(`generated a device token for phones, stored in ${path} (read it there, e.g. cat ${path}; or set MOBILECLAW_DEVICE_TOKEN)`)
        : logger.log(`phones authenticate with the device token stored in ${path}`),
  };
}

/**
 * The gateway host application: configuration, logging (JSON or pretty lines, request ids, task ids,
 * redaction), metrics (Prometheus, reported by every layer through the domain's metrics ports), the
 * MobileClaw device module, the agent workflow (SQLite store, planner, task use cases), the tool
 * registry (SKILL.md folders and the remote sources of `MOBILECLAW_TOOLS_CONFIG`), the agent's memory and the REST API. One host of {@link MobileClawModule}; other Nest apps can import that module directly.
 */
@Module({})
export class GatewayModule {
  /**
   * @param phones where phones connect: the TCP transport (the caller keeps it to read the bound
   *   port) and, unless `MOBILECLAW_DEVICE_WS=off`, the WebSocket transport on the HTTP server (the
   *   caller gives the app its `ws` adapter).
   * @param version the gateway's version, announced to MCP clients.
   * @param cluster in cluster mode, the cluster as `joinCluster` joined it (else the module joins it).
   */
  static forRoot(config: GatewayConfig, deviceToken: string, phones: { tcp: TcpDeviceTransport; ws?: WsDeviceTransport }, version = '0.1.0', cluster?: GatewayClusterMembership): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        LoggerModule.forRoot({ pinoHttp: gatewayLogging(config.logLevel, config.logFormat) }),
        PrometheusMetricsModule.forRoot({ deviceLabels: config.metricsDeviceLabels }),
        TaskLogContextModule,
        GatewayInstanceModule.forRoot(config.instanceId),
        // Cluster mode: phones, task events and task control shared with the other instances over NATS.
        ...(config.natsUrl ? [GatewayClusterModule.forRoot({ natsUrl: config.natsUrl, instanceId: config.instanceId, taskLeaseMs: config.taskLeaseMs, joined: cluster })] : []),
        MobileClawModule.forRoot({
          isGlobal: true,
          deviceToken,
          transports: phones.ws ? [phones.tcp, phones.ws] : [phones.tcp],
          defaultTimeoutMs: config.commandTimeoutMs,
          heartbeatIntervalMs: config.heartbeatIntervalMs,
          maxFrameBytes: config.maxFrameBytes,
          queueLimit: config.queueLimit,
          listenRetryMs: config.deviceListenRetryMs,
        }),
        AgentInfrastructureModule.forRoot({ isGlobal: true, dataDir: config.dataDir, databaseUrl: config.databaseUrl, llm: config.llm }),
        TaskCaseModule.forRoot({
          isGlobal: true,
          options: {
            defaultMaxSteps: config.taskMaxSteps,
            planningTimeoutMs: config.planningTimeoutMs,
            toolResultTimeoutMs: config.toolResultTimeoutMs,
            settleTimeoutMs: config.settleTimeoutMs,
            settlePollMs: config.settlePollMs,
            retention: { maxTasks: config.retentionMaxTasks, maxAgeMs: config.retentionMaxAgeMs },
            idempotencyTtlMs: config.idempotencyTtlMs,
            leaseMs: config.taskLeaseMs,
          },
        }),
        DeviceControlModule.forRoot({ isGlobal: true, options: { commandTimeoutMs: config.commandTimeoutMs, controlLeaseMs: config.takeoverLeaseMs } }),
        // The agent's memory: files in <dataDir>/memory, their index in the task database, the task loop's TaskMemory and the memory tools.
        GatewayMemoryModule.forRoot({ isGlobal: true, dataDir: config.dataDir, memory: config.memory, llm: config.llm }),
        // The tool registry (SKILL.md folders and the tools config's remote sources) behind /api/tools and /tools/invoke.
        GatewayToolsModule.forRoot({ isGlobal: true, dataDir: config.dataDir, skillsDirs: config.skillsDirs, tools: config.tools, toolCallRetentionMs: config.toolCallRetentionMs }),
        // Registry tools for tasks' planners: each call a step of the task.
        PlannerToolsModule,
        // Phones as callers of that registry (request tools.catalog / tools.invoke), each as caller phone:<deviceId>.
        PhoneToolRequestsModule,
        // Skills learned from tasks: saved into <dataDir>/skills, replayed as tasks (POST /api/tasks/:id/skill, /api/skills/:name/replay).
        GatewayLearnedSkillsModule.forRoot({ isGlobal: true, dataDir: config.dataDir, defaultMaxSteps: config.taskMaxSteps }),
        ...(phones.ws ? [WsDeviceModule.forRoot(phones.ws)] : []),
        GatewayApiModule.forRoot({
          apiToken: config.apiToken,
          scopedTokens: config.scopedTokens,
          allowedHosts: config.allowedHosts,
          pairing: {
            deviceToken,
            // The bound port (port 0 = any), or the configured one while it cannot be bound.
            devicePort: () => {
              try {
                return phones.tcp.port;
              } catch {
                return config.devicePort;
              }
            },
            deviceListenerHost: config.deviceHost,
            address: config.pairingAddress,
          },
        }),
        // The live event socket (/ws/events): the REST API's token, and its CORS origins for browser pages.
        EventsSocketModule.forRoot({ apiToken: config.apiToken, allowedOrigins: config.corsOrigins, allowedHosts: config.allowedHosts }),
        // The MCP face also serves the tool registry's tools the `mcp` caller's policy allows: its
        // `McpRegistryTools` takes the `ToolRegistry` that GatewayToolsModule provides globally.
        McpModule.forRoot({
          options: {
            apiToken: config.apiToken,
            allowedHosts: config.allowedHosts,
            // Origins allowed for the REST API's CORS are allowed on the MCP routes too.
            allowedOrigins: [...config.corsOrigins, ...config.mcp.allowedOrigins],
            sessionIdleMs: config.mcp.sessionIdleMs,
            maxSessions: config.mcp.maxSessions,
            keepAliveMs: config.mcp.keepAliveMs,
            image: { maxLongSidePx: config.mcp.imageMaxSidePx, maxBytes: config.mcp.imageMaxBytes },
            serverInfo: { name: 'mobileclaw', version },
            conformanceFixtures: config.mcp.conformanceFixtures,
          },
        }),
        A2aModule.forRoot({ apiToken: config.apiToken, allowedHosts: config.allowedHosts, publicUrl: config.publicUrl, version, push: { maxAttempts: config.a2aPushMaxAttempts, baseDelayMs: config.a2aPushRetryBaseMs } }),
      ],
      // Errors no controller handles (unknown route, unparsable or oversized body) answer as problem details.
      providers: [{ provide: APP_FILTER, useClass: ProblemDetailsFilter }],
    };
  }
}
