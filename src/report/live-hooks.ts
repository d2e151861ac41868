import { fanOutRunEvents, type RunEvents } from '../model/run-events.js';

/** The live hooks a run calls: the run-event contract, declared once in model/run-events.ts. */
export type LiveRunHooks = RunEvents;

/** The one multiplexer (model/run-events.ts): the console, then the event stream, and any other listener. */
export const fanOutHooks = fanOutRunEvents;
