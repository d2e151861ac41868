// The runner's default clock is the one the reference provider defaults to (util/clock.ts).
export { systemClock } from '../util/clock.js';
