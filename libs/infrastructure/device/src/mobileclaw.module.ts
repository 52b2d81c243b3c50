import { Inject, Injectable, Logger, Module, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DeviceListeners, DeviceMetrics, DeviceToolRequests, MobileClawService, type DeviceListenerState } from '@mobileclaw/domain';
import { DeviceHub } from './device-hub';
import type { DeviceTransport } from './frame-transport';
import { ConfigurableModuleClass, MOBILECLAW_MODULE_OPTIONS, type MobileClawModuleOptions } from './mobileclaw.module-definition';

/** DI token of the module's started transports (`DeviceTransport[]`, in the order given). */
export const DEVICE_TRANSPORTS = Symbol('mobileclaw.deviceTransports');

/**
 * DI token of an adapter that replaces the hub as the module's {@link MobileClawService} when a
 * provider of it is in scope (e.g. a global module of several gateway instances whose service wraps
 * this hub and routes commands for phones held elsewhere). Absent: the hub is the service.
 */
export const MOBILECLAW_SERVICE_OVERRIDE = Symbol('mobileclaw.serviceOverride');

/**
 * Starts every transport when the app starts, in order, each handing its connections to the hub
 * under its own name (`DeviceHub.acceptorFor`). When one cannot start (e.g. `EADDRINUSE`): without
 * `listenRetryMs` the app's start fails (those already started are stopped and the error
 * propagates); with it, the start goes on, the failure is logged and the transport is started again
 * every `listenRetryMs` until it listens — {@link states} reports it not listening meanwhile, which
 * readiness probes show. On shutdown stops them all and fails pending calls with `SHUTTING_DOWN`.
 * A {@link DeviceToolRequests} provider in scope is handed to the hub at module init (not injected
 * into the hub itself: the tools behind it may use the hub, e.g. the phone's actions as tools).
 */
@Injectable()
export class DeviceGatewayLifecycle extends DeviceListeners implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MobileClaw');
  private readonly started: DeviceTransport[] = [];
  /** Why each transport that is not listening failed to start. */
  private readonly failures = new Map<DeviceTransport, string>();
  private retryTimer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly hub: DeviceHub,
    @Inject(DEVICE_TRANSPORTS) private readonly transports: DeviceTransport[],
    @Inject(MOBILECLAW_MODULE_OPTIONS) private readonly options: MobileClawModuleOptions,
    @Optional() @Inject(DeviceToolRequests) private readonly toolRequests?: DeviceToolRequests,
  ) {
    super();
  }

  onModuleInit(): void {
    if (this.toolRequests) this.hub.serveToolRequests(this.toolRequests);
  }

  /** One state per configured transport: listening once its start resolved, until shutdown. */
  states(): DeviceListenerState[] {
    return this.transports.map((transport) => {
      const error = this.failures.get(transport);
      return { transport: transport.name, listening: this.started.includes(transport), ...(error === undefined ? {} : { error }) };
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const transport of this.transports) {
      try {
        await this.start(transport);
      } catch (err) {
        if (this.options.listenRetryMs === undefined) {
          await this.stopStarted();
          throw err;
        }
        this.logger.error(`the ${transport.name} transport cannot listen: ${this.failures.get(transport)}; retrying every ${this.options.listenRetryMs} ms (phones cannot connect through it meanwhile)`);
      }
    }
    this.scheduleRetry();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    const closing = this.stopStarted();
    this.hub.shutdown();
    await closing;
  }

  private async start(transport: DeviceTransport): Promise<void> {
    try {
      await transport.start(this.hub.acceptorFor(transport.name));
    } catch (err) {
      this.failures.set(transport, err instanceof Error ? err.message : String(err));
      throw err;
    }
    this.failures.delete(transport);
    this.started.push(transport);
  }

  /** Starts the transports that failed again after `listenRetryMs`, until each listens or the app stops. */
  private scheduleRetry(): void {
    const retryMs = this.options.listenRetryMs;
    if (retryMs === undefined || this.failures.size === 0 || this.stopping) return;
    this.retryTimer = setTimeout(() => void this.retry(), retryMs);
    this.retryTimer.unref();
  }

  private async retry(): Promise<void> {
    for (const transport of [...this.failures.keys()]) {
      if (this.stopping) return;
      try {
        await this.start(transport);
        if (this.stopping) await transport.stop();
        else this.logger.log(`the ${transport.name} transport listens now`);
      } catch {
        // Still failing: logged once at start, reported by states() until it listens.
      }
    }
    this.scheduleRetry();
  }

  private async stopStarted(): Promise<void> {
    const started = this.started.splice(0);
    const results = await Promise.allSettled(started.map((t) => t.stop()));
    results.forEach((r, i) => {
      if (r.status === 'rejected') this.logger.error(`stopping the ${started[i].name} transport failed: ${String(r.reason)}`);
    });
  }
}

/**
 * The MobileClaw device gateway as a Nest dynamic module: import it with
 * `MobileClawModule.forRoot({deviceToken, transports: [...]})` or `forRootAsync({useFactory, inject})`
 * and inject {@link MobileClawService}. Built with `ConfigurableModuleBuilder`; pass
 * `isGlobal: true` to share it app-wide. The transports are started on application bootstrap. A
 * {@link DeviceMetrics} provider in scope (e.g. a global metrics module) receives the hub's reports;
 * a {@link DeviceToolRequests} provider in scope serves phones' own tool requests (without one they
 * answer `METHOD_NOT_FOUND`); {@link DeviceListeners} tells whether each transport listens; a
 * {@link MOBILECLAW_SERVICE_OVERRIDE} provider in scope is the {@link MobileClawService} instead of the hub.
 */
@Module({
  providers: [
    {
      provide: DeviceHub,
      inject: [MOBILECLAW_MODULE_OPTIONS, { token: DeviceMetrics, optional: true }],
      useFactory: (options: MobileClawModuleOptions, metrics: DeviceMetrics | undefined) => {
        const { transports: _transports, listenRetryMs: _listenRetryMs, ...gateway } = options;
        return new DeviceHub(gateway, metrics ? { metrics } : {});
      },
    },
    { provide: DEVICE_TRANSPORTS, inject: [MOBILECLAW_MODULE_OPTIONS], useFactory: (options: MobileClawModuleOptions) => [...(options.transports ?? [])] },
    {
      provide: MobileClawService,
      inject: [DeviceHub, { token: MOBILECLAW_SERVICE_OVERRIDE, optional: true }],
      useFactory: (hub: DeviceHub, override: MobileClawService | undefined) => override ?? hub,
    },
    DeviceGatewayLifecycle,
    { provide: DeviceListeners, useExisting: DeviceGatewayLifecycle },
  ],
  exports: [MobileClawService, DeviceHub, DEVICE_TRANSPORTS, DeviceListeners],
})
export class MobileClawModule extends ConfigurableModuleClass {}
