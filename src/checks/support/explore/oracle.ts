import { describeBody } from '../../../http/body.js';
import type { RequirementId } from '../../../model/findings.js';
import type { QuoteMathRow } from '../../../model/report.js';
import type { CatalogView } from '../../framework/views.js';
import { schemaProblemText, schemaRequirement } from '../expect.js';
import { checkQuoteMath } from '../quote-math.js';
import type { ValidOrderAnswer } from '../valid-order.js';
import type { Order } from './orders.js';

/**
 * The oracle for one valid order (issue 19 item 4): the quote-math rules of DECISIONS.md, from the contract alone
 * (the same checkQuoteMath quote-math uses), the body valid against the spec, and the rule for a valid order that
 * is refused: a clear 4xx is the provider's own bound (DECISIONS, Exploration), a repeated 5xx fails.
 */
export type OrderVerdict =
  | { kind: 'pass'; warnings: string[] }
  | { kind: 'refused'; refusal: string }
  | { kind: 'fail'; problems: string[]; cited: RequirementId[]; rows: QuoteMathRow[]; warnings: string[] };

export interface OracleInput {
  order: Order;
  answer: ValidOrderAnswer;
  catalog: CatalogView;
  providerSlug: string;
}

const failed = (problem: string, requirement: RequirementId): OrderVerdict => ({
  kind: 'fail',
  problems: [problem],
  cited: [requirement],
  rows: [],
  warnings: [],
});

export function judgeOrder({ order, answer, catalog, providerSlug }: OracleInput): OrderVerdict {
  const { attempt } = answer;
  const { outcome } = attempt;
  if (attempt.quote) {
    const result = checkQuoteMath({
      items: order.items,
      catalog,
      quote: attempt.quote,
      sentAt: attempt.answeredAt - outcome.durationMs,
      providerSlug,
    });
    if (result.problems.length === 0) return { kind: 'pass', warnings: result.warnings };
    return { kind: 'fail', ...result };
  }
  if (attempt.schemaProblems && attempt.schemaProblems.length > 0) {
    const json = outcome.kind === 'response' ? outcome.json : undefined;
    const problems = attempt.schemaProblems.map(
      (p) => `the answer does not match NormalizedQuote: ${schemaProblemText(p, json)}`,
    );
    const cited = attempt.schemaProblems.map((p) => schemaRequirement(p, 'QUOTE-REQUIRED-FIELDS', json));
    return { kind: 'fail', problems, cited, rows: [], warnings: [] };
  }
  if (answer.refusal !== undefined) return { kind: 'refused', refusal: answer.refusal };
  if (outcome.kind === 'failure') return failed(`POST /quote failed: ${outcome.message}`, 'ROUTE-QUOTE');
  if (outcome.status === 200)
    return failed(
      `POST /quote answered ${describeBody(outcome.bodyKind, outcome.contentType)}; expected a NormalizedQuote`,
      'ROUTE-QUOTE',
    );
  const again = answer.retriedAfter ? ', and again on one retry' : '';
  return failed(
    `POST /quote answered HTTP ${outcome.status}${again}; a valid order is quoted (200 NormalizedQuote) or refused with a clear 4xx ErrorResponse`,
    'ROUTE-QUOTE',
  );
}

/** What makes two failures the same: the requirements they stand on. Shrinking keeps an order failing that way. */
export const failureSignature = (verdict: OrderVerdict): string =>
  verdict.kind === 'fail' ? [...new Set(verdict.cited)].sort().join(',') : '';
