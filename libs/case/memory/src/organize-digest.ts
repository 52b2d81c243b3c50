import type { MemorySection } from '@mobileclaw/domain';
import { memoryFileTitle, memorySectionHeading } from './memory-markdown';

/**
 * What "organize" shows the summariser of one day: the day's sections as Markdown (the gateway's
 * section format), highest priority first and, within a priority, newest first, as many whole
 * sections as fit in `maxChars` characters (a section that does not fit is cut to the room left, then
 * nothing more). Reading the file's first characters instead would show a busy day's oldest chatter
 * and leave out the late, important memories.
 * @returns '' for a day without sections.
 */
export function organizeDigest(day: string, sections: readonly MemorySection[], maxChars: number): string {
  const ordered = [...sections].sort((a, b) => b.priority - a.priority || Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.line - b.line);
  let text = memoryFileTitle('daily', day);
  for (const section of ordered) {
    const block = `\n\n${memorySectionHeading('daily', section, section.createdAt)}\n\n${section.text}`;
    if (text.length + block.length > maxChars) {
      const room = maxChars - text.length;
      // Only a section whose heading fits is cut: a heading alone says nothing.
      if (room > block.indexOf('\n\n', 2) + 2) text += block.slice(0, room);
      break;
    }
    text += block;
  }
  return sections.length === 0 ? '' : `${text}\n`.slice(0, maxChars);
}
