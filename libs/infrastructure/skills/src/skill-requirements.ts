/**
 * What a skill needs from the machine to run, and what of it is missing here. The Agent Skills format
 * has no structured requirements (its `compatibility` is free text), so they are read from `metadata`:
 * our own `metadata.mobileclaw.requires`, and — so that skills written for OpenClaw gateways keep their
 * gating when copied over — `metadata.openclaw.requires` / `metadata.openclaw.os` and the older
 * `metadata.clawdbot` spelling of the same. Every namespace found counts (a union), so a requirement
 * written under any of them is never silently ignored.
 */

/** A skill's requirements; each list is empty when nothing is required. */
export interface SkillRequirements {
  /** Environment variables that must be set and non-empty, e.g. `WEATHER_API_KEY`. */
  env: string[];
  /** Programs that must all be on `PATH`, e.g. `ffmpeg`. */
  bins: string[];
  /** Programs of which at least one must be on `PATH`, e.g. `chromium`, `google-chrome`. */
  anyBins: string[];
  /** Platforms (Node's `process.platform`: `linux`, `darwin`, `win32`) of which the host must be one. */
  os: string[];
}

/** The machine a skill's requirements are checked against. */
export interface SkillHost {
  /** The environment the gateway runs with. */
  env: Readonly<Record<string, string | undefined>>;
  /** Node's `process.platform` of the host. */
  platform: string;
  /** True when an executable of that name is on the host's `PATH`. */
  hasProgram(name: string): Promise<boolean>;
}

/** No requirements. */
export function noSkillRequirements(): SkillRequirements {
  return { env: [], bins: [], anyBins: [], os: [] };
}

/**
 * What `requirements` lacks on `host`, in a fixed order, one entry each:
 * `env:NAME` (unset or empty), `bin:NAME` (not on `PATH`), `anyBin:a|b` (none of them on `PATH`),
 * `os:darwin|win32` (the host is none of them).
 */
export async function missingRequirements(requirements: SkillRequirements, host: SkillHost): Promise<string[]> {
  const missing: string[] = [];
  for (const name of requirements.env) if (!host.env[name]) missing.push(`env:${name}`);
  for (const name of requirements.bins) if (!(await host.hasProgram(name))) missing.push(`bin:${name}`);
  if (requirements.anyBins.length > 0) {
    let found = false;
    for (const name of requirements.anyBins) if (!found && (await host.hasProgram(name))) found = true;
    if (!found) missing.push(`anyBin:${requirements.anyBins.join('|')}`);
  }
  if (requirements.os.length > 0 && !requirements.os.includes(host.platform)) missing.push(`os:${requirements.os.join('|')}`);
  return missing;
}
