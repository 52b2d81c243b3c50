import { Controller, Get, Header, NotFoundException, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiTokenGuard } from '../http/api-token.guard';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { PairingInfoSchema } from './pairing.schemas';
import { PairingService, type PairingInfo } from './pairing.service';

/**
 * `GET /api/pairing` → {@link PairingInfo}: the pairing link for a new phone, its QR code and the
 * values behind it. It reveals the device token, so it is behind the API token like every `/api`
 * route (and never cached: `Cache-Control: no-store`).
 * @throws MobileClawError `UNAUTHORIZED` (401) on a missing or wrong API token; 404 problem details
 *   when the host gave no pairing options.
 */
@ApiTags('pairing')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/pairing')
export class PairingController {
  constructor(private readonly pairing: PairingService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Pair a new phone',
    description:
      'The `mobileclaw://pair` link (and its QR code) that the MobileClaw Android app opens to connect to this gateway. The host is `MOBILECLAW_PAIRING_ADDRESS` when set, else a guess (`hostGuessed`, with `warnings`). Contains the device token.',
  })
  @ApiOkResponse({ type: PairingInfoSchema })
  describe(@Req() request: Request): Promise<PairingInfo> {
    if (!this.pairing.available) throw new NotFoundException('this gateway offers no pairing');
    return this.pairing.describe(request.headers.host, request.headers);
  }
}
