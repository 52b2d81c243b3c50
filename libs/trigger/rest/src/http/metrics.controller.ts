import { Controller, Get, NotFoundException, Optional, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { MetricsExposition } from '@mobileclaw/domain';
import { ApiTokenGuard } from './api-token.guard';
import { ProblemDetailsFilter } from './problem-details.filter';

/** Where metrics are scraped. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: the host's {@link MetricsExposition} as it renders it (Prometheus text exposition in
 * the gateway), `Cache-Control: no-store`. The same token rule as the REST API (`Authorization:
 * Bearer`, or `?access_token=`, when the gateway has an API token); 404 problem details when the host
 * provides no exposition. Not in the OpenAPI document: a scrape target, not an API operation.
 * @throws MobileClawError `UNAUTHORIZED` (401) on a missing or wrong token.
 */
@ApiExcludeController()
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('metrics')
export class MetricsController {
  constructor(@Optional() private readonly exposition?: MetricsExposition) {}

  @Get()
  async scrape(@Res() response: Response): Promise<void> {
    if (!this.exposition) throw new NotFoundException('this gateway exposes no metrics');
    const text = await this.exposition.render();
    // Written as is: Express' send() would reorder the media type's parameters.
    response.writeHead(200, { 'Content-Type': this.exposition.contentType, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
    response.end(text);
  }
}
