import { Role, type Message, type Part } from './a2a-sdk';
import { dataPart, textPart } from './task-mapping';

/** The command a caller sends as a message's whole text to end its conversation's session: `/new`. */
const NEW_CONVERSATION = /^\/new$/i;

/** True when a message's text (its text parts joined and trimmed) is the `/new` command. */
export function isNewConversationCommand(text: string): boolean {
  return NEW_CONVERSATION.test(text.trim());
}

/** What flushing a conversation's session kept: how many turns it had and the ids of the memories stored. */
export interface FlushOutcome {
  turns: number;
  stored: { id: string; layer: string }[];
}

/**
 * The agent's answer to `/new`: a message (no task) in the same context, with the outcome in words
 * and as a data part `{turns, stored: [{id, layer}]}`.
 * @param messageId the answer's id (unique per answer).
 */
export function newConversationAnswer(contextId: string, messageId: string, outcome: FlushOutcome): Message {
  const kept = outcome.stored.length === 1 ? '1 memory' : `${outcome.stored.length} memories`;
  const parts: Part[] = [
    textPart(`Started a new conversation: ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'} of the last one summarised, ${kept} kept.`),
    dataPart({ turns: outcome.turns, stored: outcome.stored.map(({ id, layer }) => ({ id, layer })) }),
  ];
  return { messageId, contextId, taskId: '', role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}
