import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { MobileClawService } from '@mobileclaw/domain';
import { DEVICE_TRANSPORTS, MobileClawModule } from '@mobileclaw/device';
import { TcpDeviceTransport } from './tcp-device-transport';
import { RawPhone } from './testing/raw-phone';

/** A service of an existing (enterprise) Nest app that only knows the port. */
@Injectable()
class PhoneOperator {
  constructor(readonly mobileClaw: MobileClawService) {}
  goHome(deviceId: string) {
    return this.mobileClaw.execute(deviceId, { command: 'home' });
  }
}

@Controller()
class NothingController {
  @Get()
  nothing() {
    return 'ok';
  }
}

@Module({ providers: [{ provide: 'SETTINGS', useValue: { token: 'host-app-token' } }], exports: ['SETTINGS'] })
class SettingsModule {}

describe('MobileClawModule in a second, minimal host app', () => {
  it('forRootAsync: the host injects MobileClawService and drives a phone over TCP', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        MobileClawModule.forRootAsync({
          imports: [SettingsModule],
          inject: ['SETTINGS'],
          useFactory: (settings: { token: string }) => ({ deviceToken: settings.token, transports: [new TcpDeviceTransport({ port: 0, host: '127.0.0.1' })] }),
        }),
      ],
      controllers: [NothingController],
      providers: [PhoneOperator],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const [tcp] = app.get<TcpDeviceTransport[]>(DEVICE_TRANSPORTS);
    const port = tcp.port;
    const { phone } = await RawPhone.hello(port, 'host-phone-1', 'host-app-token');
    const operator = app.get(PhoneOperator);
    expect((await operator.mobileClaw.listDevices()).map((d) => d.deviceId)).toEqual(['host-phone-1']);
    const result = operator.goHome('host-phone-1');
    const action = await phone.nextOfType('action');
    expect(action).toMatchObject({ type: 'action', command: 'home' });
    phone.reply(action, { screen: 'launcher' });
    await expect(result).resolves.toMatchObject({ status: 'success', data: { screen: 'launcher' } });

    // Closing the host app shuts the gateway down: pending calls fail SHUTTING_DOWN, phones are closed.
    const pending = expect(operator.goHome('host-phone-1')).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
    await phone.nextOfType('action');
    await app.close();
    await pending;
    await phone.closed;
  });

  it('forRoot with isGlobal makes the port injectable everywhere', async () => {
    @Module({ providers: [PhoneOperator], exports: [PhoneOperator] })
    class FeatureModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [MobileClawModule.forRoot({ isGlobal: true, deviceToken: 't0ken-for-tests' }), FeatureModule],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    await expect(app.get(PhoneOperator).goHome('nobody')).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    await app.close();
  });

  it('refuses to start without a device token', async () => {
    const build = Test.createTestingModule({ imports: [MobileClawModule.forRoot({ deviceToken: '' })] }).compile();
    await expect(build).rejects.toThrow('deviceToken is required');
  });
});
