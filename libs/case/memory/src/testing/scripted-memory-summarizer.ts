import { MemorySummarizer, type MemoryCandidate, type SessionTurn } from '@mobileclaw/domain';

/**
 * A {@link MemorySummarizer} for tests: answers what it is scripted to (a list, or a function of the
 * input, which may also throw or wait) and records every input.
 */
export class ScriptedMemorySummarizer extends MemorySummarizer {
  readonly name = 'scripted';
  readonly summarized: SessionTurn[][] = [];
  readonly organized: { day: string; text: string }[][] = [];
  summarizeWith: (turns: readonly SessionTurn[]) => Promise<MemoryCandidate[]> | MemoryCandidate[] = () => [];
  organizeWith: (days: readonly { day: string; text: string }[]) => Promise<MemoryCandidate[]> | MemoryCandidate[] = () => [];

  override async summarize(turns: readonly SessionTurn[]): Promise<MemoryCandidate[]> {
    this.summarized.push([...turns]);
    return this.summarizeWith(turns);
  }

  override async organize(days: readonly { day: string; text: string }[]): Promise<MemoryCandidate[]> {
    this.organized.push(days.map((day) => ({ ...day })));
    return this.organizeWith(days);
  }
}
