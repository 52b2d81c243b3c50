import { Module, type DynamicModule } from '@nestjs/common';
import { DeviceMetrics, EventStreamMetrics, MetricsExposition, PlannerMetrics, TaskMetrics } from '@mobileclaw/domain';
import { PrometheusMetrics, type PrometheusMetricsOptions } from './prometheus-metrics';

/**
 * {@link PrometheusMetrics} as a global Nest module: one instance provides every metrics port of the
 * domain — `DeviceMetrics`, `TaskMetrics`, `PlannerMetrics`, `EventStreamMetrics` and the
 * `MetricsExposition` a scrape endpoint renders. Modules that take a port optionally (the device
 * module, the task service, the REST controllers) report to it once it is imported.
 */
@Module({})
export class PrometheusMetricsModule {
  static forRoot(options: PrometheusMetricsOptions = {}): DynamicModule {
    const ports = [DeviceMetrics, TaskMetrics, PlannerMetrics, EventStreamMetrics, MetricsExposition];
    return {
      module: PrometheusMetricsModule,
      global: true,
      providers: [{ provide: PrometheusMetrics, useValue: new PrometheusMetrics(options) }, ...ports.map((port) => ({ provide: port, useExisting: PrometheusMetrics }))],
      exports: [PrometheusMetrics, ...ports],
    };
  }
}
