import { Controller, Get } from '@nestjs/common';
import { MobileClawService } from '@mobileclaw/domain';

/** `GET /api/health` → `{status: 'ok', devicesOnline}`: the process is up and serving. */
@Controller('api/health')
export class HealthController {
  constructor(private readonly mobileClaw: MobileClawService) {}

  @Get()
  health(): { status: 'ok'; devicesOnline: number } {
    return { status: 'ok', devicesOnline: this.mobileClaw.listDevices().filter((d) => d.status !== 'offline').length };
  }
}
