import { COMMAND_SCHEMAS } from './command-schemas';
import { COMMAND_NAMES } from './commands';
import { AGENT_ACTION_NAMES } from './task';

describe('command schemas', () => {
  it('describe every command, and only commands', () => {
    expect(Object.keys(COMMAND_SCHEMAS).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('call ACTION exactly the commands an agent acts with, OBSERVATION the ones that read the screen', () => {
    const kinds = Object.fromEntries(COMMAND_NAMES.map((name) => [name, COMMAND_SCHEMAS[name].kind]));
    expect(kinds).toEqual(Object.fromEntries(COMMAND_NAMES.map((name) => [name, AGENT_ACTION_NAMES.includes(name as never) ? 'ACTION' : 'OBSERVATION'])));
  });

  it('give closed object schemas whose required arguments are among their properties', () => {
    for (const name of COMMAND_NAMES) {
      const { arguments: schema, description } = COMMAND_SCHEMAS[name];
      expect({ name, type: schema.type, closed: schema['additionalProperties'] }).toEqual({ name, type: 'object', closed: false });
      expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(schema.required ?? []));
      expect(Object.keys(schema.properties ?? {})).not.toContain('command');
      expect(description.trim()).not.toBe('');
    }
  });

  it('name the command interfaces’ fields', () => {
    expect(Object.keys(COMMAND_SCHEMAS.swipe.arguments.properties ?? {})).toEqual(['x1', 'y1', 'x2', 'y2', 'durationMs']);
    expect(COMMAND_SCHEMAS.click.arguments.required).toEqual(['x', 'y']);
    expect(COMMAND_SCHEMAS.input.arguments.required).toEqual(['text']);
    expect(COMMAND_SCHEMAS.open.arguments.required).toEqual(['app']);
    expect(Object.keys(COMMAND_SCHEMAS.screenshot.arguments.properties ?? {})).toEqual(['format', 'quality', 'maxWidth']);
  });
});
