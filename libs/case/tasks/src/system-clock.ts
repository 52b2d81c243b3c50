import { Clock } from '@mobileclaw/domain';

/** The {@link Clock} of the host machine (`new Date()`); the default when the host provides none. */
export class SystemClock extends Clock {
  override now(): Date {
    return new Date();
  }
}
