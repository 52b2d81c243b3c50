import { MAX_JSON_DEPTH, jsonShapeError } from './json-shape';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('jsonShapeError', () => {
  it('accepts plain JSON up to the depth limit', () => {
    expect(jsonShapeError({ order: { id: 'A-17', items: [1, { qty: 2 }] } }, 'result')).toBeUndefined();
    expect(jsonShapeError(nested(MAX_JSON_DEPTH), 'result')).toBeUndefined();
    expect(jsonShapeError('text')).toBeUndefined();
  });

  it('refuses nesting deeper than 32 levels, however deep, without overflowing the stack', () => {
    expect(jsonShapeError(nested(MAX_JSON_DEPTH + 1), 'result')).toEqual({ field: `result${'.a'.repeat(32)}`, message: 'nesting deeper than 32 levels' });
    expect(jsonShapeError(nested(200_000), 'result')?.message).toBe('nesting deeper than 32 levels');
  });

  it('refuses prototype keys at any level, naming where', () => {
    expect(jsonShapeError(JSON.parse('{"a":[{"__proto__":{"x":1}}]}'), 'result')).toEqual({ field: 'result.a.0.__proto__', message: 'property __proto__ is not allowed' });
    expect(jsonShapeError({ constructor: 1 })).toEqual({ field: 'constructor', message: 'property constructor is not allowed' });
  });

  it('quotes at most 200 characters of a field path built from long keys', () => {
    const key = 'k'.repeat(1800);
    let value: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) value = { [key]: value };
    const error = jsonShapeError(value, 'result');
    expect(error?.message).toBe('nesting deeper than 32 levels');
    expect(error?.field).toHaveLength(200);
    expect(error?.field.endsWith('…')).toBe(true);
  });
});
