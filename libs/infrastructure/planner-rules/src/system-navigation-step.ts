import { done, fail, lastSucceeded, type StepInput, type StepOutcome } from './intent-step';

/** "go home": presses Home; done when the launcher is in the foreground (or, unknown, after Home succeeded). */
export function planHome(input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  if (screen.isHome() === true) return done('The home screen is shown.');
  if (memory.facts.get('pressed') === true && lastSucceeded(last, 'home')) {
    if (screen.isHome() === undefined) return done('Pressed Home (the phone did not report the foreground app).');
    return fail(`pressed Home but ${screen.package ?? 'another app'} is still in the foreground`);
  }
  memory.facts.set('pressed', true);
  return { kind: 'act', action: { command: 'home' }, reasoning: 'Press Home.' };
}

/**
 * "go back": presses Back; done once the screen changed after it. A Back that changed nothing (a
 * screen still busy, or one that swallows it) is pressed once more, then the goal fails: nothing
 * showed that it went back.
 */
export function planBack(input: StepInput): StepOutcome {
  const { memory, last } = input;
  if (memory.facts.get('pressed') === true && lastSucceeded(last, 'back')) {
    if (last?.changed !== false) return done('Went back.');
    if (memory.facts.get('pressedAgain') === true) return fail('pressed Back twice and the screen did not change');
    memory.facts.set('pressedAgain', true);
    return { kind: 'act', action: { command: 'back' }, reasoning: 'Back changed nothing on the screen; press it once more.' };
  }
  memory.facts.set('pressed', true);
  return { kind: 'act', action: { command: 'back' }, reasoning: 'Press Back.' };
}
