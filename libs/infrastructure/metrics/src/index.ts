/**
 * @mobileclaw/metrics-prometheus: the domain's metrics ports backed by prom-client
 * ({@link PrometheusMetrics}) and their global Nest module ({@link PrometheusMetricsModule}).
 */
export * from './prometheus-metrics';
export * from './prometheus-metrics.module';
