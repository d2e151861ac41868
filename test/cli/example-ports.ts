import { freePort } from '../support/ports.js';

/**
 * The examples are written with fixed ports (backends on 4010–4013, provcert's webhook receiver on 8787). Run as
 * written they collide with anything else on the machine, a parallel run or a backend a killed run left behind; the
 * tests run them with each fixed port replaced by a free one, and nothing else changed.
 */
export const EXAMPLE_PORTS = [4010, 4011, 4012, 4013, 8787] as const;

export type PortMap = ReadonlyMap<number, number>;

/** A distinct free port for each fixed one (none of them a fixed port itself). */
export async function freePortsFor(fixed: readonly number[] = EXAMPLE_PORTS): Promise<PortMap> {
  const ports = new Map<number, number>();
  const taken = new Set<number>(fixed);
  for (const port of fixed) {
    let free = await freePort();
    while (taken.has(free)) free = await freePort();
    taken.add(free);
    ports.set(port, free);
  }
  return ports;
}

const replaceWholeNumbers = (text: string, ports: PortMap): string =>
  text.replace(/\d+/g, (n) => String(ports.get(Number(n)) ?? n));

const inverse = (ports: PortMap): PortMap => new Map([...ports].map(([fixed, free]) => [free, fixed]));

/**
 * `text` with every fixed port, where it stands as a whole number, replaced by its free one. Refuses when that is
 * not the only change: putting the fixed ports back must give `text` again (so no free port was in it already).
 */
export function withPorts(text: string, ports: PortMap): string {
  const substituted = replaceWholeNumbers(text, ports);
  if (replaceWholeNumbers(substituted, inverse(ports)) !== text)
    throw new Error(`the port substitution would change more than the ports in:\n${text}`);
  return substituted;
}

/** withPorts over every value of an environment. */
export const envWithPorts = (env: Record<string, string>, ports: PortMap): Record<string, string> =>
  Object.fromEntries(Object.entries(env).map(([key, value]) => [key, withPorts(value, ports)]));

/** Port maps already handed out by distinctPortMap in this file's worker: no free port is in two of them. */
const given: PortMap[] = [];
let chosen: Promise<unknown> = Promise.resolve();

async function newPortMap(): Promise<PortMap> {
  const taken = new Set(given.flatMap((map) => [...map.values()]));
  let ports = await freePortsFor();
  while ([...ports.values()].some((port) => taken.has(port))) ports = await freePortsFor();
  given.push(ports);
  return ports;
}

/**
 * freePortsFor, for jobs that run at once (concurrent tests, an example's parallel jobs): one call at a time, each
 * map sharing no free port with the maps given before it.
 */
export function distinctPortMap(): Promise<PortMap> {
  const next = chosen.then(newPortMap);
  chosen = next;
  return next;
}

/** The fixed ports back in place of the free ones: what the test ran, as the example writes it. */
export const asWritten = (text: string, ports: PortMap): string => replaceWholeNumbers(text, inverse(ports));
