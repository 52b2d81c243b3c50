import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ChatCompletionChunkAccumulator, endpointOf } from './chat-completion-client';

type Delta = ChatCompletionChunk.Choice.Delta;

const chunk = (delta: Delta, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null, index = 0): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_760_000_000,
  model: 'm',
  choices: [{ index, delta, finish_reason: finishReason }],
});

describe('ChatCompletionChunkAccumulator', () => {
  it('joins content and the argument pieces of several tool calls, in index order', () => {
    const acc = new ChatCompletionChunkAccumulator();
    acc.add(chunk({ role: 'assistant', content: 'Tapping ' }));
    acc.add(chunk({ content: 'now.' }));
    acc.add(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'back', arguments: '{"reasoning":' } }] }));
    acc.add(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'tap', arguments: '{"element_' } }] }));
    acc.add(chunk({ tool_calls: [{ index: 0, function: { arguments: 'index":3,"reasoning":"r"}' } }] }));
    acc.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '"r"}' } }] }));
    acc.add(chunk({}, 'tool_calls'));

    expect(acc.reply()).toEqual({
      content: 'Tapping now.',
      toolCalls: [
        { id: 'call_a', name: 'tap', arguments: '{"element_index":3,"reasoning":"r"}' },
        { id: 'call_b', name: 'back', arguments: '{"reasoning":"r"}' },
      ],
      finishReason: 'tool_calls',
    });
  });

  it('does not double a name a server repeats, and names calls that came without an id', () => {
    const acc = new ChatCompletionChunkAccumulator();
    acc.add(chunk({ tool_calls: [{ index: 0, function: { name: 'home', arguments: '{"reasoning"' } }] }));
    acc.add(chunk({ tool_calls: [{ index: 0, function: { name: 'home', arguments: ':"r"}' } }] }));

    expect(acc.reply()).toEqual({
      content: null,
      toolCalls: [{ id: 'call_0', name: 'home', arguments: '{"reasoning":"r"}' }],
      finishReason: null,
    });
  });

  it('reads choice 0 only', () => {
    const acc = new ChatCompletionChunkAccumulator();
    acc.add(chunk({ content: 'other choice' }, 'stop', 1));
    acc.add(chunk({ content: 'first' }, 'stop'));
    expect(acc.reply()).toEqual({ content: 'first', toolCalls: [], finishReason: 'stop' });
  });
});

describe('endpointOf', () => {
  it('keeps a plain base URL as written, and drops user info, query and fragment, where a key may hide', () => {
    expect(endpointOf('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(endpointOf('http://127.0.0.1:8000/v1/')).toBe('http://127.0.0.1:8000/v1/');
    expect(endpointOf('https://proxy-user:sk-secret@llm.example.com/v1')).toBe('https://llm.example.com/v1');
    expect(endpointOf('https://llm.example.com/openai/v1?api-key=sk-secret#x')).toBe('https://llm.example.com/openai/v1');
  });
});
