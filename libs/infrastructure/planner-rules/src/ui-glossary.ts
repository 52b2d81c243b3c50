import { compactLabel } from './goal-text';

/**
 * One concept of the Android UI in both languages the planner reads: every term of an entry names
 * the same thing (a screen, an app, a setting or a button), so a goal in English finds a label in
 * Chinese and the reverse. Terms are compared with {@link compactLabel}.
 */
export interface GlossaryEntry {
  /** English terms, the usual one first (AOSP wording, then vendors' and users' variants). */
  en: readonly string[];
  /** Simplified Chinese terms, the usual one first. */
  zh: readonly string[];
}

/** Common Android UI terms, English ↔ Simplified Chinese. */
export const UI_GLOSSARY: readonly GlossaryEntry[] = [
  { en: ['Settings'], zh: ['设置'] },
  { en: ['Alarm', 'Alarms'], zh: ['闹钟'] },
  { en: ['Stopwatch'], zh: ['秒表'] },
  { en: ['Timer'], zh: ['计时器', '定时器'] },
  { en: ['Wi-Fi', 'WiFi', 'WLAN'], zh: ['WLAN', '无线局域网', '无线网络'] },
  { en: ['Bluetooth'], zh: ['蓝牙'] },
  { en: ['OK'], zh: ['确定', '好'] },
  { en: ['Cancel'], zh: ['取消'] },
];

const BY_TERM: ReadonlyMap<string, readonly GlossaryEntry[]> = (() => {
  const map = new Map<string, GlossaryEntry[]>();
  for (const entry of UI_GLOSSARY) {
    for (const term of [...entry.en, ...entry.zh]) {
      const key = compactLabel(term);
      if (key === '') continue;
      const list = map.get(key) ?? [];
      if (!list.includes(entry)) list.push(entry);
      map.set(key, list);
    }
  }
  return map;
})();

/**
 * The labels that name the same thing as `label`: `label` itself first, then every term (both
 * languages) of each glossary entry that has a term equal to it under {@link compactLabel}, without
 * duplicates. A label the glossary does not know gives `[label]`.
 */
export function equivalentLabels(label: string): string[] {
  const out = [label];
  const seen = new Set([compactLabel(label)]);
  for (const entry of BY_TERM.get(compactLabel(label)) ?? []) {
    for (const term of [...entry.en, ...entry.zh]) {
      const key = compactLabel(term);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(term);
    }
  }
  return out;
}
