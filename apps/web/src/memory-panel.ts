import { describeFailure } from './api-client.js';
import type { MemoryFlushResult, MemoryOrganizeResult, MemoryRecord, MemoryRecordPage, MemorySearchResult, MemoryStatus, StoredMemoryLayer } from './api-types.js';
import { h, plural } from './dom.js';
import { renderMemoryHit, renderMemoryRecord, semanticText } from './memory-list.js';

/** What the panel needs from the page. */
export interface MemoryPanelDeps {
  /** `GET /api/memory/status`. */
  status(): Promise<MemoryStatus>;
  /** `GET /api/memory?scope=&q=`. */
  search(scope: string, query: string): Promise<MemorySearchResult>;
  /** `GET /api/memory/records?scope=&layer=`. */
  records(scope: string, layer: StoredMemoryLayer): Promise<MemoryRecordPage>;
  /** `POST /api/memory {scope, text}`: the stored records. */
  remember(scope: string, text: string): Promise<MemoryRecord[]>;
  /** `DELETE /api/memory/:id`: the records removed. */
  forget(id: string): Promise<MemoryRecord[]>;
  /** `POST /api/memory/flush {scope}`. */
  flush(scope: string): Promise<MemoryFlushResult>;
  /** `POST /api/memory/organize {scope}`. */
  organize(scope: string): Promise<MemoryOrganizeResult>;
  /** Called with every failed request (the page opens its token settings on a 401/403). */
  onError(err: unknown): void;
  /** The time now, in ms since the epoch (records show their age). */
  now?(): number;
}

/**
 * The Memory panel: whose memory (the picked phone's `device:<id>` unless another scope is typed), the
 * semantic search state, a search whose hits show layer, text, source file:line, score parts and age,
 * remembering a text, the daily and the curated (`MEMORY.md`) records with Delete, and the Flush and
 * "Organize long-term memory" buttons with what they stored. Every failure is shown as text. A load
 * that ends after a newer one started is dropped.
 */
export class MemoryPanel {
  private readonly scopeInput = h('input', { id: 'memory-scope', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '264', placeholder: 'device:<phone> or context:<conversation>' });
  private readonly scopeLine = h('p', { class: 'muted memory-scope-line', role: 'status' });
  private readonly semantic = h('p', { class: 'memory-semantic', role: 'status' });
  private readonly error = h('p', { class: 'error-text memory-error', role: 'alert' });
  private readonly message = h('p', { class: 'memory-message', role: 'status' });
  private readonly queryInput = h('input', { id: 'memory-query', type: 'search', autocomplete: 'off', maxlength: '1000', placeholder: 'e.g. mom, Wi-Fi, 妈妈' });
  private readonly hitList = h('ol', { class: 'memory-hits', 'aria-label': 'Memory search results' });
  private readonly rememberInput = h('input', { id: 'memory-text', type: 'text', autocomplete: 'off', maxlength: '4000', placeholder: 'e.g. Mom is Alice' });
  private readonly dailyTitle = h('h3', { id: 'memory-daily-title' }, 'Daily');
  private readonly dailyList = h('ul', { class: 'memory-records memory-daily', 'aria-labelledby': 'memory-daily-title' });
  private readonly curatedTitle = h('h3', { id: 'memory-curated-title' }, 'Long-term (MEMORY.md)');
  private readonly curatedList = h('ul', { class: 'memory-records memory-curated', 'aria-labelledby': 'memory-curated-title' });
  private readonly flushButton = h('button', { type: 'button', class: 'memory-flush', onclick: () => this.flush() }, 'Flush session');
  private readonly organizeButton = h('button', { type: 'button', class: 'memory-organize', onclick: () => this.organize() }, 'Organize long-term memory');
  private deviceId: string | undefined;
  private status: MemoryStatus | undefined;
  private lastSearch: MemorySearchResult | undefined;
  /** The number of the latest load: only its answer is shown. */
  private loads = 0;
  private searches = 0;

  constructor(
    readonly container: HTMLElement,
    private readonly deps: MemoryPanelDeps,
  ) {
    const searchForm = h(
      'form',
      { class: 'memory-search', role: 'search', 'aria-label': 'Memory search', onsubmit: (event) => this.onSearch(event) },
      h('label', { for: 'memory-query' }, 'Search memory'),
      this.queryInput,
      h('button', { type: 'submit' }, 'Search'),
    );
    const rememberForm = h(
      'form',
      { class: 'memory-remember', 'aria-label': 'Remember a memory', onsubmit: (event) => this.onRemember(event) },
      h('label', { for: 'memory-text' }, 'Remember'),
      this.rememberInput,
      h('button', { type: 'submit' }, 'Remember'),
    );
    this.scopeInput.addEventListener('change', () => void this.refresh());
    container.append(
      h('label', { for: 'memory-scope' }, 'Memory scope'),
      this.scopeInput,
      this.scopeLine,
      this.semantic,
      this.error,
      searchForm,
      this.hitList,
      rememberForm,
      h('p', { class: 'memory-actions' }, this.flushButton, ' ', this.organizeButton),
      this.message,
      this.dailyTitle,
      this.dailyList,
      this.curatedTitle,
      this.curatedList,
    );
    this.showScope();
  }

  /** The scope shown: the one typed, else the picked phone's `device:<id>`; undefined with neither. */
  get scope(): string | undefined {
    const typed = this.scopeInput.value.trim();
    if (typed) return typed;
    return this.deviceId === undefined ? undefined : `device:${this.deviceId}`;
  }

  /** The phone the page picked: its memory is shown unless another scope is typed. */
  setDevice(deviceId: string | undefined): void {
    if (deviceId === this.deviceId) return;
    this.deviceId = deviceId;
    this.scopeInput.placeholder = deviceId === undefined ? 'device:<phone> or context:<conversation>' : `device:${deviceId}`;
    if (!this.scopeInput.value.trim()) void this.refresh();
  }

  /** Loads the status and the scope's daily and curated records again; resolves once shown (or once the failure is). */
  async refresh(): Promise<void> {
    const load = ++this.loads;
    const scope = this.scope;
    this.lastSearch = undefined;
    this.hitList.replaceChildren();
    this.showScope();
    try {
      const [status, daily, curated] = await Promise.all([
        this.deps.status(),
        scope === undefined ? undefined : this.deps.records(scope, 'daily'),
        scope === undefined ? undefined : this.deps.records(scope, 'curated'),
      ]);
      if (load !== this.loads) return;
      this.status = status;
      this.error.textContent = '';
      this.showRecords(daily, curated);
    } catch (err) {
      if (load !== this.loads) return;
      this.error.textContent = `Memory unavailable: ${describeFailure(err)}`;
      this.deps.onError(err);
    }
    this.showSemantic();
  }

  private showScope(): void {
    const scope = this.scope;
    this.scopeLine.textContent = scope === undefined ? 'Pick a phone or type a scope to see its memory.' : `Showing the memory of ${scope}.`;
    for (const control of [this.flushButton, this.organizeButton]) control.disabled = scope === undefined;
  }

  private showSemantic(): void {
    const { state, text } = semanticText(this.status, this.lastSearch);
    this.semantic.dataset['state'] = state;
    this.semantic.textContent = text;
  }

  private showRecords(daily: MemoryRecordPage | undefined, curated: MemoryRecordPage | undefined): void {
    const now = this.deps.now?.() ?? Date.now();
    const onDelete = (record: MemoryRecord) => this.forget(record);
    this.dailyTitle.textContent = `Daily${daily ? ` (${daily.total})` : ''}`;
    this.curatedTitle.textContent = `Long-term (MEMORY.md)${curated ? ` (${curated.total})` : ''}`;
    this.dailyList.replaceChildren(...(daily && daily.records.length > 0 ? daily.records.map((record) => renderMemoryRecord(record, now, onDelete)) : [h('li', { class: 'empty' }, 'No daily memories.')]));
    this.curatedList.replaceChildren(...(curated && curated.records.length > 0 ? curated.records.map((record) => renderMemoryRecord(record, now, onDelete)) : [h('li', { class: 'empty' }, 'No long-term memories.')]));
  }

  private onSearch(event: Event): void {
    event.preventDefault();
    const scope = this.scope;
    const query = this.queryInput.value.trim();
    if (scope === undefined || !query) return;
    const search = ++this.searches;
    this.deps.search(scope, query).then(
      (result) => {
        if (search !== this.searches) return;
        this.lastSearch = result;
        this.error.textContent = '';
        this.hitList.replaceChildren(...(result.hits.length > 0 ? result.hits.map(renderMemoryHit) : [h('li', { class: 'empty' }, `Nothing remembered about “${query}”.`)]));
        this.showSemantic();
      },
      (err: unknown) => {
        if (search !== this.searches) return;
        this.error.textContent = `Search failed: ${describeFailure(err)}`;
        this.deps.onError(err);
      },
    );
  }

  private onRemember(event: Event): void {
    event.preventDefault();
    const scope = this.scope;
    const text = this.rememberInput.value.trim();
    if (scope === undefined || !text) return;
    this.act(
      () => this.deps.remember(scope, text),
      (records) => {
        this.rememberInput.value = '';
        return `Remembered in ${records.map((record) => record.layer).join(' and ')}: ${text}`;
      },
      'Not remembered',
    );
  }

  private forget(record: MemoryRecord): void {
    this.act(
      () => this.deps.forget(record.id),
      (deleted) => `Forgot “${record.text}” (${plural(deleted.length, 'record')} removed).`,
      'Not deleted',
    );
  }

  private flush(): void {
    const scope = this.scope;
    if (scope === undefined) return;
    this.act(
      () => this.deps.flush(scope),
      (result) => `Flushed ${plural(result.turns, 'turn')}: ${plural(result.stored.length, 'memory', 'memories')} stored.`,
      'Flush failed',
    );
  }

  private organize(): void {
    const scope = this.scope;
    if (scope === undefined) return;
    this.act(
      () => this.deps.organize(scope),
      (result) => `Organized ${plural(result.days, 'day')}: ${plural(result.stored.length, 'lasting memory', 'lasting memories')} kept${result.stored.length > 0 ? `: ${result.stored.map((record) => record.text).join('; ')}` : ''}.`,
      'Organize failed',
    );
  }

  /** Runs a change, says what it did (or why not), then shows the records again. */
  private act<T>(run: () => Promise<T>, done: (result: T) => string, failed: string): void {
    this.say('pending', 'Working…');
    run().then(
      async (result) => {
        await this.refresh();
        this.say('ok', done(result));
      },
      (err: unknown) => {
        this.say('error', `${failed}: ${describeFailure(err)}`);
        this.deps.onError(err);
      },
    );
  }

  private say(outcome: 'pending' | 'ok' | 'error', text: string): void {
    this.message.dataset['outcome'] = outcome;
    this.message.textContent = text;
  }
}
