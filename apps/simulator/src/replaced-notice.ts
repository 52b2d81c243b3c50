/**
 * What the CLI prints on stderr when the gateway hands a phone's device id to another connection
 * (`error DEVICE_REPLACED`): almost always a second simulator started with the same `--prefix`.
 * `delayMs` is the wait before this phone tries again.
 */
export function replacedNotice(deviceId: string, address: string, delayMs: number): string {
  return (
    `${deviceId}: another phone with the same device id connected to ${address} and took over; ` +
    `retrying in ${(delayMs / 1000).toFixed(1)} s, waiting longer each time it is replaced. ` +
    `Running a second simulator next to this one? Give its phones other ids with --prefix (e.g. --prefix screen-).\n`
  );
}
