import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEVER } from 'rxjs';
import { MobileClawError, MobileClawService, TaskRepository } from '@mobileclaw/domain';
import { TakeoverService, TaskService } from '@mobileclaw/case-tasks';
import { GatewayApiModule } from './gateway-api.module';

const TOKEN = 'rest-api-token-0123456789';

/** Another face of the same app (as MCP or A2A will be): its own routes, auth and error format. */
@Controller('other')
class OtherFaceController {
  @Get('open')
  open(): { ok: true } {
    return { ok: true };
  }

  @Get('fails')
  fails(): never {
    throw new MobileClawError('DEVICE_NOT_FOUND', 'no device "x" is known');
  }
}

@Module({
  providers: [
    {
      provide: MobileClawService,
      useValue: {
        events$: NEVER,
        listDevices: async () => [],
        getDevice: async (deviceId: string) => {
          throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${JSON.stringify(deviceId)} is known`, { deviceId });
        },
      },
    },
    { provide: TaskService, useValue: {} },
    { provide: TakeoverService, useValue: {} },
    { provide: TaskRepository, useValue: {} },
  ],
  exports: [MobileClawService, TaskService, TakeoverService, TaskRepository],
})
class PortsModule {}

describe('GatewayApiModule scopes its guard and error filter to its own controllers', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    @Module({ imports: [PortsModule], exports: [PortsModule] })
    class GlobalPorts {}
    const moduleRef = await Test.createTestingModule({
      imports: [{ module: GlobalPorts, global: true }, GatewayApiModule.forRoot({ apiToken: TOKEN })],
      controllers: [OtherFaceController],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  it('REST routes need the API token and answer problem details', async () => {
    const denied = await fetch(`${base}/api/devices/sim-1`);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('content-type')).toContain('application/problem+json');
    expect(await denied.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });

    const missing = await fetch(`${base}/api/devices/sim-1`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'DEVICE_NOT_FOUND', title: 'No such device', deviceId: 'sim-1' });
  });

  it('routes of another face get neither the REST token check nor problem details', async () => {
    const open = await fetch(`${base}/other/open`);
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ ok: true });

    // Nest's own default answer for an unhandled error, not the REST layer's problem body.
    const failed = await fetch(`${base}/other/fails`);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).not.toContain('application/problem+json');
    expect(await failed.json()).toEqual({ statusCode: 500, message: 'Internal server error' });
  });
});
