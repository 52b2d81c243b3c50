/**
 * Statements of the form "<subject> is <value>" as people say what to remember: `mom is Alice`,
 * `my office Wi-Fi is ACME-5G`, `妈妈是Alice`, `我的办公室Wi-Fi是ACME-5G` — the forms the rule-based
 * planner stores ("remember that mom is Alice") and reads back as aliases from memory.
 */

/** A statement "<subject> is <value>": `my` when it said "my"/"我的" before the subject. */
export interface MemoryStatement {
  subject: string;
  value: string;
  my: boolean;
}

/** A leading "remember (that)" / "记住" a stored memory may still carry. */
const REMEMBER_PREFIX = /^(?:please\s+)?remember(?:\s*:\s*|\s+)(?:that\s+)?|^请?(?:记住|记一下|记得)[:：,，\s]*/iu;
/** English: at most 40 characters of subject (up to 5 words), " is ", at most 80 characters of value. */
const ENGLISH_STATEMENT = /^(my\s+)?((?:[^\s]+\s+){0,4}?[^\s]+)\s+is\s+(.{1,80})$/iu;
/** Chinese: `是` between a subject of at most 20 characters and a value. */
const CHINESE_STATEMENT = /^(我的)?([^是]{1,20}?)是(.{1,80})$/u;
/** What a value never contains: a sentence goes on past it (a clause, a full stop before more words), or it quotes something. */
const NOT_A_VALUE = /[!?。！？;；,，"“”「」]|\.\s|\s(?:and|but|because|if|when)\s/iu;

/**
 * The statement `text` makes, or undefined when it is none of the forms above (a question, a
 * sentence that goes on, a subject longer than five words or 40 characters). Trailing `.`/`。` and
 * spaces are ignored; the value keeps its case.
 */
export function parseMemoryStatement(text: string): MemoryStatement | undefined {
  const body = text
    .normalize('NFKC')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(REMEMBER_PREFIX, '')
    .replace(/[.。!！]+$/u, '')
    .trim();
  const match = ENGLISH_STATEMENT.exec(body) ?? CHINESE_STATEMENT.exec(body);
  if (!match) return undefined;
  const subject = match[2].trim();
  const value = match[3].trim();
  if (subject === '' || value === '' || subject.length > 40 || NOT_A_VALUE.test(value)) return undefined;
  return { subject, value, my: match[1] !== undefined };
}

/** How a subject or a goal's name is compared: NFKC, lower-case, one space between words, no leading "my"/"我的". */
export function foldSubject(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/^(?:my |我的)/u, '');
}
