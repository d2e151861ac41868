import type { OperationInfo, QueryParameter } from '../../../contract/types.js';
import { isProviderRoute } from './provider-routes.js';

/**
 * The input probe table for the provider's read routes: each query parameter the route table declares sent with a
 * value it cannot take (a boolean that is no boolean, an integer that is no number, an id nothing has, JSON that
 * is not JSON), and each path id written with a broken percent-escape. The contract names no answer to these: a
 * provider may read them leniently (any 2xx), but a refusal is an error answer like any other, an ErrorResponse
 * whose code is one of the Errors. Only GET rows: nothing here can create anything. A parameter added to
 * spec/openapi.yaml gets its probe from here. Pure.
 */
export interface QueryInputProbe {
  /** "GET /locations?activeOnly=maybe (activeOnly is a boolean)", for messages. */
  what: string;
  /** The path with its query string, ready to send. */
  path: string;
}

/** A value the parameter cannot take, by its type and name; undefined when nothing is clearly wrong for it. */
function wrongValue(parameter: QueryParameter, seed: string): { value: string; why: string } | undefined {
  if (parameter.type === 'boolean') return { value: 'maybe', why: 'is a boolean' };
  if (parameter.type === 'integer' || parameter.type === 'number') return { value: 'many', why: 'is a number' };
  if (parameter.name === 'context') return { value: '{not json', why: 'is JSON-encoded' };
  if (/id$/i.test(parameter.name) || parameter.name === 'category')
    return { value: `provcert-unknown-${seed}`, why: 'names nothing the provider has' };
  return undefined;
}

const isReadRoute = (op: OperationInfo): boolean => op.method === 'GET' && isProviderRoute(op);

/**
 * Every row for the routes of the capabilities the provider declares. `required` gives a valid value for each
 * required query parameter (the search text), which every row of that route carries.
 */
export function queryInputs(
  operations: readonly OperationInfo[],
  declared: readonly string[],
  seed: string,
  required: (parameter: QueryParameter) => string,
): QueryInputProbe[] {
  const rows: QueryInputProbe[] = [];
  for (const op of operations) {
    if (!isReadRoute(op) || !declared.includes(op.capability ?? '')) continue;
    const path = op.path.replaceAll(/\{[^}]+\}/g, `provcert-unknown-${seed}`);
    const base = op.query.filter((q) => q.required).map((q): [string, string] => [q.name, required(q)]);
    for (const parameter of op.query) {
      const wrong = wrongValue(parameter, seed);
      if (!wrong) continue;
      const query = new URLSearchParams([
        ...base.filter(([name]) => name !== parameter.name),
        [parameter.name, wrong.value],
      ]);
      rows.push({
        what: `GET ${op.path}?${parameter.name}=${wrong.value} (${parameter.name} ${wrong.why})`,
        path: `${path}?${query.toString()}`,
      });
    }
    if (op.path.includes('{')) {
      const broken = op.path.replaceAll(/\{[^}]+\}/g, 'provcert-%E0%A4%A');
      rows.push({ what: `GET ${broken} (a path id that is not valid percent-encoding)`, path: broken });
    }
  }
  return rows;
}
