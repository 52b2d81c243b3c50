import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MobileClawClientModule } from './mobileclaw-client.module';
import { MOBILECLAW_CLIENT_OPTIONS } from './mobileclaw-client.module-definition';

/** The package's MobileClawClient, recording the options it was built with and its `close()` calls. */
jest.mock('../client', () => {
  const actual = jest.requireActual<typeof import('../client')>('../client');
  class RecordingClient extends actual.MobileClawClient {
    closeCount = 0;
    readonly builtWith: import('../client').MobileClawClientOptions;
    constructor(options: import('../client').MobileClawClientOptions) {
      super({ ...options, store: 'memory' });
      this.builtWith = options;
    }
    override async close(): Promise<void> {
      this.closeCount += 1;
      await super.close();
    }
  }
  return { ...actual, MobileClawClient: RecordingClient };
});
import { MobileClawClient as ClientClass } from '../client';
/** What the recording client adds (the real client keeps its options private). */
interface RecordingClient {
  readonly builtWith: Record<string, unknown>;
  readonly closeCount: number;
}
const MobileClawClient = ClientClass as unknown as new (...args: never[]) => RecordingClient;

/** A service of the app that needs the client, injected by its class. */
@Injectable()
class OrderSync {
  constructor(@Inject(ClientClass) readonly client: RecordingClient) {}
}

@Module({ providers: [OrderSync], exports: [OrderSync] })
class OrdersModule {}

@Injectable()
class Settings {
  readonly gatewayUrl = 'http://gateway.internal:8080';
}

@Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

describe('MobileClawClientModule', () => {
  it('forRoot provides one client, built from the options, injectable by its class', async () => {
    const app = await Test.createTestingModule({
      imports: [MobileClawClientModule.forRoot({ baseUrl: 'http://127.0.0.1:8080', apiToken: 't0ken' })],
      providers: [OrderSync],
    }).compile();
    await app.init();

    const client = app.get(MobileClawClient);
    expect(client).toBeInstanceOf(MobileClawClient);
    expect(client.builtWith).toEqual({ baseUrl: 'http://127.0.0.1:8080', apiToken: 't0ken' });
    expect(app.get(OrderSync).client).toBe(client);
    expect(app.get(MOBILECLAW_CLIENT_OPTIONS)).toEqual({ baseUrl: 'http://127.0.0.1:8080', apiToken: 't0ken' });
    await app.close();
  });

  it('forRootAsync builds the options with a factory over injected providers of imported modules', async () => {
    const app = await Test.createTestingModule({
      imports: [
        MobileClawClientModule.forRootAsync({
          imports: [SettingsModule],
          inject: [Settings],
          useFactory: async (settings: Settings) => ({ baseUrl: settings.gatewayUrl, requestTimeoutMs: 5000 }),
        }),
      ],
      providers: [OrderSync],
    }).compile();
    await app.init();

    expect(app.get(OrderSync).client.builtWith).toEqual({ baseUrl: 'http://gateway.internal:8080', requestTimeoutMs: 5000 });
    await app.close();
  });

  it('with isGlobal, feature modules inject the client without importing the module; isGlobal is not passed to the client', async () => {
    const app = await Test.createTestingModule({
      imports: [MobileClawClientModule.forRoot({ baseUrl: 'http://127.0.0.1:8080', isGlobal: true }), OrdersModule],
    }).compile();
    await app.init();

    expect(app.get(OrderSync).client).toBe(app.get(MobileClawClient));
    expect(app.get(OrderSync).client.builtWith).toEqual({ baseUrl: 'http://127.0.0.1:8080' });
    await app.close();
  });

  it('without isGlobal, a feature module that does not import it cannot inject the client', async () => {
    const compiling = Test.createTestingModule({
      imports: [MobileClawClientModule.forRoot({ baseUrl: 'http://127.0.0.1:8080' }), OrdersModule],
    }).compile();
    await expect(compiling).rejects.toThrow(/Nest can't resolve dependencies of the OrderSync \(\?\)/);
  });

  it("closes the client once when the app shuts down", async () => {
    const app = await Test.createTestingModule({ imports: [MobileClawClientModule.forRoot({ baseUrl: 'http://127.0.0.1:8080' })] }).compile();
    await app.init();
    const client = app.get(MobileClawClient);
    expect(client.closeCount).toBe(0);

    await app.close();
    expect(client.closeCount).toBe(1);
  });

  it('is the subpath export @mobileclaw/client/nest, sources and build alike', async () => {
    const packageDir = join(__dirname, '..', '..');
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
    expect(manifest.exports['./nest']).toEqual({ '@mobileclaw/source': './src/nest/index.ts', types: './dist/nest/index.d.ts', default: './dist/nest/index.js' });
    expect(join(packageDir, manifest.exports['./nest']['@mobileclaw/source'])).toBe(join(__dirname, 'index.ts'));
  });
});

describe('the root entry of @mobileclaw/client', () => {
  it('loads without Nest', () => {
    jest.isolateModules(() => {
      jest.doMock('@nestjs/common', () => {
        throw new Error('the root entry imported @nestjs/common');
      });
      expect(() => jest.requireActual('../index')).not.toThrow();
    });
  });
});
