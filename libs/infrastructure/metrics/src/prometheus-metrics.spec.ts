import { PrometheusMetrics } from './prometheus-metrics';

/** The samples of one metric as `{labels → value}` lines, read from the registry (exact values). */
async function samples(metrics: PrometheusMetrics, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return Object.fromEntries(
    values.map((v) => {
      const labels = Object.entries(v.labels)
        .map(([k, l]) => `${k}=${String(l)}`)
        .join(',');
      const suffix = 'metricName' in v && typeof v.metricName === 'string' ? v.metricName.slice(name.length) : '';
      return [`${suffix}{${labels}}`, v.value];
    }),
  );
}

describe('PrometheusMetrics', () => {
  it('counts commands by command and outcome and times the queued ones, in seconds, without device ids', async () => {
    const metrics = new PrometheusMetrics({ processMetrics: false });
    metrics.commandSettled({ deviceId: 'phone-1', command: 'click', outcome: 'ok', durationMs: 40 });
    metrics.commandSettled({ deviceId: 'phone-2', command: 'click', outcome: 'ok', durationMs: 2000 });
    metrics.commandSettled({ deviceId: 'phone-1', command: 'home', outcome: 'TIMEOUT', durationMs: 30_000 });
    metrics.commandSettled({ deviceId: 'nobody', command: 'unknown', outcome: 'DEVICE_NOT_FOUND' });
    expect(await samples(metrics, 'mobileclaw_device_commands_total')).toEqual({
      '{command=click,outcome=ok}': 2,
      '{command=home,outcome=TIMEOUT}': 1,
      '{command=unknown,outcome=DEVICE_NOT_FOUND}': 1,
    });
    const duration = await samples(metrics, 'mobileclaw_device_command_duration_seconds');
    expect(duration['_count{command=click}']).toBe(2);
    expect(duration['_sum{command=click}']).toBeCloseTo(2.04, 10);
    expect(duration['_bucket{le=0.05,command=click}']).toBe(1);
    expect(duration['_bucket{le=2.5,command=click}']).toBe(2);
    expect(duration['_count{command=home}']).toBe(1);
    expect(duration['_sum{command=home}']).toBe(30);
    // A command refused before it was queued has no duration.
    expect(duration['_count{command=unknown}']).toBeUndefined();
    expect((await metrics.render()).includes('phone-1')).toBe(false);
  });

  it('labels the per-phone series with device_id when asked to', async () => {
    const metrics = new PrometheusMetrics({ processMetrics: false, deviceLabels: true });
    metrics.commandSettled({ deviceId: 'phone-1', command: 'click', outcome: 'ok', durationMs: 10 });
    metrics.commandDispatched({ deviceId: 'phone-1', command: 'click', queuedMs: 250 });
    metrics.heartbeatMeasured('phone-1', 12);
    metrics.observeDevices(() => ({
      transports: ['tcp'],
      devices: [
        { deviceId: 'phone-1', transport: 'tcp', pendingRequests: 3, queuedCommands: 2 },
        { deviceId: 'phone-2', transport: 'tcp', pendingRequests: 1, queuedCommands: 0 },
      ],
    }));
    expect(await samples(metrics, 'mobileclaw_device_commands_total')).toEqual({ '{command=click,outcome=ok,device_id=phone-1}': 1 });
    expect((await samples(metrics, 'mobileclaw_device_command_queue_wait_seconds'))['_sum{device_id=phone-1}']).toBe(0.25);
    expect((await samples(metrics, 'mobileclaw_device_heartbeat_rtt_seconds'))['_sum{device_id=phone-1}']).toBe(0.012);
    expect(await samples(metrics, 'mobileclaw_device_pending_requests')).toEqual({ '{device_id=phone-1}': 3, '{device_id=phone-2}': 1 });
    expect(await samples(metrics, 'mobileclaw_device_queued_commands')).toEqual({ '{device_id=phone-1}': 2, '{device_id=phone-2}': 0 });
    // Phones are counted by transport only, whatever the option.
    expect(await samples(metrics, 'mobileclaw_devices_connected')).toEqual({ '{transport=tcp}': 2 });
  });

  it('reads the device load at each scrape: phones by transport (0 for an empty one), pending and queued sums', async () => {
    const metrics = new PrometheusMetrics({ processMetrics: false });
    let devices = [{ deviceId: 'phone-1', transport: 'tcp', pendingRequests: 2, queuedCommands: 1 }];
    metrics.observeDevices(() => ({ transports: ['tcp', 'ws'], devices }));
    expect(await samples(metrics, 'mobileclaw_devices_connected')).toEqual({ '{transport=tcp}': 1, '{transport=ws}': 0 });
    expect(await samples(metrics, 'mobileclaw_device_pending_requests')).toEqual({ '{}': 2 });
    devices = [...devices, { deviceId: 'phone-2', transport: 'ws', pendingRequests: 4, queuedCommands: 3 }];
    expect(await samples(metrics, 'mobileclaw_devices_connected')).toEqual({ '{transport=tcp}': 1, '{transport=ws}': 1 });
    expect(await samples(metrics, 'mobileclaw_device_pending_requests')).toEqual({ '{}': 6 });
    expect(await samples(metrics, 'mobileclaw_device_queued_commands')).toEqual({ '{}': 4 });
    devices = [];
    expect(await samples(metrics, 'mobileclaw_devices_connected')).toEqual({ '{transport=tcp}': 0, '{transport=ws}': 0 });
  });

  it('counts discarded frames, dropped replies, sessions and refusals; known reasons start at 0', async () => {
    const metrics = new PrometheusMetrics({ processMetrics: false });
    metrics.observeDevices(() => ({ transports: ['tcp'], devices: [] }));
    expect(await samples(metrics, 'mobileclaw_device_frames_discarded_total')).toEqual({
      '{reason=oversized,transport=tcp}': 0,
      '{reason=malformed,transport=tcp}': 0,
      '{reason=unexpected,transport=tcp}': 0,
    });
    expect(await samples(metrics, 'mobileclaw_device_replies_dropped_total')).toEqual({ '{reason=late}': 0, '{reason=unknown}': 0 });
    metrics.frameDiscarded('malformed', 'tcp');
    metrics.frameDiscarded('malformed', 'tcp');
    metrics.replyDropped('late');
    metrics.sessionStarted('phone-1', 'tcp', 'first');
    metrics.sessionStarted('phone-1', 'tcp', 'replacement');
    metrics.sessionStarted('phone-1', 'tcp', 'reconnect');
    metrics.sessionStarted('phone-1', 'tcp', 'reconnect');
    metrics.connectionRefused('UNAUTHORIZED');
    expect((await samples(metrics, 'mobileclaw_device_frames_discarded_total'))['{reason=malformed,transport=tcp}']).toBe(2);
    expect(await samples(metrics, 'mobileclaw_device_replies_dropped_total')).toEqual({ '{reason=late}': 1, '{reason=unknown}': 0 });
    expect(await samples(metrics, 'mobileclaw_device_sessions_started_total')).toEqual({ '{transport=tcp,kind=first}': 1, '{transport=tcp,kind=replacement}': 1, '{transport=tcp,kind=reconnect}': 2 });
    expect(await samples(metrics, 'mobileclaw_device_connections_refused_total')).toEqual({ '{code=UNAUTHORIZED}': 1 });
  });

  it('reports tasks by state, finished tasks by status and code, step phases, planner errors and retries, SSE clients', async () => {
    const metrics = new PrometheusMetrics({ processMetrics: false });
    metrics.observeTasks(() => ({ queued: 2, running: 1, inputRequired: 1 }));
    metrics.taskFinished('completed');
    metrics.taskFinished('failed', 'MAX_STEPS');
    metrics.taskFinished('failed', 'MAX_STEPS');
    metrics.stepPhaseMeasured('planning', 1500);
    metrics.stepPhaseMeasured('planning', 500);
    metrics.plannerFailed('timeout');
    metrics.retried('http');
    metrics.retried('invalid_answer');
    metrics.retried('invalid_answer');
    metrics.clientConnected('task');
    metrics.clientConnected('task');
    metrics.clientDisconnected('task');
    expect(await samples(metrics, 'mobileclaw_tasks')).toEqual({ '{state=queued}': 2, '{state=running}': 1, '{state=input_required}': 1 });
    expect(await samples(metrics, 'mobileclaw_tasks_finished_total')).toEqual({ '{status=completed}': 1, '{status=failed,code=MAX_STEPS}': 2 });
    const phases = await samples(metrics, 'mobileclaw_task_step_phase_seconds');
    expect([phases['_count{phase=planning}'], phases['_sum{phase=planning}']]).toEqual([2, 2]);
    expect(await samples(metrics, 'mobileclaw_planner_errors_total')).toEqual({ '{reason=error}': 0, '{reason=timeout}': 1 });
    expect(await samples(metrics, 'mobileclaw_planner_retries_total')).toEqual({ '{reason=http}': 1, '{reason=invalid_answer}': 2 });
    expect(await samples(metrics, 'mobileclaw_sse_clients')).toEqual({ '{stream=devices}': 0, '{stream=task}': 1, '{stream=socket}': 0 });
  });

  it('renders Prometheus text exposition with the process metrics, on a registry of its own', async () => {
    const first = new PrometheusMetrics();
    const second = new PrometheusMetrics();
    first.taskFinished('completed');
    expect(first.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await first.render();
    expect(text).toContain('# TYPE mobileclaw_tasks_finished_total counter\nmobileclaw_tasks_finished_total{status="completed"} 1\n');
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(await second.render()).not.toContain('mobileclaw_tasks_finished_total{status="completed"}');
  });
});
