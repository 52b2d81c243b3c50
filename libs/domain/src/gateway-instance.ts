/**
 * DI token of this gateway instance's id, a string: it marks the tasks the instance runs
 * (`Task.owner.instanceId`). It must stay the same across restarts of one instance, so that a restart
 * interrupts the tasks the instance left unfinished, and differ between instances that share a task
 * store, so that one instance's start-up never interrupts another's tasks. A single gateway needs none:
 * the default is {@link DEFAULT_GATEWAY_INSTANCE_ID}.
 */
export const GATEWAY_INSTANCE_ID = Symbol('GATEWAY_INSTANCE_ID');

/** The instance id of a gateway that is not given one: a single instance per task store. */
export const DEFAULT_GATEWAY_INSTANCE_ID = 'local';
