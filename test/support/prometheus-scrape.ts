/** One sample line of the Prometheus text format: `name{label="value",…} value`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its `# TYPE` and every sample line under it (`_bucket`, `_sum`, `_count` included). */
export interface PrometheusFamily {
  name: string;
  type: string;
  samples: PrometheusSample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL_PAIR = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;

/**
 * Parses Prometheus text exposition format 0.0.4 (HELP and TYPE comments, sample lines with escaped
 * label values, `+Inf`/`-Inf`/`NaN` values, optional timestamps) into families. Written for the tests
 * because the one registry parser (parse-prometheus-text-format 1.1.1) drops the `_sum`, `_count`
 * and labels of labelled histograms — exactly what these tests read.
 * @throws Error naming the first line that is not valid exposition text.
 */
export function parsePrometheusText(text: string): PrometheusFamily[] {
  const families: PrometheusFamily[] = [];
  let current: PrometheusFamily | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      current = { name: type[1], type: type[2], samples: [] };
      families.push(current);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE_LINE.exec(line);
    if (!sample || !current) throw new Error(`not Prometheus exposition text: ${JSON.stringify(line)}`);
    current.samples.push({ name: sample[1], labels: parseLabels(sample[2] ?? '', line), value: Number(sample[3].replace(/^\+?Inf$/, 'Infinity').replace(/^-Inf$/, '-Infinity')) });
  }
  return families;
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL_PAIR.lastIndex = 0;
  while (LABEL_PAIR.lastIndex < body.length) {
    const pair = LABEL_PAIR.exec(body);
    if (!pair) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    labels[pair[1]] = pair[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** Labels as a key: `k=v,…` in name order. */
const labelKey = (labels: Record<string, string>): string =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** One scrape of a `/metrics` endpoint, parsed. */
export class PrometheusScrape {
  private constructor(
    readonly text: string,
    readonly families: PrometheusFamily[],
  ) {}

  /**
   * GETs `url` with `headers` and parses the answer.
   * @throws Error when the answer is not 200 with Prometheus' text content type.
   */
  static async of(url: string, headers: Record<string, string> = {}): Promise<PrometheusScrape> {
    const res = await fetch(url, { headers });
    const text = await res.text();
    if (res.status !== 200 || res.headers.get('content-type') !== 'text/plain; version=0.0.4; charset=utf-8') {
      throw new Error(`scrape of ${url} answered ${res.status} ${res.headers.get('content-type')}: ${text.slice(0, 200)}`);
    }
    return new PrometheusScrape(text, parsePrometheusText(text));
  }

  family(name: string): PrometheusFamily {
    const family = this.families.find((f) => f.name === name);
    if (!family) throw new Error(`no metric ${name} in the scrape`);
    return family;
  }

  /** Every sample line of `name` (a counter's or gauge's name, or a histogram's `_sum`/`_count`/`_bucket`) as `labels → value`. */
  values(name: string): Record<string, number> {
    const family = this.families.find((f) => name === f.name || (f.type === 'histogram' && name.startsWith(`${f.name}_`)));
    if (!family) throw new Error(`no metric ${name} in the scrape`);
    return Object.fromEntries(family.samples.filter((s) => s.name === name).map((s) => [labelKey(s.labels), s.value]));
  }

  /** The value of the sample of `name` with exactly `labels`; undefined when there is none. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.values(name)[labelKey(labels)];
  }

  /** The number of observations in a histogram's series with exactly `labels` (its `_count`). */
  count(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.value(`${name}_count`, labels);
  }
}
