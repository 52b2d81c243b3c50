import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { MobileClawClient } from '../client';
import { ASYNC_OPTIONS_TYPE, ConfigurableModuleClass, MOBILECLAW_CLIENT_OPTIONS, OPTIONS_TYPE, type MobileClawClientModuleOptions } from './mobileclaw-client.module-definition';

/** The module's client under a fixed token, for its own shutdown hook (apps inject the `MobileClawClient` class). */
const PROVIDED_CLIENT = Symbol('mobileclaw.client');

/** Closes the client when the app shuts down, when the client has a `close()`. */
@Injectable()
class ClientShutdown implements OnApplicationShutdown {
  constructor(@Inject(PROVIDED_CLIENT) private readonly client: MobileClawClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Provides one `MobileClawClient` to a Nest app, injectable by its class:
 *
 * ```ts
 * @Module({ imports: [MobileClawClientModule.forRoot({ baseUrl: 'http://127.0.0.1:8080', isGlobal: true })] })
 * class AppModule {}
 *
 * MobileClawClientModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService],
 *   useFactory: (config: ConfigService) => ({ baseUrl: config.getOrThrow('MOBILECLAW_URL') }) });
 *
 * constructor(private readonly mobileClaw: MobileClawClient) {}
 * ```
 *
 * The options (also injectable as {@link MOBILECLAW_CLIENT_OPTIONS}) go to the client's constructor
 * as they are. On application shutdown the client's `close()` is awaited (it stops the followers of
 * ASYNC invocations that answer local tool calls in the background).
 */
@Module({})
export class MobileClawClientModule extends ConfigurableModuleClass {
  static override forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    return withClient(super.forRoot(options));
  }

  static override forRootAsync(options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
    return withClient(super.forRootAsync(options));
  }
}

/** The module definition with the client provided (and exported) under its class, built from the options. */
function withClient(definition: DynamicModule): DynamicModule {
  return {
    ...definition,
    providers: [
      ...(definition.providers ?? []),
      { provide: MobileClawClient, useFactory: (options: MobileClawClientModuleOptions) => new MobileClawClient(options), inject: [MOBILECLAW_CLIENT_OPTIONS] },
      { provide: PROVIDED_CLIENT, useExisting: MobileClawClient },
      ClientShutdown,
    ],
    exports: [...(definition.exports ?? []), MobileClawClient, MOBILECLAW_CLIENT_OPTIONS],
  };
}
