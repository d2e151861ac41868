import { main as certification } from './certification.js';
import { main as fleet } from './fleet.js';
import { main as underAttack } from './under-attack.js';
import { main as validate } from './validate.js';
import { main as webhookIngest } from './webhook-ingest.js';

// `npm run bench`: timing goals live here, never in timed unit tests.
await validate();
await certification();
await fleet();
await webhookIngest();
await underAttack();
