import type { UiElement } from '@mobileclaw/domain';
import { findKnownApp } from './app-catalog';
import { quoteText } from './goal-intent';
import { click, done, fail, lastError, lastSucceeded, openApp, tap, type StepInput, type StepOutcome } from './intent-step';
import { LabelMatch, matchLabel } from './label-match';
import { labelsOf, titleOf, type Screen } from './screen';

const MESSAGES = findKnownApp('messages') as NonNullable<ReturnType<typeof findKnownApp>>;
const SEND_LABELS = ['Send', 'Send message', 'Send SMS', '发送', '发送消息', '发送信息'];
const NEXT_LABELS = ['Next', 'Done', 'OK', '下一步', '完成', '确定'];
const START_CHAT_LABELS = ['Start chat', 'New conversation', 'New message', 'Compose', 'New chat', '开始聊天', '新对话', '新建对话', '新信息', '新消息', '新建信息'];

/** A clickable element labelled by any of `names` (exactly, spacing and case aside). */
function button(screen: Screen, names: readonly string[]): UiElement | undefined {
  return screen.elements.find((e) => e.clickable && e.enabled !== false && labelsOf(e).some((l) => matchLabel(l, names) >= LabelMatch.Compact));
}

/** The row (clickable, not a field) titled by the recipient: a conversation or a contact. */
function recipientRow(screen: Screen, recipient: string): UiElement | undefined {
  return screen.elements.find((e) => e.clickable && !e.editable && matchLabel(titleOf(e), [recipient]) >= LabelMatch.Compact);
}

/** A conversation screen: its title, compose field and send button. */
interface Conversation {
  title: UiElement;
  compose: UiElement;
  send: UiElement;
}

/** The conversation screen with `recipient`. */
function conversationWith(screen: Screen, recipient: string): Conversation | undefined {
  const send = button(screen, SEND_LABELS);
  if (!send) return undefined;
  const fields = screen.fields();
  const compose = fields.find((f) => f.bounds[1] < send.bounds[3] && f.bounds[3] > send.bounds[1]) ?? fields[fields.length - 1];
  const title = screen.elements.find((e) => !e.clickable && !e.editable && e.center[1] < send.bounds[1] && matchLabel(e.text, [recipient]) >= LabelMatch.Compact);
  return compose && title ? { title, compose, send } : undefined;
}

/** Texts shown between the conversation's title and its compose field (the message bubbles). */
function bubbles(screen: Screen, title: UiElement, compose: UiElement): UiElement[] {
  return screen.elements.filter(
    (e) => e !== title && !e.clickable && !e.editable && e.text !== undefined && e.center[1] > title.bounds[3] && e.center[1] < compose.bounds[1],
  );
}

/**
 * After the one Send tap of the task (Send is never tapped twice: a message cannot be unsent): done
 * when the compose field is empty, saying so when the message is not visible on the screen (e.g. a
 * bubble scrolled out of view); a failure when the field still holds text or the conversation is
 * gone, since the message cannot then be confirmed.
 */
function afterSend(chat: Conversation | undefined, screen: Screen, recipient: string, text: string, last: StepInput['last']): StepOutcome {
  const message = quoteText(text);
  const tapError = lastError(last, 'click');
  if (!chat) return fail(`tapped Send for ${message} to ${recipient}, then the conversation was no longer on the screen, so the message cannot be confirmed; Send is not tapped again, since a message cannot be unsent`);
  const left = chat.compose.text?.trim() ?? '';
  if (left !== '') {
    const held = left === text.trim() ? 'the message' : `the text ${quoteText(left)}`;
    const tap = tapError === undefined ? 'the phone reported the Send tap done' : `the Send tap failed (${tapError})`;
    return fail(`${tap}, but the compose field still holds ${held}, so the message to ${recipient} may not have been sent; Send is not tapped again, since a message cannot be unsent`);
  }
  const visible = bubbles(screen, chat.title, chat.compose).some((b) => b.text?.trim() === text.trim());
  const where = visible ? '' : ' (the compose field was emptied by Send; the message is not visible on screen)';
  const caveat = tapError === undefined ? '' : ` The phone reported an error for the Send tap (${tapError}), but the compose field was emptied.`;
  return done(`Sent ${message} to ${recipient}${where}.${caveat}`);
}

/**
 * "send T to R" in the messaging app: opens the conversation with R (from the conversation list, or
 * "Start chat" then R's contact row, or R typed as a new recipient), types T and taps Send, once.
 * Sending to someone who is neither a contact nor an existing conversation asks for approval. After
 * the Send tap it is done when the compose field is empty, and fails (without tapping Send again)
 * when it still holds text; see {@link afterSend}.
 */
export function planSendMessage(recipient: string, text: string, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const who = JSON.stringify(recipient);
  const chat = conversationWith(screen, recipient);
  if (memory.facts.get('sent') === true) return afterSend(chat, screen, recipient, text, last);
  if (chat) {
    const { compose, send, title } = chat;
    const composed = compose.text?.trim() === text.trim();
    if (composed) {
      const isNew = memory.facts.get('recipientIsNew');
      const needsApproval = isNew === true || (isNew === undefined && bubbles(screen, title, compose).length === 0);
      memory.facts.set('sent', true);
      return click(
        send,
        `Tap Send to send the message to ${recipient}.`,
        needsApproval ? { reason: `sending a message to ${who}, who is not an existing contact or conversation` } : undefined,
        `sending ${quoteText(text)} to ${recipient}`,
      );
    }
    const justFocused = memory.facts.get('focusedCompose') === true && lastSucceeded(last, 'click');
    if (compose.focused || justFocused) {
      if (memory.facts.get('typedMessage') === true && lastSucceeded(last, 'input')) return fail(`typed the message but the compose field does not show it`);
      memory.facts.set('typedMessage', true);
      return { kind: 'act', action: { command: 'input', text, clear: true }, reasoning: `Type the message to ${recipient}.`, element: compose };
    }
    memory.facts.set('focusedCompose', true);
    return click(compose, `Tap the message field of the conversation with ${recipient}.`);
  }

  const inMessages = screen.isIn(MESSAGES.package);
  if (inMessages === false || (inMessages === undefined && !memory.opened.has(MESSAGES.package))) {
    const error = lastError(last, 'open');
    if (error !== undefined && memory.opened.has(MESSAGES.package)) return fail(`could not open ${MESSAGES.label}: ${error}`);
    return openApp(memory, MESSAGES.package, MESSAGES.label);
  }

  const row = recipientRow(screen, recipient);
  if (row) {
    memory.facts.set('recipientIsNew', false);
    return tap(memory, recipient, row, `Open the conversation with ${recipient}.`);
  }
  if (button(screen, SEND_LABELS)) {
    if (memory.facts.get('leftOtherChat') === true && lastSucceeded(last, 'back') && last?.changed === false) return fail(`could not leave the other conversation`);
    memory.facts.set('leftOtherChat', true);
    return { kind: 'act', action: { command: 'back' }, reasoning: `This is another conversation; go back to the list.` };
  }
  const field = screen.fields()[0];
  if (field) {
    if (matchLabel(field.text, [recipient]) >= LabelMatch.Compact) {
      const next = button(screen, NEXT_LABELS);
      if (!next) return fail(`typed the recipient ${who} but found no Next button to start the conversation`);
      memory.facts.set('recipientIsNew', true);
      return click(next, `${recipient} is not in the contacts; start a new conversation with that name.`);
    }
    const justFocused = memory.facts.get('focusedRecipient') === true && lastSucceeded(last, 'click');
    if (field.focused || justFocused) {
      if (memory.facts.get('typedRecipient') === true && lastSucceeded(last, 'input')) return fail(`typed the recipient ${who} but the field does not show it`);
      memory.facts.set('typedRecipient', true);
      return { kind: 'act', action: { command: 'input', text: recipient, clear: true }, reasoning: `Type the recipient ${recipient}.`, element: field };
    }
    memory.facts.set('focusedRecipient', true);
    return click(field, `Tap the recipient field.`);
  }
  const start = button(screen, START_CHAT_LABELS);
  if (start && !memory.facts.has('startedChat')) {
    memory.facts.set('startedChat', true);
    return click(start, `${recipient} has no conversation in the list; start a new chat.`);
  }
  return fail(`could not find a conversation with ${who} or a way to start one in ${MESSAGES.label}`);
}
